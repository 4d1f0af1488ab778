package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import org.junit.jupiter.api.Test;

class XpQuantileTest {
  private static final Spec SPEC = Spec.builder().build();
  private static final double N = Double.NaN;

  private static CubedArray sample() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 2, 6);
    double[] v = {3, 1, 4, 1, 5, 9, 2, 6, N, 5, 3, 5};
    for (int i = 0; i < v.length; i++) {
      a.setDouble(i, v[i]);
    }
    return Cubed.fromArray(a, new long[] {1, 4}, SPEC);
  }

  private static double[] values(CubedArray r) {
    NDArray a = r.compute();
    double[] out = new double[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.getDouble(i);
    }
    return out;
  }

  private static final double[] Q = {0, 0.25, 0.5, 0.9, 1};

  @Test
  void quantileMatchesNumPyAndPropagatesNan() {
    // np.quantile(a, [0, .25, .5, .9, 1], axis=1)
    CubedArray r = Xp.quantile(sample(), Q, 1);
    assertThat(r.shape()).containsExactly(5, 2);
    assertThat(values(r))
        .containsExactly(new double[] {1, N, 1.5, N, 3.5, N, 7, N, 9, N}, within(1e-12));
  }

  @Test
  void nanquantileSkipsNanPerLane() {
    // np.nanquantile(a, [0, .25, .5, .9, 1], axis=1)
    assertThat(values(Xp.nanquantile(sample(), Q, 1)))
        .containsExactly(new double[] {1, 2, 1.5, 3, 3.5, 5, 7, 5.6, 9, 6}, within(1e-12));
    // np.nanquantile(a, [0.3]) over everything
    assertThat(values(Xp.nanquantile(sample(), new double[] {0.3})))
        .containsExactly(new double[] {3.0}, within(1e-12));
    // a lane of NaN only gives NaN
    NDArray nan = NDArray.full(DType.FLOAT32, N, 2, 3);
    CubedArray all =
        Xp.nanquantile(Cubed.fromArray(nan, new long[] {1, 2}, SPEC), new double[] {0.5}, 1);
    assertThat(all.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(values(all)).containsExactly(N, N);
  }

  @Test
  void integersGiveFloat64OverSeveralAxes() {
    CubedArray x =
        Cubed.fromArray(
            NDArray.arange(0, 12, 1, DType.INT32).reshape(3, 4), new long[] {2, 3}, SPEC);
    CubedArray r = Xp.quantile(x, new double[] {0.3, 0.75}, 0, 1);
    assertThat(r.dtype()).isEqualTo(DType.FLOAT64);
    // np.quantile(np.arange(12).reshape(3, 4), [0.3, 0.75], axis=(0, 1)); then axis=0, q=0.4
    assertThat(values(r)).containsExactly(new double[] {3.3, 8.25}, within(1e-12));
    assertThat(values(Xp.quantile(x, new double[] {0.4}, 0)))
        .containsExactly(new double[] {3.2, 4.2, 5.2, 6.2}, within(1e-12));
  }

  @Test
  void float64LanesThatFitATaskAreOneOpAfterTheRechunk() {
    // time-like axis 0 in blocks of 4: the lanes are joined (one op), then sorted and read in one
    NDArray a = NDArray.zeros(DType.FLOAT64, 12, 3);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, (i * 7) % 12 == 5 ? N : (i * 37) % 17);
    }
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, SPEC);
    CubedArray r = Xp.nanquantile(x, new double[] {0.3, 0.5}, 0);
    assertThat(r.shape()).containsExactly(2, 3);
    assertThat(Cubed.summary(java.util.List.of(r)).ops()).isEqualTo(2);
    // the chain of the general path (sort, then a count and a mask and a sum per quantile) had 13
    assertThat(Cubed.summary(java.util.List.of(Xp.quantile(x, new double[] {0.3, 0.5}, 0))).ops())
        .isEqualTo(2);
    // np.nanquantile(a, [0.3, 0.5], axis=0) and np.quantile(a, [0.3, 0.5], axis=0)
    double[] expected = new double[6];
    double[] plain = new double[6];
    for (int col = 0; col < 3; col++) {
      double[] lane = new double[12];
      int n = 0;
      boolean nan = false;
      for (int t = 0; t < 12; t++) {
        double v = a.getDouble(t * 3 + col);
        nan |= Double.isNaN(v);
        if (!Double.isNaN(v)) {
          lane[n++] = v;
        }
      }
      java.util.Arrays.sort(lane, 0, n);
      double[] qs = {0.3, 0.5};
      for (int i = 0; i < 2; i++) {
        double k = (n - 1) * qs[i];
        int lo = (int) Math.floor(k);
        double b = lane[Math.min(lo + 1, n - 1)];
        expected[i * 3 + col] = lane[lo] + (b - lane[lo]) * (k - lo);
        plain[i * 3 + col] = nan ? N : expected[i * 3 + col];
      }
    }
    assertThat(values(r)).containsExactly(expected, within(1e-12));
    assertThat(values(Xp.quantile(x, new double[] {0.3, 0.5}, 0)))
        .containsExactly(plain, within(1e-12));
  }

  @Test
  void refusesBadArguments() {
    assertThatThrownBy(() -> Xp.quantile(sample(), new double[] {1.5}, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside [0, 1]");
    assertThatThrownBy(() -> Xp.quantile(sample(), new double[] {0.5}, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("repeated");
  }
}
