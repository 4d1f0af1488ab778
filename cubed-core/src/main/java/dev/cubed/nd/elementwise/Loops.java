package dev.cubed.nd;

import java.util.Arrays;

/**
 * Broadcasting loop machinery of the elementwise functions: a binary loop works on one row (a run
 * along the innermost broadcast axis) of the backing arrays, and {@link #run} walks the rows of the
 * broadcast result with an odometer over the outer axes, after dropping length-1 axes and merging
 * axes that are contiguous in every operand. Same-shape operands and array-with-one-element
 * operands are a single row. Also the widening/narrowing helpers the generic (non fast-path)
 * kernels use: real floats are computed as {@code double[]}, integers as {@code long[]} and complex
 * numbers as interleaved {@code double[]}.
 */
final class Loops {
  private Loops() {}

  /**
   * One row of a binary elementwise function: {@code out[oo + i] = f(x[xo + i*xs], y[yo + i*ys])}
   * for {@code i < n}. Offsets and strides count elements (complex loops double them); strides are
   * 0 (broadcast) or 1.
   */
  @FunctionalInterface
  interface Binary {
    void run(Object x, int xo, int xs, Object y, int yo, int ys, Object out, int oo, int n);
  }

  /** A unary elementwise function over {@code n} contiguous elements. */
  @FunctionalInterface
  interface Unary {
    void run(Object x, Object out, int n);
  }

  /** The broadcast shape of two operands (the same array when equal). */
  static long[] shape(String fn, long[] a, long[] b) {
    return Arrays.equals(a, b) ? a : Shapes.broadcast(fn, a, b);
  }

  /**
   * Runs a binary loop over the broadcast of {@code xd} (shape {@code xs}) and {@code yd} (shape
   * {@code ys}) into {@code out}, which holds {@code shape} in C order.
   */
  static void run(
      long[] shape, long[] xs, Object xd, long[] ys, Object yd, Object out, Binary loop) {
    long total = Shapes.size(shape);
    if (total == 0) {
      return;
    }
    int n = (int) total;
    boolean xFull = Arrays.equals(xs, shape);
    boolean yFull = Arrays.equals(ys, shape);
    if (xFull && yFull) {
      loop.run(xd, 0, 1, yd, 0, 1, out, 0, n);
      return;
    }
    if (xFull && Shapes.size(ys) == 1) {
      loop.run(xd, 0, 1, yd, 0, 0, out, 0, n);
      return;
    }
    if (yFull && Shapes.size(xs) == 1) {
      loop.run(xd, 0, 0, yd, 0, 1, out, 0, n);
      return;
    }
    int nd = shape.length;
    long[] sx = broadcastStrides(xs, nd);
    long[] sy = broadcastStrides(ys, nd);
    // coalesce, innermost first: drop length-1 axes, merge axes contiguous in both operands
    int[] dim = new int[nd];
    int[] stx = new int[nd];
    int[] sty = new int[nd];
    int m = 0;
    for (int a = nd - 1; a >= 0; a--) {
      int d = (int) shape[a];
      if (d == 1) {
        continue;
      }
      if (m > 0
          && sx[a] == (long) stx[m - 1] * dim[m - 1]
          && sy[a] == (long) sty[m - 1] * dim[m - 1]) {
        dim[m - 1] *= d;
        continue;
      }
      dim[m] = d;
      stx[m] = (int) sx[a];
      sty[m] = (int) sy[a];
      m++;
    }
    if (m == 0) {
      loop.run(xd, 0, 0, yd, 0, 0, out, 0, 1);
      return;
    }
    int inner = dim[0];
    int rows = n / inner;
    int[] idx = new int[m];
    int xo = 0;
    int yo = 0;
    int oo = 0;
    for (int r = 0; r < rows; r++) {
      loop.run(xd, xo, stx[0], yd, yo, sty[0], out, oo, inner);
      oo += inner;
      for (int k = 1; k < m; k++) {
        xo += stx[k];
        yo += sty[k];
        if (++idx[k] < dim[k]) {
          break;
        }
        xo -= stx[k] * dim[k];
        yo -= sty[k] * dim[k];
        idx[k] = 0;
      }
    }
  }

  /** C-order element strides of {@code s} right-aligned to {@code nd} axes, 0 on length-1 axes. */
  private static long[] broadcastStrides(long[] s, int nd) {
    long[] st = new long[nd];
    long acc = 1;
    for (int i = s.length - 1; i >= 0; i--) {
      int a = nd - s.length + i;
      st[a] = s[i] == 1 ? 0 : acc;
      acc *= s[i];
    }
    return st;
  }

  // ---------------------------------------------------------------- widening / narrowing

  /** Real floating elements as doubles (float64: the backing array itself, not copied). */
  static double[] doubles(NDArray x) {
    if (x.data() instanceof double[] d && !x.dtype().isComplex()) {
      return d;
    }
    int n = x.size();
    double[] out = new double[n];
    if (x.data() instanceof float[] f && !x.dtype().isComplex()) {
      for (int i = 0; i < n; i++) {
        out[i] = f[i];
      }
      return out;
    }
    for (int i = 0; i < n; i++) {
      out[i] = x.getDouble(i);
    }
    return out;
  }

  /** Complex elements as interleaved doubles (complex128: the backing array, not copied). */
  static double[] complexes(NDArray x) {
    if (x.dtype() == DType.COMPLEX128) {
      return (double[]) x.data();
    }
    int n = x.size();
    double[] out = new double[2 * n];
    if (x.dtype() == DType.COMPLEX64) {
      float[] f = (float[]) x.data();
      for (int i = 0; i < 2 * n; i++) {
        out[i] = f[i];
      }
      return out;
    }
    for (int i = 0; i < n; i++) {
      out[2 * i] = x.getDouble(i);
    }
    return out;
  }

  /**
   * Integer elements as longs, sign- or zero-extended by dtype (int64/uint64: the backing array,
   * not copied; uint64 keeps its bits).
   */
  static long[] longs(NDArray x) {
    Object d = x.data();
    if (d instanceof long[] l) {
      return l;
    }
    int n = x.size();
    long[] out = new long[n];
    boolean u = x.dtype().isUnsigned();
    if (d instanceof int[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFFFFFFFFL : a[i];
      }
    } else if (d instanceof short[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFFFF : a[i];
      }
    } else if (d instanceof byte[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFF : a[i];
      }
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = x.getLong(i);
      }
    }
    return out;
  }

  /** An array of a real floating dtype from doubles (float32 rounds each). */
  static NDArray fromDoubles(DType t, long[] shape, double[] v) {
    if (t == DType.FLOAT64) {
      return new NDArray(t, shape, v);
    }
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return new NDArray(t, shape, f);
  }

  /** An array of a complex dtype from interleaved doubles (complex64 rounds each part). */
  static NDArray fromComplexes(DType t, long[] shape, double[] v) {
    if (t == DType.COMPLEX128) {
      return new NDArray(t, shape, v);
    }
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return new NDArray(t, shape, f);
  }

  /** An array of an integer dtype from longs, wrapping each to the dtype's width. */
  static NDArray fromLongs(DType t, long[] shape, long[] v) {
    int n = v.length;
    Object d;
    switch (t.itemSize()) {
      case 8 -> d = v;
      case 4 -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = (int) v[i];
        }
        d = a;
      }
      case 2 -> {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) {
          a[i] = (short) v[i];
        }
        d = a;
      }
      default -> {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
          a[i] = (byte) v[i];
        }
        d = a;
      }
    }
    return new NDArray(t, shape, d);
  }

  /** {@code x} converted to {@code t}, or {@code x} itself when it already has that dtype. */
  static NDArray cast(NDArray x, DType t) {
    return x.dtype() == t ? x : x.astype(t);
  }
}
