package dev.cubed.nd.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The float64 and float32 loops of {@link Searching#where} against the definition {@code c ? a :
 * b}, element by element and bit for bit (NaNs and signed zeros kept), on seeded random data for
 * each of the four operand cases (array or one value on each side), and the conversions of {@link
 * NDArray#astype} that have direct loops (bool, int32, int64, float32 to float64; bool and float64
 * to float32) against the element-by-element definition.
 */
class WhereSeededTest {
  private static final double[] SPECIAL = {Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, 1e300};

  @Test
  void everyOperandCaseOnBothFloatTypes() {
    Random rnd = new Random(3);
    int n = 2053;
    boolean[] c = new boolean[n];
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      c[i] = rnd.nextBoolean();
      a[i] = rnd.nextInt(5) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextGaussian();
      b[i] = rnd.nextInt(5) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextGaussian();
    }
    NDArray cond = NDArray.of(c, n);
    for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      NDArray fa = NDArray.of(a, n).astype(t);
      NDArray fb = NDArray.of(b, n).astype(t);
      NDArray sa = NDArray.scalar(t, Double.NaN);
      NDArray sb = NDArray.scalar(t, -0.0);
      NDArray[][] cases = {{fa, fb}, {sa, fb}, {fa, sb}, {sa, sb}};
      for (NDArray[] ab : cases) {
        NDArray r = Searching.where(cond, ab[0], ab[1]);
        assertEquals(t, r.dtype());
        for (int i = 0; i < n; i++) {
          NDArray from = c[i] ? ab[0] : ab[1];
          double want = from.getDouble(from.size() == 1 ? 0 : i);
          assertEquals(
              Double.doubleToRawLongBits(want),
              Double.doubleToRawLongBits(r.getDouble(i)),
              t + " element " + i + " operand sizes " + ab[0].size() + ", " + ab[1].size());
        }
      }
    }
  }

  @Test
  void directConversionsEqualTheElementByElementDefinition() {
    Random rnd = new Random(4);
    int n = 1031;
    boolean[] z = new boolean[n];
    int[] i32 = new int[n];
    long[] i64 = new long[n];
    double[] f64 = new double[n];
    for (int i = 0; i < n; i++) {
      z[i] = rnd.nextBoolean();
      i32[i] = rnd.nextInt();
      i64[i] = rnd.nextLong() >> rnd.nextInt(64);
      f64[i] =
          rnd.nextInt(5) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextGaussian() * 1e5;
    }
    NDArray f32 = NDArray.of(f64, n).astype(DType.FLOAT32);
    for (int i = 0; i < n; i++) {
      assertEquals((float) f64[i], ((float[]) f32.data())[i], 0f, "float64 -> float32 " + i);
    }
    double[] zd = (double[]) NDArray.of(z, n).astype(DType.FLOAT64).data();
    float[] zf = (float[]) NDArray.of(z, n).astype(DType.FLOAT32).data();
    double[] id = (double[]) NDArray.of(i32, n).astype(DType.FLOAT64).data();
    double[] ld = (double[]) NDArray.of(i64, n).astype(DType.FLOAT64).data();
    double[] fd = (double[]) f32.astype(DType.FLOAT64).data();
    for (int i = 0; i < n; i++) {
      assertEquals(z[i] ? 1.0 : 0.0, zd[i], 0.0);
      assertEquals(z[i] ? 1.0f : 0.0f, zf[i], 0f);
      assertEquals((double) i32[i], id[i], 0.0);
      assertEquals((double) i64[i], ld[i], 0.0);
      assertEquals(
          Double.doubleToRawLongBits((double) ((float[]) f32.data())[i]),
          Double.doubleToRawLongBits(fd[i]));
    }
    // unsigned and complex sources keep their own conversions (same backing arrays as signed)
    NDArray u = new NDArray(DType.UINT32, new long[] {1}, new int[] {-1});
    assertEquals(4294967295.0, u.astype(DType.FLOAT64).getDouble(0), 0.0);
    NDArray ul = new NDArray(DType.UINT64, new long[] {1}, new long[] {-1L});
    assertEquals(18446744073709551615.0, ul.astype(DType.FLOAT64).getDouble(0), 0.0);
  }
}
