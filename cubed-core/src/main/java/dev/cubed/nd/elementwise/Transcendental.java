package dev.cubed.nd.elementwise;

import dev.cubed.nd.DType;
import java.util.function.DoubleUnaryOperator;

/**
 * Exponential, logarithmic, trigonometric and hyperbolic functions and their inverses, plus sqrt
 * and atan2. Defined for floating dtypes; integer and bool inputs are promoted to float64 (NumPy
 * would pick float16 or float32 for small integers; this library has no float16). float32 results
 * are computed in double and rounded once, which is at least as accurate as NumPy's float32
 * kernels. Complex arguments go to {@link ComplexMath}.
 */
final class Transcendental {
  private Transcendental() {}

  private static UnaryOp op(String name, DoubleUnaryOperator real, Kernels.C1 complex) {
    return UnaryOp.of(name, Accept.FLOATING)
        .toFloat()
        .real(Kernels.real(real))
        .complex(Kernels.complex(complex));
  }

  static final UnaryOp EXP = op("exp", Math::exp, ComplexMath::exp);
  static final UnaryOp EXPM1 = op("expm1", Math::expm1, ComplexMath::expm1);
  static final UnaryOp LOG = op("log", Math::log, ComplexMath::log);
  static final UnaryOp LOG1P =
      op("log1p", Math::log1p, ComplexMath::log1p)
          .fast(DType.COMPLEX64, ComplexMath.LOG1P_COMPLEX64);
  static final UnaryOp LOG2 = op("log2", RealMath::log2, ComplexMath::log2);
  static final UnaryOp LOG10 = op("log10", Math::log10, ComplexMath::log10);
  static final UnaryOp SQRT =
      op("sqrt", Math::sqrt, ComplexMath::sqrt)
          .fast(DType.FLOAT64, FastUnary.SQRT_F64)
          .fast(DType.FLOAT32, FastUnary.SQRT_F32);
  static final UnaryOp SIN =
      op("sin", Math::sin, ComplexMath::sin).fast(DType.FLOAT64, FastTrig.SIN_F64);
  static final UnaryOp COS =
      op("cos", Math::cos, ComplexMath::cos).fast(DType.FLOAT64, FastTrig.COS_F64);
  static final UnaryOp TAN = op("tan", Math::tan, ComplexMath::tan);
  static final UnaryOp ASIN = op("asin", Math::asin, ComplexMath::asin);
  static final UnaryOp ACOS = op("acos", Math::acos, ComplexMath::acos);
  static final UnaryOp ATAN = op("atan", Math::atan, ComplexMath::atan);
  static final UnaryOp SINH = op("sinh", Math::sinh, ComplexMath::sinh);
  static final UnaryOp COSH = op("cosh", Math::cosh, ComplexMath::cosh);
  static final UnaryOp TANH = op("tanh", Math::tanh, ComplexMath::tanh);
  static final UnaryOp ASINH = op("asinh", RealMath::asinh, ComplexMath::asinh);
  static final UnaryOp ACOSH = op("acosh", RealMath::acosh, ComplexMath::acosh);
  static final UnaryOp ATANH = op("atanh", RealMath::atanh, ComplexMath::atanh);

  static final BinaryOp ATAN2 =
      BinaryOp.of("atan2", Accept.REAL_FLOATING).toFloat().real(Kernels.real(Math::atan2));
}
