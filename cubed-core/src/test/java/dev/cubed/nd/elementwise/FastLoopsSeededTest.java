package dev.cubed.nd.elementwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct float64 and float32 loops of isnan and pow against their definitions, on seeded random
 * data full of the values that matter (NaN, infinities, signed zeros, one, minus one, subnormals,
 * huge values whose square overflows): isnan is {@code Double.isNaN} of each element; pow with a
 * broadcast exponent 2 is {@code x * x} (NumPy's square); any other exponent, or an exponent array,
 * is {@link RealMath#pow} of the elements (rounded to float32 for float32), bit for bit.
 */
class FastLoopsSeededTest {
  private static final double[] SPECIAL = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    Double.MIN_VALUE,
    1e200,
    -1e200,
    3.4e38,
    1e-30
  };

  private static double[] doubles(Random rnd, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = rnd.nextInt(4) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextGaussian() * 10;
    }
    return d;
  }

  private static float[] floats(double[] d) {
    float[] f = new float[d.length];
    for (int i = 0; i < d.length; i++) {
      f[i] = (float) d[i];
    }
    return f;
  }

  @Test
  void isnanIsDoubleIsNaNOnBothFloatTypes() {
    Random rnd = new Random(1);
    for (int n : new int[] {0, 1, 7, 1000, 4097}) {
      double[] d = doubles(rnd, n);
      float[] f = floats(d);
      boolean[] r64 = (boolean[]) Elementwise.isnan(NDArray.of(d, n)).data();
      NDArray n32 = Elementwise.isnan(NDArray.of(f, n));
      assertEquals(DType.BOOL, n32.dtype());
      boolean[] r32 = (boolean[]) n32.data();
      for (int i = 0; i < n; i++) {
        assertEquals(Double.isNaN(d[i]), r64[i], "float64 element " + i + " = " + d[i]);
        assertEquals(Float.isNaN(f[i]), r32[i], "float32 element " + i + " = " + f[i]);
      }
    }
  }

  @Test
  void powOfTwoIsTheSquareAndOtherExponentsThePowFunction() {
    Random rnd = new Random(2);
    int n = 3001;
    double[] d = doubles(rnd, n);
    float[] f = floats(d);
    // a broadcast exponent 2 (a 0-d array, as x ** 2 gives), on a 2-d array
    NDArray sq = Elementwise.pow(NDArray.of(Arrays.copyOf(d, 3000), 3, 1000), 2.0);
    double[] s64 = (double[]) sq.data();
    NDArray sq32 = Elementwise.pow(NDArray.of(f, n), NDArray.scalar(DType.FLOAT32, 2.0f));
    assertEquals(DType.FLOAT32, sq32.dtype());
    float[] s32 = (float[]) sq32.data();
    for (int i = 0; i < 3000; i++) {
      assertEquals(Double.doubleToRawLongBits(d[i] * d[i]), Double.doubleToRawLongBits(s64[i]));
    }
    for (int i = 0; i < n; i++) {
      assertEquals(Float.floatToRawIntBits(f[i] * f[i]), Float.floatToRawIntBits(s32[i]));
    }
    // other exponents: broadcast scalars, then a whole exponent array (2.0 among its values)
    for (double e : new double[] {0.5, 3.0, -1.0, 0.0, Double.NaN, 2.5}) {
      double[] p64 = (double[]) Elementwise.pow(NDArray.of(d, n), e).data();
      float[] p32 =
          (float[])
              Elementwise.pow(NDArray.of(f, n), NDArray.scalar(DType.FLOAT32, (float) e)).data();
      for (int i = 0; i < n; i++) {
        assertEquals(
            Double.doubleToRawLongBits(RealMath.pow(d[i], e)),
            Double.doubleToRawLongBits(p64[i]),
            d[i] + " ** " + e);
        assertEquals(
            Float.floatToRawIntBits((float) RealMath.pow(f[i], (float) e)),
            Float.floatToRawIntBits(p32[i]),
            f[i] + " ** " + e + " (float32)");
      }
    }
    double[] ex = doubles(rnd, n);
    for (int i = 0; i < n; i += 5) {
      ex[i] = 2.0;
    }
    double[] pa = (double[]) Elementwise.pow(NDArray.of(d, n), NDArray.of(ex, n)).data();
    double[] want = new double[n];
    for (int i = 0; i < n; i++) {
      want[i] = RealMath.pow(d[i], ex[i]);
    }
    assertArrayEquals(want, pa);
    // a scalar base with an array exponent
    double[] sb =
        (double[]) Elementwise.pow(NDArray.scalar(DType.FLOAT64, 1.5), NDArray.of(ex, n)).data();
    for (int i = 0; i < n; i++) {
      assertEquals(
          Double.doubleToRawLongBits(RealMath.pow(1.5, ex[i])), Double.doubleToRawLongBits(sb[i]));
    }
  }

  /**
   * float64 clip between scalar bounds (the one-pass loops: nonzero bounds, zero bounds, NaN
   * bounds, one bound) is NumPy's {@code minimum(maximum(x, lo), hi)} of the elements bit for bit:
   * NaN in x or a bound gives NaN, an element equal to a bound gives the bound (so 0.0 against a
   * bound -0.0 gives -0.0).
   */
  @Test
  void clipBetweenScalarsIsMaximumThenMinimumBitForBit() {
    Random rnd = new Random(7);
    double[][] bounds = {
      {0.2, 0.8},
      {-5, 5},
      {0.0, 1.0},
      {-0.0, 3.0},
      {-2.0, -0.0},
      {Double.NaN, 1.0},
      {1.0, 1.0},
      {Double.NEGATIVE_INFINITY, 0.5}
    };
    for (int n : new int[] {0, 1, 7, 1000, 4097}) {
      double[] d = doubles(rnd, n);
      for (double[] b : bounds) {
        NDArray lo = NDArray.scalar(DType.FLOAT64, b[0]);
        NDArray hi = NDArray.scalar(DType.FLOAT64, b[1]);
        check(d, Elementwise.clip(NDArray.of(d.clone(), n), lo, hi), b[0], b[1], true, true);
        check(d, Elementwise.clip(NDArray.of(d.clone(), n), lo, null), b[0], 0, true, false);
        check(d, Elementwise.clip(NDArray.of(d.clone(), n), null, hi), 0, b[1], false, true);
      }
    }
  }

  private static void check(
      double[] d, NDArray r, double lo, double hi, boolean hasLo, boolean hasHi) {
    double[] got = (double[]) r.data();
    for (int i = 0; i < d.length; i++) {
      double e = d[i];
      if (hasLo) {
        e = Double.isNaN(e) || Double.isNaN(lo) ? Double.NaN : e > lo ? e : lo;
      }
      if (hasHi) {
        e = Double.isNaN(e) || Double.isNaN(hi) ? Double.NaN : e < hi ? e : hi;
      }
      assertEquals(
          Double.doubleToRawLongBits(e),
          Double.doubleToRawLongBits(got[i]),
          "clip(" + d[i] + ", " + lo + ", " + hi + ")");
    }
  }

  /**
   * The buffer variants of abs, negative, sqrt, square and the float64 scalar clip (the plan's
   * reused run buffers): bit for bit the plain function on float64 and float32 with NaNs and odd
   * sizes; the buffer itself comes back when it fits (also when it is the input), a new array when
   * it is null or of another shape or dtype.
   */
  @Test
  void unaryAndClipIntoABufferEqualThePlainFunctions() throws Exception {
    Random rnd = new Random(11);
    java.util.List<java.util.function.BiFunction<NDArray, NDArray, NDArray>> into =
        java.util.List.of(
            Elementwise::abs,
            Elementwise::negative,
            Elementwise::sqrt,
            Elementwise::square,
            (x, b) -> Elementwise.clip(x, 0.25, 3.5, b));
    java.util.List<java.util.function.Function<NDArray, NDArray>> plain =
        java.util.List.of(
            Elementwise::abs,
            Elementwise::negative,
            Elementwise::sqrt,
            Elementwise::square,
            x -> Elementwise.clip(x, 0.25, 3.5));
    for (int n : new int[] {1, 7, 1000, 4097}) {
      double[] d = doubles(rnd, n);
      for (NDArray x : new NDArray[] {NDArray.of(d, n), NDArray.of(floats(d), n)}) {
        for (int k = 0; k < into.size(); k++) {
          NDArray want = plain.get(k).apply(x.copy());
          boolean fits = k < 4 || x.dtype() == DType.FLOAT64;
          NDArray buf = NDArray.zeros(x.dtype(), n);
          NDArray got = into.get(k).apply(x.copy(), buf);
          assertEquals(fits, got == buf, "k=" + k + " " + x.dtype());
          assertArrayEquals(
              want.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN),
              got.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN));
          NDArray self = x.copy();
          NDArray inPlace = into.get(k).apply(self, self);
          assertArrayEquals(
              want.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN),
              inPlace.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN));
          NDArray wrong = NDArray.zeros(x.dtype(), n + 1);
          NDArray other = into.get(k).apply(x.copy(), wrong);
          assertEquals(false, other == wrong);
          assertArrayEquals(
              want.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN),
              other.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN));
          assertArrayEquals(
              want.toBytes(java.nio.ByteOrder.LITTLE_ENDIAN),
              into.get(k).apply(x.copy(), null).toBytes(java.nio.ByteOrder.LITTLE_ENDIAN));
        }
      }
    }
  }
}
