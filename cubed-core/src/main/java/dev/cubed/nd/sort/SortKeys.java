package dev.cubed.nd.sort;

import dev.cubed.nd.DType;

/**
 * Maps the elements of a real or bool array to unsigned 64-bit keys whose unsigned order is the
 * sort order, and back. Floats: {@code -0.0} and {@code 0.0} get the same key, every NaN gets the
 * largest key (NaN sorts last, as in NumPy). Descending order complements the keys of non-NaN
 * values, so NaN still sorts last and equal elements keep their relative order under a stable sort.
 */
final class SortKeys {
  private SortKeys() {}

  /** Key of every NaN; no other value maps to it. */
  static final long NAN_KEY = -1L;

  /**
   * Fills {@code keys[0, n)} with the keys of {@code data[base + i * stride]}.
   *
   * @return true if the lane holds a negative zero (whose sign the keys do not keep)
   */
  static boolean keys(
      DType dt, Object data, int base, int stride, int n, long[] keys, boolean descending) {
    boolean negZero = false;
    switch (dt) {
      case BOOL -> {
        boolean[] a = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] ? 1 : 0;
        }
      }
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> {
        integerKeys(dt, data, base, stride, n, keys);
      }
      case FLOAT32 -> {
        float[] a = (float[]) data;
        for (int i = 0; i < n; i++) {
          float v = a[base + i * stride];
          if (v != v) {
            keys[i] = NAN_KEY;
            continue;
          }
          int bits = Float.floatToRawIntBits(v);
          if (bits == 0x80000000) {
            negZero = true;
            bits = 0;
          }
          int k = bits < 0 ? ~bits : bits | 0x80000000;
          keys[i] = k & 0xFFFFFFFFL;
        }
      }
      case FLOAT64 -> {
        double[] a = (double[]) data;
        for (int i = 0; i < n; i++) {
          double v = a[base + i * stride];
          if (v != v) {
            keys[i] = NAN_KEY;
            continue;
          }
          long bits = Double.doubleToRawLongBits(v);
          if (bits == Long.MIN_VALUE) {
            negZero = true;
            bits = 0;
          }
          keys[i] = bits < 0 ? ~bits : bits | Long.MIN_VALUE;
        }
      }
      default -> throw new IllegalStateException("no sort keys for " + dt);
    }
    if (descending) {
      boolean floating = dt.isRealFloating();
      for (int i = 0; i < n; i++) {
        long k = keys[i];
        if (!(floating && k == NAN_KEY)) {
          keys[i] = ~k;
        }
      }
    }
    return negZero;
  }

  private static void integerKeys(DType dt, Object data, int base, int stride, int n, long[] keys) {
    switch (dt) {
      case INT8 -> {
        byte[] a = (byte[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] ^ Long.MIN_VALUE;
        }
      }
      case UINT8 -> {
        byte[] a = (byte[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] & 0xFFL;
        }
      }
      case INT16 -> {
        short[] a = (short[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] ^ Long.MIN_VALUE;
        }
      }
      case UINT16 -> {
        short[] a = (short[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] & 0xFFFFL;
        }
      }
      case INT32 -> {
        int[] a = (int[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] ^ Long.MIN_VALUE;
        }
      }
      case UINT32 -> {
        int[] a = (int[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] & 0xFFFFFFFFL;
        }
      }
      case INT64 -> {
        long[] a = (long[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride] ^ Long.MIN_VALUE;
        }
      }
      case UINT64 -> {
        long[] a = (long[]) data;
        for (int i = 0; i < n; i++) {
          keys[i] = a[base + i * stride];
        }
      }
      default -> throw new IllegalStateException("not an integer dtype: " + dt);
    }
  }

  /**
   * Writes the values of sorted keys {@code keys[0, n)} to {@code data[base + i * stride]} (the
   * inverse of {@link #keys}; NaN becomes the canonical quiet NaN, zeros are positive).
   */
  static void restore(
      DType dt, long[] keys, int n, boolean descending, Object data, int base, int stride) {
    boolean floating = dt.isRealFloating();
    if (descending) {
      for (int i = 0; i < n; i++) {
        if (!(floating && keys[i] == NAN_KEY)) {
          keys[i] = ~keys[i];
        }
      }
    }
    switch (dt) {
      case BOOL -> {
        boolean[] a = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = keys[i] != 0;
        }
      }
      case INT8, UINT8 -> {
        byte[] a = (byte[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = (byte) keys[i];
        }
      }
      case INT16, UINT16 -> {
        short[] a = (short[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = (short) keys[i];
        }
      }
      case INT32, UINT32 -> {
        int[] a = (int[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = (int) keys[i];
        }
      }
      case INT64 -> {
        long[] a = (long[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = keys[i] ^ Long.MIN_VALUE;
        }
      }
      case UINT64 -> {
        long[] a = (long[]) data;
        for (int i = 0; i < n; i++) {
          a[base + i * stride] = keys[i];
        }
      }
      case FLOAT32 -> {
        float[] a = (float[]) data;
        for (int i = 0; i < n; i++) {
          long k = keys[i];
          if (k == NAN_KEY) {
            a[base + i * stride] = Float.NaN;
            continue;
          }
          int ki = (int) k;
          a[base + i * stride] = Float.intBitsToFloat(ki < 0 ? ki ^ 0x80000000 : ~ki);
        }
      }
      case FLOAT64 -> {
        double[] a = (double[]) data;
        for (int i = 0; i < n; i++) {
          long k = keys[i];
          if (k == NAN_KEY) {
            a[base + i * stride] = Double.NaN;
            continue;
          }
          a[base + i * stride] = Double.longBitsToDouble(k < 0 ? k ^ Long.MIN_VALUE : ~k);
        }
      }
      default -> throw new IllegalStateException("no sort keys for " + dt);
    }
  }
}
