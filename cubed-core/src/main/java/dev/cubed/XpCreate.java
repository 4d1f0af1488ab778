package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The creation functions behind {@link Xp}: virtual arrays (no storage) computed from the index.
 * Package-private; the contracts are on {@link Xp}.
 */
final class XpCreate {
  private XpCreate() {}

  // ------------------------------------------------------------------ creation (virtual)

  static CubedArray full(long[] shape, Object value, DType dtype, long[] chunks, Spec spec) {
    return new CubedArray(Core.full(shape, emptyAxisChunks(shape, chunks), value, dtype), spec);
  }

  /** The chunks with a 0 on a zero-length axis read as 1 (that axis has no elements). */
  static long[] emptyAxisChunks(long[] shape, long[] chunks) {
    if (chunks == null || chunks.length != shape.length) {
      return chunks;
    }
    long[] c = chunks.clone();
    for (int i = 0; i < c.length; i++) {
      if (c[i] == 0 && shape[i] == 0) {
        c[i] = 1;
      }
    }
    return c;
  }

  static CubedArray zeros(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return full(shape, 0, dtype, chunks, spec);
  }

  static CubedArray ones(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return full(shape, 1, dtype, chunks, spec);
  }

  static CubedArray arange(
      double start, double stop, double step, DType dtype, long chunk, Spec spec) {
    if (step == 0) {
      throw new IllegalArgumentException("arange: step must not be 0");
    }
    long n = Math.max(0, (long) Math.ceil((stop - start) / step));
    return new CubedArray(
        Core.fromIndex(
            "arange",
            new long[] {n},
            emptyAxisChunks(new long[] {n}, new long[] {chunk}),
            dtype,
            (b, i, flat, in, bc) -> {
              if (dtype.isFloating()) {
                b.setDouble(i, start + flat * step);
              } else {
                b.setLong(i, (long) (start + flat * step));
              }
            }),
        spec);
  }

  static CubedArray linspace(
      double start, double stop, long num, DType dtype, long chunk, Spec spec) {
    return linspace(start, stop, num, dtype, Creation.Endpoint.INCLUDE, chunk, spec);
  }

  static CubedArray linspace(
      Object start,
      Object stop,
      long num,
      DType dtype,
      Creation.Endpoint endpoint,
      long chunk,
      Spec spec) {
    // the kernel on at most two elements checks num, the bounds and the dtype, and names the dtype
    DType dt = Creation.linspace(start, stop, Math.min(num, 2), dtype, endpoint).dtype();
    Linspace f = new Linspace(start, stop, num, endpoint == Creation.Endpoint.INCLUDE);
    long[] shape = {num};
    return new CubedArray(
        Core.fromIndex(
            "linspace",
            shape,
            emptyAxisChunks(shape, new long[] {chunk}),
            dt,
            (b, i, flat, in, bc) -> f.set(b, i, flat)),
        spec);
  }

  static CubedArray eye(long n, long m, long k, DType dtype, long[] chunks, Spec spec) {
    long[] shape = {n, m};
    return new CubedArray(
        Core.fromIndex(
            "eye",
            shape,
            emptyAxisChunks(shape, chunks),
            dtype,
            (b, i, flat, in, bc) -> {
              long r = flat / m;
              long c = flat % m;
              b.setObject(
                  i,
                  c - r == k
                      ? (dtype.isBool() ? (Object) true : (Object) 1)
                      : (dtype.isBool() ? (Object) false : (Object) 0));
            }),
        spec);
  }

  static CubedArray asarray(NDArray a, Spec spec) {
    return Cubed.asarray(a, spec);
  }
}
