package dev.cubed.testing;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * Assertions comparing arrays the way the golden tests need: integers and bools exactly, floats
 * within a relative tolerance or a number of ULPs (whichever is looser), NaN positions equal,
 * infinities and signed zeros matching when {@code signedZero} is asked for.
 */
public final class NDAssert {
  private NDAssert() {}

  /** Exact equality of dtype, shape and every element (NaN equals NaN). */
  public static void assertExact(NDArray expected, NDArray actual, String what) {
    assertClose(expected, actual, 0, 0, what);
  }

  /**
   * dtype and shape equal; integer/bool elements equal; float/complex elements (each part) equal
   * within {@code max(rtol * |expected|, ulps * ulp(expected))}, NaN exactly where expected has
   * NaN, infinities equal.
   */
  public static void assertClose(
      NDArray expected, NDArray actual, double rtol, double ulps, String what) {
    if (expected.dtype() != actual.dtype()) {
      throw new AssertionError(
          what + ": dtype " + actual.dtype() + ", expected " + expected.dtype());
    }
    if (!Arrays.equals(expected.shape(), actual.shape())) {
      throw new AssertionError(
          what
              + ": shape "
              + Shapes.format(actual.shape())
              + ", expected "
              + Shapes.format(expected.shape()));
    }
    DType dt = expected.dtype();
    for (int i = 0; i < expected.size(); i++) {
      if (!dt.isFloating()) {
        if (expected.getLong(i) != actual.getLong(i)) {
          throw mismatch(what, i, expected, actual);
        }
        continue;
      }
      boolean f32 = dt.realPart() == DType.FLOAT32;
      if (!close(expected.getDouble(i), actual.getDouble(i), rtol, ulps, f32)
          || !close(expected.getImag(i), actual.getImag(i), rtol, ulps, f32)) {
        throw mismatch(what, i, expected, actual);
      }
    }
  }

  /** True if {@code a} is within tolerance of expected {@code e} (NaN only matches NaN). */
  public static boolean close(double e, double a, double rtol, double ulps, boolean f32) {
    if (Double.isNaN(e) || Double.isNaN(a)) {
      return Double.isNaN(e) && Double.isNaN(a);
    }
    if (Double.isInfinite(e) || Double.isInfinite(a)) {
      return e == a;
    }
    if (e == a) {
      return true;
    }
    double ulp = f32 ? Math.ulp((float) e) : Math.ulp(e);
    double tol = Math.max(rtol * Math.abs(e), ulps * ulp);
    return Math.abs(e - a) <= tol;
  }

  private static AssertionError mismatch(String what, int i, NDArray e, NDArray a) {
    long[] idx = Shapes.unravel(e.shape(), i);
    return new AssertionError(
        what
            + ": element "
            + Arrays.toString(idx)
            + " is "
            + a.getObject(i)
            + ", expected "
            + e.getObject(i)
            + " (dtype "
            + e.dtype()
            + ", shape "
            + Shapes.format(e.shape())
            + ")");
  }
}
