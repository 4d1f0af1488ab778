package dev.cubed.nd.reduce;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.WideArrays;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The standard's searching functions on one in-memory array: argmin, argmax, count_nonzero,
 * nonzero, where and searchsorted. Indices are int64.
 */
public final class Searching {
  private Searching() {}

  /** Which index searchsorted returns among equal elements. */
  public enum Side {
    /** The first position where the value could be inserted (the default). */
    LEFT,
    /** The last such position. */
    RIGHT
  }

  /**
   * Index of the minimum of the flattened array (first occurrence; a NaN counts as the minimum).
   */
  public static NDArray argmin(NDArray x) {
    return arg("argmin", x, null, false, true);
  }

  /**
   * Indices of the minima along one axis ({@code Axes.of(axis)}, optionally with keepDims; {@code
   * Axes.all()} for the flattened array): first occurrence; NaN counts as the extreme, as NumPy.
   */
  public static NDArray argmin(NDArray x, Axes axis) {
    return arg("argmin", x, axis, axis.isKeepDims(), true);
  }

  /** Index of the maximum of the flattened array. */
  public static NDArray argmax(NDArray x) {
    return arg("argmax", x, null, false, false);
  }

  /** Indices of the maxima along one axis ({@code Axes.of(axis)}, optionally with keepDims). */
  public static NDArray argmax(NDArray x, Axes axis) {
    return arg("argmax", x, axis, axis.isKeepDims(), false);
  }

  private static NDArray arg(String fn, NDArray x, Axes axis, boolean keep, boolean min) {
    DType dt = x.dtype();
    if (dt.isComplex()) {
      throw new IllegalArgumentException(
          fn
              + ": dtype "
              + dt
              + " is not supported: "
              + fn
              + " is defined for real dtypes (complex numbers have no order)");
    }
    Axes ax = axis == null || axis.isAll() ? Axes.all() : axis;
    if (!ax.isAll() && ax.raw().length != 1) {
      throw new IllegalArgumentException(fn + ": axis must be a single axis or all, got " + axis);
    }
    NDArray src = ax.isAll() ? x.reshape(x.size()) : x;
    Axes red = ax.isAll() ? Axes.of(0) : Axes.of(ax.raw()[0]);
    ReduceLayout l = ReduceLayout.of(fn, src, keep ? red.keepDims() : red);
    if (l.reduced == 0) {
      throw new IllegalArgumentException(
          fn
              + ": attempt to get "
              + fn
              + " of an empty sequence"
              + " (shape "
              + Shapes.format(x.shape())
              + "): every reduced run must hold an element");
    }
    long[] out = new long[l.outSize()];
    if (dt.isRealFloating()) {
      double[] d = WideArrays.doubles(l.data);
      for (int o = 0; o < l.outer; o++) {
        for (int i = 0; i < l.inner; i++) {
          int best = 0;
          double bv = d[l.at(o, 0, i)];
          for (int k = 1; k < l.reduced && bv == bv; k++) {
            double v = d[l.at(o, k, i)];
            if (v != v || (min ? v < bv : v > bv)) {
              best = k;
              bv = v;
            }
          }
          out[o * l.inner + i] = best;
        }
      }
    } else {
      long[] d = WideArrays.longs(dt.isBool() ? l.data.astype(DType.INT8) : l.data);
      boolean u = dt == DType.UINT64;
      for (int o = 0; o < l.outer; o++) {
        for (int i = 0; i < l.inner; i++) {
          int best = 0;
          long bv = d[l.at(o, 0, i)];
          for (int k = 1; k < l.reduced; k++) {
            long v = d[l.at(o, k, i)];
            int c = u ? Long.compareUnsigned(v, bv) : Long.compare(v, bv);
            if (min ? c < 0 : c > 0) {
              best = k;
              bv = v;
            }
          }
          out[o * l.inner + i] = best;
        }
      }
    }
    long[] shape = l.outShape;
    if (ax.isAll() && keep) {
      shape = new long[x.ndim()];
      Arrays.fill(shape, 1);
    } else if (ax.isAll()) {
      shape = new long[0];
    }
    return new NDArray(DType.INT64, shape, out);
  }

  /** Number of non-zero elements over the axes (int64). */
  public static NDArray countNonzero(NDArray x, Axes axes) {
    return Statistics.sum(Utility.truth(x), axes);
  }

  /** Number of non-zero elements of the whole array. */
  public static NDArray countNonzero(NDArray x) {
    return countNonzero(x, Axes.all());
  }

  /**
   * The indices of the non-zero elements, one int64 array per dimension, in C order.
   *
   * @throws IllegalArgumentException for a 0-d array, as the standard says
   */
  public static NDArray[] nonzero(NDArray x) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          "nonzero: a 0-d array is not supported; use" + " expand_dims or reshape it to 1-d first");
    }
    List<Integer> hits = new ArrayList<>();
    for (int i = 0; i < x.size(); i++) {
      if (x.getBoolean(i)) {
        hits.add(i);
      }
    }
    long[] shape = x.shape();
    NDArray[] out = new NDArray[shape.length];
    long[][] cols = new long[shape.length][hits.size()];
    for (int h = 0; h < hits.size(); h++) {
      long[] idx = Shapes.unravel(shape, hits.get(h));
      for (int k = 0; k < shape.length; k++) {
        cols[k][h] = idx[k];
      }
    }
    for (int k = 0; k < shape.length; k++) {
      out[k] = new NDArray(DType.INT64, new long[] {hits.size()}, cols[k]);
    }
    return out;
  }

  /**
   * Elements of {@code x1} where {@code condition} is true and of {@code x2} elsewhere; the three
   * broadcast together and x1/x2 promote with {@link DType#resultType(DType, DType)}.
   */
  public static NDArray where(NDArray condition, NDArray x1, NDArray x2) {
    return where(condition, x1, x2, null);
  }

  /**
   * {@link #where(NDArray, NDArray, NDArray)} written into {@code buf} when it (not null) has the
   * result's dtype and shape and is none of the operands, else into a new array.
   */
  public static NDArray where(NDArray condition, NDArray x1, NDArray x2, NDArray buf) {
    if (!condition.dtype().isBool()) {
      throw new IllegalArgumentException("where: condition must be bool, got " + condition.dtype());
    }
    long[] shape = Shapes.broadcast("where", condition.shape(), x1.shape(), x2.shape());
    DType rt = DType.resultType(x1.dtype(), x2.dtype());
    // operands of the result's shape are read in place and one-element operands as a value: no
    // broadcast copies (the inputs are never written)
    boolean[] cd = (boolean[]) full(condition, shape).data();
    NDArray a = operand(WideArrays.cast(x1, rt), shape);
    NDArray b = operand(WideArrays.cast(x2, rt), shape);
    NDArray out =
        buf != null
                && buf.dtype() == rt
                && Arrays.equals(buf.shape(), shape)
                && buf.data() != a.data()
                && buf.data() != b.data()
                && buf.data() != condition.data()
            ? buf
            : NDArray.empty(rt, shape);
    if (cd.length == 0) {
      return out;
    }
    boolean as = a.size() == 1 && cd.length != 1;
    boolean bs = b.size() == 1 && cd.length != 1;
    switch (rt) {
      case FLOAT64 -> whereF64(cd, (double[]) a.data(), as, (double[]) b.data(), bs, out);
      case FLOAT32 -> whereF32(cd, (float[]) a.data(), as, (float[]) b.data(), bs, out);
      case INT64, UINT64 -> {
        long[] o = (long[]) out.data();
        long[] ad = (long[]) a.data();
        long[] bd = (long[]) b.data();
        long av = ad[0];
        long bv = bd[0];
        for (int i = 0; i < o.length; i++) {
          o[i] = cd[i] ? (as ? av : ad[i]) : (bs ? bv : bd[i]);
        }
      }
      default -> {
        NDArray fa = a.size() == cd.length ? a : a.broadcastTo(shape);
        NDArray fb = b.size() == cd.length ? b : b.broadcastTo(shape);
        int mult = rt.isComplex() ? 2 : 1;
        System.arraycopy(fb.data(), 0, out.data(), 0, cd.length * mult);
        for (int i = 0; i < cd.length; i++) {
          if (cd[i]) {
            System.arraycopy(fa.data(), i * mult, out.data(), i * mult, mult);
          }
        }
      }
    }
    return out;
  }

  /**
   * where on float64: one plain loop per case (array or one value on each side), with no
   * per-element test of which case it is.
   */
  private static void whereF64(
      boolean[] c, double[] a, boolean as, double[] b, boolean bs, NDArray out) {
    double[] o = (double[]) out.data();
    int n = o.length;
    if (as && bs) {
      double av = a[0];
      double bv = b[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? av : bv;
      }
    } else if (as) {
      double av = a[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? av : b[i];
      }
    } else if (bs) {
      double bv = b[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? a[i] : bv;
      }
    } else {
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? a[i] : b[i];
      }
    }
  }

  /** {@link #whereF64} on float32. */
  private static void whereF32(
      boolean[] c, float[] a, boolean as, float[] b, boolean bs, NDArray out) {
    float[] o = (float[]) out.data();
    int n = o.length;
    if (as && bs) {
      float av = a[0];
      float bv = b[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? av : bv;
      }
    } else if (as) {
      float av = a[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? av : b[i];
      }
    } else if (bs) {
      float bv = b[0];
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? a[i] : bv;
      }
    } else {
      for (int i = 0; i < n; i++) {
        o[i] = c[i] ? a[i] : b[i];
      }
    }
  }

  /** x itself when it has the shape {@code shape}, else x broadcast to it (a copy). */
  private static NDArray full(NDArray x, long[] shape) {
    return Arrays.equals(x.shape(), shape) ? x : x.broadcastTo(shape);
  }

  /** x itself when it has the shape {@code shape} or one element, else x broadcast to it. */
  private static NDArray operand(NDArray x, long[] shape) {
    return x.size() == 1 ? x : full(x, shape);
  }

  /** {@link #where(NDArray, NDArray, NDArray)} with a Java scalar for x2. */
  public static NDArray where(NDArray condition, NDArray x1, Object x2) {
    return where(condition, x1, x2, null);
  }

  /** {@link #where(NDArray, NDArray, Object)} into {@code buf} as in the four-array form. */
  public static NDArray where(NDArray condition, NDArray x1, Object x2, NDArray buf) {
    return where(condition, x1, DataTypes.scalarOperand("where", x1.dtype(), x2), buf);
  }

  /** {@link #where(NDArray, NDArray, NDArray)} with a Java scalar for x1. */
  public static NDArray where(NDArray condition, Object x1, NDArray x2) {
    return where(condition, x1, x2, null);
  }

  /** {@link #where(NDArray, Object, NDArray)} into {@code buf} as in the four-array form. */
  public static NDArray where(NDArray condition, Object x1, NDArray x2, NDArray buf) {
    return where(condition, DataTypes.scalarOperand("where", x2.dtype(), x1), x2, buf);
  }

  /**
   * For each element of {@code x2}, the index at which it would be inserted into the sorted 1-d
   * {@code x1} to keep it sorted (NaN sorts last). {@code sorter}, if not null, holds the int64
   * indices that sort {@code x1}.
   */
  public static NDArray searchsorted(NDArray x1, NDArray x2, Side side, NDArray sorter) {
    if (x1.ndim() != 1) {
      throw new IllegalArgumentException(
          "searchsorted: x1 must be 1-d, got shape " + Shapes.format(x1.shape()));
    }
    if (x1.dtype().isComplex() || x2.dtype().isComplex()) {
      throw new IllegalArgumentException(
          "searchsorted: complex dtypes have no order (" + x1.dtype() + ", " + x2.dtype() + ")");
    }
    DType ct = DType.resultType(x1.dtype(), x2.dtype());
    NDArray s = sorter == null ? x1 : Indexing.take(x1, sorter, 0);
    NDArray a = WideArrays.cast(s, ct);
    NDArray v = WideArrays.cast(x2, ct);
    int n = a.size();
    long[] out = new long[v.size()];
    boolean right = side == Side.RIGHT;
    for (int i = 0; i < out.length; i++) {
      int lo = 0;
      int hi = n;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        int c = compare(a, mid, v, i, ct);
        if (right ? c <= 0 : c < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      out[i] = lo;
    }
    return new NDArray(DType.INT64, x2.shape(), out);
  }

  /** searchsorted with side LEFT and no sorter. */
  public static NDArray searchsorted(NDArray x1, NDArray x2) {
    return searchsorted(x1, x2, Side.LEFT, null);
  }

  /** Compares a[i] with b[j] in dtype t, NaN greater than everything. */
  private static int compare(NDArray a, int i, NDArray b, int j, DType t) {
    if (t.isRealFloating()) {
      double x = a.getDouble(i);
      double y = b.getDouble(j);
      boolean xn = x != x;
      boolean yn = y != y;
      if (xn || yn) {
        return xn == yn ? 0 : (xn ? 1 : -1);
      }
      return Double.compare(x == 0 ? 0.0 : x, y == 0 ? 0.0 : y);
    }
    long x = a.getLong(i);
    long y = b.getLong(j);
    return t == DType.UINT64 ? Long.compareUnsigned(x, y) : Long.compare(x, y);
  }
}
