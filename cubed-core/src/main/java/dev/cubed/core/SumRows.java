package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.reduce.Statistics;

/**
 * The additive first-round states of {@link ReduceKernel}: float64 sum (and mean) states made row
 * by row in the order of the general loop, and sum/mean states merged in place into a box of a
 * larger state (the tiled evaluation's accumulators) with the additions that {@link
 * ReduceKernel#combine} makes.
 */
final class SumRows {
  private SumRows() {}

  /**
   * Sum (or count and sum, for mean) of a float64 block row by row, without the general loop's
   * per-element dispatch and index arithmetic. When the last axis is reduced each row is summed as
   * the kernel sums a contiguous run ({@link Statistics#sumRun}: eight partial sums, vectorizable
   * and more accurate than one running sum) and added to its state element, rows in C order;
   * otherwise each row is added element by element into its row of states, in C order (the general
   * loop's order, {@link #sumLeading}).
   */
  static void sumRows(boolean mean, double[] src, double[] ds, long[] shape, long[] os) {
    int nd = shape.length;
    int len = (int) shape[nd - 1];
    boolean lastReduced = os[nd - 1] == 0;
    long rows = 1;
    for (int d = 0; d < nd - 1; d++) {
      rows *= shape[d];
    }
    if (len == 0 || rows == 0) {
      return;
    }
    int lead = 0;
    while (lead < nd - 1 && os[lead] == 0) {
      lead++;
    }
    boolean leading = !lastReduced;
    for (int d = lead; d < nd && leading; d++) {
      leading = os[d] != 0 || shape[d] == 1;
    }
    if (leading && lead > 0) {
      sumLeading(mean, src, ds, shape, lead);
      return;
    }
    long[] idx = new long[nd];
    int o = 0;
    int i = 0;
    for (long r = 0; r < rows; r++, i += len) {
      if (lastReduced) {
        double acc = (mean ? ds[2 * o + 1] : ds[o]) + Statistics.sumRun(src, i, len);
        if (mean) {
          ds[2 * o] += len;
          ds[2 * o + 1] = acc;
        } else {
          ds[o] = acc;
        }
      } else if (mean) {
        for (int j = 0; j < len; j++) {
          ds[2 * (o + j)] += 1;
          ds[2 * (o + j) + 1] += src[i + j];
        }
      } else {
        for (int j = 0; j < len; j++) {
          ds[o + j] += src[i + j];
        }
      }
      o = ReduceKernel.advance(idx, shape, os, o, nd - 2);
    }
  }

  /** State elements per tile of {@link #sumLeading}: the tile's sums stay in the CPU cache. */
  private static final int TILE = 2048;

  /**
   * Sum or mean state over the leading {@code lead} axes of a block whose other axes are kept (e.g.
   * a mean over time of (T, 1, Y, X) blocks): tile by tile of the state, adds the rows of every
   * reduced index in order, so each state element gets the same additions in the same order as the
   * row loop of {@link #sumRows}, while the state is read and written once instead of once per
   * reduced row.
   */
  private static void sumLeading(boolean mean, double[] src, double[] ds, long[] shape, int lead) {
    long reduced = 1;
    for (int d = 0; d < lead; d++) {
      reduced *= shape[d];
    }
    long keptL = 1;
    for (int d = lead; d < shape.length; d++) {
      keptL *= shape[d];
    }
    int kept = (int) keptL;
    int rr = (int) reduced;
    for (int e0 = 0; e0 < kept; e0 += TILE) {
      int e1 = Math.min(kept, e0 + TILE);
      int r = 0;
      if (!mean) {
        // four rows per pass: ((((s + x0) + x1) + x2) + x3), the same additions in the same
        // order as one row per pass, with the state read and written once per four rows
        for (; r + 4 <= rr; r += 4) {
          int b0 = r * kept;
          int b1 = b0 + kept;
          int b2 = b1 + kept;
          int b3 = b2 + kept;
          for (int e = e0; e < e1; e++) {
            ds[e] = (((ds[e] + src[b0 + e]) + src[b1 + e]) + src[b2 + e]) + src[b3 + e];
          }
        }
      }
      for (; r < rr; r++) {
        int base = r * kept;
        if (mean) {
          for (int e = e0; e < e1; e++) {
            ds[2 * e + 1] += src[base + e];
          }
        } else {
          for (int e = e0; e < e1; e++) {
            ds[e] += src[base + e];
          }
        }
      }
      if (mean) {
        for (int e = e0; e < e1; e++) {
          ds[2 * e] += rr;
        }
      }
    }
  }

  /**
   * Merges state {@code b} into the box of {@code a} at {@code at} with {@code b}'s shape, in
   * place, when the merge is one addition per entry (sum of real or integer states, mean) and the
   * box is contiguous in {@code a}: the same additions as {@link ReduceKernel#combine} on a copy of
   * the box. Returns false, changing nothing, otherwise.
   */
  static boolean combineAt(ReduceKernel.Kind kind, NDArray a, long[] at, NDArray b) {
    boolean additive =
        kind == ReduceKernel.Kind.MEAN
            || (kind == ReduceKernel.Kind.SUM && a.dtype() != DType.COMPLEX128);
    long off = additive && a.dtype() == b.dtype() ? contiguousOffset(a.shape(), at, b.shape()) : -1;
    if (off < 0) {
      return false;
    }
    int o = (int) off;
    int n = b.size();
    if (a.data() instanceof double[] da) {
      double[] db = (double[]) b.data();
      for (int i = 0; i < n; i++) {
        da[o + i] += db[i];
      }
    } else {
      long[] la = (long[]) a.data();
      long[] lb = (long[]) b.data();
      for (int i = 0; i < n; i++) {
        la[o + i] += lb[i];
      }
    }
    return true;
  }

  /**
   * The flat offset of the box at {@code at} of shape {@code box} inside {@code shape} when its
   * elements are one contiguous run there (every axis after the box's first longer than 1 is
   * whole), else -1. Assumes the box lies inside the array.
   */
  static long contiguousOffset(long[] shape, long[] at, long[] box) {
    if (at.length != shape.length || box.length != shape.length) {
      return -1;
    }
    int d = 0;
    while (d < box.length && box[d] == 1) {
      d++;
    }
    for (int e = d + 1; e < box.length; e++) {
      if (box[e] != shape[e]) {
        return -1;
      }
    }
    return Shapes.offset(shape, at);
  }
}
