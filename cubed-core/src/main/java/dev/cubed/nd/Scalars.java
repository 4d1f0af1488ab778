package dev.cubed.nd;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Conversions of one Java value (Boolean, Number, BigInteger, {@link Complex}) to the element kinds
 * of an {@link NDArray} (bool, integer bits, double, complex), with NumPy's casting rules, for
 * {@link NDArray#fill} and the element setters; and the element-by-element conversion behind {@link
 * NDArray#astype}.
 */
final class Scalars {
  private static final double TWO_63 = 9.223372036854775808E18;

  private Scalars() {}

  /**
   * Converts a double to the integer bits of an integer dtype the way NumPy's C casts do for values
   * in range: truncation toward zero, then wrapping to the dtype's width. NaN and infinities give
   * the minimum of int64, as on x86. uint64 handles values in [2^63, 2^64).
   */
  static long doubleToLongBits(double v, DType target) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Long.MIN_VALUE;
    }
    if (target == DType.UINT64 && v >= TWO_63) {
      return (long) (v - TWO_63) + Long.MIN_VALUE;
    }
    return (long) v;
  }

  static boolean toBoolean(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Complex c) {
      return c.re() != 0 || c.im() != 0;
    }
    if (v instanceof Number n) {
      return n.doubleValue() != 0;
    }
    throw new IllegalArgumentException("fill: unsupported value " + v);
  }

  static long toLongBits(Object v) {
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    if (v instanceof Double || v instanceof Float) {
      return doubleToLongBits(((Number) v).doubleValue(), DType.INT64);
    }
    if (v instanceof Complex c) {
      return doubleToLongBits(c.re(), DType.INT64);
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    throw new IllegalArgumentException("fill: unsupported value " + v);
  }

  static double toDouble(Object v) {
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    if (v instanceof Complex c) {
      return c.re();
    }
    if (v instanceof BigInteger b) {
      return b.doubleValue();
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw new IllegalArgumentException("fill: unsupported value " + v);
  }

  static Complex toComplex(Object v) {
    return v instanceof Complex c ? c : new Complex(toDouble(v), 0);
  }

  /**
   * Copies every element of {@code src} into {@code dst} (same size, another dtype), converting
   * with {@link NDArray#astype}'s rules.
   */
  static void convert(NDArray src, NDArray dst) {
    int n = src.size();
    if (convertDirect(src.dtype(), src.data(), dst.dtype(), dst.data(), n)) {
      return;
    }
    if (src.dtype().isComplex()) {
      for (int i = 0; i < n; i++) {
        dst.setComplex(i, src.getDouble(i), src.getImag(i));
      }
    } else if (src.dtype().isInteger() || src.dtype().isBool()) {
      if (dst.dtype().isFloating()) {
        for (int i = 0; i < n; i++) {
          dst.setDouble(i, src.getDouble(i));
        }
      } else {
        for (int i = 0; i < n; i++) {
          dst.setLong(i, src.getLong(i));
        }
      }
    } else if (dst.dtype() == DType.BOOL) {
      for (int i = 0; i < n; i++) {
        dst.setBoolean(i, src.getDouble(i) != 0);
      }
    } else {
      for (int i = 0; i < n; i++) {
        dst.setDouble(i, src.getDouble(i));
      }
    }
  }

  /**
   * The common conversions as plain loops on the backing arrays (bool, int32 and int64 to float64
   * and float32; float32 to float64 and back), with the results of the element-by-element path of
   * {@link #convert} (Java's widening and narrowing casts round as NumPy's astype does); false,
   * having done nothing, for any other pair.
   */
  private static boolean convertDirect(DType st, Object src, DType dt, Object dst, int n) {
    if (dt == DType.FLOAT64) {
      double[] o = (double[]) dst;
      switch (st) {
        case BOOL -> {
          boolean[] a = (boolean[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = a[i] ? 1.0 : 0.0;
          }
        }
        case FLOAT32 -> {
          float[] a = (float[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = a[i];
          }
        }
        case INT32 -> {
          int[] a = (int[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = a[i];
          }
        }
        case INT64 -> {
          long[] a = (long[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = a[i];
          }
        }
        default -> {
          return false;
        }
      }
      return true;
    }
    if (dt == DType.FLOAT32) {
      float[] o = (float[]) dst;
      switch (st) {
        case BOOL -> {
          boolean[] a = (boolean[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = a[i] ? 1.0f : 0.0f;
          }
        }
        case FLOAT64 -> {
          double[] a = (double[]) src;
          for (int i = 0; i < n; i++) {
            o[i] = (float) a[i];
          }
        }
        default -> {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Sets every element of {@code a} to {@code value}, converted as {@link NDArray#astype} would.
   */
  static void fill(NDArray a, Object value) {
    Object data = a.data();
    switch (a.dtype()) {
      case BOOL -> Arrays.fill((boolean[]) data, Scalars.toBoolean(value));
      case INT8, UINT8 -> Arrays.fill((byte[]) data, (byte) Scalars.toLongBits(value));
      case INT16, UINT16 -> Arrays.fill((short[]) data, (short) Scalars.toLongBits(value));
      case INT32, UINT32 -> Arrays.fill((int[]) data, (int) Scalars.toLongBits(value));
      case INT64, UINT64 -> Arrays.fill((long[]) data, Scalars.toLongBits(value));
      case FLOAT32 -> Arrays.fill((float[]) data, (float) Scalars.toDouble(value));
      case FLOAT64 -> Arrays.fill((double[]) data, Scalars.toDouble(value));
      case COMPLEX64, COMPLEX128 -> {
        Complex c = Scalars.toComplex(value);
        for (int i = 0; i < a.size(); i++) {
          a.setComplex(i, c.re(), c.im());
        }
      }
    }
  }
}
