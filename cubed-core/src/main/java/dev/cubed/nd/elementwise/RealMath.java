package dev.cubed.nd.elementwise;

/**
 * Scalar real functions the JDK lacks or defines differently from C99/NumPy: inverse hyperbolic
 * functions, exact log2 of powers of two, logaddexp, Python-style floor division and remainder
 * (NumPy's divmod algorithm), pow with C99's special cases, and integer power with wrapping.
 */
final class RealMath {
  private RealMath() {}

  private static final double LN2 = 0.6931471805599453;
  private static final double TWO28 = 268435456.0;

  static double asinh(double x) {
    double a = Math.abs(x);
    if (Double.isNaN(x) || Double.isInfinite(x) || a < 0x1p-28) {
      return x;
    }
    double r;
    if (a > TWO28) {
      r = Math.log(a) + LN2;
    } else if (a > 2) {
      r = Math.log(2 * a + 1 / (Math.sqrt(a * a + 1) + a));
    } else {
      double t = a * a;
      r = Math.log1p(a + t / (1 + Math.sqrt(1 + t)));
    }
    return Math.copySign(r, x);
  }

  static double acosh(double x) {
    if (Double.isNaN(x) || x < 1) {
      return Double.NaN;
    }
    if (x >= TWO28) {
      return Double.isInfinite(x) ? x : Math.log(x) + LN2;
    }
    if (x == 1) {
      return 0;
    }
    if (x > 2) {
      return Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
    }
    double t = x - 1;
    return Math.log1p(t + Math.sqrt(2 * t + t * t));
  }

  static double atanh(double x) {
    double a = Math.abs(x);
    if (Double.isNaN(x) || a > 1) {
      return Double.NaN;
    }
    if (a == 1) {
      return Math.copySign(Double.POSITIVE_INFINITY, x);
    }
    if (a < 0x1p-28) {
      return x;
    }
    double r =
        a < 0.5 ? 0.5 * Math.log1p(2 * a + 2 * a * a / (1 - a)) : 0.5 * Math.log1p(2 * a / (1 - a));
    return Math.copySign(r, x);
  }

  /** log2, exact for powers of two. */
  static double log2(double x) {
    if (!(x > 0) || Double.isInfinite(x)) {
      return Math.log(x); // NaN, -inf for 0, NaN for negatives, +inf
    }
    int e = Math.getExponent(x);
    if (e < Double.MIN_EXPONENT) { // subnormal
      x *= 0x1p54;
      e = Math.getExponent(x) - 54;
      return e + Math.log(x / Math.scalb(1.0, e + 54)) / LN2;
    }
    double m = x / Math.scalb(1.0, e); // in [1, 2)
    if (m > Math.sqrt(2)) {
      m /= 2;
      e += 1;
    }
    return e + Math.log(m) / LN2;
  }

  /** NumPy's logaddexp: log(exp(x) + exp(y)) without overflow. */
  static double logaddexp(double x, double y) {
    if (x == y) {
      return x + LN2; // handles infinities of the same sign
    }
    double t = x - y;
    if (t > 0) {
      return x + Math.log1p(Math.exp(-t));
    } else if (t <= 0) {
      return y + Math.log1p(Math.exp(t));
    }
    return t; // NaN
  }

  /** Python/NumPy floor division of doubles. */
  static double floorDivide(double a, double b) {
    if (b == 0 || Double.isInfinite(a) || Double.isInfinite(b)) {
      // the standard's special cases (floor(a / b)): inf by finite is a signed infinity, finite
      // by inf a signed zero, inf by inf NaN (NumPy's divmod gives NaN, -1 or 0 here instead)
      return a / b;
    }
    double mod = a % b;
    double div = (a - mod) / b;
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) {
        div -= 1.0;
      }
    }
    if (div != 0) {
      double f = Math.floor(div);
      if (div - f > 0.5) {
        f += 1.0;
      }
      return f;
    }
    return Math.copySign(0.0, a / b);
  }

  /** Python/NumPy remainder of doubles: the sign of the divisor. */
  static double remainder(double a, double b) {
    double mod = a % b;
    if (b == 0) {
      return mod;
    }
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) {
        mod += b;
      }
      return mod;
    }
    return Math.copySign(0.0, b);
  }

  /** The float32 version of {@link #floorDivide}, computed in float arithmetic like NumPy. */
  static float floorDivide(float a, float b) {
    if (b == 0 || Float.isInfinite(a) || Float.isInfinite(b)) { // as the double version
      return a / b;
    }
    float mod = a % b;
    float div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) {
      div -= 1.0f;
    }
    if (div != 0) {
      float f = (float) Math.floor(div);
      if (div - f > 0.5f) {
        f += 1.0f;
      }
      return f;
    }
    return Math.copySign(0.0f, a / b);
  }

  /** The float32 version of {@link #remainder}. */
  static float remainder(float a, float b) {
    float mod = a % b;
    if (b == 0) {
      return mod;
    }
    if (mod != 0) {
      return (b < 0) != (mod < 0) ? mod + b : mod;
    }
    return Math.copySign(0.0f, b);
  }

  /** pow with C99's special cases where Java's differ: pow(1, y) = 1 and pow(-1, +-inf) = 1. */
  static double pow(double x, double y) {
    if (x == 1.0 || (x == -1.0 && Double.isInfinite(y))) {
      return 1.0;
    }
    return Math.pow(x, y);
  }

  /** Integer power by squaring, wrapping on overflow; {@code e} taken as unsigned bits. */
  static long ipow(long b, long e) {
    long r = 1;
    while (e != 0) {
      if ((e & 1) != 0) {
        r *= b;
      }
      b *= b;
      e >>>= 1;
    }
    return r;
  }

  /** Python floor division of signed longs; 0 for division by zero (NumPy). */
  static long floorDivide(long a, long b) {
    return b == 0 ? 0 : Math.floorDiv(a, b);
  }

  /** Python remainder of signed longs; 0 for division by zero (NumPy). */
  static long remainder(long a, long b) {
    return b == 0 ? 0 : Math.floorMod(a, b);
  }

  /** NumPy's sign: NaN for NaN, 0 for +-0. */
  static double sign(double x) {
    return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
  }

  /** NumPy's maximum: NaN if either is NaN; the second operand on ties. */
  static double maximum(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    return a > b ? a : b;
  }

  /** NumPy's minimum: NaN if either is NaN; the second operand on ties. */
  static double minimum(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    return a < b ? a : b;
  }
}
