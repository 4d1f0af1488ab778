package dev.cubed.nd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FastTrig's sin and cos stay within 2 ulp of Math.sin/Math.cos (the vector path; the fallback is
 * Math itself) over seeded arguments of several magnitudes, odd lengths (the scalar tail) and
 * offsets, in place and out of place; surefire runs with the Vector API module, so the vector path
 * is the one tested when the module is present.
 */
class FastTrigTest {
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void withinTwoUlpOfMath(long seed) {
    Random r = new Random(seed);
    double scale = new double[] {1, 10, 1e4, 1e6}[(int) seed - 1];
    int n = 1000 + r.nextInt(37);
    double[] x = new double[n + 5];
    for (int i = 0; i < x.length; i++) {
      x[i] = (r.nextDouble() * 2 - 1) * scale;
    }
    double[] s = new double[n + 3];
    double[] c = new double[n + 3];
    FastTrig.sin(x, 5, s, 3, n);
    FastTrig.cos(x, 5, c, 3, n);
    for (int i = 0; i < n; i++) {
      double ws = Math.sin(x[5 + i]);
      double wc = Math.cos(x[5 + i]);
      assertTrue(Math.abs(s[3 + i] - ws) <= 2 * Math.ulp(ws), "sin(" + x[5 + i] + ")");
      assertTrue(Math.abs(c[3 + i] - wc) <= 2 * Math.ulp(wc), "cos(" + x[5 + i] + ")");
    }
    double[] inPlace = x.clone();
    FastTrig.sin(inPlace, 0, inPlace, 0, inPlace.length);
    double[] sep = new double[x.length];
    FastTrig.sin(x, 0, sep, 0, x.length);
    assertEquals(java.util.Arrays.toString(sep), java.util.Arrays.toString(inPlace));
  }

  @org.junit.jupiter.api.Test
  void vectorPathIsTakenWhenTheModuleIsPresentAndRangesAreChecked() {
    assertEquals(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
        && !Boolean.getBoolean("cubed.noVectorTrig"), FastTrig.vectorized());
    assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> FastTrig.sin(new double[4], 1, new double[4], 0, 4));
    double[] special = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 0.0};
    double[] out = new double[4];
    FastTrig.sin(special, 0, out, 0, 4);
    assertTrue(Double.isNaN(out[0]) && Double.isNaN(out[1]));
    assertEquals(0.0, out[3]);
  }
}
