package dev.cubed.bridge;

import static dev.cubed.bridge.Calls.arg;
import static dev.cubed.bridge.Calls.blockSizes;
import static dev.cubed.bridge.Calls.describe;

import dev.cubed.Cubed;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.List;
import java.util.Map;

/**
 * The bridge's functions that make new lazy arrays from what Python sends: in-memory data ({@code
 * fromArray}), a seed ({@code random}), a plan's bytes ({@code serialize}, {@code deserialize}) and
 * a Python function run blockwise ({@code pyBlockwise}).
 */
final class ArrayCalls {
  private ArrayCalls() {}

  static void register(Map<String, Calls.Fn> own) {
    // pyBlockwise(...): a lazy op running a Python function in worker processes (PyBlockwise)
    own.put("pyBlockwise", PyBlockwise::apply);
    // serialize(handle): the array's plan as bytes (uint8), nothing computed (see PlanBytes)
    own.put(
        "serialize",
        (s, a) -> {
          byte[] b = PlanBytes.write(s.get(a.isEmpty() ? null : a.get(0), "serialize"));
          return new NDArray(DType.UINT8, new long[] {b.length}, b);
        });
    // deserialize(uint8 array): a new handle for the array serialize wrote (any bridge process)
    own.put(
        "deserialize",
        (s, a) -> {
          NDArray b = (NDArray) arg(a, 0, NDArray.class, "deserialize");
          if (b == null || b.dtype() != DType.UINT8 || b.ndim() != 1) {
            throw new IllegalArgumentException(
                "deserialize: expected a 1-D uint8 array of bytes," + " got " + describe(b));
          }
          return PlanBytes.read((byte[]) b.data());
        });
    own.put(
        "fromArray",
        (s, a) -> {
          NDArray x = (NDArray) arg(a, 0, NDArray.class, "fromArray");
          Object chunks = a.size() > 1 ? a.get(1) : null;
          if (chunks instanceof List<?> l) {
            return Cubed.fromArray(x, blockSizes(l, "fromArray"), s.spec);
          }
          return Cubed.fromArray(x, (long[]) chunks, s.spec);
        });
    // random(shape, blockSizes, seed): uniform [0, 1) float64 (Cubed.random), nothing computed
    own.put(
        "random",
        (s, a) ->
            Cubed.random(
                (long[]) arg(a, 0, long[].class, "random"),
                (long[]) arg(a, 1, long[].class, "random"),
                (Long) arg(a, 2, Long.class, "random"),
                s.spec));
    // visualize(handles, path): the plan computing them together as a picture (SVG by Graphviz
    // when the path ends in .svg and dot is installed, else its DOT text), nothing computed;
  }
}
