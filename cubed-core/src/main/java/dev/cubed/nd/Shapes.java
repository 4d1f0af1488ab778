package dev.cubed.nd;

import java.util.Arrays;
import java.util.Locale;

/**
 * Shape arithmetic shared by every layer: sizes, C-order strides, broadcasting and axis
 * normalization. Every check throws an {@link IllegalArgumentException} whose message names the
 * function, the shapes and the rule broken.
 */
public final class Shapes {
  private Shapes() {}

  /**
   * Number of elements of a shape (1 for a 0-d shape).
   *
   * @throws IllegalArgumentException if a dimension is negative or the product does not fit a long
   *     (more than 2^63-1 elements), naming the shape
   */
  public static long size(long[] shape) {
    long n = 1;
    for (long d : shape) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + format(shape));
      }
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        if (hasZero(shape)) {
          return 0;
        }
        throw new IllegalArgumentException(
            "shape "
                + format(shape)
                + " has about "
                + approxProduct(shape)
                + " elements, more than 2^63-1 (about 9.2e18)");
      }
    }
    return n;
  }

  /**
   * Bytes of an array of {@code shape} and {@code dtype} (elements x item size).
   *
   * @param function the name reported in the error message
   * @throws IllegalArgumentException if the count does not fit a long: "function: array of shape
   *     (..) float64 is about 8.0e20 bytes: more than 2^63-1 (about 9.2e18) bytes ..."
   */
  public static long byteSize(String function, long[] shape, DType dtype) {
    long elems;
    try {
      elems = size(shape);
    } catch (IllegalArgumentException e) {
      throw tooManyBytes(function, shape, dtype, e);
    }
    try {
      return Math.multiplyExact(elems, (long) dtype.itemSize());
    } catch (ArithmeticException e) {
      throw tooManyBytes(function, shape, dtype, e);
    }
  }

  private static IllegalArgumentException tooManyBytes(
      String function, long[] shape, DType dtype, Exception cause) {
    double bytes = 1;
    for (long d : shape) {
      bytes *= d;
    }
    bytes *= dtype.itemSize();
    return new IllegalArgumentException(
        String.format(
            Locale.ROOT,
            "%s: array of shape %s %s is about %.1e bytes: more than 2^63-1 (about 9.2e18) bytes, the"
                + " most an array may hold; use a smaller shape",
            function,
            format(shape),
            dtype,
            bytes),
        cause);
  }

  private static boolean hasZero(long[] shape) {
    for (long d : shape) {
      if (d == 0) {
        return true;
      }
    }
    return false;
  }

  private static String approxProduct(long[] shape) {
    double p = 1;
    for (long d : shape) {
      p *= d;
    }
    return String.format(Locale.ROOT, "%.1e", p);
  }

  /**
   * Number of elements of a shape as an int, for in-memory arrays.
   *
   * @throws IllegalArgumentException if the shape has more than {@link Integer#MAX_VALUE} - 8
   *     elements
   */
  public static int intSize(String function, long[] shape) {
    long n = size(shape);
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          function
              + ": shape "
              + format(shape)
              + " has "
              + n
              + " elements; an in-memory array (one"
              + " chunk) holds at most "
              + (Integer.MAX_VALUE - 8)
              + ": use smaller chunks or a chunked CubedArray");
    }
    return (int) n;
  }

  /** C-order (row-major) strides in elements. */
  public static long[] strides(long[] shape) {
    long[] s = new long[shape.length];
    long acc = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc *= shape[i];
    }
    return s;
  }

  /** C-order strides in elements, as ints (for in-memory arrays). */
  public static int[] intStrides(long[] shape) {
    int[] s = new int[shape.length];
    int acc = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc = (int) (acc * shape[i]);
    }
    return s;
  }

  /** "(3, 4)" like NumPy; "()" for 0-d and "(5,)" for 1-d. */
  public static String format(long[] shape) {
    if (shape.length == 1) {
      return "(" + shape[0] + ",)";
    }
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(shape[i]);
    }
    return b.append(')').toString();
  }

  /** "(3, 4)" like NumPy, for int shapes. */
  public static String format(int[] shape) {
    return format(Arrays.stream(shape).asLongStream().toArray());
  }

  /**
   * The broadcast shape of several shapes (NumPy rules: align trailing dimensions; each pair equal
   * or one of them 1).
   *
   * @param function the name reported in the error message
   * @throws IllegalArgumentException naming the function, the shapes and the dimension that fails
   */
  public static long[] broadcast(String function, long[]... shapes) {
    int nd = 0;
    for (long[] s : shapes) {
      nd = Math.max(nd, s.length);
    }
    long[] out = new long[nd];
    Arrays.fill(out, 1);
    for (long[] s : shapes) {
      int off = nd - s.length;
      for (int i = 0; i < s.length; i++) {
        long d = s[i];
        long o = out[off + i];
        if (o == 1) {
          out[off + i] = d;
        } else if (d != 1 && d != o) {
          StringBuilder all = new StringBuilder();
          for (long[] t : shapes) {
            all.append(all.length() == 0 ? "" : " and ").append(format(t));
          }
          throw new IllegalArgumentException(
              function
                  + ": shapes "
                  + all
                  + " do not broadcast: dimension "
                  + (off + i)
                  + " (counted in the "
                  + nd
                  + "-d result) is "
                  + o
                  + " in one and "
                  + d
                  + " in another; broadcast dimensions must be equal or 1");
        }
      }
    }
    return out;
  }

  /**
   * Checks that {@code from} broadcasts to exactly {@code to} (the rule of {@code broadcast_to}).
   */
  public static void checkBroadcastTo(String function, long[] from, long[] to) {
    if (from.length > to.length) {
      throw new IllegalArgumentException(
          function
              + ": cannot broadcast shape "
              + format(from)
              + " to "
              + format(to)
              + ": the target has fewer dimensions");
    }
    int off = to.length - from.length;
    for (int i = 0; i < from.length; i++) {
      if (from[i] != 1 && from[i] != to[off + i]) {
        throw new IllegalArgumentException(
            function
                + ": cannot broadcast shape "
                + format(from)
                + " to "
                + format(to)
                + ": dimension "
                + i
                + " is "
                + from[i]
                + ", which is neither 1 nor "
                + to[off + i]);
      }
    }
  }

  /**
   * Normalizes a possibly negative axis into [0, ndim).
   *
   * @throws IllegalArgumentException if out of range, naming the function and the ndim
   */
  public static int normalizeAxis(String function, int axis, int ndim) {
    int a = axis < 0 ? axis + ndim : axis;
    if (a < 0 || a >= ndim) {
      throw new IllegalArgumentException(
          function
              + ": axis "
              + axis
              + " is out of range for an array of "
              + ndim
              + " dimension(s); valid axes are "
              + (ndim == 0 ? "none" : (-ndim + " to " + (ndim - 1))));
    }
    return a;
  }

  /**
   * Normalizes an axis tuple: null means all axes; negatives are counted from the end; duplicates
   * are an error. The result is sorted ascending.
   */
  public static int[] normalizeAxes(String function, int[] axes, int ndim) {
    if (axes == null) {
      int[] all = new int[ndim];
      for (int i = 0; i < ndim; i++) {
        all[i] = i;
      }
      return all;
    }
    int[] out = new int[axes.length];
    boolean[] seen = new boolean[ndim];
    for (int i = 0; i < axes.length; i++) {
      int a = normalizeAxis(function, axes[i], ndim);
      if (seen[a]) {
        throw new IllegalArgumentException(
            function
                + ": axis "
                + axes[i]
                + " is repeated in "
                + Arrays.toString(axes)
                + "; each axis may appear once");
      }
      seen[a] = true;
      out[i] = a;
    }
    Arrays.sort(out);
    return out;
  }

  /**
   * Checks that the box at {@code start} of shape {@code box} lies inside an array of shape {@code
   * full}, all of one rank.
   *
   * @throws IllegalArgumentException naming {@code function}, the box and the array's shape
   */
  public static void checkBoxInside(String function, long[] start, long[] box, long[] full) {
    if (start.length != box.length || box.length != full.length) {
      throw new IllegalArgumentException(
          function
              + ": start "
              + Arrays.toString(start)
              + " and shape "
              + format(box)
              + " for an array of shape "
              + format(full));
    }
    for (int i = 0; i < start.length; i++) {
      if (start[i] < 0 || box[i] < 0 || start[i] + box[i] > full[i]) {
        throw new IllegalArgumentException(
            function
                + ": the box at "
                + Arrays.toString(start)
                + " of shape "
                + format(box)
                + " is not inside an array of shape "
                + format(full));
      }
    }
  }

  /** Flat C-order offset of an index into a shape. */
  public static long offset(long[] shape, long[] index) {
    long off = 0;
    for (int i = 0; i < shape.length; i++) {
      off = off * shape[i] + index[i];
    }
    return off;
  }

  /** The multi-index of a flat C-order offset. */
  public static long[] unravel(long[] shape, long flat) {
    long[] idx = new long[shape.length];
    for (int i = shape.length - 1; i >= 0; i--) {
      if (shape[i] == 0) {
        return idx;
      }
      idx[i] = flat % shape[i];
      flat /= shape[i];
    }
    return idx;
  }
}
