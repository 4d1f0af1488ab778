package dev.cubed;

import dev.cubed.core.Positional;
import dev.cubed.core.Rearrange;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.List;

/**
 * Shape-building functions of {@link Xp} (reached as {@code Xp.tile} etc.; this class is not
 * public): {@code tile}, {@code repeat}, {@code meshgrid}, {@code tril}/{@code triu}, {@code diff}.
 */
class XpShape extends XpManip {
  XpShape() {}

  /**
   * {@code tile(x, repetitions)}: NumPy's rule for the lengths (shorter repetitions are padded with
   * leading 1s; more repetitions than axes add leading axes to x). Memory: each output block is an
   * input block, read as it is (one per task); the chunks repeat the input's.
   *
   * @throws IllegalArgumentException for a negative repetition
   */
  public static CubedArray tile(CubedArray x, long... repetitions) {
    int nd = Math.max(x.ndim(), repetitions.length);
    CubedArray y = x;
    while (y.ndim() < nd) {
      y = Xp.expandDims(y, 0);
    }
    long[] reps = new long[nd];
    java.util.Arrays.fill(reps, 1);
    System.arraycopy(repetitions, 0, reps, nd - repetitions.length, repetitions.length);
    return wrap(Rearrange.tile(y.node(), reps), x);
  }

  /**
   * {@code repeat(x, repeats, axis)} with one count for every element. Memory: output block k is
   * input block k with each element repeated, so it is {@code repeats} times larger: the memory
   * check refuses when that does not fit (rechunk x smaller along the axis first).
   *
   * @throws IllegalArgumentException for a negative count or a bad axis
   */
  public static CubedArray repeat(CubedArray x, long repeats, int axis) {
    return repeat(x, new long[] {repeats}, axis);
  }

  /**
   * {@code repeat(x, repeats, axis)} with one count per element of the axis (an in-memory list; a
   * 1-element list applies to all). Memory as {@link #repeat(CubedArray, long, int)}: output block
   * k holds input block k's repeats (blocks repeated 0 times are dropped).
   *
   * @throws IllegalArgumentException for a negative count, a length mismatch or a bad axis
   */
  public static CubedArray repeat(CubedArray x, long[] repeats, int axis) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          "repeat: a 0-d array has no axis " + axis + "; use repeat(x, repeats) (axis=None)");
    }
    return wrap(Rearrange.repeat(x.node(), repeats, axis), x);
  }

  /**
   * {@code repeat(x, repeats)} with {@code axis=None}: repeats the elements of the flattened array
   * (C order). Memory: reshape to 1-D (rechunked to contiguous blocks where needed), then as the
   * axis form.
   */
  public static CubedArray repeat(CubedArray x, long repeats) {
    return repeat(x.ndim() == 1 ? x : Xp.reshape(x, x.size()), new long[] {repeats}, 0);
  }

  /**
   * {@code meshgrid(*arrays, indexing)}: coordinate arrays from 1-D arrays (each keeps its dtype);
   * {@code XY} swaps the first two output axes (with at least two inputs). Each output is its input
   * with size-1 axes added, broadcast (no data is copied until the output is computed; one input
   * block per task).
   *
   * @throws IllegalArgumentException if an input is not 1-D
   */
  public static List<CubedArray> meshgrid(Creation.MeshIndexing indexing, CubedArray... arrays) {
    int n = arrays.length;
    long[] shape = new long[n];
    for (int i = 0; i < n; i++) {
      if (arrays[i].ndim() != 1) {
        throw new IllegalArgumentException(
            "meshgrid: array "
                + i
                + " has shape "
                + Xp.shapeOf(arrays[i])
                + "; every input must be 1-d");
      }
      shape[i] = arrays[i].shape()[0];
    }
    boolean xy = indexing == Creation.MeshIndexing.XY && n >= 2;
    if (xy) {
      long t = shape[0];
      shape[0] = shape[1];
      shape[1] = t;
    }
    List<CubedArray> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int axis = xy && i < 2 ? 1 - i : i;
      CubedArray a = arrays[i];
      for (int d = 0; d < axis; d++) {
        a = Xp.expandDims(a, 0);
      }
      while (a.ndim() < n) {
        a = Xp.expandDims(a, a.ndim());
      }
      out.add(Xp.broadcastTo(a, shape));
    }
    return out;
  }

  /**
   * {@code tril(x, k)}: zeros above diagonal k of each matrix in the last two axes. Memory: one
   * block per task, same chunks (each block knows its offset).
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static CubedArray tril(CubedArray x, long k) {
    return wrap(Positional.triangle(x.node(), k, true), x);
  }

  /** {@code triu(x, k)}: zeros below diagonal k (see {@link #tril(CubedArray, long)}). */
  public static CubedArray triu(CubedArray x, long k) {
    return wrap(Positional.triangle(x.node(), k, false), x);
  }

  /** {@code diff(x)}: first difference along the last axis. */
  public static CubedArray diff(CubedArray x) {
    return diff(x, 1, -1, null, null);
  }

  /**
   * {@code diff(x, n, axis, prepend, append)}: the n-th discrete difference {@code x[i+1] - x[i]}
   * along the axis (bool: {@code !=}, as NumPy), after concatenating prepend and append (either may
   * be null). Built from slices and a subtraction of the two overlapping views; memory: one block
   * of each view per task (the views' chunks are unified, irregular where needed).
   *
   * @throws IllegalArgumentException for a 0-d x, n below 0 or a bad axis
   */
  public static CubedArray diff(
      CubedArray x, int n, int axis, CubedArray prepend, CubedArray append) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("diff: a 0-d array has no axis to difference along");
    }
    if (n < 0) {
      throw new IllegalArgumentException("diff: order n must be >= 0, got " + n);
    }
    int nd = x.ndim();
    int ax = Shapes.normalizeAxis("diff", axis, nd);
    CubedArray cur = x;
    if (prepend != null || append != null) {
      List<CubedArray> parts = new ArrayList<>();
      if (prepend != null) {
        parts.add(prepend);
      }
      parts.add(x);
      if (append != null) {
        parts.add(append);
      }
      cur = Xp.concat(parts, ax);
    }
    for (int k = 0; k < n; k++) {
      long len = cur.shape()[ax];
      if (len == 0) {
        break;
      }
      Index[] hi = new Index[nd];
      Index[] lo = new Index[nd];
      java.util.Arrays.fill(hi, Index.all());
      java.util.Arrays.fill(lo, Index.all());
      hi[ax] = Index.slice(1L, null);
      lo[ax] = Index.slice(null, len - 1);
      CubedArray h = Xp.getItem(cur, hi);
      CubedArray l = Xp.getItem(cur, lo);
      cur = cur.dtype() == DType.BOOL ? Xp.notEqual(h, l) : Xp.subtract(h, l);
    }
    return cur;
  }

  /**
   * {@code unstack(x, axis)}: the slices of x along the axis, as a list (each a basic-indexing
   * view: one input block per task, no data copied until computed).
   *
   * @throws IllegalArgumentException for a 0-d x or an axis out of range
   */
  public static List<CubedArray> unstack(CubedArray x, int axis) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("unstack: a 0-d array has no axis to unstack along");
    }
    int ax = Shapes.normalizeAxis("unstack", axis, x.ndim());
    List<CubedArray> out = new ArrayList<>();
    for (long i = 0; i < x.shape()[ax]; i++) {
      Index[] ix = new Index[x.ndim()];
      java.util.Arrays.fill(ix, Index.all());
      ix[ax] = Index.at(i);
      out.add(Xp.getItem(x, ix));
    }
    return out;
  }

  /**
   * {@code broadcast_arrays(*arrays)}: each array broadcast to the common shape (lazy views; one
   * input block per task when computed).
   *
   * @throws IllegalArgumentException if the shapes do not broadcast
   */
  public static List<CubedArray> broadcastArrays(CubedArray... arrays) {
    long[][] shapes = new long[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      shapes[i] = arrays[i].shape();
    }
    long[] shape = Shapes.broadcast("broadcast_arrays", shapes);
    List<CubedArray> out = new ArrayList<>();
    for (CubedArray a : arrays) {
      out.add(java.util.Arrays.equals(a.shape(), shape) ? a : Xp.broadcastTo(a, shape));
    }
    return out;
  }
}
