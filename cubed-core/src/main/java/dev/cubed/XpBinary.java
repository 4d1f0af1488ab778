package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import java.io.Serializable;

/**
 * One binary elementwise function of {@link Xp}: its standard name and its kernel (one for every
 * operand pair: nd's binary functions take arrays and scalars), with {@link #apply}, the one helper
 * behind the three overloads of each binary function ({@code Xp.add(array, array)}, {@code
 * Xp.add(array, scalar)}, {@code Xp.add(scalar, array)}). Package-private; the contracts are on
 * {@link Xp}.
 *
 * <p>Two arrays broadcast together; a scalar ({@link Boolean}, an integer type, {@link Float}/
 * {@link Double} or {@link dev.cubed.nd.Complex}) follows the standard's rule for Python scalars:
 * it takes the array's dtype when its kind fits (bool with bool, an integer with integer or
 * floating arrays, a float with floating arrays, a complex with complex arrays); where the standard
 * leaves mixed kinds to the implementation (a float with an integer or bool array, a complex with a
 * real array, an integer with a bool array) the result is NumPy 2's (NEP 50): float64,
 * complex64/complex128 or int64 (see {@link dev.cubed.nd.DType#resultType(dev.cubed.nd.DType,
 * Object)}). Memory: one block of each array per task; a scalar is held in the task's closure.
 */
final class XpBinary {
  /** A kernel of two operands ({@link NDArray} or a Java scalar; at least one an array). */
  @FunctionalInterface
  interface Kernel extends Serializable {
    NDArray apply(Object x1, Object x2);
  }

  /** A kernel of two operands writing into the plan's reused buffer when it fits. */
  @FunctionalInterface
  interface IntoKernel extends Serializable {
    NDArray apply(Object x1, Object x2, NDArray buf);
  }

  private final String name;
  private final IntoKernel kernel;
  private final boolean into;

  private XpBinary(String name, IntoKernel kernel, boolean into) {
    this.name = name;
    this.kernel = kernel;
    this.into = into;
  }

  /** A function whose kernel allocates its result ({@code Elementwise::atan2}). */
  static XpBinary of(String name, Kernel kernel) {
    return new XpBinary(name, (a, b, buf) -> kernel.apply(a, b), false);
  }

  /** A function whose kernel can write into a buffer ({@code Elementwise::add}). */
  static XpBinary into(String name, IntoKernel kernel) {
    return new XpBinary(name, kernel, true);
  }

  /**
   * The function of two operands, at least one a {@link CubedArray}: two arrays broadcast together;
   * any other operand must be a Java scalar ({@link XpBlocks#scalar}, checked now).
   *
   * @throws IllegalArgumentException for an unsupported scalar, or dtypes the kernel refuses
   *     (checked when the op is built)
   */
  CubedArray apply(Object x1, Object x2) {
    IntoKernel k = kernel;
    if (x1 instanceof CubedArray a && x2 instanceof CubedArray b) {
      return build((buf, bs) -> k.apply(bs[0], bs[1], buf), a, b);
    }
    if (x1 instanceof CubedArray a) {
      Object s = XpBlocks.scalar(name, x2);
      return build((buf, bs) -> k.apply(bs[0], s, buf), a);
    }
    if (x2 instanceof CubedArray b) {
      Object s = XpBlocks.scalar(name, x1);
      return build((buf, bs) -> k.apply(s, bs[0], buf), b);
    }
    throw new IllegalArgumentException(
        name
            + ": one operand must be an array (CubedArray), got "
            + XpBlocks.describe(x1)
            + " and "
            + XpBlocks.describe(x2));
  }

  private CubedArray build(Core.PointwiseInto fn, CubedArray... xs) {
    if (into) {
      return XpBlocks.ewInto(name, fn, xs);
    }
    return XpBlocks.ew(name, (Core.Pointwise) bs -> fn.applyInto(null, bs), xs);
  }

  // ---------------------------------------------------------------- the functions

  static final XpBinary BITWISE_AND = of("bitwise_and", Elementwise::bitwiseAnd);

  static final XpBinary BITWISE_LEFT_SHIFT =
      of("bitwise_left_shift", Elementwise::bitwiseLeftShift);

  static final XpBinary BITWISE_OR = of("bitwise_or", Elementwise::bitwiseOr);

  static final XpBinary BITWISE_RIGHT_SHIFT =
      of("bitwise_right_shift", Elementwise::bitwiseRightShift);

  static final XpBinary BITWISE_XOR = of("bitwise_xor", Elementwise::bitwiseXor);

  static final XpBinary EQUAL = of("equal", Elementwise::equal);

  static final XpBinary GREATER = of("greater", Elementwise::greater);

  static final XpBinary GREATER_EQUAL = of("greater_equal", Elementwise::greaterEqual);

  static final XpBinary LESS = of("less", Elementwise::less);

  static final XpBinary LESS_EQUAL = of("less_equal", Elementwise::lessEqual);

  static final XpBinary LOGICAL_AND = of("logical_and", Elementwise::logicalAnd);

  static final XpBinary LOGICAL_OR = of("logical_or", Elementwise::logicalOr);

  static final XpBinary LOGICAL_XOR = of("logical_xor", Elementwise::logicalXor);

  static final XpBinary NOT_EQUAL = of("not_equal", Elementwise::notEqual);

  static final XpBinary ADD = into("add", Elementwise::add);

  static final XpBinary ATAN2 = of("atan2", Elementwise::atan2);

  static final XpBinary COPYSIGN = of("copysign", Elementwise::copysign);

  static final XpBinary DIVIDE = into("divide", Elementwise::divide);

  static final XpBinary FLOOR_DIVIDE = of("floor_divide", Elementwise::floorDivide);

  static final XpBinary HYPOT = of("hypot", Elementwise::hypot);

  static final XpBinary LOGADDEXP = of("logaddexp", Elementwise::logaddexp);

  static final XpBinary MAXIMUM = of("maximum", Elementwise::maximum);

  static final XpBinary MINIMUM = of("minimum", Elementwise::minimum);

  static final XpBinary MULTIPLY = into("multiply", Elementwise::multiply);

  static final XpBinary NEXTAFTER = of("nextafter", Elementwise::nextafter);

  static final XpBinary POW = of("pow", Elementwise::pow);

  static final XpBinary REMAINDER = of("remainder", Elementwise::remainder);

  static final XpBinary SUBTRACT = into("subtract", Elementwise::subtract);
}
