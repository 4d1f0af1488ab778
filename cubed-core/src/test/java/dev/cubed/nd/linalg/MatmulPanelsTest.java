package dev.cubed.nd.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The row-panel split of {@link MatmulKernels#dgemm}: a product computed in panels of a few rows
 * per BLAS call equals the one-call product to rounding (the BLAS may pick other micro-kernels for
 * other panel heights), at offsets inside larger arrays and with accumulation, and touches nothing
 * outside c's range.
 */
class MatmulPanelsTest {
  static Stream<Arguments> shapes() {
    Random r = new Random(20261123);
    Stream.Builder<Arguments> b = Stream.builder();
    for (int i = 0; i < 12; i++) {
      b.add(
          Arguments.of(
              1 + r.nextInt(60),
              1 + r.nextInt(40),
              1 + r.nextInt(50),
              r.nextLong(),
              1 + r.nextInt(7),
              r.nextBoolean()));
    }
    return b.build();
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void panelsEqualOneCall(int m, int k, int n, long seed, int rowsPerPanel, boolean accumulate) {
    Random r = new Random(seed);
    int offA = r.nextInt(5);
    int offB = r.nextInt(5);
    int offC = r.nextInt(5);
    double[] a = random(r, offA + m * k);
    double[] bm = random(r, offB + k * n);
    double[] c0 = random(r, offC + m * n + 3);
    double[] one = c0.clone();
    double[] panels = c0.clone();
    MatmulKernels.dgemmPanels(a, offA, bm, offB, one, offC, m, k, n, accumulate, Long.MAX_VALUE);
    long flops = 2L * k * n * rowsPerPanel;
    assertThat(MatmulKernels.panelRows(m, k, n, flops)).isEqualTo(Math.min(m, rowsPerPanel));
    MatmulKernels.dgemmPanels(a, offA, bm, offB, panels, offC, m, k, n, accumulate, flops);
    for (int i = 0; i < one.length; i++) {
      assertThat(panels[i]).isCloseTo(one[i], Offset.offset(1e-13 * k * (1 + Math.abs(one[i]))));
    }
    // and both are the product: spot-check against a plain triple loop (rounding aside)
    for (int i = 0; i < m; i += Math.max(1, m / 3)) {
      for (int j = 0; j < n; j += Math.max(1, n / 3)) {
        double s = accumulate ? c0[offC + i * n + j] : 0;
        for (int q = 0; q < k; q++) {
          s += a[offA + i * k + q] * bm[offB + q * n + j];
        }
        assertThat(panels[offC + i * n + j])
            .isCloseTo(s, Offset.offset(1e-12 * (1 + Math.abs(s)) * k));
      }
    }
    // nothing outside c's range is touched
    for (int i = 0; i < offC; i++) {
      assertThat(panels[i]).isEqualTo(c0[i]);
    }
    for (int i = offC + m * n; i < panels.length; i++) {
      assertThat(panels[i]).isEqualTo(c0[i]);
    }
  }

  private static double[] random(Random r, int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextDouble() * 2 - 1;
    }
    return x;
  }
}
