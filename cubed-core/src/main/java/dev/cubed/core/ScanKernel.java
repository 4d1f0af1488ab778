package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The per-block kernel of the scans ({@link Scans}): an inclusive scan of one block along an axis,
 * optionally continuing from a carry (the scan's value just before the block), in the order NumPy
 * accumulates: {@code s[0] = carry op x[0]}, {@code s[j] = s[j-1] op x[j]}. Sums and products of
 * int64/uint64 wrap, floats and complex follow IEEE (a NaN stays NaN from where it appears on).
 * float64, float32, int64 and uint64 run over the backing arrays row by row; complex scans go
 * through the element accessors (complex64 in double, rounded per element, as the tree scan did).
 */
final class ScanKernel {
  private ScanKernel() {}

  /**
   * The inclusive scan of {@code b} along {@code axis} in dtype {@code out}, continuing from {@code
   * carry} (the block's shape with extent 1 along the axis, dtype {@code out}) or from the block's
   * first slice when it is null. Never modifies {@code b} or {@code carry}.
   */
  static NDArray scan(NDArray b, int axis, DType out, boolean prod, NDArray carry) {
    return scan(b, axis, out, prod, carry, false);
  }

  /**
   * {@link #scan(NDArray, int, DType, boolean, NDArray)}; with {@code inPlace}, a block already of
   * dtype {@code out} is scanned in place and returned (the caller owns it).
   */
  static NDArray scan(
      NDArray b, int axis, DType out, boolean prod, NDArray carry, boolean inPlace) {
    NDArray x = b.dtype() == out ? (inPlace ? b : b.copy()) : b.astype(out);
    long[] shape = x.shape();
    int n = (int) shape[axis];
    int inner = 1;
    for (int i = axis + 1; i < shape.length; i++) {
      inner *= (int) shape[i];
    }
    int outer = n * inner == 0 ? 0 : x.size() / (n * inner);
    if (n == 0 || inner == 0 || outer == 0) {
      return x;
    }
    Object d = x.data();
    Object c = carry == null ? null : carry.data();
    switch (out) {
      case FLOAT64 -> doubles((double[]) d, (double[]) c, outer, n, inner, prod);
      case FLOAT32 -> floats((float[]) d, (float[]) c, outer, n, inner, prod);
      case INT64, UINT64 -> longs((long[]) d, (long[]) c, outer, n, inner, prod);
      default -> generic(x, carry, outer, n, inner, prod);
    }
    return x;
  }

  /** The last slice of {@code s} along {@code axis} (extent 1 there): the carry after it. */
  static NDArray lastSlice(NDArray s, int axis) {
    long[] start = new long[s.ndim()];
    long[] shape = s.shape();
    start[axis] = shape[axis] - 1;
    shape[axis] = 1;
    return s.getRegion(start, shape);
  }

  private static void doubles(double[] x, double[] c, int outer, int n, int inner, boolean prod) {
    for (int o = 0; o < outer; o++) {
      int base = o * n * inner;
      if (c != null) {
        int cb = o * inner;
        for (int i = 0; i < inner; i++) {
          x[base + i] = prod ? c[cb + i] * x[base + i] : c[cb + i] + x[base + i];
        }
      }
      for (int j = 1; j < n; j++) {
        int p = base + (j - 1) * inner;
        int q = p + inner;
        if (prod) {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] * x[q + i];
          }
        } else {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] + x[q + i];
          }
        }
      }
    }
  }

  private static void floats(float[] x, float[] c, int outer, int n, int inner, boolean prod) {
    for (int o = 0; o < outer; o++) {
      int base = o * n * inner;
      if (c != null) {
        int cb = o * inner;
        for (int i = 0; i < inner; i++) {
          x[base + i] = prod ? c[cb + i] * x[base + i] : c[cb + i] + x[base + i];
        }
      }
      for (int j = 1; j < n; j++) {
        int p = base + (j - 1) * inner;
        int q = p + inner;
        if (prod) {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] * x[q + i];
          }
        } else {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] + x[q + i];
          }
        }
      }
    }
  }

  private static void longs(long[] x, long[] c, int outer, int n, int inner, boolean prod) {
    for (int o = 0; o < outer; o++) {
      int base = o * n * inner;
      if (c != null) {
        int cb = o * inner;
        for (int i = 0; i < inner; i++) {
          x[base + i] = prod ? c[cb + i] * x[base + i] : c[cb + i] + x[base + i];
        }
      }
      for (int j = 1; j < n; j++) {
        int p = base + (j - 1) * inner;
        int q = p + inner;
        if (prod) {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] * x[q + i];
          }
        } else {
          for (int i = 0; i < inner; i++) {
            x[q + i] = x[p + i] + x[q + i];
          }
        }
      }
    }
  }

  /** Complex dtypes: element by element through the accessors. */
  private static void generic(NDArray x, NDArray c, int outer, int n, int inner, boolean prod) {
    for (int o = 0; o < outer; o++) {
      int base = o * n * inner;
      if (c != null) {
        for (int i = 0; i < inner; i++) {
          combine(x, c, o * inner + i, base + i, prod);
        }
      }
      for (int j = 1; j < n; j++) {
        int p = base + (j - 1) * inner;
        for (int i = 0; i < inner; i++) {
          combine(x, x, p + i, p + inner + i, prod);
        }
      }
    }
  }

  /** {@code x[q] = a[p] op x[q]}. */
  private static void combine(NDArray x, NDArray a, int p, int q, boolean prod) {
    double pr = a.getDouble(p);
    double pi = a.getImag(p);
    double qr = x.getDouble(q);
    double qi = x.getImag(q);
    if (prod) {
      x.setComplex(q, pr * qr - pi * qi, pr * qi + pi * qr);
    } else {
      x.setComplex(q, pr + qr, pi + qi);
    }
  }
}
