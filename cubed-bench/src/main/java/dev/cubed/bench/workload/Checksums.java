package dev.cubed.bench.workload;

import dev.cubed.nd.NDArray;

/** The checksum reductions of docs/benchmarks.md over in-memory results (plain double sums). */
final class Checksums {
  private Checksums() {}

  /** Sum of every element, as double. */
  static double sum(NDArray a) {
    double s = 0;
    int n = a.size();
    if (a.data() instanceof double[] d) {
      for (double v : d) {
        s += v;
      }
      return s;
    }
    for (int i = 0; i < n; i++) {
      s += a.getDouble(i);
    }
    return s;
  }

  /** Sum of squares of every element. */
  static double sumSquares(NDArray a) {
    double s = 0;
    int n = a.size();
    for (int i = 0; i < n; i++) {
      double v = a.getDouble(i);
      s += v * v;
    }
    return s;
  }

  /** Sum of an integer vector. */
  static long sumLong(NDArray a) {
    long s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getLong(i);
    }
    return s;
  }

  /** {@code sum(v[i] * (i % 1000))} of an integer vector. */
  static long weightedLong(NDArray a) {
    long s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getLong(i) * (i % 1000);
    }
    return s;
  }

  /**
   * {@code sum(out[t, y, x] * ((t + 2*y + 3*x) % 7))} over a block of a 3-D array whose first
   * element has global indices (t0, y0, x0).
   */
  static double rechunkWeighted(NDArray block, long t0, long y0, long x0) {
    long[] s = block.shape();
    double acc = 0;
    int k = 0;
    for (long t = 0; t < s[0]; t++) {
      for (long y = 0; y < s[1]; y++) {
        for (long x = 0; x < s[2]; x++) {
          acc += block.getDouble(k++) * (((t0 + t) + 2 * (y0 + y) + 3 * (x0 + x)) % 7);
        }
      }
    }
    return acc;
  }
}
