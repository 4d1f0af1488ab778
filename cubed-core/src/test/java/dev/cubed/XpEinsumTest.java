package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import org.junit.jupiter.api.Test;

class XpEinsumTest {
  private static final Spec SPEC = Spec.builder().build();

  private static CubedArray arange(DType t, long[] shape, long[] chunks) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return Cubed.fromArray(NDArray.arange(0, n, 1, t).reshape(shape), chunks, SPEC);
  }

  private static long[] longs(NDArray a) {
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.getLong(i);
    }
    return out;
  }

  @Test
  void matrixProductAndItsImplicitForm() {
    CubedArray a = arange(DType.INT64, new long[] {2, 3}, new long[] {1, 2});
    CubedArray b = arange(DType.INT64, new long[] {3, 2}, new long[] {2, 1});
    // numpy: np.arange(6).reshape(2, 3) @ np.arange(6).reshape(3, 2) = [[10, 13], [28, 40]]
    assertThat(longs(Xp.einsum("ij,jk->ik", a, b).compute())).containsExactly(10, 13, 28, 40);
    assertThat(longs(Xp.einsum("ij,jk", a, b).compute())).containsExactly(10, 13, 28, 40);
    assertThat(longs(Xp.einsum("ij,jk->ki", a, b).compute())).containsExactly(10, 28, 13, 40);
  }

  @Test
  void xarrayDotFormsWithEllipsisBroadcastAndSumOut() {
    // xr.dot(da(t, x), w(x)) is einsum("...ab,...b->...a") after moving core dims last
    CubedArray x = arange(DType.FLOAT64, new long[] {2, 3, 4}, new long[] {1, 2, 3});
    CubedArray w = arange(DType.FLOAT64, new long[] {4}, new long[] {3});
    NDArray r = Xp.einsum("...ab,...b->...a", x, w).compute();
    assertThat(r.shape()).containsExactly(2, 3);
    // element (1, 2): sum_b (1*12 + 2*4 + b) * b = sum_b (20 + b) * b over b < 4 = 120 + 14
    assertThat(r.getDouble(5)).isEqualTo(134.0);
    // a label only in one operand is summed out first: "ab,b->" = sum(x) over a, dot with w
    CubedArray m = arange(DType.FLOAT64, new long[] {3, 4}, new long[] {2, 2});
    assertThat(Xp.einsum("ab,b->", m, w).compute().getDouble(0))
        .isEqualTo((0 + 4 + 8) * 0 + (1 + 5 + 9) * 1 + (2 + 6 + 10) * 2 + (3 + 7 + 11) * 3.0);
    // three operands, and a transpose of one
    assertThat(Xp.einsum("a,a,a->", w, w, w).compute().getDouble(0)).isEqualTo(0 + 1 + 8 + 27.0);
    assertThat(Xp.einsum("ab->ba", m).shape()).containsExactly(4, 3);
  }

  @Test
  void contractionsAreOneTensordotWithoutTheBroadcastProduct() {
    // xr.dot(t(time, x, y), p(time, x), dim=("time", "x")) and weighted's dot(t, w(x), dim="x")
    // with a bool mask: a contraction op multiplies block pairs into partial sums; no op makes
    // the broadcast product, whose block here would be 4 x 6 x 10 float64 (1,920 bytes)
    NDArray tv = NDArray.arange(0, 8 * 6 * 10, 1, DType.FLOAT64).reshape(8, 6, 10);
    NDArray pv = NDArray.arange(0, 8 * 6, 1, DType.FLOAT64).reshape(8, 6);
    CubedArray t = Cubed.fromArray(tv, new long[] {4, 6, 10}, SPEC);
    CubedArray p = Cubed.fromArray(pv, new long[] {4, 6}, SPEC);
    CubedArray w = Cubed.fromArray(NDArray.arange(1, 7, 1, DType.FLOAT64), new long[] {6}, SPEC);
    CubedArray mask = Xp.greater(t, 100.0);
    CubedArray dot = Xp.einsum("abc,ab->c", t, p);
    CubedArray weighted = Xp.einsum("abc,b->ac", mask, w);
    for (CubedArray r : new CubedArray[] {dot, weighted}) {
      assertThat(r.plan().ops()).anyMatch(o -> o.name().contains("tensordot"));
      assertThat(r.plan().ops()).noneMatch(o -> o.name().contains("multiply"));
    }
    NDArray d = dot.compute();
    NDArray want = Xp.sum(Xp.multiply(t, Xp.expandDims(p, 2)), new int[] {0, 1}).compute();
    for (int c = 0; c < 10; c++) {
      assertThat(d.getDouble(c)).isEqualTo(want.getDouble(c));
    }
    NDArray m = weighted.compute();
    assertThat(m.dtype()).isEqualTo(DType.FLOAT64);
    assertThat(m.shape()).containsExactly(8, 10);
    for (int a = 0; a < 8; a++) {
      for (int c = 0; c < 10; c++) {
        double e = 0;
        for (int b = 0; b < 6; b++) {
          e += tv.getDouble((a * 6 + b) * 10 + c) > 100 ? b + 1 : 0;
        }
        assertThat(m.getDouble(a * 10 + c)).isEqualTo(e);
      }
    }
  }

  @Test
  void dtypeIsTheOperandsPromotion() {
    CubedArray a = arange(DType.INT32, new long[] {4}, new long[] {3});
    CubedArray f = arange(DType.FLOAT32, new long[] {4}, new long[] {2});
    assertThat(Xp.einsum("i,i->", a, a).dtype()).isEqualTo(DType.INT32);
    assertThat(Xp.einsum("i,i->", a, a).compute().getLong(0)).isEqualTo(14);
    assertThat(Xp.einsum("i,i->i", a, f).dtype()).isEqualTo(DType.FLOAT64);
  }

  @Test
  void refusesMalformedSubscripts() {
    CubedArray m = arange(DType.FLOAT64, new long[] {3, 3}, new long[] {2, 2});
    CubedArray v = arange(DType.FLOAT64, new long[] {4}, new long[] {2});
    assertThatThrownBy(() -> Xp.einsum("ii->i", m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("diagonals are not supported");
    assertThatThrownBy(() -> Xp.einsum("ij,j->i", m, v))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("label 'j' has length");
    assertThatThrownBy(() -> Xp.einsum("i->i", m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not match an operand of 2 dimensions");
    assertThatThrownBy(() -> Xp.einsum("ij->k", m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output label 'k' is in no operand");
    assertThatThrownBy(() -> Xp.einsum("ij,jk->ik", m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name 2 operands but 1");
  }

  /**
   * xarray's {@code dot(t, p, dim=("time", "x"))}: a small contraction into one output block is one
   * task folding every block pair, with no stored partial products and no second op to sum them.
   */
  @Test
  void smallContractionIntoOneBlockIsOneTaskStoringNothing() {
    CubedArray t = arange(DType.FLOAT64, new long[] {40, 5, 7}, new long[] {4, 5, 7});
    CubedArray p = arange(DType.FLOAT64, new long[] {40, 5}, new long[] {4, 5});
    CubedArray r = Xp.einsum("...abc,...ab->...c", t, p);
    var plan = r.plan();
    assertThat(plan.ops()).hasSize(1);
    assertThat(plan.totalTasks()).isEqualTo(1);
    assertThat(plan.intermediateBytesWritten()).isZero();
    NDArray got = r.compute();
    for (int c = 0; c < 7; c++) {
      double want = 0;
      for (int a = 0; a < 40; a++) {
        for (int b = 0; b < 5; b++) {
          want += (double) ((a * 5 + b) * 7 + c) * (a * 5 + b);
        }
      }
      assertThat(got.getDouble(c)).isEqualTo(want);
    }
  }
}
