package dev.cubed.nd;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API half of {@link FastTrig}. Loaded only when {@code jdk.incubator.vector} is in the
 * boot layer (otherwise loading this class fails, which FastTrig catches); callers check ranges.
 */
final class VectorTrig {
  private VectorTrig() {}

  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;

  static void sin(double[] a, int ao, double[] d, int dof, int n) {
    int up = S.loopBound(n);
    int i = 0;
    for (; i < up; i += S.length()) {
      DoubleVector.fromArray(S, a, ao + i).lanewise(VectorOperators.SIN).intoArray(d, dof + i);
    }
    for (; i < n; i++) {
      d[dof + i] = Math.sin(a[ao + i]);
    }
  }

  static void cos(double[] a, int ao, double[] d, int dof, int n) {
    int up = S.loopBound(n);
    int i = 0;
    for (; i < up; i += S.length()) {
      DoubleVector.fromArray(S, a, ao + i).lanewise(VectorOperators.COS).intoArray(d, dof + i);
    }
    for (; i < n; i++) {
      d[dof + i] = Math.cos(a[ao + i]);
    }
  }
}
