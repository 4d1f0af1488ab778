package dev.cubed.nd.sort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;

/**
 * Stable sorting of unsigned 64-bit keys, optionally carrying an {@code int} payload (the original
 * positions, for argsort).
 *
 * <ul>
 *   <li>small ranges: binary-insertion sort;
 *   <li>medium ranges: least-significant-digit radix sort (8- or 11-bit digits) that skips digits
 *       on which all keys agree, so narrow types pay only for the bits they use;
 *   <li>large ranges: one most-significant-digit pass on the 16 bits below the highest bit in which
 *       keys differ, then an LSD sort of each bucket over the remaining lower bits; buckets are
 *       small enough to stay in cache, which is what makes 10^7 doubles fast.
 * </ul>
 *
 * Every stage is stable, which argsort, descending sorts and unique need. Inputs of at least 2^20
 * keys sort their top-level buckets in parallel on a pool with one thread per processor.
 */
final class RadixSort {
  private static final int PARALLEL_MIN = 1 << 20;

  /**
   * Pool for the bucket phase of large sorts: one thread per processor (the common pool keeps one
   * processor for the caller, i.e. a single thread on a 2-core machine). Daemon threads, created on
   * first use.
   */
  private static final ForkJoinPool POOL =
      new ForkJoinPool(
          Math.max(1, Runtime.getRuntime().availableProcessors()),
          p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setDaemon(true);
            t.setName("cubed-sort-" + t.getPoolIndex());
            return t;
          },
          null,
          false);

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
    int[] tp =
        payload == null
            ? null
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
  private static void msd(
      long[] a, int[] ap, long[] b, int[] bp, int from, int to, int depth, int[][] countPool) {
    int n = to - from;
    if (n <= SMALL) {
      insertion(a, ap, from, to);
      return;
    }
    boolean par = depth == 0 && n >= PARALLEL_MIN && POOL.getParallelism() > 1;
    long first = a[from];
    long diff = par ? parallelDiff(a, from, to) : 0;
    if (!par) {
      for (int i = from + 1; i < to; i++) {
        diff |= a[i] ^ first;
      }
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
      countPool = Arrays.copyOf(countPool, depth + 4);
    }
    int[] start = countPool[depth];
    if (start == null || start.length < 2 * buckets + 1) {
      start = new int[2 * (1 << (depth == 0 ? MSD_BITS : 11)) + 1];
      countPool[depth] = start;
    }
    if (par) {
      parallelDistribute(a, ap, b, bp, from, to, shift, mask, start);
      return;
    }
    Arrays.fill(start, 0, buckets, 0);
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
    if (depth == 0 && n >= PARALLEL_MIN && POOL.getParallelism() > 1) {
      sortBucketsInParallel(a, ap, b, bp, start, buckets, n);
      return;
    }
    // bucket bounds must survive the recursion, which reuses deeper pool slots only
    sortBuckets(a, ap, b, bp, start, 0, buckets, depth, countPool);
  }

  /** OR of {@code a[i] ^ a[from]} over the range, computed in parallel parts. */
  private static long parallelDiff(long[] a, int from, int to) {
    long first = a[from];
    long[] d = new long[POOL.getParallelism()];
    runParts(
        from,
        to,
        d.length,
        (p, lo, hi) -> {
          long x = 0;
          for (int i = lo; i < hi; i++) {
            x |= a[i] ^ first;
          }
          d[p] = x;
        });
    long diff = 0;
    for (long x : d) {
      diff |= x;
    }
    return diff;
  }

  /**
   * The top-level MSD pass in parallel: each part of the range counts its digits, parts get
   * consecutive write positions inside every bucket (part 0 first, so the pass stays stable) and
   * scatter into {@code b}; the result is copied back to {@code a} and the buckets are sorted in
   * parallel. {@code start} receives the bucket bounds.
   */
  private static void parallelDistribute(
      long[] a, int[] ap, long[] b, int[] bp, int from, int to, int shift, int mask, int[] start) {
    int parts = POOL.getParallelism();
    int buckets = mask + 1;
    int[][] count = new int[parts][buckets];
    runParts(
        from,
        to,
        parts,
        (p, lo, hi) -> {
          int[] c = count[p];
          for (int i = lo; i < hi; i++) {
            c[(int) (a[i] >>> shift) & mask]++;
          }
        });
    int sum = from;
    for (int k = 0; k < buckets; k++) {
      start[k] = sum;
      for (int p = 0; p < parts; p++) {
        int t = count[p][k];
        count[p][k] = sum;
        sum += t;
      }
    }
    start[buckets] = to;
    runParts(
        from,
        to,
        parts,
        (p, lo, hi) -> {
          int[] w = count[p];
          if (ap == null) {
            for (int i = lo; i < hi; i++) {
              long k = a[i];
              b[w[(int) (k >>> shift) & mask]++] = k;
            }
          } else {
            for (int i = lo; i < hi; i++) {
              long k = a[i];
              int q = w[(int) (k >>> shift) & mask]++;
              b[q] = k;
              bp[q] = ap[i];
            }
          }
        });
    runParts(
        from,
        to,
        parts,
        (p, lo, hi) -> {
          System.arraycopy(b, lo, a, lo, hi - lo);
          if (ap != null) {
            System.arraycopy(bp, lo, ap, lo, hi - lo);
          }
        });
    if (shift > 0) {
      sortBucketsInParallel(a, ap, b, bp, start, buckets, to - from);
    }
  }

  /** A piece of work on the part {@code [lo, hi)} of a range. */
  private interface Part {
    void run(int part, int lo, int hi);
  }

  /** Runs {@code parts} equal parts of {@code [from, to)} on the pool and waits for them. */
  private static void runParts(int from, int to, int parts, Part job) {
    List<Callable<Void>> jobs = new ArrayList<>();
    long n = to - from;
    for (int p = 0; p < parts; p++) {
      int part = p;
      int lo = (int) (from + n * p / parts);
      int hi = (int) (from + n * (p + 1) / parts);
      jobs.add(
          () -> {
            job.run(part, lo, hi);
            return null;
          });
    }
    invokeAll(jobs);
  }

  private static void invokeAll(List<Callable<Void>> jobs) {
    for (Future<Void> f : POOL.invokeAll(jobs)) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("sort interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("sort: a parallel part failed", e.getCause());
      }
    }
  }

  private static void sortBuckets(
      long[] a,
      int[] ap,
      long[] b,
      int[] bp,
      int[] start,
      int kFrom,
      int kTo,
      int depth,
      int[][] countPool) {
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
   * Sorts the top-level buckets of a large input on the common fork-join pool, in contiguous groups
   * of buckets holding about equal numbers of keys (buckets are disjoint ranges).
   */
  private static void sortBucketsInParallel(
      long[] a, int[] ap, long[] b, int[] bp, int[] start, int buckets, int n) {
    int parts = Math.min(4 * POOL.getParallelism(), 64);
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
    List<Callable<Void>> jobs = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      int lo = cuts[p];
      int hi = cuts[p + 1];
      if (lo < hi) {
        jobs.add(
            () -> {
              sortBuckets(a, ap, b, bp, start, lo, hi, 1, new int[8][]);
              return null;
            });
      }
    }
    invokeAll(jobs);
  }

  /**
   * Stable LSD sort of {@code keys[from, to)} on their low {@code bits} bits (higher bits are equal
   * within the range); the result ends in {@code keys}/{@code payload}.
   */
  private static void lsd(
      long[] keys,
      int[] payload,
      int from,
      int to,
      long[] tmp,
      int[] tmpP,
      int bits,
      int[] countBuf) {
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
    Arrays.fill(counts, 0, digits * radix, 0);
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
