package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import java.util.Random;

/** Helpers for engine tests. */
final class EngineTestSupport {
  private EngineTestSupport() {}

  static Spec tinySpec(Path dir, long allowed) {
    return Spec.builder().workDir(dir).allowedMem(allowed).reservedMem(1000).build();
  }

  static NDArray randomDoubles(long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(DType.FLOAT64, shape);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble() * 10 - 5;
    }
    return a;
  }

  static NDArray randomInts(long seed, DType t, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      if (t.isBool()) {
        a.setBoolean(i, r.nextInt(5) != 0);
      } else {
        a.setLong(i, r.nextInt(100) - (t.isUnsigned() ? 0 : 50));
      }
    }
    return a;
  }
}
