package dev.cubed.nd.reduce;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import java.util.ArrayList;
import java.util.List;

/** The standard's utility functions on one in-memory array: all, any and diff. */
public final class Utility {
  private Utility() {}

  /** True where every element over the axes is non-zero (NaN counts as non-zero; empty: true). */
  public static NDArray all(NDArray x, Axes axes) {
    NDArray t = truth(x);
    boolean[] d = (boolean[]) t.data();
    NDArray f = NDArray.zeros(DType.BOOL, x.shape());
    boolean[] fd = (boolean[]) f.data();
    for (int i = 0; i < d.length; i++) {
      fd[i] = !d[i];
    }
    long[] falses = (long[]) Statistics.sum(f, axes).data();
    NDArray out = NDArray.zeros(DType.BOOL, axes.reducedShape("all", x.shape()));
    boolean[] o = (boolean[]) out.data();
    for (int i = 0; i < o.length; i++) {
      o[i] = falses[i] == 0;
    }
    return out;
  }

  public static NDArray all(NDArray x) {
    return all(x, Axes.all());
  }

  /** True where any element over the axes is non-zero. */
  public static NDArray any(NDArray x, Axes axes) {
    NDArray s = Statistics.sum(truth(x), axes);
    return s.astype(DType.BOOL);
  }

  public static NDArray any(NDArray x) {
    return any(x, Axes.all());
  }

  /** Elementwise truth value (non-zero) as bool. */
  static NDArray truth(NDArray x) {
    if (x.dtype().isBool()) {
      return x;
    }
    NDArray out = NDArray.zeros(DType.BOOL, x.shape());
    boolean[] o = (boolean[]) out.data();
    for (int i = 0; i < o.length; i++) {
      o[i] = x.getBoolean(i);
    }
    return out;
  }

  /**
   * The n-th discrete difference along an axis: {@code out[i] = x[i+1] - x[i]}, applied n times,
   * after optionally concatenating {@code prepend} and {@code append} along the axis (either may be
   * null). Bool input gives {@code x[i+1] != x[i]}, as NumPy.
   */
  public static NDArray diff(NDArray x, int n, int axis, NDArray prepend, NDArray append) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("diff: a 0-d array has no axis to difference along");
    }
    if (n < 0) {
      throw new IllegalArgumentException("diff: order n must be >= 0, got " + n);
    }
    int ax = Shapes.normalizeAxis("diff", axis, x.ndim());
    NDArray cur = x;
    if (prepend != null || append != null) {
      List<NDArray> parts = new ArrayList<>();
      if (prepend != null) {
        parts.add(prepend);
      }
      parts.add(x);
      if (append != null) {
        parts.add(append);
      }
      cur = Manipulation.concat(parts.toArray(new NDArray[0]), ax);
    }
    for (int k = 0; k < n; k++) {
      long len = cur.shape(ax);
      if (len == 0) {
        break;
      }
      NDArray hi = Indexing.get(cur, sliceAlong(cur.ndim(), ax, 1L, null));
      NDArray lo = Indexing.get(cur, sliceAlong(cur.ndim(), ax, null, -1L));
      cur = cur.dtype().isBool() ? Elementwise.notEqual(hi, lo) : Elementwise.subtract(hi, lo);
    }
    return cur;
  }

  /** First-order difference along the last axis. */
  public static NDArray diff(NDArray x) {
    return diff(x, 1, -1, null, null);
  }

  private static Index[] sliceAlong(int nd, int axis, Long start, Long stop) {
    Index[] idx = new Index[nd];
    for (int i = 0; i < nd; i++) {
      idx[i] = i == axis ? Index.slice(start, stop) : Index.all();
    }
    return idx;
  }
}
