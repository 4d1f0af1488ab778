package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Rearrange;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.linalg.Linalg;
import java.util.List;

/**
 * Rearranging, creation-like and vector functions of {@link Xp} (reached as {@code Xp.flip} etc.;
 * this class is not public): {@code flip}, {@code roll}, {@code moveaxis}, {@code
 * matrix_transpose}, {@code vecdot}, {@code *_like}, {@code empty}.
 */
class XpManip extends XpSearch {
  XpManip() {}

  /** {@code flip(x)}: reverses every axis (see {@link #flip(CubedArray, int...)}). */
  public static CubedArray flip(CubedArray x) {
    return wrap(Rearrange.flip(x.node(), null), x);
  }

  /**
   * {@code flip(x, axis=axes)}: reverses the given axes. Memory: one input block per task (block k
   * of a flipped axis reads block n-1-k); a partial edge block becomes the first block, so the
   * result's chunks are the input's, reversed along the flipped axes (irregular when the last block
   * was partial).
   *
   * @throws IllegalArgumentException if an axis is out of range or repeated (when built)
   */
  public static CubedArray flip(CubedArray x, int... axes) {
    return wrap(Rearrange.flip(x.node(), axes), x);
  }

  /**
   * {@code roll(x, shift, axis)}: shifts elements along one axis, wrapping around. Built as the
   * concatenation of two slices (each task reads one input block); the result's chunks are
   * irregular where the cut falls inside a block.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray roll(CubedArray x, long shift, int axis) {
    return roll(x, new long[] {shift}, new int[] {axis});
  }

  /**
   * {@code roll(x, shift, axis=axes)}: shifts pair with axes, a single shift or axis broadcasting
   * against the other (as NumPy); shifts of a repeated axis add up. Memory as {@link
   * #roll(CubedArray, long, int)}, one concatenation per rolled axis.
   *
   * @throws IllegalArgumentException for tuples of different lengths or axes out of range
   */
  public static CubedArray roll(CubedArray x, long[] shift, int[] axes) {
    int nd = x.ndim();
    int pairs = Math.max(shift.length, axes.length);
    if ((shift.length != pairs && shift.length != 1)
        || (axes.length != pairs && axes.length != 1)
        || axes.length == 0) {
      throw new IllegalArgumentException(
          "roll: shift "
              + java.util.Arrays.toString(shift)
              + " and axis "
              + java.util.Arrays.toString(axes)
              + " must have the same length, or one"
              + " of them a single value (broadcast)");
    }
    long[] total = new long[nd];
    for (int i = 0; i < pairs; i++) {
      int a = Shapes.normalizeAxis("roll", axes[axes.length == 1 ? 0 : i], nd);
      total[a] += shift[shift.length == 1 ? 0 : i];
    }
    CubedArray r = x;
    for (int a = 0; a < nd; a++) {
      long n = x.shape()[a];
      if (n == 0 || Math.floorMod(total[a], n) == 0) {
        continue;
      }
      long s = Math.floorMod(total[a], n);
      Index[] tail = new Index[nd];
      Index[] head = new Index[nd];
      java.util.Arrays.fill(tail, Index.all());
      java.util.Arrays.fill(head, Index.all());
      tail[a] = Index.slice(n - s, n);
      head[a] = Index.slice(0L, n - s);
      r = Xp.concat(List.of(Xp.getItem(r, tail), Xp.getItem(r, head)), a);
    }
    return r;
  }

  /**
   * {@code roll(x, shift)} with {@code axis=None}: rolls the flattened array (C order) and restores
   * the shape. Memory: reshapes to 1-D and back (rechunked to contiguous blocks where needed)
   * around the one-axis roll.
   */
  public static CubedArray roll(CubedArray x, long shift) {
    if (x.size() == 0 || Math.floorMod(shift, x.size()) == 0) {
      return x;
    }
    CubedArray flat = x.ndim() == 1 ? x : Xp.reshape(x, x.size());
    CubedArray r = roll(flat, shift, 0);
    return x.ndim() == 1 ? r : Xp.reshape(r, x.shape());
  }

  /** {@code moveaxis(x, source, destination)} for one axis (see the array form). */
  public static CubedArray moveaxis(CubedArray x, int source, int destination) {
    return moveaxis(x, new int[] {source}, new int[] {destination});
  }

  /**
   * {@code moveaxis(x, source, destination)}: moves the source axes to the destination positions,
   * the others keeping their order. A {@code permute_dims} (blocks move, one per task).
   *
   * @throws IllegalArgumentException for lists of different lengths, axes out of range or repeated
   */
  public static CubedArray moveaxis(CubedArray x, int[] source, int[] destination) {
    return Xp.permuteDims(
        x, dev.cubed.nd.Manipulation.moveaxisPermutation(source, destination, x.ndim()));
  }

  /**
   * {@code matrix_transpose(x)}: swaps the last two axes (a {@code permute_dims}; one block per
   * task).
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static CubedArray matrixTranspose(CubedArray x) {
    int nd = x.ndim();
    if (nd < 2) {
      throw new IllegalArgumentException(
          "matrix_transpose: x must have at least 2 dimensions, " + "got shape " + Xp.shapeOf(x));
    }
    int[] perm = new int[nd];
    for (int i = 0; i < nd; i++) {
      perm[i] = i;
    }
    perm[nd - 2] = nd - 1;
    perm[nd - 1] = nd - 2;
    return Xp.permuteDims(x, perm);
  }

  /**
   * {@code vecdot(x1, x2)} over the last axis (see {@link #vecdot(CubedArray, CubedArray, int)}).
   */
  public static CubedArray vecdot(CubedArray x1, CubedArray x2) {
    return vecdot(x1, x2, -1);
  }

  /**
   * {@code vecdot(x1, x2, axis)}: {@code sum(conj(x1) * x2, axis)} with broadcasting over the other
   * axes; {@code axis} (negative, counted from the end as the standard requires for the contracted
   * axis; non-negative values count in the broadcast shape) must have the same size in both. The
   * result has the promoted dtype. Memory: a blockwise product (one block of each input per task),
   * then the sum's tree reduction over the axis.
   *
   * @throws IllegalArgumentException for bool or 0-d operands, shapes that do not broadcast, an
   *     out-of-range axis or different sizes along it (when built)
   */
  public static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
    if (x1.ndim() == 0 || x2.ndim() == 0) {
      throw new IllegalArgumentException(
          "vecdot: operands must have at least 1 dimension, got "
              + Xp.shapeOf(x1)
              + " and "
              + Xp.shapeOf(x2));
    }
    DType out = Linalg.vecdot(NDArray.ones(x1.dtype(), 1), NDArray.ones(x2.dtype(), 1)).dtype();
    long[] shape = Shapes.broadcast("vecdot", x1.shape(), x2.shape());
    int nd = shape.length;
    int a = Shapes.normalizeAxis("vecdot", axis, nd);
    int a1 = a - (nd - x1.ndim());
    int a2 = a - (nd - x2.ndim());
    if (a1 < 0 || a2 < 0 || x1.shape()[a1] != x2.shape()[a2]) {
      throw new IllegalArgumentException(
          "vecdot: x1 "
              + Xp.shapeOf(x1)
              + " and x2 "
              + Xp.shapeOf(x2)
              + " must have the same size along axis "
              + axis);
    }
    CubedArray p = Xp.multiply(x1.dtype().isComplex() ? Xp.conj(x1) : x1, x2);
    return Xp.astype(Xp.sum(p, a), out);
  }

  /** {@code zeros_like(x)}: x's shape, chunks and dtype (virtual: no storage, no reads of x). */
  public static CubedArray zerosLike(CubedArray x) {
    return fullLike(x, 0, x.dtype());
  }

  /** {@code zeros_like(x, dtype)} (virtual). */
  public static CubedArray zerosLike(CubedArray x, DType dtype) {
    return fullLike(x, 0, dtype);
  }

  /** {@code ones_like(x)}: x's shape, chunks and dtype (virtual). */
  public static CubedArray onesLike(CubedArray x) {
    return fullLike(x, 1, x.dtype());
  }

  /** {@code ones_like(x, dtype)} (virtual). */
  public static CubedArray onesLike(CubedArray x, DType dtype) {
    return fullLike(x, 1, dtype);
  }

  /**
   * {@code empty_like(x)}: x's shape, chunks and dtype; contents unspecified by the standard, here
   * zeros (virtual, one block generated per task).
   */
  public static CubedArray emptyLike(CubedArray x) {
    return fullLike(x, 0, x.dtype());
  }

  /** {@code empty_like(x, dtype)} (zeros; virtual). */
  public static CubedArray emptyLike(CubedArray x, DType dtype) {
    return fullLike(x, 0, dtype);
  }

  /** {@code full_like(x, fill_value)} in x's dtype (virtual). */
  public static CubedArray fullLike(CubedArray x, Object fillValue) {
    return fullLike(x, fillValue, x.dtype());
  }

  /**
   * {@code full_like(x, fill_value, dtype)}: x's shape and chunks (also irregular ones), every
   * element {@code fillValue}. Virtual: blocks are generated where they are read, nothing of x is
   * read or stored.
   *
   * @throws IllegalArgumentException if the value does not fit the dtype (as the kernel's full)
   */
  public static CubedArray fullLike(CubedArray x, Object fillValue, DType dtype) {
    try {
      NDArray.full(dtype, fillValue, 1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("full_like: " + e.getMessage(), e);
    }
    return new CubedArray(Core.full(x.node().chunkGrid(), fillValue, dtype), x.spec());
  }

  /**
   * {@code empty(shape, dtype)}: contents unspecified by the standard, here zeros (virtual, as
   * {@link Xp#zeros}).
   */
  public static CubedArray empty(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return Xp.zeros(shape, dtype, chunks, spec);
  }
}
