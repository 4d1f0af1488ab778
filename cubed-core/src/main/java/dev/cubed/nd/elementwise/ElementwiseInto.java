package dev.cubed.nd;

/**
 * The arithmetic functions of {@link Elementwise} writing their result into a buffer the caller
 * owns, for loops that evaluate the same function over many equal-shaped pieces (the plan's tiles)
 * and would otherwise allocate a new array per piece.
 *
 * <p>Each function returns {@code buf} holding the result when {@code buf} is non-null, has the
 * result's dtype and (broadcast) shape, both operands already have the result dtype, and a native
 * loop exists for it (float64, float32, int32, int64); otherwise it returns a new array, exactly as
 * the {@link Elementwise} function of the same name would. The values are the same either way, so a
 * caller always uses the returned array, never {@code buf} itself. Unlike NumPy's {@code out=}, a
 * buffer that cannot take the result is therefore not an error. {@code buf} may be one of the
 * operands (each element is read before it is written).
 */
public final class ElementwiseInto {
  private ElementwiseInto() {}

  /** {@link Elementwise#add(NDArray, NDArray)}, into {@code buf} when it fits (class comment). */
  public static NDArray add(NDArray x1, NDArray x2, NDArray buf) {
    return Arithmetic.ADD.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#add(NDArray, Object)} (a Java scalar second), into {@code buf}. */
  public static NDArray add(NDArray x1, Object x2, NDArray buf) {
    return Arithmetic.ADD.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#add(Object, NDArray)} (a Java scalar first), into {@code buf}. */
  public static NDArray add(Object x1, NDArray x2, NDArray buf) {
    return Arithmetic.ADD.applyInto(x1, x2, buf);
  }

  /**
   * {@link Elementwise#subtract(NDArray, NDArray)}, into {@code buf} when it fits (class comment).
   */
  public static NDArray subtract(NDArray x1, NDArray x2, NDArray buf) {
    return Arithmetic.SUBTRACT.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#subtract(NDArray, Object)} (a Java scalar second), into {@code buf}. */
  public static NDArray subtract(NDArray x1, Object x2, NDArray buf) {
    return Arithmetic.SUBTRACT.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#subtract(Object, NDArray)} (a Java scalar first), into {@code buf}. */
  public static NDArray subtract(Object x1, NDArray x2, NDArray buf) {
    return Arithmetic.SUBTRACT.applyInto(x1, x2, buf);
  }

  /**
   * {@link Elementwise#multiply(NDArray, NDArray)}, into {@code buf} when it fits (class comment).
   */
  public static NDArray multiply(NDArray x1, NDArray x2, NDArray buf) {
    return Arithmetic.MULTIPLY.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#multiply(NDArray, Object)} (a Java scalar second), into {@code buf}. */
  public static NDArray multiply(NDArray x1, Object x2, NDArray buf) {
    return Arithmetic.MULTIPLY.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#multiply(Object, NDArray)} (a Java scalar first), into {@code buf}. */
  public static NDArray multiply(Object x1, NDArray x2, NDArray buf) {
    return Arithmetic.MULTIPLY.applyInto(x1, x2, buf);
  }

  /**
   * {@link Elementwise#divide(NDArray, NDArray)}, into {@code buf} when it fits (class comment).
   */
  public static NDArray divide(NDArray x1, NDArray x2, NDArray buf) {
    return Arithmetic.DIVIDE.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#divide(NDArray, Object)} (a Java scalar second), into {@code buf}. */
  public static NDArray divide(NDArray x1, Object x2, NDArray buf) {
    return Arithmetic.DIVIDE.applyInto(x1, x2, buf);
  }

  /** {@link Elementwise#divide(Object, NDArray)} (a Java scalar first), into {@code buf}. */
  public static NDArray divide(Object x1, NDArray x2, NDArray buf) {
    return Arithmetic.DIVIDE.applyInto(x1, x2, buf);
  }
}
