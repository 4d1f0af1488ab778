package dev.cubed.nd;

import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * Stable sorting of unsigned 64-bit keys, optionally carrying an {@code int} payload (the original
 * positions, for argsort).
 *
 * <ul>
 *   <li>small ranges: binary-insertion sort;
 *   <li>medium ranges: least-significant-digit radix sort (8- or 11-bit digits) that skips digits
 *       on which all keys agree, so narrow types pay only for the bits they use;
 *   <li>large ranges: one most-significant-digit pass on the 16 bits below the highest bit in
 *       which keys differ, then an LSD sort of each bucket over the remaining lower bits; buckets
 *       are small enough to stay in cache, which is what makes 10^7 doubles fast.
 * </ul>
 * Every stage is stable, which argsort, descending sorts and unique need. Inputs of at least 2^20
 * keys sort their top-level buckets in parallel on the common fork-join pool.
 */
final class RadixSort {
  private static final int PARALLEL_MIN = 1 << 20;
  private RadixSort() {}

  private static final int SMALL = 48;
  private static final int MSD_MIN = 1 << 12;
  private static final int MSD_BITS = 16;

  /**
   * Sorts {@code keys[0, n)} ascending as unsigned values, permuting {@code payload} alike when not
   * null. Work arrays of length at least n are used when given (may be null).
   */
  static void sort(long[] keys, int[] payload, int n, long[] tmpKeys, int[] tmpPayload) {
    if (n < 2) {
      return;
    }
    long[] tk = tmpKeys != null && tmpKeys.length >= n ? tmpKeys : new long[n];
    int[] tp = payload == null ? null
        : (tmpPayload != null && tmpPayload.length >= n ? tmpPayload : new int[n]);
    if (n < MSD_MIN) {
      lsd(keys, payload, 0, n, tk, tp, 64, new int[8 * 256]);
      return;
    }
    msd(keys, payload, tk, tp, 0, n, 0, new int[8][]);
  }

  /**
   * Stable MSD radix sort of {@code a[from, to)} (and {@code ap}), using {@code b}/{@code bp} as
   * scratch; the result ends in {@code a}. Each level finds the highest bit in which the keys of
   * the range differ and distributes on the (up to) {@code MSD_BITS} (top level) or 11 bits below
   * it, so shared leading bits cost nothing and buckets quickly become small and cache-resident.
   */
  private static void msd(long[] a, int[] ap, long[] b, int[] bp, int from, int to, int depth,
      int[][] countPool) {
    int n = to - from;
    if (n <= SMALL) {
      insertion(a, ap, from, to);
      return;
    }
    long first = a[from];
    long diff = 0;
    for (int i = from + 1; i < to; i++) {
      diff |= a[i] ^ first;
    }
    if (diff == 0) {
      return;
    }
    int high = 63 - Long.numberOfLeadingZeros(diff);
    // deeper levels: about 8 keys per bucket, so most buckets end in a short insertion sort
    int lg = 32 - Integer.numberOfLeadingZeros(n);
    int width = Math.min(depth == 0 ? MSD_BITS : Math.max(4, Math.min(11, lg - 3)), high + 1);
    int shift = high + 1 - width;
    int buckets = 1 << width;
    int mask = buckets - 1;
    if (depth >= countPool.length) {
      countPool = java.util.Arrays.copyOf(countPool, depth + 4);
    }
    int[] start = countPool[depth];
    if (start == null || start.length < 2 * buckets + 1) {
      start = new int[2 * (1 << (depth == 0 ? MSD_BITS : 11)) + 1];
      countPool[depth] = start;
    }
    java.util.Arrays.fill(start, 0, buckets, 0);
    for (int i = from; i < to; i++) {
      start[(int) (a[i] >>> shift) & mask]++;
    }
    int sum = from;
    for (int k = 0; k < buckets; k++) {
      int t = start[k];
      start[k] = sum;
      start[buckets + 1 + k] = sum; // write positions
      sum += t;
    }
    start[buckets] = to;
    int w = buckets + 1;
    if (ap == null) {
      for (int i = from; i < to; i++) {
        long k = a[i];
        b[start[w + ((int) (k >>> shift) & mask)]++] = k;
      }
    } else {
      for (int i = from; i < to; i++) {
        long k = a[i];
        int p = start[w + ((int) (k >>> shift) & mask)]++;
        b[p] = k;
        bp[p] = ap[i];
      }
    }
    System.arraycopy(b, from, a, from, n);
    if (ap != null) {
      System.arraycopy(bp, from, ap, from, n);
    }
    if (shift == 0) {
      return;
    }
    if (depth == 0 && n >= PARALLEL_MIN && ForkJoinPool.getCommonPoolParallelism() > 1) {
      sortBucketsInParallel(a, ap, b, bp, start, buckets, n);
      return;
    }
    // bucket bounds must survive the recursion, which reuses deeper pool slots only
    sortBuckets(a, ap, b, bp, start, 0, buckets, depth, countPool);
  }

  private static void sortBuckets(long[] a, int[] ap, long[] b, int[] bp, int[] start, int kFrom,
      int kTo, int depth, int[][] countPool) {
    for (int k = kFrom; k < kTo; k++) {
      int s = start[k];
      int e = start[k + 1];
      if (e - s > 1) {
        if (e - s <= SMALL) {
          insertion(a, ap, s, e);
        } else {
          msd(a, ap, b, bp, s, e, depth + 1, countPool);
        }
      }
    }
  }

  /**
   * Sorts the top-level buckets of a large input on the common fork-join pool, in contiguous
   * groups of buckets holding about equal numbers of keys (buckets are disjoint ranges).
   */
  private static void sortBucketsInParallel(long[] a, int[] ap, long[] b, int[] bp, int[] start,
      int buckets, int n) {
    int parts = Math.min(4 * ForkJoinPool.getCommonPoolParallelism(), 64);
    int[] cut = new int[parts + 1];
    int k = 0;
    for (int p = 1; p < parts; p++) {
      long target = (long) n * p / parts + start[0];
      while (k < buckets && start[k] < target) {
        k++;
      }
      cut[p] = k;
    }
    cut[parts] = buckets;
    int[] cuts = cut;
    IntStream.range(0, parts).parallel().forEach(p -> {
      if (cuts[p] < cuts[p + 1]) {
        sortBuckets(a, ap, b, bp, start, cuts[p], cuts[p + 1], 1, new int[8][]);
      }
    });
  }

  /**
   * Stable LSD sort of {@code keys[from, to)} on their low {@code bits} bits (higher bits are
   * equal within the range); the result ends in {@code keys}/{@code payload}.
   */
  private static void lsd(long[] keys, int[] payload, int from, int to, long[] tmp, int[] tmpP,
      int bits, int[] countBuf) {
    int n = to - from;
    if (n <= SMALL) {
      insertion(keys, payload, from, to);
      return;
    }
    int digitBits = n < 4096 ? 8 : 11;
    int radix = 1 << digitBits;
    int mask = radix - 1;
    int digits = (bits + digitBits - 1) / digitBits;
    int[] counts = countBuf.length >= digits * radix ? countBuf : new int[digits * radix];
    java.util.Arrays.fill(counts, 0, digits * radix, 0);
    for (int i = from; i < to; i++) {
      long k = keys[i];
      for (int d = 0; d < digits; d++) {
        counts[d * radix + ((int) (k >>> (d * digitBits)) & mask)]++;
      }
    }
    long[] src = keys;
    long[] dst = tmp;
    int[] srcP = payload;
    int[] dstP = tmpP;
    for (int d = 0; d < digits; d++) {
      int base = d * radix;
      int shift = d * digitBits;
      if (counts[base + ((int) (keys[from] >>> shift) & mask)] == n) {
        continue; // every key has the same digit here
      }
      int sum = from;
      for (int b = 0; b < radix; b++) {
        int t = counts[base + b];
        counts[base + b] = sum;
        sum += t;
      }
      if (srcP == null) {
        for (int i = from; i < to; i++) {
          long k = src[i];
          dst[counts[base + ((int) (k >>> shift) & mask)]++] = k;
        }
      } else {
        for (int i = from; i < to; i++) {
          long k = src[i];
          int p = counts[base + ((int) (k >>> shift) & mask)]++;
          dst[p] = k;
          dstP[p] = srcP[i];
        }
        int[] t = srcP;
        srcP = dstP;
        dstP = t;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    if (src != keys) {
      System.arraycopy(src, from, keys, from, n);
      if (payload != null) {
        System.arraycopy(srcP, from, payload, from, n);
      }
    }
  }

  private static void insertion(long[] keys, int[] payload, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      long k = keys[i];
      int j = i - 1;
      if (Long.compareUnsigned(keys[j], k) <= 0) {
        continue;
      }
      int p = payload == null ? 0 : payload[i];
      while (j >= from && Long.compareUnsigned(keys[j], k) > 0) {
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
