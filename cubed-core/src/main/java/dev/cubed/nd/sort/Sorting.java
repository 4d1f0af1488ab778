package dev.cubed.nd.sort;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;

/**
 * The standard's {@code sort} and {@code argsort} for in-memory arrays.
 *
 * <p>Both are stable for every dtype and both orders: equal elements keep their relative order,
 * also when sorting in {@link Order#DESCENDING} order (as the standard requires; this is not the
 * reverse of an ascending sort). Real floats: NaN sorts last in both orders (as NumPy's ascending
 * sort), {@code -0.0} and {@code 0.0} compare equal. Complex (an extension; the standard leaves it
 * undefined): NumPy's lexicographic order, see {@code ComplexSort}. Bool sorts false before true.
 *
 * <p>Real and bool inputs are sorted by an LSD radix sort of order-preserving 64-bit keys (linear
 * time, stable); complex inputs by a merge sort.
 */
public final class Sorting {
  private Sorting() {}

  /** Sort direction. */
  public enum Order {
    /** Smallest first. */
    ASCENDING,
    /** Largest first; ties keep their input order. */
    DESCENDING
  }

  /** {@code sort(x, axis=-1)} ascending. */
  public static NDArray sort(NDArray x) {
    return sort(x, -1, Order.ASCENDING);
  }

  /**
   * A sorted copy of {@code x} along {@code axis} (negative counts from the end); same shape and
   * dtype as {@code x}.
   *
   * @throws IllegalArgumentException if {@code axis} is out of range (a 0-d array has no axis)
   */
  public static NDArray sort(NDArray x, int axis, Order order) {
    int ax = Shapes.normalizeAxis("sort", axis, x.ndim());
    boolean desc = order == Order.DESCENDING;
    NDArray out = x.copy();
    Lanes lanes = new Lanes(x.shape(), ax);
    int n = lanes.n;
    if (n < 2 || x.size() == 0) {
      return out;
    }
    DType dt = x.dtype();
    if (dt.isComplex()) {
      int[] perm = new int[n];
      double[] re = new double[n];
      double[] im = new double[n];
      for (int l = 0; l < lanes.count; l++) {
        int base = lanes.base(l);
        complexLane(x, base, lanes.stride, n, re, im);
        ComplexSort.argsort(re, im, n, desc, perm);
        for (int i = 0; i < n; i++) {
          out.setComplex(base + i * lanes.stride, re[perm[i]], im[perm[i]]);
        }
      }
      return out;
    }
    long[] keys = new long[n];
    long[] tmp = new long[n];
    int[] perm = null;
    int[] tmpP = null;
    Object src = x.data();
    Object dst = out.data();
    for (int l = 0; l < lanes.count; l++) {
      int base = lanes.base(l);
      boolean negZero = SortKeys.keys(dt, src, base, lanes.stride, n, keys, desc);
      if (!negZero) {
        RadixSort.sort(keys, null, n, tmp, null);
        SortKeys.restore(dt, keys, n, desc, dst, base, lanes.stride);
      } else {
        if (perm == null) {
          perm = new int[n];
          tmpP = new int[n];
        }
        for (int i = 0; i < n; i++) {
          perm[i] = i;
        }
        RadixSort.sort(keys, perm, n, tmp, tmpP);
        gather(src, dst, base, lanes.stride, perm, n);
      }
    }
    return out;
  }

  /** {@code argsort(x, axis=-1)} ascending. */
  public static NDArray argsort(NDArray x) {
    return argsort(x, -1, Order.ASCENDING);
  }

  /**
   * The int64 indices along {@code axis} that sort {@code x} stably in the given order; same shape
   * as {@code x}.
   *
   * @throws IllegalArgumentException if {@code axis} is out of range (a 0-d array has no axis)
   */
  public static NDArray argsort(NDArray x, int axis, Order order) {
    int ax = Shapes.normalizeAxis("argsort", axis, x.ndim());
    boolean desc = order == Order.DESCENDING;
    NDArray out = NDArray.zeros(DType.INT64, x.shape());
    long[] o = (long[]) out.data();
    Lanes lanes = new Lanes(x.shape(), ax);
    int n = lanes.n;
    if (x.size() == 0) {
      return out;
    }
    int[] perm = new int[n];
    if (x.dtype().isComplex()) {
      double[] re = new double[n];
      double[] im = new double[n];
      for (int l = 0; l < lanes.count; l++) {
        int base = lanes.base(l);
        complexLane(x, base, lanes.stride, n, re, im);
        ComplexSort.argsort(re, im, n, desc, perm);
        for (int i = 0; i < n; i++) {
          o[base + i * lanes.stride] = perm[i];
        }
      }
      return out;
    }
    long[] keys = new long[n];
    long[] tmp = new long[n];
    int[] tmpP = new int[n];
    for (int l = 0; l < lanes.count; l++) {
      int base = lanes.base(l);
      SortKeys.keys(x.dtype(), x.data(), base, lanes.stride, n, keys, desc);
      for (int i = 0; i < n; i++) {
        perm[i] = i;
      }
      RadixSort.sort(keys, perm, n, tmp, tmpP);
      for (int i = 0; i < n; i++) {
        o[base + i * lanes.stride] = perm[i];
      }
    }
    return out;
  }

  /**
   * The sort keys of a 1-d real or bool array: unsigned 64-bit numbers whose unsigned order ({@link
   * Long#compareUnsigned}) is the order of {@link #sort} in the given direction; equal keys are
   * equal values ({@code -0.0} and {@code 0.0} share a key), and every NaN has the key {@code -1L}
   * (the largest, in both directions), so NaN sorts last. The chunked sort routes elements by these
   * keys.
   *
   * @throws IllegalArgumentException for a complex dtype or an array that is not 1-d
   */
  public static long[] keys(NDArray x, Order order) {
    if (x.ndim() != 1 || x.dtype().isComplex()) {
      throw new IllegalArgumentException(
          "sort keys: expected a 1-d real or bool array, got "
              + x.dtype()
              + " of shape "
              + Shapes.format(x.shape()));
    }
    long[] k = new long[x.size()];
    SortKeys.keys(x.dtype(), x.data(), 0, 1, x.size(), k, order == Order.DESCENDING);
    return k;
  }

  static void complexLane(NDArray x, int base, int stride, int n, double[] re, double[] im) {
    Object d = x.data();
    if (d instanceof double[] a) {
      for (int i = 0; i < n; i++) {
        int p = 2 * (base + i * stride);
        re[i] = a[p];
        im[i] = a[p + 1];
      }
    } else {
      float[] a = (float[]) d;
      for (int i = 0; i < n; i++) {
        int p = 2 * (base + i * stride);
        re[i] = a[p];
        im[i] = a[p + 1];
      }
    }
  }

  private static void gather(Object src, Object dst, int base, int stride, int[] perm, int n) {
    if (src instanceof double[] s) {
      double[] d = (double[]) dst;
      for (int i = 0; i < n; i++) {
        d[base + i * stride] = s[base + perm[i] * stride];
      }
    } else {
      float[] s = (float[]) src;
      float[] d = (float[]) dst;
      for (int i = 0; i < n; i++) {
        d[base + i * stride] = s[base + perm[i] * stride];
      }
    }
  }

  /** The 1-d lanes along one axis of a C-order array: lane l starts at base(l), step stride. */
  static final class Lanes {
    final int n;
    final int stride;
    final int count;
    private final int inner;

    Lanes(long[] shape, int axis) {
      int in = 1;
      for (int i = axis + 1; i < shape.length; i++) {
        in *= (int) shape[i];
      }
      int out = 1;
      for (int i = 0; i < axis; i++) {
        out *= (int) shape[i];
      }
      this.n = (int) shape[axis];
      this.stride = in;
      this.inner = in;
      this.count = out * in;
    }

    int base(int lane) {
      int o = lane / inner;
      int i = lane % inner;
      return o * n * inner + i;
    }
  }
}
