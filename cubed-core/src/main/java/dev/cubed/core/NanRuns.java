package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The block loops of the one-pass NaN-skipping states (NANMEAN's (count, total), NANSUM's total,
 * NANCOUNT's count) when the reduced axes of a float64 or float32 block are one run of adjacent
 * axes (the common case: one axis reduced). The block is seen as (A, R, B) reduced over R: the
 * inner loop runs over B's contiguous elements with no index arithmetic, adding to each state in
 * the same order as {@link NanKernel}'s general loop (so the same sums).
 */
final class NanRuns {
  private NanRuns() {}

  /**
   * Adds block's non-NaN elements into the states {@code ds} (fields per state: 2 for NANMEAN, 1
   * otherwise). False, doing nothing, for other dtypes or reduced axes that are not one run.
   */
  static boolean of(ReduceKernel.Kind kind, NDArray block, boolean[] red, double[] ds) {
    long[] shape = block.shape();
    int nd = shape.length;
    int first = -1;
    int last = -1;
    for (int d = 0; d < nd; d++) {
      if (red[d]) {
        if (first < 0) {
          first = d;
        } else if (last != d - 1) {
          return false;
        }
        last = d;
      }
    }
    if (first < 0 || (block.dtype() != DType.FLOAT64 && block.dtype() != DType.FLOAT32)) {
      return false;
    }
    long a = 1;
    long r = 1;
    long b = 1;
    for (int d = 0; d < nd; d++) {
      if (d < first) {
        a *= shape[d];
      } else if (d <= last) {
        r *= shape[d];
      } else {
        b *= shape[d];
      }
    }
    int bb = (int) b;
    Object data = block.data();
    for (long i = 0; i < a; i++) {
      int ob = (int) (i * b);
      for (long k = 0; k < r; k++) {
        int base = (int) ((i * r + k) * b);
        if (data instanceof double[] src) {
          switch (kind) {
            case NANMEAN -> meanRow(src, base, ds, ob, bb);
            case NANSUM -> sumRow(src, base, ds, ob, bb);
            default -> countRow(src, base, ds, ob, bb);
          }
        } else {
          float[] src = (float[]) data;
          switch (kind) {
            case NANMEAN -> meanRow(src, base, ds, ob, bb);
            case NANSUM -> sumRow(src, base, ds, ob, bb);
            default -> countRow(src, base, ds, ob, bb);
          }
        }
      }
    }
    return true;
  }

  private static void meanRow(double[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      double v = src[base + j];
      if (v == v) {
        int o = 2 * (ob + j);
        ds[o] += 1;
        ds[o + 1] += v;
      }
    }
  }

  private static void meanRow(float[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      float v = src[base + j];
      if (v == v) {
        int o = 2 * (ob + j);
        ds[o] += 1;
        ds[o + 1] += v;
      }
    }
  }

  private static void sumRow(double[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      double v = src[base + j];
      ds[ob + j] += v == v ? v : 0.0;
    }
  }

  private static void sumRow(float[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      float v = src[base + j];
      ds[ob + j] += v == v ? v : 0.0;
    }
  }

  private static void countRow(double[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      double v = src[base + j];
      ds[ob + j] += v == v ? 1.0 : 0.0;
    }
  }

  private static void countRow(float[] src, int base, double[] ds, int ob, int n) {
    for (int j = 0; j < n; j++) {
      float v = src[base + j];
      ds[ob + j] += v == v ? 1.0 : 0.0;
    }
  }
}
