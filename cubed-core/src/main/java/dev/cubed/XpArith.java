package dev.cubed;

import dev.cubed.nd.elementwise.Elementwise;

/**
 * The arithmetic binary functions of {@link Xp} (reached as {@code Xp.add} etc.; this class is not
 * public), each for two arrays, an array and a scalar, or a scalar and an array, with the scalar
 * promotion rules of {@link XpLogic}. Memory: one block of each array per task; the scalar is held
 * in the task's closure.
 */
class XpArith extends XpLogic {
  XpArith() {}

  /** Elementwise add with broadcasting (kernel: {@link Elementwise#add(NDArray, NDArray)}). */
  public static CubedArray add(CubedArray x1, CubedArray x2) {
    return ewInto("add", (buf, b) -> Elementwise.add(b[0], b[1], buf), x1, x2);
  }

  /**
   * add of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray add(CubedArray x1, Object x2) {
    Object s = scalar("add", x2);
    return ewInto("add", (buf, b) -> Elementwise.add(b[0], s, buf), x1);
  }

  /** add of a scalar and an array (promotion: see the class comment). */
  public static CubedArray add(Object x1, CubedArray x2) {
    Object s = scalar("add", x1);
    return ewInto("add", (buf, b) -> Elementwise.add(s, b[0], buf), x2);
  }

  /** Elementwise atan2 with broadcasting (kernel: {@link Elementwise#atan2(NDArray, NDArray)}). */
  public static CubedArray atan2(CubedArray x1, CubedArray x2) {
    return ew("atan2", b -> Elementwise.atan2(b[0], b[1]), x1, x2);
  }

  /**
   * atan2 of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray atan2(CubedArray x1, Object x2) {
    Object s = scalar("atan2", x2);
    return ew("atan2", b -> Elementwise.atan2(b[0], s), x1);
  }

  /** atan2 of a scalar and an array (promotion: see the class comment). */
  public static CubedArray atan2(Object x1, CubedArray x2) {
    Object s = scalar("atan2", x1);
    return ew("atan2", b -> Elementwise.atan2(s, b[0]), x2);
  }

  /**
   * Elementwise copysign with broadcasting (kernel: {@link Elementwise#copysign(NDArray,
   * NDArray)}).
   */
  public static CubedArray copysign(CubedArray x1, CubedArray x2) {
    return ew("copysign", b -> Elementwise.copysign(b[0], b[1]), x1, x2);
  }

  /**
   * copysign of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray copysign(CubedArray x1, Object x2) {
    Object s = scalar("copysign", x2);
    return ew("copysign", b -> Elementwise.copysign(b[0], s), x1);
  }

  /** copysign of a scalar and an array (promotion: see the class comment). */
  public static CubedArray copysign(Object x1, CubedArray x2) {
    Object s = scalar("copysign", x1);
    return ew("copysign", b -> Elementwise.copysign(s, b[0]), x2);
  }

  /**
   * Elementwise divide with broadcasting (kernel: {@link Elementwise#divide(NDArray, NDArray)}).
   */
  public static CubedArray divide(CubedArray x1, CubedArray x2) {
    return ewInto("divide", (buf, b) -> Elementwise.divide(b[0], b[1], buf), x1, x2);
  }

  /**
   * divide of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray divide(CubedArray x1, Object x2) {
    Object s = scalar("divide", x2);
    return ewInto("divide", (buf, b) -> Elementwise.divide(b[0], s, buf), x1);
  }

  /** divide of a scalar and an array (promotion: see the class comment). */
  public static CubedArray divide(Object x1, CubedArray x2) {
    Object s = scalar("divide", x1);
    return ewInto("divide", (buf, b) -> Elementwise.divide(s, b[0], buf), x2);
  }

  /**
   * Elementwise floor_divide with broadcasting (kernel: {@link Elementwise#floorDivide(NDArray,
   * NDArray)}).
   */
  public static CubedArray floorDivide(CubedArray x1, CubedArray x2) {
    return ew("floor_divide", b -> Elementwise.floorDivide(b[0], b[1]), x1, x2);
  }

  /**
   * floor_divide of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray floorDivide(CubedArray x1, Object x2) {
    Object s = scalar("floor_divide", x2);
    return ew("floor_divide", b -> Elementwise.floorDivide(b[0], s), x1);
  }

  /** floor_divide of a scalar and an array (promotion: see the class comment). */
  public static CubedArray floorDivide(Object x1, CubedArray x2) {
    Object s = scalar("floor_divide", x1);
    return ew("floor_divide", b -> Elementwise.floorDivide(s, b[0]), x2);
  }

  /** Elementwise hypot with broadcasting (kernel: {@link Elementwise#hypot(NDArray, NDArray)}). */
  public static CubedArray hypot(CubedArray x1, CubedArray x2) {
    return ew("hypot", b -> Elementwise.hypot(b[0], b[1]), x1, x2);
  }

  /**
   * hypot of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray hypot(CubedArray x1, Object x2) {
    Object s = scalar("hypot", x2);
    return ew("hypot", b -> Elementwise.hypot(b[0], s), x1);
  }

  /** hypot of a scalar and an array (promotion: see the class comment). */
  public static CubedArray hypot(Object x1, CubedArray x2) {
    Object s = scalar("hypot", x1);
    return ew("hypot", b -> Elementwise.hypot(s, b[0]), x2);
  }

  /**
   * Elementwise logaddexp with broadcasting (kernel: {@link Elementwise#logaddexp(NDArray,
   * NDArray)}).
   */
  public static CubedArray logaddexp(CubedArray x1, CubedArray x2) {
    return ew("logaddexp", b -> Elementwise.logaddexp(b[0], b[1]), x1, x2);
  }

  /**
   * logaddexp of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logaddexp(CubedArray x1, Object x2) {
    Object s = scalar("logaddexp", x2);
    return ew("logaddexp", b -> Elementwise.logaddexp(b[0], s), x1);
  }

  /** logaddexp of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logaddexp(Object x1, CubedArray x2) {
    Object s = scalar("logaddexp", x1);
    return ew("logaddexp", b -> Elementwise.logaddexp(s, b[0]), x2);
  }

  /**
   * Elementwise maximum with broadcasting (kernel: {@link Elementwise#maximum(NDArray, NDArray)}).
   */
  public static CubedArray maximum(CubedArray x1, CubedArray x2) {
    return ew("maximum", b -> Elementwise.maximum(b[0], b[1]), x1, x2);
  }

  /**
   * maximum of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray maximum(CubedArray x1, Object x2) {
    Object s = scalar("maximum", x2);
    return ew("maximum", b -> Elementwise.maximum(b[0], s), x1);
  }

  /** maximum of a scalar and an array (promotion: see the class comment). */
  public static CubedArray maximum(Object x1, CubedArray x2) {
    Object s = scalar("maximum", x1);
    return ew("maximum", b -> Elementwise.maximum(s, b[0]), x2);
  }

  /**
   * Elementwise minimum with broadcasting (kernel: {@link Elementwise#minimum(NDArray, NDArray)}).
   */
  public static CubedArray minimum(CubedArray x1, CubedArray x2) {
    return ew("minimum", b -> Elementwise.minimum(b[0], b[1]), x1, x2);
  }

  /**
   * minimum of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray minimum(CubedArray x1, Object x2) {
    Object s = scalar("minimum", x2);
    return ew("minimum", b -> Elementwise.minimum(b[0], s), x1);
  }

  /** minimum of a scalar and an array (promotion: see the class comment). */
  public static CubedArray minimum(Object x1, CubedArray x2) {
    Object s = scalar("minimum", x1);
    return ew("minimum", b -> Elementwise.minimum(s, b[0]), x2);
  }

  /**
   * Elementwise multiply with broadcasting (kernel: {@link Elementwise#multiply(NDArray,
   * NDArray)}).
   */
  public static CubedArray multiply(CubedArray x1, CubedArray x2) {
    return ewInto("multiply", (buf, b) -> Elementwise.multiply(b[0], b[1], buf), x1, x2);
  }

  /**
   * multiply of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray multiply(CubedArray x1, Object x2) {
    Object s = scalar("multiply", x2);
    return ewInto("multiply", (buf, b) -> Elementwise.multiply(b[0], s, buf), x1);
  }

  /** multiply of a scalar and an array (promotion: see the class comment). */
  public static CubedArray multiply(Object x1, CubedArray x2) {
    Object s = scalar("multiply", x1);
    return ewInto("multiply", (buf, b) -> Elementwise.multiply(s, b[0], buf), x2);
  }

  /**
   * Elementwise nextafter with broadcasting (kernel: {@link Elementwise#nextafter(NDArray,
   * NDArray)}).
   */
  public static CubedArray nextafter(CubedArray x1, CubedArray x2) {
    return ew("nextafter", b -> Elementwise.nextafter(b[0], b[1]), x1, x2);
  }

  /**
   * nextafter of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray nextafter(CubedArray x1, Object x2) {
    Object s = scalar("nextafter", x2);
    return ew("nextafter", b -> Elementwise.nextafter(b[0], s), x1);
  }

  /** nextafter of a scalar and an array (promotion: see the class comment). */
  public static CubedArray nextafter(Object x1, CubedArray x2) {
    Object s = scalar("nextafter", x1);
    return ew("nextafter", b -> Elementwise.nextafter(s, b[0]), x2);
  }

  /** Elementwise pow with broadcasting (kernel: {@link Elementwise#pow(NDArray, NDArray)}). */
  public static CubedArray pow(CubedArray x1, CubedArray x2) {
    return ew("pow", b -> Elementwise.pow(b[0], b[1]), x1, x2);
  }

  /**
   * pow of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray pow(CubedArray x1, Object x2) {
    Object s = scalar("pow", x2);
    return ew("pow", b -> Elementwise.pow(b[0], s), x1);
  }

  /** pow of a scalar and an array (promotion: see the class comment). */
  public static CubedArray pow(Object x1, CubedArray x2) {
    Object s = scalar("pow", x1);
    return ew("pow", b -> Elementwise.pow(s, b[0]), x2);
  }

  /**
   * Elementwise remainder with broadcasting (kernel: {@link Elementwise#remainder(NDArray,
   * NDArray)}).
   */
  public static CubedArray remainder(CubedArray x1, CubedArray x2) {
    return ew("remainder", b -> Elementwise.remainder(b[0], b[1]), x1, x2);
  }

  /**
   * remainder of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray remainder(CubedArray x1, Object x2) {
    Object s = scalar("remainder", x2);
    return ew("remainder", b -> Elementwise.remainder(b[0], s), x1);
  }

  /** remainder of a scalar and an array (promotion: see the class comment). */
  public static CubedArray remainder(Object x1, CubedArray x2) {
    Object s = scalar("remainder", x1);
    return ew("remainder", b -> Elementwise.remainder(s, b[0]), x2);
  }

  /**
   * Elementwise subtract with broadcasting (kernel: {@link Elementwise#subtract(NDArray,
   * NDArray)}).
   */
  public static CubedArray subtract(CubedArray x1, CubedArray x2) {
    return ewInto("subtract", (buf, b) -> Elementwise.subtract(b[0], b[1], buf), x1, x2);
  }

  /**
   * subtract of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray subtract(CubedArray x1, Object x2) {
    Object s = scalar("subtract", x2);
    return ewInto("subtract", (buf, b) -> Elementwise.subtract(b[0], s, buf), x1);
  }

  /** subtract of a scalar and an array (promotion: see the class comment). */
  public static CubedArray subtract(Object x1, CubedArray x2) {
    Object s = scalar("subtract", x1);
    return ewInto("subtract", (buf, b) -> Elementwise.subtract(s, b[0], buf), x2);
  }
}
