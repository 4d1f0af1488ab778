package dev.cubed.nd.elementwise;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.NDArray;

/**
 * The elementwise functions of the Python Array API standard (2025.12) on in-memory {@link NDArray}
 * chunks, named in lowerCamelCase ({@code bitwise_left_shift} is {@link #bitwiseLeftShift}).
 *
 * <p><b>Contract shared by every function.</b>
 *
 * <ul>
 *   <li>Shapes broadcast with NumPy's rules; the result is a new C-order array of the broadcast
 *       shape. Shapes that do not broadcast throw an {@link IllegalArgumentException} naming the
 *       function and both shapes.
 *   <li>Binary functions take each operand as an {@link NDArray} or a Java scalar ({@link Boolean},
 *       an integer type, {@link Float}/{@link Double} or {@link Complex}); at least one must be an
 *       array (two scalars throw an {@link IllegalArgumentException}). Two arrays promote with
 *       {@link DType#resultType(DType, DType)}; a scalar takes the array's dtype as in {@link
 *       DType#resultType(DType, Object)}, and an integer scalar out of the integer dtype's range
 *       throws.
 *   <li>Each function accepts the dtypes the standard defines it for (stated per method); integer
 *       and bool inputs of functions defined only for floating types are promoted to float64, as
 *       NumPy does (NumPy picks float16/float32 for small integers; this library has no float16).
 *       Any other dtype throws an {@link IllegalArgumentException} naming the function, the dtypes
 *       and the rule.
 *   <li>Comparison, logical and classification functions return bool arrays; abs, real and imag of
 *       complex arrays return the real dtype of the same precision; every other function returns
 *       the promoted dtype.
 *   <li>Special values follow the standard (IEEE 754 and C99 Annex G as NumPy on Linux): NaN
 *       propagates, signed zeros and infinities as specified; integer arithmetic wraps (two's
 *       complement); integer floor_divide and remainder by zero give 0; round is half to even.
 *   <li>float32 and complex64 results are computed in double precision and rounded once, except the
 *       IEEE-exact operations (+ - * / sqrt, comparisons), which are exact either way.
 * </ul>
 */
public final class Elementwise {
  private Elementwise() {}

  /** {@code add}: x1 + x2. dtypes: numeric. */
  public static NDArray add(Object x1, Object x2) {
    return Arithmetic.ADD.apply(x1, x2);
  }

  /**
   * {@code atan2}: the angle of the point (x2, x1), with C99's signed-zero and infinity cases.
   * dtypes: real floating; integers promote to float64.
   */
  public static NDArray atan2(Object x1, Object x2) {
    return Transcendental.ATAN2.apply(x1, x2);
  }

  /** {@code bitwise_and}: x1 &amp; x2. dtypes: integer or bool. */
  public static NDArray bitwiseAnd(Object x1, Object x2) {
    return Bitwise.AND.apply(x1, x2);
  }

  /**
   * {@code bitwise_left_shift}: x1 &lt;&lt; x2 (a count of at least the bit width gives 0). dtypes:
   * integer.
   */
  public static NDArray bitwiseLeftShift(Object x1, Object x2) {
    return Bitwise.LEFT_SHIFT.apply(x1, x2);
  }

  /** {@code bitwise_or}: x1 | x2. dtypes: integer or bool. */
  public static NDArray bitwiseOr(Object x1, Object x2) {
    return Bitwise.OR.apply(x1, x2);
  }

  /**
   * {@code bitwise_right_shift}: x1 &gt;&gt; x2, arithmetic for signed and logical for unsigned
   * dtypes. dtypes: integer.
   */
  public static NDArray bitwiseRightShift(Object x1, Object x2) {
    return Bitwise.RIGHT_SHIFT.apply(x1, x2);
  }

  /** {@code bitwise_xor}: x1 ^ x2. dtypes: integer or bool. */
  public static NDArray bitwiseXor(Object x1, Object x2) {
    return Bitwise.XOR.apply(x1, x2);
  }

  /**
   * {@code copysign}: |x1| with the sign bit of x2. dtypes: real floating; integers promote to
   * float64.
   */
  public static NDArray copysign(Object x1, Object x2) {
    return Arithmetic.COPYSIGN.apply(x1, x2);
  }

  /**
   * {@code divide}: x1 / x2 (complex: Smith's algorithm). dtypes: floating; integers promote to
   * float64.
   */
  public static NDArray divide(Object x1, Object x2) {
    return Arithmetic.DIVIDE.apply(x1, x2);
  }

  /** {@code equal}: x1 == x2 as bool. dtypes: any. */
  public static NDArray equal(Object x1, Object x2) {
    return Comparison.EQUAL.apply(x1, x2);
  }

  /**
   * {@code floor_divide}: floor(x1 / x2) with Python's rules; integer division by zero gives 0.
   * dtypes: real numeric.
   */
  public static NDArray floorDivide(Object x1, Object x2) {
    return Arithmetic.FLOOR_DIVIDE.apply(x1, x2);
  }

  /** {@code greater}: x1 &gt; x2 as bool. dtypes: real numeric. */
  public static NDArray greater(Object x1, Object x2) {
    return Comparison.GREATER.apply(x1, x2);
  }

  /** {@code greater_equal}: x1 &gt;= x2 as bool. dtypes: real numeric. */
  public static NDArray greaterEqual(Object x1, Object x2) {
    return Comparison.GREATER_EQUAL.apply(x1, x2);
  }

  /**
   * {@code hypot}: sqrt(x1² + x2²) without overflow. dtypes: real floating; integers promote to
   * float64.
   */
  public static NDArray hypot(Object x1, Object x2) {
    return Arithmetic.HYPOT.apply(x1, x2);
  }

  /** {@code less}: x1 &lt; x2 as bool. dtypes: real numeric. */
  public static NDArray less(Object x1, Object x2) {
    return Comparison.LESS.apply(x1, x2);
  }

  /** {@code less_equal}: x1 &lt;= x2 as bool. dtypes: real numeric. */
  public static NDArray lessEqual(Object x1, Object x2) {
    return Comparison.LESS_EQUAL.apply(x1, x2);
  }

  /**
   * {@code logaddexp}: log(exp(x1) + exp(x2)) without overflow. dtypes: real floating; integers
   * promote to float64.
   */
  public static NDArray logaddexp(Object x1, Object x2) {
    return Arithmetic.LOGADDEXP.apply(x1, x2);
  }

  /** {@code logical_and}: x1 AND x2. dtypes: bool. */
  public static NDArray logicalAnd(Object x1, Object x2) {
    return Comparison.LOGICAL_AND.apply(x1, x2);
  }

  /** {@code logical_or}: x1 OR x2. dtypes: bool. */
  public static NDArray logicalOr(Object x1, Object x2) {
    return Comparison.LOGICAL_OR.apply(x1, x2);
  }

  /** {@code logical_xor}: x1 XOR x2. dtypes: bool. */
  public static NDArray logicalXor(Object x1, Object x2) {
    return Comparison.LOGICAL_XOR.apply(x1, x2);
  }

  /** {@code maximum}: the larger element; NaN if either is NaN. dtypes: real numeric. */
  public static NDArray maximum(Object x1, Object x2) {
    return Arithmetic.MAXIMUM.apply(x1, x2);
  }

  /** {@code minimum}: the smaller element; NaN if either is NaN. dtypes: real numeric. */
  public static NDArray minimum(Object x1, Object x2) {
    return Arithmetic.MINIMUM.apply(x1, x2);
  }

  /** {@code multiply}: x1 * x2. dtypes: numeric. */
  public static NDArray multiply(Object x1, Object x2) {
    return Arithmetic.MULTIPLY.apply(x1, x2);
  }

  /**
   * {@code nextafter}: the next representable value after x1 towards x2. dtypes: real floating;
   * integers promote to float64.
   */
  public static NDArray nextafter(Object x1, Object x2) {
    return Arithmetic.NEXTAFTER.apply(x1, x2);
  }

  /** {@code not_equal}: x1 != x2 as bool. dtypes: any. */
  public static NDArray notEqual(Object x1, Object x2) {
    return Comparison.NOT_EQUAL.apply(x1, x2);
  }

  /**
   * {@code pow}: x1 raised to x2 (integers: wrapping; a negative integer exponent throws). dtypes:
   * numeric.
   */
  public static NDArray pow(Object x1, Object x2) {
    return Arithmetic.POW.apply(x1, x2);
  }

  /**
   * {@code remainder}: x1 - floor_divide(x1, x2) * x2, with the sign of x2; integer remainder by
   * zero gives 0. dtypes: real numeric.
   */
  public static NDArray remainder(Object x1, Object x2) {
    return Arithmetic.REMAINDER.apply(x1, x2);
  }

  /** {@code subtract}: x1 - x2. dtypes: numeric. */
  public static NDArray subtract(Object x1, Object x2) {
    return Arithmetic.SUBTRACT.apply(x1, x2);
  }

  /**
   * {@code abs}: |x| (complex: the modulus, of the real dtype of the same precision); integer
   * minimum wraps. dtypes: numeric.
   */
  public static NDArray abs(NDArray x) {
    return Arithmetic.ABS.apply(x);
  }

  /** {@code acos}: inverse cosine. dtypes: floating; integers promote to float64. */
  public static NDArray acos(NDArray x) {
    return Transcendental.ACOS.apply(x);
  }

  /** {@code acosh}: inverse hyperbolic cosine. dtypes: floating; integers promote to float64. */
  public static NDArray acosh(NDArray x) {
    return Transcendental.ACOSH.apply(x);
  }

  /** {@code asin}: inverse sine. dtypes: floating; integers promote to float64. */
  public static NDArray asin(NDArray x) {
    return Transcendental.ASIN.apply(x);
  }

  /** {@code asinh}: inverse hyperbolic sine. dtypes: floating; integers promote to float64. */
  public static NDArray asinh(NDArray x) {
    return Transcendental.ASINH.apply(x);
  }

  /** {@code atan}: inverse tangent. dtypes: floating; integers promote to float64. */
  public static NDArray atan(NDArray x) {
    return Transcendental.ATAN.apply(x);
  }

  /** {@code atanh}: inverse hyperbolic tangent. dtypes: floating; integers promote to float64. */
  public static NDArray atanh(NDArray x) {
    return Transcendental.ATANH.apply(x);
  }

  /** {@code bitwise_invert}: ~x (bool: logical not). dtypes: integer or bool. */
  public static NDArray bitwiseInvert(NDArray x) {
    return Bitwise.INVERT.apply(x);
  }

  /**
   * {@code ceil}: the smallest integral value &gt;= x (integers unchanged). dtypes: real numeric.
   */
  public static NDArray ceil(NDArray x) {
    return Rounding.CEIL.apply(x);
  }

  /** {@code conj}: the complex conjugate (real dtypes unchanged). dtypes: numeric. */
  public static NDArray conj(NDArray x) {
    return Arithmetic.CONJ.apply(x);
  }

  /** {@code cos}: cosine. dtypes: floating; integers promote to float64. */
  public static NDArray cos(NDArray x) {
    return Transcendental.COS.apply(x);
  }

  /** {@code cosh}: hyperbolic cosine. dtypes: floating; integers promote to float64. */
  public static NDArray cosh(NDArray x) {
    return Transcendental.COSH.apply(x);
  }

  /** {@code exp}: e^x. dtypes: floating; integers promote to float64. */
  public static NDArray exp(NDArray x) {
    return Transcendental.EXP.apply(x);
  }

  /** {@code expm1}: e^x - 1, accurate near 0. dtypes: floating; integers promote to float64. */
  public static NDArray expm1(NDArray x) {
    return Transcendental.EXPM1.apply(x);
  }

  /**
   * {@code floor}: the largest integral value &lt;= x (integers unchanged). dtypes: real numeric.
   */
  public static NDArray floor(NDArray x) {
    return Rounding.FLOOR.apply(x);
  }

  /**
   * {@code imag}: the imaginary part, of the real dtype of the same precision. dtypes: complex (the
   * standard); real numeric arrays give zeros of their dtype, as in NumPy.
   */
  public static NDArray imag(NDArray x) {
    return Arithmetic.IMAG.apply(x);
  }

  /** {@code isfinite}: true where x is finite (complex: both parts). dtypes: any. */
  public static NDArray isfinite(NDArray x) {
    return Comparison.ISFINITE.apply(x);
  }

  /** {@code isinf}: true where x is infinite (complex: either part). dtypes: any. */
  public static NDArray isinf(NDArray x) {
    return Comparison.ISINF.apply(x);
  }

  /** {@code isnan}: true where x is NaN (complex: either part). dtypes: any. */
  public static NDArray isnan(NDArray x) {
    return Comparison.ISNAN.apply(x);
  }

  /** {@code log}: natural logarithm. dtypes: floating; integers promote to float64. */
  public static NDArray log(NDArray x) {
    return Transcendental.LOG.apply(x);
  }

  /** {@code log1p}: log(1 + x), accurate near 0. dtypes: floating; integers promote to float64. */
  public static NDArray log1p(NDArray x) {
    return Transcendental.LOG1P.apply(x);
  }

  /** {@code log2}: base-2 logarithm. dtypes: floating; integers promote to float64. */
  public static NDArray log2(NDArray x) {
    return Transcendental.LOG2.apply(x);
  }

  /** {@code log10}: base-10 logarithm. dtypes: floating; integers promote to float64. */
  public static NDArray log10(NDArray x) {
    return Transcendental.LOG10.apply(x);
  }

  /** {@code logical_not}: NOT x. dtypes: bool. */
  public static NDArray logicalNot(NDArray x) {
    return Comparison.LOGICAL_NOT.apply(x);
  }

  /** {@code negative}: -x (integers wrap). dtypes: numeric. */
  public static NDArray negative(NDArray x) {
    return Arithmetic.NEGATIVE.apply(x);
  }

  /** {@code positive}: +x (a copy). dtypes: numeric. */
  public static NDArray positive(NDArray x) {
    return Arithmetic.POSITIVE.apply(x);
  }

  /**
   * {@code real}: the real part, of the real dtype of the same precision (real dtypes: a copy).
   * dtypes: numeric.
   */
  public static NDArray real(NDArray x) {
    return Arithmetic.REAL.apply(x);
  }

  /** {@code reciprocal}: 1 / x. dtypes: floating; integers promote to float64. */
  public static NDArray reciprocal(NDArray x) {
    return Arithmetic.RECIPROCAL.apply(x);
  }

  /**
   * {@code round}: rounds half to even (complex: each part; integers unchanged). dtypes: numeric.
   */
  public static NDArray round(NDArray x) {
    return Rounding.ROUND.apply(x);
  }

  /** {@code sign}: -1, 0 or 1 (NaN for NaN; complex: x / |x|, 0 for 0). dtypes: numeric. */
  public static NDArray sign(NDArray x) {
    return Arithmetic.SIGN.apply(x);
  }

  /**
   * {@code signbit}: true where the sign bit is set (including -0.0 and negative NaNs). dtypes:
   * real floating.
   */
  public static NDArray signbit(NDArray x) {
    return Comparison.SIGNBIT.apply(x);
  }

  /** {@code sin}: sine. dtypes: floating; integers promote to float64. */
  public static NDArray sin(NDArray x) {
    return Transcendental.SIN.apply(x);
  }

  /** {@code sinh}: hyperbolic sine. dtypes: floating; integers promote to float64. */
  public static NDArray sinh(NDArray x) {
    return Transcendental.SINH.apply(x);
  }

  /**
   * {@code sqrt}: square root (principal branch for complex). dtypes: floating; integers promote to
   * float64.
   */
  public static NDArray sqrt(NDArray x) {
    return Transcendental.SQRT.apply(x);
  }

  /** {@code square}: x * x (integers wrap). dtypes: numeric. */
  public static NDArray square(NDArray x) {
    return Arithmetic.SQUARE.apply(x);
  }

  /** {@code tan}: tangent. dtypes: floating; integers promote to float64. */
  public static NDArray tan(NDArray x) {
    return Transcendental.TAN.apply(x);
  }

  /** {@code tanh}: hyperbolic tangent. dtypes: floating; integers promote to float64. */
  public static NDArray tanh(NDArray x) {
    return Transcendental.TANH.apply(x);
  }

  /** {@code trunc}: rounds toward zero (integers unchanged). dtypes: real numeric. */
  public static NDArray trunc(NDArray x) {
    return Rounding.TRUNC.apply(x);
  }

  /**
   * {@code clip}: {@code min(max(x, min), max)} elementwise, in x's dtype (the standard's rule).
   * Each bound is an array, a Java scalar (which takes x's dtype as in {@link
   * DType#resultType(DType, Object)}) or null (no bound). NaN in x or in a bound gives NaN. dtypes:
   * real numeric. The result has the broadcast shape of x and the bounds.
   */
  public static NDArray clip(NDArray x, Object min, Object max) {
    return Arithmetic.clip(x, bound(x, min), bound(x, max));
  }

  // ------------------------------------------------ into a caller's buffer

  /**
   * {@link #add(Object, Object)} writing into {@code buf}, for loops that evaluate the same
   * function over many equal-shaped pieces (the plan's tiles) and would otherwise allocate an array
   * per piece.
   *
   * <p>Returns {@code buf} holding the result when {@code buf} is non-null, has the result's dtype
   * and (broadcast) shape, both operands already have the result dtype, and a native loop exists
   * for it (float64, float32, int32, int64); otherwise a new array, exactly as the two-operand
   * function. The values are the same either way, so a caller always uses the returned array, never
   * {@code buf} itself. Unlike NumPy's {@code out=}, a buffer that cannot take the result is
   * therefore not an error. {@code buf} may be one of the operands (each element is read before it
   * is written). The same holds for {@link #subtract(Object, Object, NDArray)}, {@link
   * #multiply(Object, Object, NDArray)} and {@link #divide(Object, Object, NDArray)}.
   */
  public static NDArray add(Object x1, Object x2, NDArray buf) {
    return Arithmetic.ADD.applyInto(x1, x2, buf);
  }

  /**
   * {@link #subtract(Object, Object)} into {@code buf} when it fits, as {@link #add(Object, Object,
   * NDArray)}.
   */
  public static NDArray subtract(Object x1, Object x2, NDArray buf) {
    return Arithmetic.SUBTRACT.applyInto(x1, x2, buf);
  }

  /**
   * {@link #multiply(Object, Object)} into {@code buf} when it fits, as {@link #add(Object, Object,
   * NDArray)}.
   */
  public static NDArray multiply(Object x1, Object x2, NDArray buf) {
    return Arithmetic.MULTIPLY.applyInto(x1, x2, buf);
  }

  /**
   * {@link #divide(Object, Object)} into {@code buf} when it fits, as {@link #add(Object, Object,
   * NDArray)}.
   */
  public static NDArray divide(Object x1, Object x2, NDArray buf) {
    return Arithmetic.DIVIDE.applyInto(x1, x2, buf);
  }

  /**
   * {@link #abs(NDArray)} writing into {@code buf} when it fits (float64 and float32: {@code buf}
   * of x's dtype and shape), else a new array; a caller uses the returned array, as {@link
   * #add(Object, Object, NDArray)}. The same holds for {@link #negative(NDArray, NDArray)}, {@link
   * #sqrt(NDArray, NDArray)} and {@link #square(NDArray, NDArray)}.
   */
  public static NDArray abs(NDArray x, NDArray buf) {
    return Arithmetic.ABS.applyInto(x, buf);
  }

  /**
   * {@link #negative(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}.
   */
  public static NDArray negative(NDArray x, NDArray buf) {
    return Arithmetic.NEGATIVE.applyInto(x, buf);
  }

  /** {@link #isnan(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}. */
  public static NDArray isnan(NDArray x, NDArray buf) {
    return Comparison.ISNAN.applyInto(x, buf);
  }

  /**
   * {@link #isfinite(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}.
   */
  public static NDArray isfinite(NDArray x, NDArray buf) {
    return Comparison.ISFINITE.applyInto(x, buf);
  }

  /** {@link #isinf(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}. */
  public static NDArray isinf(NDArray x, NDArray buf) {
    return Comparison.ISINF.applyInto(x, buf);
  }

  /** {@link #sqrt(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}. */
  public static NDArray sqrt(NDArray x, NDArray buf) {
    return Transcendental.SQRT.applyInto(x, buf);
  }

  /** {@link #square(NDArray)} into {@code buf} when it fits, as {@link #abs(NDArray, NDArray)}. */
  public static NDArray square(NDArray x, NDArray buf) {
    return Arithmetic.SQUARE.applyInto(x, buf);
  }

  /**
   * {@link #clip(NDArray, Object, Object)} writing into {@code buf} when it fits (float64 x between
   * scalar bounds, {@code buf} float64 of x's shape), else a new array; a caller uses the returned
   * array, as {@link #add(Object, Object, NDArray)}.
   */
  public static NDArray clip(NDArray x, Object min, Object max, NDArray buf) {
    return Arithmetic.clip(x, bound(x, min), bound(x, max), buf);
  }

  private static NDArray bound(NDArray x, Object b) {
    if (b == null || b instanceof NDArray) {
      return (NDArray) b;
    }
    return DataTypes.scalarOperand("clip", x.dtype(), b);
  }
}
