package dev.cubed.nd;

/**
 * Stable sorting of unsigned 64-bit keys, optionally carrying an {@code int} payload (the original
 * positions, for argsort). Large inputs use a least-significant-digit radix sort with 11-bit digits
 * that skips digits on which all keys agree (so narrow types pay only for the bits they use); small
 * inputs use a binary insertion sort. Both are stable, which argsort and unique need.
 */
final class RadixSort {
  private RadixSort() {}

  private static final int SMALL = 48;

  /**
   * Sorts {@code keys[0, n)} ascending as unsigned values, permuting {@code payload} alike when not
   * null. Work arrays of length at least n are reused when given (may be null).
   */
  static void sort(long[] keys, int[] payload, int n, long[] tmpKeys, int[] tmpPayload) {
    if (n < 2) {
      return;
    }
    if (n <= SMALL) {
      insertion(keys, payload, n);
      return;
    }
    int bits = n < 4096 ? 8 : 11;
    int radix = 1 << bits;
    int mask = radix - 1;
    int digits = (64 + bits - 1) / bits;
    int[][] counts = new int[digits][radix];
    for (int i = 0; i < n; i++) {
      long k = keys[i];
      for (int d = 0; d < digits; d++) {
        counts[d][(int) (k >>> (d * bits)) & mask]++;
      }
    }
    long[] src = keys;
    long[] dst = tmpKeys != null && tmpKeys.length >= n ? tmpKeys : new long[n];
    int[] srcP = payload;
    int[] dstP = payload == null ? null
        : (tmpPayload != null && tmpPayload.length >= n ? tmpPayload : new int[n]);
    for (int d = 0; d < digits; d++) {
      int[] c = counts[d];
      int shift = d * bits;
      if (c[(int) (keys[0] >>> shift) & mask] == n) {
        continue; // every key has the same digit here
      }
      int sum = 0;
      for (int b = 0; b < radix; b++) {
        int t = c[b];
        c[b] = sum;
        sum += t;
      }
      if (srcP == null) {
        for (int i = 0; i < n; i++) {
          long k = src[i];
          dst[c[(int) (k >>> shift) & mask]++] = k;
        }
      } else {
        for (int i = 0; i < n; i++) {
          long k = src[i];
          int pos = c[(int) (k >>> shift) & mask]++;
          dst[pos] = k;
          dstP[pos] = srcP[i];
        }
        int[] tp = srcP;
        srcP = dstP;
        dstP = tp;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    if (src != keys) {
      System.arraycopy(src, 0, keys, 0, n);
      if (payload != null) {
        System.arraycopy(srcP, 0, payload, 0, n);
      }
    }
  }

  private static void insertion(long[] keys, int[] payload, int n) {
    for (int i = 1; i < n; i++) {
      long k = keys[i];
      int j = i - 1;
      if (Long.compareUnsigned(keys[j], k) <= 0) {
        continue;
      }
      int p = payload == null ? 0 : payload[i];
      while (j >= 0 && Long.compareUnsigned(keys[j], k) > 0) {
        keys[j + 1] = keys[j];
        if (payload != null) {
          payload[j + 1] = payload[j];
        }
        j--;
      }
      keys[j + 1] = k;
      if (payload != null) {
        payload[j + 1] = p;
      }
    }
  }
}
