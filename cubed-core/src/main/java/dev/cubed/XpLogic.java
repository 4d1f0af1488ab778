package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;

/**
 * The comparison, logical and bitwise binary functions of {@link Xp} (reached as {@code Xp.add}
 * etc.; this class is not public). Every function takes two arrays (broadcast together), an array
 * and a scalar, or a scalar and an array. A scalar ({@link Boolean}, an integer type, {@link
 * Float}/{@link Double} or {@link dev.cubed.nd.Complex}) follows the standard's rule for Python
 * scalars: it takes the array's dtype when its kind fits (bool with bool, an integer with integer
 * or floating arrays, a float with floating arrays, a complex with complex arrays); where the
 * standard leaves mixed kinds to the implementation (a float with an integer or bool array, a
 * complex with a real array, an integer with a bool array) the result is NumPy 2's (NEP 50):
 * float64, complex64/complex128 or int64 (see {@link DType#resultType(DType, Object)}). Memory: one
 * block of the array per task, as the array-array form; the scalar is held in the task's closure.
 */
class XpLogic extends XpUnary {
  XpLogic() {}

  /**
   * Checks a scalar operand when the op is built: one of the Java types the kernel accepts.
   *
   * @throws IllegalArgumentException naming the function and the scalar otherwise
   */
  static Object scalar(String fn, Object s) {
    if (s instanceof CubedArray || s instanceof NDArray) {
      throw new IllegalArgumentException(
          fn
              + ": the scalar operand is an array ("
              + s
              + "); pass arrays as CubedArray (wrap an NDArray with Cubed.asarray)");
    }
    try {
      DType.scalarKind(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(fn + ": " + e.getMessage(), e);
    }
    return s;
  }

  /**
   * Elementwise bitwise_and with broadcasting (kernel: {@link Elementwise#bitwiseAnd(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseAnd(CubedArray x1, CubedArray x2) {
    return ew("bitwise_and", b -> Elementwise.bitwiseAnd(b[0], b[1]), x1, x2);
  }

  /**
   * bitwise_and of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseAnd(CubedArray x1, Object x2) {
    Object s = scalar("bitwise_and", x2);
    return ew("bitwise_and", b -> Elementwise.bitwiseAnd(b[0], s), x1);
  }

  /** bitwise_and of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseAnd(Object x1, CubedArray x2) {
    Object s = scalar("bitwise_and", x1);
    return ew("bitwise_and", b -> Elementwise.bitwiseAnd(s, b[0]), x2);
  }

  /**
   * Elementwise bitwise_left_shift with broadcasting (kernel: {@link
   * Elementwise#bitwiseLeftShift(NDArray, NDArray)}).
   */
  public static CubedArray bitwiseLeftShift(CubedArray x1, CubedArray x2) {
    return ew("bitwise_left_shift", b -> Elementwise.bitwiseLeftShift(b[0], b[1]), x1, x2);
  }

  /**
   * bitwise_left_shift of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseLeftShift(CubedArray x1, Object x2) {
    Object s = scalar("bitwise_left_shift", x2);
    return ew("bitwise_left_shift", b -> Elementwise.bitwiseLeftShift(b[0], s), x1);
  }

  /** bitwise_left_shift of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseLeftShift(Object x1, CubedArray x2) {
    Object s = scalar("bitwise_left_shift", x1);
    return ew("bitwise_left_shift", b -> Elementwise.bitwiseLeftShift(s, b[0]), x2);
  }

  /**
   * Elementwise bitwise_or with broadcasting (kernel: {@link Elementwise#bitwiseOr(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseOr(CubedArray x1, CubedArray x2) {
    return ew("bitwise_or", b -> Elementwise.bitwiseOr(b[0], b[1]), x1, x2);
  }

  /**
   * bitwise_or of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseOr(CubedArray x1, Object x2) {
    Object s = scalar("bitwise_or", x2);
    return ew("bitwise_or", b -> Elementwise.bitwiseOr(b[0], s), x1);
  }

  /** bitwise_or of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseOr(Object x1, CubedArray x2) {
    Object s = scalar("bitwise_or", x1);
    return ew("bitwise_or", b -> Elementwise.bitwiseOr(s, b[0]), x2);
  }

  /**
   * Elementwise bitwise_right_shift with broadcasting (kernel: {@link
   * Elementwise#bitwiseRightShift(NDArray, NDArray)}).
   */
  public static CubedArray bitwiseRightShift(CubedArray x1, CubedArray x2) {
    return ew("bitwise_right_shift", b -> Elementwise.bitwiseRightShift(b[0], b[1]), x1, x2);
  }

  /**
   * bitwise_right_shift of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseRightShift(CubedArray x1, Object x2) {
    Object s = scalar("bitwise_right_shift", x2);
    return ew("bitwise_right_shift", b -> Elementwise.bitwiseRightShift(b[0], s), x1);
  }

  /** bitwise_right_shift of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseRightShift(Object x1, CubedArray x2) {
    Object s = scalar("bitwise_right_shift", x1);
    return ew("bitwise_right_shift", b -> Elementwise.bitwiseRightShift(s, b[0]), x2);
  }

  /**
   * Elementwise bitwise_xor with broadcasting (kernel: {@link Elementwise#bitwiseXor(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseXor(CubedArray x1, CubedArray x2) {
    return ew("bitwise_xor", b -> Elementwise.bitwiseXor(b[0], b[1]), x1, x2);
  }

  /**
   * bitwise_xor of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseXor(CubedArray x1, Object x2) {
    Object s = scalar("bitwise_xor", x2);
    return ew("bitwise_xor", b -> Elementwise.bitwiseXor(b[0], s), x1);
  }

  /** bitwise_xor of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseXor(Object x1, CubedArray x2) {
    Object s = scalar("bitwise_xor", x1);
    return ew("bitwise_xor", b -> Elementwise.bitwiseXor(s, b[0]), x2);
  }

  /** Elementwise equal with broadcasting (kernel: {@link Elementwise#equal(NDArray, NDArray)}). */
  public static CubedArray equal(CubedArray x1, CubedArray x2) {
    return ew("equal", b -> Elementwise.equal(b[0], b[1]), x1, x2);
  }

  /**
   * equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray equal(CubedArray x1, Object x2) {
    Object s = scalar("equal", x2);
    return ew("equal", b -> Elementwise.equal(b[0], s), x1);
  }

  /** equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray equal(Object x1, CubedArray x2) {
    Object s = scalar("equal", x1);
    return ew("equal", b -> Elementwise.equal(s, b[0]), x2);
  }

  /**
   * Elementwise greater with broadcasting (kernel: {@link Elementwise#greater(NDArray, NDArray)}).
   */
  public static CubedArray greater(CubedArray x1, CubedArray x2) {
    return ew("greater", b -> Elementwise.greater(b[0], b[1]), x1, x2);
  }

  /**
   * greater of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray greater(CubedArray x1, Object x2) {
    Object s = scalar("greater", x2);
    return ew("greater", b -> Elementwise.greater(b[0], s), x1);
  }

  /** greater of a scalar and an array (promotion: see the class comment). */
  public static CubedArray greater(Object x1, CubedArray x2) {
    Object s = scalar("greater", x1);
    return ew("greater", b -> Elementwise.greater(s, b[0]), x2);
  }

  /**
   * Elementwise greater_equal with broadcasting (kernel: {@link Elementwise#greaterEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray greaterEqual(CubedArray x1, CubedArray x2) {
    return ew("greater_equal", b -> Elementwise.greaterEqual(b[0], b[1]), x1, x2);
  }

  /**
   * greater_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray greaterEqual(CubedArray x1, Object x2) {
    Object s = scalar("greater_equal", x2);
    return ew("greater_equal", b -> Elementwise.greaterEqual(b[0], s), x1);
  }

  /** greater_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray greaterEqual(Object x1, CubedArray x2) {
    Object s = scalar("greater_equal", x1);
    return ew("greater_equal", b -> Elementwise.greaterEqual(s, b[0]), x2);
  }

  /** Elementwise less with broadcasting (kernel: {@link Elementwise#less(NDArray, NDArray)}). */
  public static CubedArray less(CubedArray x1, CubedArray x2) {
    return ew("less", b -> Elementwise.less(b[0], b[1]), x1, x2);
  }

  /**
   * less of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray less(CubedArray x1, Object x2) {
    Object s = scalar("less", x2);
    return ew("less", b -> Elementwise.less(b[0], s), x1);
  }

  /** less of a scalar and an array (promotion: see the class comment). */
  public static CubedArray less(Object x1, CubedArray x2) {
    Object s = scalar("less", x1);
    return ew("less", b -> Elementwise.less(s, b[0]), x2);
  }

  /**
   * Elementwise less_equal with broadcasting (kernel: {@link Elementwise#lessEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray lessEqual(CubedArray x1, CubedArray x2) {
    return ew("less_equal", b -> Elementwise.lessEqual(b[0], b[1]), x1, x2);
  }

  /**
   * less_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray lessEqual(CubedArray x1, Object x2) {
    Object s = scalar("less_equal", x2);
    return ew("less_equal", b -> Elementwise.lessEqual(b[0], s), x1);
  }

  /** less_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray lessEqual(Object x1, CubedArray x2) {
    Object s = scalar("less_equal", x1);
    return ew("less_equal", b -> Elementwise.lessEqual(s, b[0]), x2);
  }

  /**
   * Elementwise logical_and with broadcasting (kernel: {@link Elementwise#logicalAnd(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalAnd(CubedArray x1, CubedArray x2) {
    return ew("logical_and", b -> Elementwise.logicalAnd(b[0], b[1]), x1, x2);
  }

  /**
   * logical_and of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalAnd(CubedArray x1, Object x2) {
    Object s = scalar("logical_and", x2);
    return ew("logical_and", b -> Elementwise.logicalAnd(b[0], s), x1);
  }

  /** logical_and of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalAnd(Object x1, CubedArray x2) {
    Object s = scalar("logical_and", x1);
    return ew("logical_and", b -> Elementwise.logicalAnd(s, b[0]), x2);
  }

  /**
   * Elementwise logical_or with broadcasting (kernel: {@link Elementwise#logicalOr(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalOr(CubedArray x1, CubedArray x2) {
    return ew("logical_or", b -> Elementwise.logicalOr(b[0], b[1]), x1, x2);
  }

  /**
   * logical_or of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalOr(CubedArray x1, Object x2) {
    Object s = scalar("logical_or", x2);
    return ew("logical_or", b -> Elementwise.logicalOr(b[0], s), x1);
  }

  /** logical_or of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalOr(Object x1, CubedArray x2) {
    Object s = scalar("logical_or", x1);
    return ew("logical_or", b -> Elementwise.logicalOr(s, b[0]), x2);
  }

  /**
   * Elementwise logical_xor with broadcasting (kernel: {@link Elementwise#logicalXor(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalXor(CubedArray x1, CubedArray x2) {
    return ew("logical_xor", b -> Elementwise.logicalXor(b[0], b[1]), x1, x2);
  }

  /**
   * logical_xor of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalXor(CubedArray x1, Object x2) {
    Object s = scalar("logical_xor", x2);
    return ew("logical_xor", b -> Elementwise.logicalXor(b[0], s), x1);
  }

  /** logical_xor of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalXor(Object x1, CubedArray x2) {
    Object s = scalar("logical_xor", x1);
    return ew("logical_xor", b -> Elementwise.logicalXor(s, b[0]), x2);
  }

  /**
   * Elementwise not_equal with broadcasting (kernel: {@link Elementwise#notEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray notEqual(CubedArray x1, CubedArray x2) {
    return ew("not_equal", b -> Elementwise.notEqual(b[0], b[1]), x1, x2);
  }

  /**
   * not_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray notEqual(CubedArray x1, Object x2) {
    Object s = scalar("not_equal", x2);
    return ew("not_equal", b -> Elementwise.notEqual(b[0], s), x1);
  }

  /** not_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray notEqual(Object x1, CubedArray x2) {
    Object s = scalar("not_equal", x1);
    return ew("not_equal", b -> Elementwise.notEqual(s, b[0]), x2);
  }
}
