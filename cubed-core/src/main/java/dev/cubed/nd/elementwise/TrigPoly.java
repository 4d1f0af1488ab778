package dev.cubed.nd.elementwise;

/**
 * float64 sin and cos as one sequence of IEEE operations (additions, multiplications and fused
 * multiply-adds, each exactly rounded), so that {@link VectorTrig}, which performs the same
 * operations on vector lanes, gives the same bits on every lane, whether the JIT has compiled it to
 * vector instructions or it runs in the Vector API's Java fallback. This is what makes {@link
 * FastTrig} deterministic: a chunk computed early in a JVM's life (interpreted) and the same chunk
 * computed later (compiled), on another worker, or without the Vector API module, are equal.
 *
 * <p>The argument is reduced to {@code r} in about [-pi/4, pi/4] and a quadrant {@code q} by {@code
 * n = round(x * 2/pi)} and {@code r = x - n * pi/2}, pi/2 in four parts of which the first three
 * have 33 significant bits (their products with {@code n}, below 2^20, are exact); then minimax
 * polynomials of degree 13 (sin) and 14 (cos) on r, the coefficients of the widely used fdlibm
 * kernels, without fdlibm's correction for the rounding of r. Error: within 2 ulp of the exact
 * result, within 1 ulp for all but about one argument in 10,000 ({@code FastTrigTest}). Arguments
 * beyond {@link #LIMIT} in magnitude, infinities and NaN go to {@link Math#sin}/{@link Math#cos},
 * which are themselves the same in interpreted and compiled code.
 */
final class TrigPoly {
  private TrigPoly() {}

  /** Largest |x| reduced here: 2^19 * pi/2 (n stays below 2^20). */
  static final double LIMIT = 823549.6653753264;

  /**
   * Below this |x| (2^-27), sin x is x and cos x is 1 when rounded (this keeps sin(-0.0) = -0.0).
   */
  static final double TINY = 0x1p-27;

  static final double INV_PIO2 = 6.36619772367581382433e-01;

  /** 1.5 * 2^52: adding it rounds to an integer held in the low bits of the sum. */
  static final double ROUNDER = 0x1.8p52;

  static final double P1 = 1.57079632673412561417e+00;
  static final double P2 = 6.07710050630396597660e-11;
  static final double P3 = 2.02226624871116645580e-21;
  static final double P4 = 8.47842766036889956997e-32;

  static final double S1 = -1.66666666666666324348e-01;
  static final double S2 = 8.33333333332248946124e-03;
  static final double S3 = -1.98412698298579493134e-04;
  static final double S4 = 2.75573137070700676789e-06;
  static final double S5 = -2.50507602534068634195e-08;
  static final double S6 = 1.58969099521155010221e-10;

  static final double C1 = 4.16666666666666019037e-02;
  static final double C2 = -1.38888888888741095749e-03;
  static final double C3 = 2.48015872894767294178e-05;
  static final double C4 = -2.75573143513906633035e-07;
  static final double C5 = 2.08757232129817482790e-09;
  static final double C6 = -1.13596475577881948265e-11;

  /** sin(x), or cos(x) when {@code cos}: cos(x) is sin(x) with the quadrant one further on. */
  static double eval(boolean cos, double x) {
    if (!(Math.abs(x) <= LIMIT)) {
      return cos ? Math.cos(x) : Math.sin(x);
    }
    if (Math.abs(x) < TINY) {
      return cos ? 1.0 : x;
    }
    double t = Math.fma(x, INV_PIO2, ROUNDER);
    double n = t - ROUNDER;
    long q = Double.doubleToRawLongBits(t) + (cos ? 1 : 0);
    double r = Math.fma(-n, P1, x);
    r = Math.fma(-n, P2, r);
    r = Math.fma(-n, P3, r);
    r = Math.fma(-n, P4, r);
    double v = (q & 1) == 0 ? sinKernel(r) : cosKernel(r);
    return (q & 2) == 0 ? v : -v;
  }

  /** sin(r) for |r| <= about pi/4. */
  static double sinKernel(double r) {
    double z = r * r;
    double p = Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, S6, S5), S4), S3), S2);
    return Math.fma(z * r, Math.fma(z, p, S1), r);
  }

  /** cos(r) for |r| <= about pi/4. */
  static double cosKernel(double r) {
    double z = r * r;
    double p =
        z * Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, C6, C5), C4), C3), C2), C1);
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + z * p);
  }
}
