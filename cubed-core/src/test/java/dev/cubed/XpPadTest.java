package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import org.junit.jupiter.api.Test;

class XpPadTest {
  private static final Spec SPEC = Spec.builder().build();

  /** 0..n-1 as float64 in blocks of c. */
  private static CubedArray range(long n, long c) {
    return Cubed.fromArray(NDArray.arange(0, n, 1, DType.FLOAT64), new long[] {c}, SPEC);
  }

  private static double[] values(CubedArray a) {
    NDArray r = a.compute();
    double[] out = new double[r.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = r.getDouble(i);
    }
    return out;
  }

  @Test
  void constantEdgeReflectSymmetricWrapMatchNumPy() {
    CubedArray x = range(5, 2);
    long[][] w = {{2, 3}};
    // numpy.pad(np.arange(5.), (2, 3), mode=...) for each mode
    assertThat(values(Xp.pad(x, w, "constant", Double.NaN)))
        .containsExactly(Double.NaN, Double.NaN, 0, 1, 2, 3, 4, Double.NaN, Double.NaN, Double.NaN);
    assertThat(values(Xp.pad(x, w))).containsExactly(0, 0, 0, 1, 2, 3, 4, 0, 0, 0);
    assertThat(values(Xp.pad(x, w, "edge", null))).containsExactly(0, 0, 0, 1, 2, 3, 4, 4, 4, 4);
    assertThat(values(Xp.pad(x, w, "reflect", null))).containsExactly(2, 1, 0, 1, 2, 3, 4, 3, 2, 1);
    assertThat(values(Xp.pad(x, w, "symmetric", null)))
        .containsExactly(1, 0, 0, 1, 2, 3, 4, 4, 3, 2);
    assertThat(values(Xp.pad(x, w, "wrap", null))).containsExactly(3, 4, 0, 1, 2, 3, 4, 0, 1, 2);
  }

  @Test
  void widestMirrorsReachTheFarEnd() {
    CubedArray x = range(4, 3);
    assertThat(values(Xp.pad(x, new long[][] {{3, 3}}, "reflect", null)))
        .containsExactly(3, 2, 1, 0, 1, 2, 3, 2, 1, 0);
    assertThat(values(Xp.pad(x, new long[][] {{4, 4}}, "symmetric", null)))
        .containsExactly(3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0);
  }

  @Test
  void twoAxesPadInOrderAndKeepDtypeAndBlocks() {
    NDArray m = NDArray.arange(0, 6, 1, DType.INT32).reshape(2, 3);
    CubedArray x = Cubed.fromArray(m, new long[] {1, 2}, SPEC);
    CubedArray p = Xp.pad(x, new long[][] {{1, 0}, {0, 2}}, "edge", null);
    assertThat(p.shape()).containsExactly(3, 5);
    assertThat(p.dtype()).isEqualTo(DType.INT32);
    assertThat(p.chunkShape()[0]).isLessThanOrEqualTo(1);
    NDArray r = p.compute();
    // numpy.pad(np.arange(6).reshape(2, 3), ((1, 0), (0, 2)), mode="edge")
    int[] want = {0, 1, 2, 2, 2, 0, 1, 2, 2, 2, 3, 4, 5, 5, 5};
    for (int i = 0; i < want.length; i++) {
      assertThat(r.getLong(i)).isEqualTo(want[i]);
    }
    CubedArray c = Xp.pad(x, new long[][] {{0, 1}, {2, 0}}, "constant", 7);
    assertThat(c.chunkShape()).containsExactly(1, 2);
    assertThat(c.compute().getLong(0)).isEqualTo(7);
  }

  @Test
  void refusesWhatItCannotDo() {
    CubedArray x = range(3, 2);
    assertThatThrownBy(() -> Xp.pad(x, new long[][] {{3, 0}}, "reflect", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most n-1");
    assertThatThrownBy(() -> Xp.pad(x, new long[][] {{0, 4}}, "wrap", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most n");
    assertThatThrownBy(() -> Xp.pad(x, new long[][] {{1, 1}}, "median", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not supported");
    assertThatThrownBy(() -> Xp.pad(x, new long[][] {{-1, 1}}, "edge", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("non-negative");
    assertThatThrownBy(() -> Xp.pad(x, new long[][] {{1, 1}, {1, 1}}, "edge", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 width pairs");
  }
}
