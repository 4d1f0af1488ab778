package dev.cubed.nd.elementwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FastTrig's sin and cos: within 2 ulp of StrictMath's (fdlibm, within 1 ulp of exact) over seeded
 * arguments of several magnitudes and arguments next to multiples of pi/2 (where the reduction
 * cancels), odd lengths (the element loop's tail) and offsets, in place and out of place; the same
 * bits on every path (the vector lanes, whether running in the Vector API's Java fallback or
 * compiled, and the element loop {@link TrigPoly}), before and after the switch to the vector path,
 * for special values and vectors mixing arguments beyond the reduced range. Surefire runs with the
 * Vector API module, so the vector path is the one tested when the module is present.
 */
class FastTrigTest {
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void withinTwoUlpOfStrictMath(long seed) {
    Random r = new Random(seed);
    double scale = new double[] {1, 10, 1e4, 1e6, 1e-5, 1e300}[(int) seed - 1];
    int n = 1000 + r.nextInt(37);
    double[] x = new double[n + 5];
    for (int i = 0; i < x.length; i++) {
      x[i] = (r.nextDouble() * 2 - 1) * scale;
      if (seed == 3 && i % 3 == 0) { // next to multiples of pi/2: the reduction cancels
        x[i] = Math.rint(r.nextDouble() * 500_000) * (Math.PI / 2) + (r.nextDouble() - 0.5) * 1e-9;
      }
    }
    double[] s = new double[n + 3];
    double[] c = new double[n + 3];
    FastTrig.sin(x, 5, s, 3, n);
    FastTrig.cos(x, 5, c, 3, n);
    for (int i = 0; i < n; i++) {
      double ws = StrictMath.sin(x[5 + i]);
      double wc = StrictMath.cos(x[5 + i]);
      assertTrue(Math.abs(s[3 + i] - ws) <= 2 * Math.ulp(ws), "sin(" + x[5 + i] + ")");
      assertTrue(Math.abs(c[3 + i] - wc) <= 2 * Math.ulp(wc), "cos(" + x[5 + i] + ")");
    }
    double[] inPlace = x.clone();
    FastTrig.sin(inPlace, 0, inPlace, 0, inPlace.length);
    double[] sep = new double[x.length];
    FastTrig.sin(x, 0, sep, 0, x.length);
    assertEquals(Arrays.toString(sep), Arrays.toString(inPlace));
  }

  /** The vector lanes and the element loop agree to the bit on every argument. */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void everyPathGivesTheSameBits(long seed) {
    Random r = new Random(seed);
    int n = 4096 + r.nextInt(7);
    double[] x = arguments(r, n);
    for (boolean cos : new boolean[] {false, true}) {
      double[] loop = new double[n];
      for (int i = 0; i < n; i++) {
        loop[i] = TrigPoly.eval(cos, x[i]);
      }
      double[] fast = new double[n];
      if (cos) {
        FastTrig.cos(x, 0, fast, 0, n);
      } else {
        FastTrig.sin(x, 0, fast, 0, n);
      }
      assertBitsEqual(loop, fast, "FastTrig " + (cos ? "cos" : "sin"));
      if (FastTrig.vectorized()) {
        double[] lanes = new double[n];
        if (cos) {
          VectorTrig.cos(x, 0, lanes, 0, n);
        } else {
          VectorTrig.sin(x, 0, lanes, 0, n);
        }
        assertBitsEqual(loop, lanes, "vector " + (cos ? "cos" : "sin"));
      }
    }
  }

  /**
   * Called often enough, the vector path is compiled and taken for good; its results then equal
   * those of the first calls (the Java fallback and the element loop) to the bit.
   */
  @Test
  void switchingToCompiledLanesChangesNoBit() {
    Random r = new Random(42);
    double[] x = arguments(r, 999);
    double[] before = new double[x.length];
    FastTrig.sin(x, 0, before, 0, x.length);
    double[] small = Arrays.copyOf(x, 64);
    double[] out = new double[64];
    long until = System.nanoTime() + 60_000_000_000L;
    while (FastTrig.vectorized() && !FastTrig.vectorHot() && System.nanoTime() < until) {
      FastTrig.sin(small, 0, out, 0, 64);
      FastTrig.cos(small, 0, out, 0, 64);
    }
    assertEquals(
        FastTrig.vectorized(),
        FastTrig.vectorHot(),
        "the vector path should be taken once compiled");
    double[] after = new double[x.length];
    FastTrig.sin(x, 0, after, 0, x.length);
    assertBitsEqual(before, after, "sin before and after the switch");
  }

  @Test
  void vectorPathIsTakenWhenTheModuleIsPresentAndRangesAreChecked() {
    assertEquals(
        ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !Boolean.getBoolean("cubed.noVectorTrig"),
        FastTrig.vectorized());
    assertThrows(
        ArrayIndexOutOfBoundsException.class,
        () -> FastTrig.sin(new double[4], 1, new double[4], 0, 4));
    double[] special = {
      Double.NaN,
      Double.POSITIVE_INFINITY,
      -0.0,
      0.0,
      Double.MIN_VALUE,
      -Double.MIN_NORMAL,
      1e-300,
      Double.NEGATIVE_INFINITY,
      TrigPoly.LIMIT,
      Math.nextUp(TrigPoly.LIMIT)
    };
    double[] out = new double[special.length];
    FastTrig.sin(special, 0, out, 0, special.length);
    assertTrue(Double.isNaN(out[0]) && Double.isNaN(out[1]) && Double.isNaN(out[7]));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(out[2]));
    assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(out[3]));
    assertEquals(Double.MIN_VALUE, out[4]);
    assertEquals(-Double.MIN_NORMAL, out[5]);
    assertEquals(1e-300, out[6]);
    FastTrig.cos(special, 0, out, 0, special.length);
    assertEquals(1.0, out[2]);
    assertEquals(1.0, out[3]);
  }

  /** Arguments of many magnitudes, near multiples of pi/2, beyond the limit, and special. */
  private static double[] arguments(Random r, int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      double scale = Math.pow(10, r.nextInt(10) - 4);
      x[i] = (r.nextDouble() * 2 - 1) * scale;
      if (i % 5 == 0) {
        x[i] = Math.rint(r.nextDouble() * 500_000) * (Math.PI / 2);
      }
    }
    x[17] = Double.NaN;
    x[100] = 1e7; // a vector with one lane beyond the reduced range
    x[201] = -Double.MAX_VALUE;
    x[302] = -0.0;
    x[403] = Double.POSITIVE_INFINITY;
    return x;
  }

  private static void assertBitsEqual(double[] want, double[] got, String what) {
    long[] w = new long[want.length];
    long[] g = new long[got.length];
    for (int i = 0; i < w.length; i++) {
      w[i] = Double.doubleToRawLongBits(want[i]);
      g[i] = Double.doubleToRawLongBits(got[i]);
    }
    assertArrayEquals(w, g, what);
  }
}
