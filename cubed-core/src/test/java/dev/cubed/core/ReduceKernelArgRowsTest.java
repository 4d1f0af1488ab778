package dev.cubed.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first-round argmax/argmin states of {@link ReduceKernel#initial} along the last axis of a
 * float64 block (the row path) equal NumPy's rule, written here as the plain loop: the first NaN
 * of a row wins; else the first occurrence of the extreme (-0.0 and 0.0 tie, the first wins); the
 * state holds (index + offset, the value at that index, bit for bit). Seeded rows of every length
 * 1..67 with NaNs, repeated extremes, signed zeros and infinities.
 */
class ReduceKernelArgRowsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void argRowsEqualTheFirstWinsLoop(int seed) {
    Random r = new Random(seed);
    double[] pool = {0.0, -0.0, 1.5, -1.5, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 2.0, 2.0};
    for (int len = 1; len <= 67; len++) {
      int rows = 1 + r.nextInt(5);
      NDArray x = NDArray.zeros(DType.FLOAT64, new long[] {rows, len});
      double[] d = (double[]) x.data();
      for (int i = 0; i < d.length; i++) {
        // mostly few distinct values so ties and NaNs are common; some rows without NaN
        d[i] = r.nextInt(4) == 0 ? r.nextGaussian() : pool[r.nextInt(pool.length)];
        if (seed % 2 == 0 && Double.isNaN(d[i])) {
          d[i] = -0.0;
        }
      }
      for (ReduceKernel.Kind kind : new ReduceKernel.Kind[] {ReduceKernel.Kind.ARGMAX,
          ReduceKernel.Kind.ARGMIN}) {
        NDArray s = ReduceKernel.initial(kind, x, new boolean[] {false, true}, 1, 100);
        double[] st = (double[]) s.data();
        for (int row = 0; row < rows; row++) {
          int best = 0;
          for (int j = 1; j < len; j++) {
            double v = d[row * len + j];
            double c = d[row * len + best];
            boolean better = !Double.isNaN(c) && (Double.isNaN(v)
                || (kind == ReduceKernel.Kind.ARGMAX ? v > c : v < c));
            if (better) {
              best = j;
            }
          }
          String at = kind + " seed " + seed + " len " + len + " row " + row;
          assertThat(st[2 * row]).as(at).isEqualTo(100.0 + best);
          assertThat(Double.doubleToRawLongBits(st[2 * row + 1])).as(at)
              .isEqualTo(Double.doubleToRawLongBits(d[row * len + best]));
        }
      }
    }
  }
}
