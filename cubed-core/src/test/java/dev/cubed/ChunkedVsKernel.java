package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;

/**
 * Harness of the chunked-versus-kernel function tests: random inputs of a dtype and shape with
 * random regular (partial edge) or irregular chunks, at an allowedMem of 4 KB; {@link #check}
 * compares a chunked result with the kernel's, or requires both to refuse (the chunked op when it
 * is built).
 */
abstract class ChunkedVsKernel {
  @TempDir Path dir;

  static final long ALLOWED = 4096;
  int compared;
  int refused;
  final List<String> failures = new ArrayList<>();

  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem(ALLOWED).reservedMem(1000).workers(2).build();
  }

  /** Random array and a random chunked copy of it (regular with a partial edge, or irregular). */
  record In(NDArray k, CubedArray c) {}

  In input(Random r, DType t, long[] shape) {
    NDArray a = DiffData.array(r, t, shape);
    CubedArray c =
        r.nextBoolean()
            ? Cubed.fromArray(a, DiffData.chunks(r, shape), spec())
            : Cubed.fromArray(a, DiffData.blocks(r, shape), spec());
    return new In(a, c);
  }

  static long[] shape(Random r, int minNd) {
    long[] s;
    do {
      s = DiffData.shape(r);
    } while (s.length < minNd);
    return s;
  }

  /** Runs both forms; records a failure unless results agree or both refuse (chunked at build). */
  void check(String what, Supplier<NDArray> kernel, Supplier<CubedArray> chunked, boolean approx) {
    NDArray want;
    try {
      want = kernel.get();
    } catch (IllegalArgumentException | ArithmeticException e) {
      try {
        CubedArray c = chunked.get();
        failures.add(
            what
                + ": kernel refuses ("
                + e.getMessage()
                + ") but the chunked op was "
                + "built: "
                + c);
      } catch (IllegalArgumentException | ArithmeticException expected) {
        refused++;
      }
      return;
    }
    NDArray got;
    try {
      got = chunked.get().compute();
    } catch (RuntimeException e) {
      failures.add(what + ": chunked failed: " + e);
      return;
    }
    String diff = DifferentialTest.compare(want, got, approx, 1, false);
    if (diff != null) {
      failures.add(what + ": " + diff);
    }
    compared++;
  }

  void assertNoFailures() {
    String stats =
        compared + " compared, " + refused + " refused alike, " + failures.size() + " failures";
    System.out.println(getClass().getSimpleName() + ": " + stats);
    assertTrue(
        failures.isEmpty(),
        stats + "\n" + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    assertTrue(compared > 0);
  }
}
