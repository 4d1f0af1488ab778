package dev.cubed.nd.elementwise;

import static dev.cubed.nd.DType.FLOAT32;
import static dev.cubed.nd.DType.FLOAT64;
import static dev.cubed.nd.DType.INT32;
import static dev.cubed.nd.DType.INT64;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * Arithmetic elementwise functions: add, subtract, multiply, divide, floor_divide, remainder, pow,
 * maximum, minimum, copysign, hypot, logaddexp, nextafter, negative, positive, square, reciprocal,
 * abs, sign, real, imag, conj. Integers wrap (two's complement); integer floor_divide and remainder
 * by zero give 0 as in NumPy; float floor_divide and remainder use NumPy's divmod (Python sign
 * rules).
 */
final class Arithmetic {
  private Arithmetic() {}

  /** A float function of two floats, for float32 loops computed in float arithmetic. */
  @FunctionalInterface
  interface FF2F {
    float apply(float a, float b);
  }

  /** A row loop over native {@code float[]} storage. */
  static Loops.Binary floats(FF2F f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      float[] a = (float[]) x;
      float[] b = (float[]) y;
      float[] o = (float[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.apply(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static final BinaryOp ADD =
      BinaryOp.of("add", Accept.NUMERIC)
          .real(Kernels.real((a, b) -> a + b))
          .ints(Kernels.ints((a, b) -> a + b))
          .complex(
              Kernels.complex(
                  (ar, ai, br, bi, r) -> {
                    r[0] = ar + br;
                    r[1] = ai + bi;
                  }))
          .fast(FLOAT64, FastArithmetic.ADD_F64)
          .fast(FLOAT32, FastArithmetic.ADD_F32)
          .fast(INT32, FastArithmetic.ADD_I32)
          .fast(INT64, FastArithmetic.ADD_I64);

  static final BinaryOp SUBTRACT =
      BinaryOp.of("subtract", Accept.NUMERIC)
          .real(Kernels.real((a, b) -> a - b))
          .ints(Kernels.ints((a, b) -> a - b))
          .complex(
              Kernels.complex(
                  (ar, ai, br, bi, r) -> {
                    r[0] = ar - br;
                    r[1] = ai - bi;
                  }))
          .fast(FLOAT64, FastArithmetic.SUBTRACT_F64)
          .fast(FLOAT32, FastArithmetic.SUBTRACT_F32)
          .fast(INT32, FastArithmetic.SUBTRACT_I32)
          .fast(INT64, FastArithmetic.SUBTRACT_I64);

  static final BinaryOp MULTIPLY =
      BinaryOp.of("multiply", Accept.NUMERIC)
          .real(Kernels.real((a, b) -> a * b))
          .ints(Kernels.ints((a, b) -> a * b))
          .complex(Kernels.complex(ComplexMath::multiply))
          .fast(FLOAT64, FastArithmetic.MULTIPLY_F64)
          .fast(FLOAT32, FastArithmetic.MULTIPLY_F32)
          .fast(INT32, FastArithmetic.MULTIPLY_I32)
          .fast(INT64, FastArithmetic.MULTIPLY_I64);

  static final BinaryOp DIVIDE =
      BinaryOp.of("divide", Accept.FLOATING)
          .toFloat()
          .real(Kernels.real((a, b) -> a / b))
          .complex(Kernels.complex(ComplexMath::divide))
          .fast(FLOAT64, FastArithmetic.DIVIDE_F64)
          .fast(FLOAT32, FastArithmetic.DIVIDE_F32);

  static final BinaryOp FLOOR_DIVIDE =
      BinaryOp.of("floor_divide", Accept.REAL_NUMERIC)
          .real(Kernels.real(RealMath::floorDivide))
          .fast(FLOAT32, floats(RealMath::floorDivide))
          .ints(Kernels.ints(RealMath::floorDivide))
          .u64(Kernels.ints((a, b) -> b == 0 ? 0 : Long.divideUnsigned(a, b)));

  static final BinaryOp REMAINDER =
      BinaryOp.of("remainder", Accept.REAL_NUMERIC)
          .real(Kernels.real(RealMath::remainder))
          .fast(FLOAT32, floats(RealMath::remainder))
          .ints(Kernels.ints(RealMath::remainder))
          .u64(Kernels.ints((a, b) -> b == 0 ? 0 : Long.remainderUnsigned(a, b)));

  static final BinaryOp POW =
      BinaryOp.of("pow", Accept.NUMERIC)
          .real(Kernels.real(RealMath::pow))
          .ints(
              Kernels.ints(
                  (a, b) -> {
                    if (b < 0) {
                      throw new IllegalArgumentException(
                          "pow: integer base to a negative integer exponent ("
                              + b
                              + ") is not supported: the"
                              + " result is not an integer; convert to a floating dtype first");
                    }
                    return RealMath.ipow(a, b);
                  }))
          .u64(Kernels.ints(RealMath::ipow))
          .complex(Kernels.complex(ComplexMath::pow))
          .fast(FLOAT64, FastArithmetic.POW_F64)
          .fast(FLOAT32, FastArithmetic.POW_F32);

  static final BinaryOp MAXIMUM =
      BinaryOp.of("maximum", Accept.REAL_NUMERIC)
          .real(Kernels.real(RealMath::maximum))
          .ints(Kernels.ints(Math::max))
          .u64(Kernels.ints((a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b));

  static final BinaryOp MINIMUM =
      BinaryOp.of("minimum", Accept.REAL_NUMERIC)
          .real(Kernels.real(RealMath::minimum))
          .ints(Kernels.ints(Math::min))
          .u64(Kernels.ints((a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b));

  static final BinaryOp COPYSIGN =
      BinaryOp.of("copysign", Accept.REAL_FLOATING).toFloat().real(Kernels.real(Math::copySign));

  static final BinaryOp HYPOT =
      BinaryOp.of("hypot", Accept.REAL_FLOATING).toFloat().real(Kernels.real(Math::hypot));

  static final BinaryOp LOGADDEXP =
      BinaryOp.of("logaddexp", Accept.REAL_FLOATING)
          .toFloat()
          .real(Kernels.real(RealMath::logaddexp));

  static final BinaryOp NEXTAFTER =
      BinaryOp.of("nextafter", Accept.REAL_FLOATING)
          .toFloat()
          .real(Kernels.real(Math::nextAfter))
          .fast(FLOAT32, floats((a, b) -> Math.nextAfter(a, (double) b)));

  static final UnaryOp NEGATIVE =
      UnaryOp.of("negative", Accept.NUMERIC)
          .real(Kernels.real(a -> -a))
          .ints(Kernels.ints(a -> -a))
          .complex(
              Kernels.complex(
                  (x, y, r) -> {
                    r[0] = -x;
                    r[1] = -y;
                  }))
          .fast(FLOAT64, FastUnary.NEGATIVE_F64)
          .fast(FLOAT32, FastUnary.NEGATIVE_F32);

  static final UnaryOp POSITIVE =
      UnaryOp.of("positive", Accept.NUMERIC)
          .real(Kernels.IDENTITY)
          .ints(Kernels.IDENTITY)
          .complex(Kernels.IDENTITY);

  static final UnaryOp SQUARE =
      UnaryOp.of("square", Accept.NUMERIC)
          .real(Kernels.real(a -> a * a))
          .ints(Kernels.ints(a -> a * a))
          .complex(Kernels.complex((x, y, r) -> ComplexMath.multiply(x, y, x, y, r)))
          .fast(FLOAT64, FastUnary.SQUARE_F64)
          .fast(FLOAT32, FastUnary.SQUARE_F32);

  static final UnaryOp RECIPROCAL =
      UnaryOp.of("reciprocal", Accept.FLOATING)
          .toFloat()
          .real(Kernels.real(a -> 1.0 / a))
          .complex(Kernels.complex(ComplexMath::reciprocal));

  static final UnaryOp ABS =
      UnaryOp.of("abs", Accept.NUMERIC, UnaryOp.Out.REAL_OF_COMPLEX)
          .real(Kernels.real(Math::abs))
          .ints(Kernels.ints(Math::abs))
          .u64(Kernels.IDENTITY)
          .complex(Kernels.complexToReal(Math::hypot))
          .fast(FLOAT64, FastUnary.ABS_F64)
          .fast(FLOAT32, FastUnary.ABS_F32);

  static final UnaryOp SIGN =
      UnaryOp.of("sign", Accept.NUMERIC)
          .real(Kernels.real(RealMath::sign))
          .ints(Kernels.ints(Long::signum))
          .u64(Kernels.ints(a -> a == 0 ? 0 : 1))
          .complex(Kernels.complex(ComplexMath::sign));

  static final UnaryOp REAL =
      UnaryOp.of("real", Accept.NUMERIC, UnaryOp.Out.REAL_OF_COMPLEX)
          .real(Kernels.IDENTITY)
          .ints(Kernels.IDENTITY)
          .complex(Kernels.complexToReal((x, y) -> x));

  static final UnaryOp IMAG =
      UnaryOp.of("imag", Accept.NUMERIC, UnaryOp.Out.REAL_OF_COMPLEX)
          .real(Kernels.real(a -> 0.0))
          .ints(Kernels.ints(a -> 0))
          .complex(Kernels.complexToReal((x, y) -> y));

  static final UnaryOp CONJ =
      UnaryOp.of("conj", Accept.NUMERIC)
          .real(Kernels.IDENTITY)
          .ints(Kernels.IDENTITY)
          .complex(
              Kernels.complex(
                  (x, y, r) -> {
                    r[0] = x;
                    r[1] = -y;
                  }));

  /**
   * clip: {@code minimum(maximum(x, min), max)} in the promoted dtype, returned in x's dtype (the
   * standard's rule); a null bound is absent.
   */
  static NDArray clip(NDArray x, NDArray min, NDArray max) {
    return clip(x, min, max, null);
  }

  /**
   * {@link #clip(NDArray, NDArray, NDArray)}, the float64 one-pass case written into {@code buf}
   * when it is a float64 array of x's shape (returned then; else a new array, same values).
   */
  static NDArray clip(NDArray x, NDArray min, NDArray max, NDArray buf) {
    DType t = x.dtype();
    Accept.REAL_NUMERIC.check("clip", t, t);
    if (t == DType.FLOAT64
        && scalarBound(min)
        && scalarBound(max)
        && (min != null || max != null)) {
      boolean into =
          buf != null
              && buf.dtype() == DType.FLOAT64
              && java.util.Arrays.equals(buf.shape(), x.shape());
      return clipScalars(x, min, max, into ? buf : NDArray.empty(DType.FLOAT64, x.shape()));
    }
    NDArray r = x;
    if (min != null) {
      Accept.REAL_NUMERIC.check("clip", min.dtype(), t, min.dtype());
      r = MAXIMUM.apply(r, min);
    }
    if (max != null) {
      Accept.REAL_NUMERIC.check("clip", max.dtype(), t, max.dtype());
      r = MINIMUM.apply(r, max);
    }
    if (r == x) {
      return x.copy();
    }
    return r.dtype() == t ? r : r.astype(t);
  }

  /** A bound the one-pass float64 clip takes: absent, or a float64 scalar (0-d). */
  private static boolean scalarBound(NDArray b) {
    return b == null || (b.ndim() == 0 && b.dtype() == DType.FLOAT64);
  }

  /**
   * clip of float64 {@code x} between scalar bounds in one pass into {@code out} (a float64 array
   * of x's shape, which may be x), with the results of {@link #MAXIMUM} then {@link #MINIMUM} (NaN
   * in x or a bound gives NaN; a bound equal to x, as 0.0 and -0.0, gives the bound).
   */
  private static NDArray clipScalars(NDArray x, NDArray min, NDArray max, NDArray out) {
    double[] a = (double[]) x.data();
    double[] o = (double[]) out.data();
    int n = x.size();
    boolean hasLo = min != null;
    boolean hasHi = max != null;
    double lo = hasLo ? ((double[]) min.data())[0] : 0;
    double hi = hasHi ? ((double[]) max.data())[0] : 0;
    if (hasLo && hasHi && !Double.isNaN(lo) && !Double.isNaN(hi) && lo != 0 && hi != 0) {
      // Math.max/min: branch-free (vector max/min), NaN in x gives NaN; equal to the loop below
      // except for zeros of the other sign, which nonzero bounds never meet
      for (int i = 0; i < n; i++) {
        o[i] = Math.min(Math.max(a[i], lo), hi);
      }
      return out;
    }
    if (hasLo && hasHi && !Double.isNaN(lo) && !Double.isNaN(hi)) {
      for (int i = 0; i < n; i++) {
        double v = a[i];
        if (v != v) {
          o[i] = Double.NaN;
        } else {
          double r = v > lo ? v : lo;
          o[i] = r < hi ? r : hi;
        }
      }
      return out;
    }
    for (int i = 0; i < n; i++) {
      double r = a[i];
      if (hasLo) {
        r = r != r || lo != lo ? Double.NaN : r > lo ? r : lo;
      }
      if (hasHi) {
        r = r != r || hi != hi ? Double.NaN : r < hi ? r : hi;
      }
      o[i] = r;
    }
    return out;
  }
}
