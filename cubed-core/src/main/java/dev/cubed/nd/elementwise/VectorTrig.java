package dev.cubed.nd.elementwise;

import static dev.cubed.nd.elementwise.TrigPoly.C1;
import static dev.cubed.nd.elementwise.TrigPoly.C2;
import static dev.cubed.nd.elementwise.TrigPoly.C3;
import static dev.cubed.nd.elementwise.TrigPoly.C4;
import static dev.cubed.nd.elementwise.TrigPoly.C5;
import static dev.cubed.nd.elementwise.TrigPoly.C6;
import static dev.cubed.nd.elementwise.TrigPoly.INV_PIO2;
import static dev.cubed.nd.elementwise.TrigPoly.LIMIT;
import static dev.cubed.nd.elementwise.TrigPoly.P1;
import static dev.cubed.nd.elementwise.TrigPoly.P2;
import static dev.cubed.nd.elementwise.TrigPoly.P3;
import static dev.cubed.nd.elementwise.TrigPoly.P4;
import static dev.cubed.nd.elementwise.TrigPoly.ROUNDER;
import static dev.cubed.nd.elementwise.TrigPoly.S1;
import static dev.cubed.nd.elementwise.TrigPoly.S2;
import static dev.cubed.nd.elementwise.TrigPoly.S3;
import static dev.cubed.nd.elementwise.TrigPoly.S4;
import static dev.cubed.nd.elementwise.TrigPoly.S5;
import static dev.cubed.nd.elementwise.TrigPoly.S6;
import static dev.cubed.nd.elementwise.TrigPoly.TINY;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API half of {@link FastTrig}: {@link TrigPoly}'s operations, in the same order, on
 * every lane, so each element equals {@link TrigPoly#eval} of it to the bit. A vector with a lane
 * outside {@link TrigPoly#LIMIT} (or NaN) and the elements past the last full vector go through
 * TrigPoly itself. Loaded only when {@code jdk.incubator.vector} is in the boot layer (otherwise
 * loading this class fails, which FastTrig catches); callers check ranges.
 */
final class VectorTrig {
  private VectorTrig() {}

  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;

  static void sin(double[] a, int ao, double[] d, int dof, int n) {
    eval(false, a, ao, d, dof, n);
  }

  static void cos(double[] a, int ao, double[] d, int dof, int n) {
    eval(true, a, ao, d, dof, n);
  }

  // one method: a vector passed to or returned from a method the JIT does not inline is boxed,
  // so the lanes' arithmetic stays in the loop
  private static void eval(boolean cos, double[] a, int ao, double[] d, int dof, int n) {
    DoubleVector one = c(1.0);
    DoubleVector zero = c(0.0);
    DoubleVector half = c(0.5);
    DoubleVector rounder = c(ROUNDER);
    DoubleVector invPio2 = c(INV_PIO2);
    DoubleVector p1 = c(P1);
    DoubleVector p2 = c(P2);
    DoubleVector p3 = c(P3);
    DoubleVector p4 = c(P4);
    DoubleVector s1 = c(S1);
    DoubleVector s2 = c(S2);
    DoubleVector s3 = c(S3);
    DoubleVector s4 = c(S4);
    DoubleVector s5 = c(S5);
    DoubleVector s6 = c(S6);
    DoubleVector c1 = c(C1);
    DoubleVector c2 = c(C2);
    DoubleVector c3 = c(C3);
    DoubleVector c4 = c(C4);
    DoubleVector c5 = c(C5);
    DoubleVector c6 = c(C6);
    DoubleVector limit = c(LIMIT);
    DoubleVector tiny = c(TINY);
    int up = S.loopBound(n);
    int i = 0;
    for (; i < up; i += S.length()) {
      DoubleVector x = DoubleVector.fromArray(S, a, ao + i);
      DoubleVector ax = x.abs();
      if (!ax.compare(VectorOperators.LE, limit).allTrue()) {
        for (int k = 0; k < S.length(); k++) {
          d[dof + i + k] = TrigPoly.eval(cos, a[ao + i + k]);
        }
        continue;
      }
      DoubleVector nq = x.fma(invPio2, rounder).sub(rounder);
      DoubleVector m = nq.neg();
      DoubleVector r = m.fma(p1, x);
      r = m.fma(p2, r);
      r = m.fma(p3, r);
      r = m.fma(p4, r);
      DoubleVector z = r.mul(r);
      DoubleVector ps = z.fma(z.fma(z.fma(z.fma(s6, s5), s4), s3), s2);
      DoubleVector s = z.mul(r).fma(z.fma(ps, s1), r);
      DoubleVector pc = z.mul(z.fma(z.fma(z.fma(z.fma(z.fma(c6, c5), c4), c3), c2), c1));
      DoubleVector hz = z.mul(half);
      DoubleVector w = one.sub(hz);
      DoubleVector co = w.add(one.sub(w).sub(hz).add(z.mul(pc)));
      // the quadrant q = n (+1 for cos) mod 4 by exact integer arithmetic in doubles (TrigPoly's
      // q): q odd takes the cos kernel, q in {2, 3} negates. v is odd when v/2 is not the integer
      // nearest it (|v| below 2^51)
      DoubleVector q = cos ? nq.add(one) : nq;
      DoubleVector qh = q.mul(half);
      VectorMask<Double> odd = qh.compare(VectorOperators.NE, qh.add(rounder).sub(rounder));
      DoubleVector eh = q.sub(zero.blend(one, odd)).mul(half).mul(half);
      VectorMask<Double> negate = eh.compare(VectorOperators.NE, eh.add(rounder).sub(rounder));
      DoubleVector v = s.blend(co, odd);
      v = v.blend(v.neg(), negate);
      v.blend(cos ? one : x, ax.compare(VectorOperators.LT, tiny)).intoArray(d, dof + i);
    }
    for (; i < n; i++) {
      d[dof + i] = TrigPoly.eval(cos, a[ao + i]);
    }
  }

  private static DoubleVector c(double v) {
    return DoubleVector.broadcast(S, v);
  }
}
