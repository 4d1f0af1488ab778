package dev.cubed.nd.reduce;

import dev.cubed.nd.Axes;
import dev.cubed.nd.NDArray;

/**
 * An array viewed as {@code [outer, reduced, inner]} for a reduction over a set of axes: when the
 * reduced axes are one contiguous block no data moves; otherwise the reduced axes are permuted to
 * the end (one copy) and {@code inner} is 1. Element {@code (o, r, i)} is at flat index {@code (o *
 * reduced + r) * inner + i} of {@link #data}.
 */
final class ReduceLayout {
  final NDArray data;
  final int outer;
  final int reduced;
  final int inner;

  /** The result's shape (reduced axes dropped, or 1 with keepdims). */
  final long[] outShape;

  private ReduceLayout(NDArray data, int outer, int reduced, int inner, long[] outShape) {
    this.data = data;
    this.outer = outer;
    this.reduced = reduced;
    this.inner = inner;
    this.outShape = outShape;
  }

  static ReduceLayout of(String fn, NDArray x, Axes axes) {
    long[] shape = x.shape();
    int nd = shape.length;
    int[] ax = axes.resolve(fn, nd);
    long[] outShape = axes.reducedShape(fn, shape);
    boolean[] red = new boolean[nd];
    for (int a : ax) {
      red[a] = true;
    }
    boolean contiguous = ax.length == 0 || ax[ax.length - 1] - ax[0] == ax.length - 1;
    if (contiguous) {
      long outer = 1;
      long r = 1;
      long inner = 1;
      for (int i = 0; i < nd; i++) {
        if (red[i]) {
          r *= shape[i];
        } else if (ax.length > 0 && i < ax[0]) {
          outer *= shape[i];
        } else {
          inner *= shape[i];
        }
      }
      if (ax.length == 0) {
        return new ReduceLayout(x, (int) (outer * inner), 1, 1, outShape);
      }
      return new ReduceLayout(x, (int) outer, (int) r, (int) inner, outShape);
    }
    int[] perm = new int[nd];
    int k = 0;
    long outer = 1;
    long r = 1;
    for (int i = 0; i < nd; i++) {
      if (!red[i]) {
        perm[k++] = i;
        outer *= shape[i];
      }
    }
    for (int a : ax) {
      perm[k++] = a;
      r *= shape[a];
    }
    return new ReduceLayout(x.permuteDims(perm), (int) outer, (int) r, 1, outShape);
  }

  /** Number of output elements. */
  int outSize() {
    return outer * inner;
  }

  /** Flat index of element (o, r, i). */
  int at(int o, int r, int i) {
    return (o * reduced + r) * inner + i;
  }
}
