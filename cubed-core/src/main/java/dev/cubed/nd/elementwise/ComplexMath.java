package dev.cubed.nd.elementwise;

/**
 * Complex elementary functions on (re, im) pairs of doubles, each writing its result into {@code
 * r[0], r[1]}. Special values (infinities, NaN, signed zeros) follow C99 Annex G as glibc
 * implements it, which is what NumPy calls; expm1, log1p, log2, log10, pow, reciprocal, division
 * and sign follow NumPy's own formulas. Finite arguments of the inverse functions use Kahan's
 * formulas ("Branch cuts for complex elementary functions", 1987).
 */
final class ComplexMath {
  private ComplexMath() {}

  private static final double PI = Math.PI;
  private static final double HALF_PI = Math.PI / 2;
  private static final double LOG2E = 1.4426950408889634;
  private static final double LOG10E = 0.4342944819032518;

  static void multiply(double ar, double ai, double br, double bi, double[] r) {
    double re = ar * br - ai * bi;
    r[1] = ar * bi + ai * br;
    r[0] = re;
  }

  /** NumPy's complex division (Smith's algorithm). */
  static void divide(double ar, double ai, double br, double bi, double[] r) {
    double abr = Math.abs(br);
    double abi = Math.abs(bi);
    if (abr >= abi) {
      if (abr == 0 && abi == 0) {
        r[0] = ar / abr;
        r[1] = ai / abr;
      } else {
        double rat = bi / br;
        double scl = 1.0 / (br + bi * rat);
        r[0] = (ar + ai * rat) * scl;
        r[1] = (ai - ar * rat) * scl;
      }
    } else {
      double rat = br / bi;
      double scl = 1.0 / (bi + br * rat);
      r[0] = (ar * rat + ai) * scl;
      r[1] = (ai * rat - ar) * scl;
    }
  }

  /** NumPy's complex reciprocal. */
  static void reciprocal(double x, double y, double[] r) {
    if (Math.abs(y) <= Math.abs(x)) {
      double q = y / x;
      double d = x + y * q;
      r[0] = 1 / d;
      r[1] = -q / d;
    } else {
      double q = x / y;
      double d = x * q + y;
      r[0] = q / d;
      r[1] = -1 / d;
    }
  }

  /**
   * NumPy's complex sign: z / |z|; 0 for 0; +-1 or +-i when exactly one part is infinite (even if
   * the other is NaN); NaN otherwise for NaN parts or two infinite parts.
   */
  static void sign(double x, double y, double[] r) {
    boolean ix = Double.isInfinite(x);
    boolean iy = Double.isInfinite(y);
    if (ix && !iy) {
      r[0] = Math.copySign(1, x);
      r[1] = 0;
    } else if (iy && !ix) {
      r[0] = 0;
      r[1] = Math.copySign(1, y);
    } else if (ix || Double.isNaN(x) || Double.isNaN(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else {
      double h = Math.hypot(x, y);
      r[0] = h == 0 ? 0 : x / h;
      r[1] = h == 0 ? 0 : y / h;
    }
  }

  static void sqrt(double x, double y, double[] r) {
    if (x == 0 && y == 0) {
      r[0] = 0;
      r[1] = y;
    } else if (Double.isInfinite(y)) {
      r[0] = Double.POSITIVE_INFINITY;
      r[1] = y;
    } else if (Double.isNaN(x)) {
      r[0] = x;
      r[1] = Double.NaN;
    } else if (Double.isInfinite(x)) {
      if (x > 0) {
        r[0] = x;
        r[1] = Double.isNaN(y) ? y : Math.copySign(0.0, y);
      } else {
        r[0] = Double.isNaN(y) ? Double.NaN : 0.0;
        r[1] = Math.copySign(Double.POSITIVE_INFINITY, y);
      }
    } else if (Double.isNaN(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else {
      double ax = Math.abs(x);
      double ay = Math.abs(y);
      double scale = 1;
      if (ax > 0x1p1000 || ay > 0x1p1000) {
        ax *= 0x1p-4;
        ay *= 0x1p-4;
        scale = 0x1p2;
      } else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
        ax *= 0x1p108;
        ay *= 0x1p108;
        scale = 0x1p-54;
      }
      double t = Math.sqrt(0.5 * (ax + Math.hypot(ax, ay)));
      if (x >= 0) {
        r[0] = t * scale;
        r[1] = Math.copySign(ay / (2 * t) * scale, y);
      } else {
        r[0] = ay / (2 * t) * scale;
        r[1] = Math.copySign(t * scale, y);
      }
    }
  }

  static void exp(double x, double y, double[] r) {
    if (y == 0) {
      r[0] = Math.exp(x);
      r[1] = y;
    } else if (Double.isInfinite(x)) {
      if (!Double.isFinite(y)) {
        r[0] = x > 0 ? x : 0.0;
        r[1] = x > 0 ? Double.NaN : 0.0;
      } else if (x > 0) {
        r[0] = x * Math.cos(y);
        r[1] = x * Math.sin(y);
      } else {
        r[0] = Math.copySign(0.0, Math.cos(y));
        r[1] = Math.copySign(0.0, Math.sin(y));
      }
    } else if (Double.isNaN(x) || !Double.isFinite(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else if (x > 709) {
      double e = Math.exp(0.5 * x);
      r[0] = e * Math.cos(y) * e;
      r[1] = e * Math.sin(y) * e;
    } else {
      double e = Math.exp(x);
      r[0] = e * Math.cos(y);
      r[1] = e * Math.sin(y);
    }
  }

  static void log(double x, double y, double[] r) {
    double ax = Math.abs(x);
    double ay = Math.abs(y);
    double re;
    if (Double.isInfinite(ax) || Double.isInfinite(ay)) {
      re = Double.POSITIVE_INFINITY;
    } else if (Double.isNaN(ax) || Double.isNaN(ay)) {
      re = Double.NaN;
    } else {
      double big = Math.max(ax, ay);
      double small = Math.min(ax, ay);
      double h = Math.hypot(big, small);
      if (big == 0) {
        re = Double.NEGATIVE_INFINITY;
      } else if (h > 0.71 && h < 1.73) {
        re = 0.5 * Math.log1p((big - 1) * (big + 1) + small * small);
      } else {
        re = Math.log(h);
      }
    }
    r[1] = Math.atan2(y, x);
    r[0] = re;
  }

  static void log2(double x, double y, double[] r) {
    log(x, y, r);
    r[0] *= LOG2E;
    r[1] *= LOG2E;
  }

  static void log10(double x, double y, double[] r) {
    log(x, y, r);
    r[0] *= LOG10E;
    r[1] *= LOG10E;
  }

  /**
   * Complex expm1: NumPy's formula for finite values; the Array API standard's special cases for
   * zero, infinite and NaN parts (NumPy gives NaN parts for most of those), conjugate-symmetric.
   */
  static void expm1(double x, double y, double[] r) {
    if (!Double.isFinite(x) || (x == 0 && y == 0)) {
      expm1Special(x, y, r);
      return;
    }
    double a = Math.sin(y / 2);
    r[0] = Math.expm1(x) * Math.cos(y) - 2 * a * a;
    r[1] = Math.exp(x) * Math.sin(y);
  }

  private static void expm1Special(double x, double y, double[] r) {
    if (x == 0) { // and y == 0: 0 + 0j (+0 real part also for -0)
      r[0] = 0.0;
      r[1] = y;
    } else if (x == Double.NEGATIVE_INFINITY) { // +0 * cis(y) - 1; -1 + 0j for y inf or NaN
      r[0] = -1.0;
      r[1] = Double.isFinite(y) ? 0.0 * Math.sin(y) : Math.copySign(0.0, y);
    } else if (x == Double.POSITIVE_INFINITY) {
      if (y == 0) {
        r[0] = x;
        r[1] = y;
      } else if (Double.isFinite(y)) { // +inf * cis(y) - 1
        r[0] = x * Math.cos(y);
        r[1] = x * Math.sin(y);
      } else {
        r[0] = x;
        r[1] = Double.NaN;
      }
    } else { // NaN real part: NaN + 0j when y is zero, else NaN + NaN j
      r[0] = Double.NaN;
      r[1] = y == 0 ? y : Double.NaN;
    }
  }

  /**
   * NumPy's complex log1p (log of the modulus of 1 + z; not accurate for tiny z, like NumPy's). For
   * complex64, {@link #log1pFloat} repeats NumPy's float arithmetic.
   */
  static void log1p(double x, double y, double[] r) {
    double l = Math.hypot(x + 1, y);
    r[1] = Math.atan2(y, x + 1);
    r[0] = Math.log(l);
  }

  /** NumPy's complex64 log1p, in float arithmetic (1 + z rounds to float first). */
  static final Loops.Unary LOG1P_COMPLEX64 =
      (in, out, n) -> {
        float[] a = (float[]) in;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          float xp1 = a[2 * i] + 1.0f;
          float im = a[2 * i + 1];
          o[2 * i + 1] = (float) Math.atan2(im, xp1);
          o[2 * i] = (float) Math.log((float) Math.hypot(xp1, im));
        }
      };

  static void sinh(double x, double y, double[] r) {
    if (y == 0) {
      r[0] = Math.sinh(x);
      r[1] = y;
    } else if (x == 0 && !Double.isFinite(y)) {
      r[0] = x;
      r[1] = Double.NaN;
    } else if (Double.isInfinite(x)) {
      if (Double.isFinite(y)) {
        r[0] = x * Math.cos(y);
        r[1] = Double.POSITIVE_INFINITY * Math.sin(y);
      } else {
        r[0] = Double.POSITIVE_INFINITY; // glibc: +inf whatever the sign of x
        r[1] = Double.NaN;
      }
    } else if (Double.isNaN(x) || !Double.isFinite(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else if (Math.abs(x) > 709) {
      double e = Math.exp(0.5 * Math.abs(x));
      r[0] = Math.copySign(1.0, x) * (0.5 * e * Math.cos(y)) * e;
      r[1] = 0.5 * e * Math.sin(y) * e;
    } else {
      r[0] = Math.sinh(x) * Math.cos(y);
      r[1] = Math.cosh(x) * Math.sin(y);
    }
  }

  static void cosh(double x, double y, double[] r) {
    if (y == 0) {
      r[0] = Math.cosh(x);
      r[1] =
          Double.isFinite(x) ? Math.sinh(x) * y : (Double.isNaN(x) ? y : Math.copySign(1.0, x) * y);
    } else if (x == 0 && !Double.isFinite(y)) {
      r[0] = Double.NaN;
      r[1] = 0.0;
    } else if (Double.isInfinite(x)) {
      if (Double.isFinite(y)) {
        r[0] = Double.POSITIVE_INFINITY * Math.cos(y);
        r[1] = x * Math.sin(y);
      } else {
        r[0] = Double.POSITIVE_INFINITY;
        r[1] = Double.NaN;
      }
    } else if (Double.isNaN(x) || !Double.isFinite(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else if (Math.abs(x) > 709) {
      double e = Math.exp(0.5 * Math.abs(x));
      r[0] = 0.5 * e * Math.cos(y) * e;
      r[1] = Math.copySign(1.0, x) * (0.5 * e * Math.sin(y)) * e;
    } else {
      r[0] = Math.cosh(x) * Math.cos(y);
      r[1] = Math.sinh(x) * Math.sin(y);
    }
  }

  static void tanh(double x, double y, double[] r) {
    if (Double.isInfinite(x)) {
      // the standard: +-1 + 0j with the zero's sign from y (C99 and NumPy: from sin(2y))
      r[0] = Math.copySign(1.0, x);
      r[1] = Math.copySign(0.0, y);
    } else if (Double.isNaN(x)) {
      r[0] = Double.NaN;
      r[1] = y == 0 ? y : Double.NaN;
    } else if (!Double.isFinite(y)) {
      r[0] = x == 0 ? x : Double.NaN;
      r[1] = Double.NaN;
    } else if (Math.abs(x) > 22) {
      r[0] = Math.copySign(1.0, x);
      r[1] = 4 * Math.sin(y) * Math.cos(y) * Math.exp(-2 * Math.abs(x));
    } else {
      double t = Math.tan(y);
      double beta = 1 + t * t;
      double s = Math.sinh(x);
      double rho = Math.sqrt(1 + s * s);
      double den = 1 + beta * s * s;
      r[0] = beta * rho * s / den;
      r[1] = t / den;
    }
  }

  /** sin(z) = -i sinh(iz). */
  static void sin(double x, double y, double[] r) {
    sinh(-y, x, r);
    rotateMinusI(r);
    if (Double.isNaN(r[0]) && Double.isInfinite(r[1])) {
      r[1] = Double.POSITIVE_INFINITY; // glibc's csin: NaN + i inf (the sign is unspecified in C99)
    }
  }

  /** cos(z) = cosh(iz). */
  static void cos(double x, double y, double[] r) {
    cosh(-y, x, r);
  }

  /** tan(z) = -i tanh(iz). */
  static void tan(double x, double y, double[] r) {
    tanh(-y, x, r);
    rotateMinusI(r);
  }

  private static void rotateMinusI(double[] r) {
    double a = r[0];
    r[0] = r[1];
    r[1] = -a;
  }

  /** Kahan's asin for finite arguments. */
  private static void asinFinite(double x, double y, double[] r) {
    double[] s1 = new double[2];
    double[] s2 = new double[2];
    sqrt(1 - x, -y, s1);
    sqrt(1 + x, y, s2);
    double re = Math.atan2(x, s1[0] * s2[0] - s1[1] * s2[1]);
    double im = RealMath.asinh(s1[0] * s2[1] - s1[1] * s2[0]);
    r[0] = re;
    r[1] = im;
  }

  static void asinh(double x, double y, double[] r) {
    if (Double.isInfinite(x) || Double.isInfinite(y)) {
      if (Double.isNaN(x)) {
        r[0] = Math.copySign(Double.POSITIVE_INFINITY, x);
        r[1] = Double.NaN;
      } else if (Double.isNaN(y)) {
        r[0] = x;
        r[1] = Double.NaN;
      } else if (Double.isInfinite(x) && Double.isInfinite(y)) {
        r[0] = x;
        r[1] = Math.copySign(PI / 4, y);
      } else if (Double.isInfinite(x)) {
        r[0] = x;
        r[1] = Math.copySign(0.0, y);
      } else {
        r[0] = Math.copySign(Double.POSITIVE_INFINITY, x);
        r[1] = Math.copySign(HALF_PI, y);
      }
    } else if (Double.isNaN(x)) {
      r[0] = Double.NaN;
      r[1] = y == 0 ? y : Double.NaN;
    } else if (Double.isNaN(y)) {
      r[0] = Double.NaN;
      r[1] = Double.NaN;
    } else {
      asinFinite(-y, x, r);
      rotateMinusI(r);
    }
  }

  /** asin(z) = -i asinh(iz). */
  static void asin(double x, double y, double[] r) {
    asinh(-y, x, r);
    rotateMinusI(r);
  }

  static void acos(double x, double y, double[] r) {
    double negIm = -Math.copySign(Double.POSITIVE_INFINITY, y);
    if (Double.isNaN(x)) {
      r[0] = Double.NaN;
      r[1] = Double.isInfinite(y) ? negIm : Double.NaN;
    } else if (Double.isNaN(y)) {
      r[0] = x == 0 ? HALF_PI : Double.NaN;
      r[1] = Double.isInfinite(x) ? Double.NEGATIVE_INFINITY : Double.NaN;
      if (Double.isInfinite(x)) {
        r[0] = Double.NaN;
      }
    } else if (Double.isInfinite(x)) {
      r[0] = Double.isInfinite(y) ? (x > 0 ? PI / 4 : 3 * PI / 4) : (x > 0 ? 0.0 : PI);
      r[1] = negIm;
    } else if (Double.isInfinite(y)) {
      r[0] = HALF_PI;
      r[1] = negIm;
    } else {
      double[] s1 = new double[2];
      double[] s2 = new double[2];
      sqrt(1 - x, -y, s1);
      sqrt(1 + x, y, s2);
      r[0] = 2 * Math.atan2(s1[0], s2[0]);
      r[1] = RealMath.asinh(s2[0] * s1[1] - s2[1] * s1[0]);
    }
  }

  static void acosh(double x, double y, double[] r) {
    if (Double.isNaN(x) || Double.isNaN(y)) {
      boolean inf = Double.isInfinite(x) || Double.isInfinite(y);
      r[0] = inf ? Double.POSITIVE_INFINITY : Double.NaN;
      r[1] = x == 0 ? HALF_PI : Double.NaN; // glibc: cacosh(0 + i NaN) = NaN + i pi/2
    } else if (Double.isInfinite(x)) {
      r[0] = Double.POSITIVE_INFINITY;
      double angle = Double.isInfinite(y) ? (x > 0 ? PI / 4 : 3 * PI / 4) : (x > 0 ? 0.0 : PI);
      r[1] = Math.copySign(angle, y);
    } else if (Double.isInfinite(y)) {
      r[0] = Double.POSITIVE_INFINITY;
      r[1] = Math.copySign(HALF_PI, y);
    } else {
      double[] s1 = new double[2];
      double[] s2 = new double[2];
      sqrt(x - 1, y, s1);
      sqrt(x + 1, y, s2);
      r[0] = RealMath.asinh(s1[0] * s2[0] + s1[1] * s2[1]);
      r[1] = 2 * Math.atan2(s1[1], s2[0]);
    }
  }

  static void atanh(double x, double y, double[] r) {
    if (Double.isNaN(x)) {
      r[0] = Double.isInfinite(y) ? Math.copySign(0.0, x) : Double.NaN;
      r[1] = Double.isInfinite(y) ? Math.copySign(HALF_PI, y) : Double.NaN;
    } else if (Double.isNaN(y)) {
      r[0] = Double.isInfinite(x) || x == 0 ? Math.copySign(0.0, x) : Double.NaN;
      r[1] = Double.NaN;
    } else if (Double.isInfinite(x) || Double.isInfinite(y)) {
      r[0] = Math.copySign(0.0, x);
      r[1] = Math.copySign(HALF_PI, y);
    } else {
      double ax = Math.abs(x);
      double ay = Math.abs(y);
      if (ax > 1e150 || ay > 1e150) {
        double h = Math.hypot(x, y);
        r[0] = x / h / h;
        r[1] = Math.copySign(HALF_PI, y);
      } else {
        double d = (1 - x) * (1 - x) + y * y;
        double q = 4 * x / d;
        // log1p where the ratio is near 1; otherwise log of the ratio, whose parts are exact-ish
        r[0] =
            0.25
                * (Math.abs(q) < 0.5
                    ? Math.log1p(q)
                    : Math.log((1 + x) * (1 + x) + y * y) - Math.log(d));
        r[1] = 0.5 * Math.atan2(2 * y, (1 - x) * (1 + x) - y * y);
      }
    }
  }

  /** atan(z) = -i atanh(iz). */
  static void atan(double x, double y, double[] r) {
    atanh(-y, x, r);
    rotateMinusI(r);
  }

  /** NumPy's complex power: small integer powers by repeated multiplication, else exp(b log a). */
  static void pow(double ar, double ai, double br, double bi, double[] r) {
    if (br == 0 && bi == 0) {
      r[0] = 1;
      r[1] = 0;
      return;
    }
    if (ar == 0 && ai == 0) {
      boolean zero = br > 0;
      r[0] = zero ? 0 : Double.NaN;
      r[1] = zero ? 0 : Double.NaN;
      return;
    }
    if (bi == 0 && br == Math.rint(br) && Math.abs(br) < 100) {
      int n = (int) br;
      if (n == 1) {
        r[0] = ar;
        r[1] = ai;
        return;
      } else if (n == 2) {
        multiply(ar, ai, ar, ai, r);
        return;
      } else if (n == 3) {
        multiply(ar, ai, ar, ai, r);
        multiply(ar, ai, r[0], r[1], r);
        return;
      }
      int m = Math.abs(n);
      double accR = 1;
      double accI = 0;
      double pR = ar;
      double pI = ai;
      int mask = 1;
      while (true) {
        if ((m & mask) != 0) {
          multiply(accR, accI, pR, pI, r);
          accR = r[0];
          accI = r[1];
        }
        mask <<= 1;
        if (m < mask) {
          break;
        }
        multiply(pR, pI, pR, pI, r);
        pR = r[0];
        pI = r[1];
      }
      if (n < 0) {
        divide(1, 0, accR, accI, r);
      } else {
        r[0] = accR;
        r[1] = accI;
      }
      return;
    }
    log(ar, ai, r);
    multiply(br, bi, r[0], r[1], r);
    exp(r[0], r[1], r);
  }
}
