package dev.cubed.nd.reduce;

/**
 * The loops behind the reductions of {@link Statistics}, over a {@link ReduceLayout}: each returns
 * one value per output element ({@code outer * inner}). Sums keep eight independent accumulators
 * along contiguous runs, one run at a time (fast, and accurate like a shallow pairwise sum; two
 * runs interleaved were measured up to three times slower on rows of 64-1000 elements and 1.4 times
 * on rows of 4000, docs/perf/kernel.md); runs along a strided axis accumulate whole rows at a time
 * (a vectorizable inner loop).
 */
final class ReduceLoops {
  private ReduceLoops() {}

  enum Op {
    SUM,
    PROD,
    MIN,
    MAX
  }

  // ---------------------------------------------------------------- doubles

  static double[] doubles(double[] x, ReduceLayout l, Op op) {
    int outer = l.outer;
    int r = l.reduced;
    int inner = l.inner;
    double[] out = new double[outer * inner];
    if (inner == 1) {
      for (int o = 0; o < outer; o++) {
        int base = o * r;
        out[o] =
            switch (op) {
              case SUM -> sumRun(x, base, r);
              case PROD -> prodRun(x, base, r);
              case MIN -> minRun(x, base, r);
              case MAX -> maxRun(x, base, r);
            };
      }
      return out;
    }
    for (int o = 0; o < outer; o++) {
      int ob = o * inner;
      int base = o * r * inner;
      if (r > 0) {
        System.arraycopy(x, base, out, ob, inner);
      }
      int k0 = 1;
      if (op == Op.SUM) {
        // four rows per pass: a quarter of the loads and stores of the accumulator row
        for (; k0 + 4 <= r; k0 += 4) {
          int r0 = base + k0 * inner;
          int r1 = r0 + inner;
          int r2 = r1 + inner;
          int r3 = r2 + inner;
          for (int i = 0; i < inner; i++) {
            out[ob + i] += (x[r0 + i] + x[r1 + i]) + (x[r2 + i] + x[r3 + i]);
          }
        }
      }
      for (int k = k0; k < r; k++) {
        int rb = base + k * inner;
        switch (op) {
          case SUM -> {
            for (int i = 0; i < inner; i++) {
              out[ob + i] += x[rb + i];
            }
          }
          case PROD -> {
            for (int i = 0; i < inner; i++) {
              out[ob + i] *= x[rb + i];
            }
          }
          case MIN -> {
            for (int i = 0; i < inner; i++) {
              double v = x[rb + i];
              double c = out[ob + i];
              out[ob + i] = (v < c || v != v) && c == c ? v : c;
            }
          }
          case MAX -> {
            for (int i = 0; i < inner; i++) {
              double v = x[rb + i];
              double c = out[ob + i];
              out[ob + i] = (v > c || v != v) && c == c ? v : c;
            }
          }
        }
      }
      if (r == 0) {
        double id = op == Op.PROD ? 1 : 0;
        for (int i = 0; i < inner; i++) {
          out[ob + i] = id;
        }
      }
    }
    return out;
  }

  /** Sum of x[base, base + n) with eight accumulators. */
  static double sumRun(double[] x, int base, int n) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    double s4 = 0;
    double s5 = 0;
    double s6 = 0;
    double s7 = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      int j = base + i;
      s0 += x[j];
      s1 += x[j + 1];
      s2 += x[j + 2];
      s3 += x[j + 3];
      s4 += x[j + 4];
      s5 += x[j + 5];
      s6 += x[j + 6];
      s7 += x[j + 7];
    }
    double s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    for (; i < n; i++) {
      s += x[base + i];
    }
    return s;
  }

  private static double prodRun(double[] x, int base, int n) {
    double p = 1;
    for (int i = 0; i < n; i++) {
      p *= x[base + i];
    }
    return p;
  }

  private static double minRun(double[] x, int base, int n) {
    double m = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double v = x[base + i];
      if (v != v) {
        return v;
      }
      m = Math.min(m, v);
    }
    return m;
  }

  private static double maxRun(double[] x, int base, int n) {
    double m = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double v = x[base + i];
      if (v != v) {
        return v;
      }
      m = Math.max(m, v);
    }
    return m;
  }

  // ---------------------------------------------------------------- longs

  /** Integer reductions; sums and products wrap; min/max compare unsigned when asked. */
  static long[] longs(long[] x, ReduceLayout l, Op op, boolean unsigned) {
    int outer = l.outer;
    int r = l.reduced;
    int inner = l.inner;
    long[] out = new long[outer * inner];
    long id = op == Op.PROD ? 1 : 0;
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        long acc = r > 0 ? x[l.at(o, 0, i)] : id;
        for (int k = 1; k < r; k++) {
          long v = x[l.at(o, k, i)];
          acc =
              switch (op) {
                case SUM -> acc + v;
                case PROD -> acc * v;
                case MIN ->
                    (unsigned ? Long.compareUnsigned(v, acc) : Long.compare(v, acc)) < 0 ? v : acc;
                case MAX ->
                    (unsigned ? Long.compareUnsigned(v, acc) : Long.compare(v, acc)) > 0 ? v : acc;
              };
        }
        out[o * inner + i] = acc;
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- complex

  /** Complex sums and products over interleaved (re, im) doubles. */
  static double[] complexes(double[] x, ReduceLayout l, Op op) {
    int outer = l.outer;
    int r = l.reduced;
    int inner = l.inner;
    double[] out = new double[2 * outer * inner];
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        double re = op == Op.PROD ? 1 : 0;
        double im = 0;
        for (int k = 0; k < r; k++) {
          int j = 2 * l.at(o, k, i);
          if (op == Op.SUM) {
            re += x[j];
            im += x[j + 1];
          } else {
            double a = re * x[j] - im * x[j + 1];
            im = re * x[j + 1] + im * x[j];
            re = a;
          }
        }
        out[2 * (o * inner + i)] = re;
        out[2 * (o * inner + i) + 1] = im;
      }
    }
    return out;
  }
}
