package dev.cubed;

import dev.cubed.core.BasicIndexing;
import dev.cubed.core.ChunkedManipulation;
import dev.cubed.core.Contraction;
import dev.cubed.core.Core;
import dev.cubed.core.Rearrange;
import dev.cubed.core.Reshape;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.linalg.Linalg;
import java.util.Arrays;
import java.util.List;

/**
 * Rearranging, creation-like and vector functions of {@link Xp} (final and package-private; the
 * contract of {@code Xp.flip} is on {@link Xp}): {@code flip}, {@code roll}, {@code moveaxis},
 * {@code matrix_transpose}, {@code vecdot}, {@code *_like}, {@code empty}.
 */
final class XpManip {
  private XpManip() {}

  static CubedArray flip(CubedArray x) {
    return XpBlocks.wrap(Rearrange.flip(x.node(), null), x);
  }

  static CubedArray flip(CubedArray x, int... axes) {
    return XpBlocks.wrap(Rearrange.flip(x.node(), axes), x);
  }

  static CubedArray roll(CubedArray x, long shift, int axis) {
    return roll(x, new long[] {shift}, new int[] {axis});
  }

  static CubedArray roll(CubedArray x, long[] shift, int[] axes) {
    int nd = x.ndim();
    int pairs = Math.max(shift.length, axes.length);
    if ((shift.length != pairs && shift.length != 1)
        || (axes.length != pairs && axes.length != 1)
        || axes.length == 0) {
      throw new IllegalArgumentException(
          "roll: shift "
              + Arrays.toString(shift)
              + " and axis "
              + Arrays.toString(axes)
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
      Arrays.fill(tail, Index.all());
      Arrays.fill(head, Index.all());
      tail[a] = Index.slice(n - s, n);
      head[a] = Index.slice(0L, n - s);
      r = XpManip.concat(List.of(XpManip.getItem(r, tail), XpManip.getItem(r, head)), a);
    }
    return r;
  }

  static CubedArray roll(CubedArray x, long shift) {
    if (x.size() == 0 || Math.floorMod(shift, x.size()) == 0) {
      return x;
    }
    CubedArray flat = x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
    CubedArray r = roll(flat, shift, 0);
    return x.ndim() == 1 ? r : XpManip.reshape(r, x.shape());
  }

  static CubedArray moveaxis(CubedArray x, int source, int destination) {
    return moveaxis(x, new int[] {source}, new int[] {destination});
  }

  static CubedArray moveaxis(CubedArray x, int[] source, int[] destination) {
    return XpManip.permuteDims(x, Manipulation.moveaxisPermutation(source, destination, x.ndim()));
  }

  static CubedArray matrixTranspose(CubedArray x) {
    int nd = x.ndim();
    if (nd < 2) {
      throw new IllegalArgumentException(
          "matrix_transpose: x must have at least 2 dimensions, "
              + "got shape "
              + XpBlocks.shapeOf(x));
    }
    int[] perm = new int[nd];
    for (int i = 0; i < nd; i++) {
      perm[i] = i;
    }
    perm[nd - 2] = nd - 1;
    perm[nd - 1] = nd - 2;
    return XpManip.permuteDims(x, perm);
  }

  static CubedArray vecdot(CubedArray x1, CubedArray x2) {
    return vecdot(x1, x2, -1);
  }

  static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
    if (x1.ndim() == 0 || x2.ndim() == 0) {
      throw new IllegalArgumentException(
          "vecdot: operands must have at least 1 dimension, got "
              + XpBlocks.shapeOf(x1)
              + " and "
              + XpBlocks.shapeOf(x2));
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
              + XpBlocks.shapeOf(x1)
              + " and x2 "
              + XpBlocks.shapeOf(x2)
              + " must have the same size along axis "
              + axis);
    }
    CubedArray p = XpBinary.MULTIPLY.apply(x1.dtype().isComplex() ? XpUnary.conj(x1) : x1, x2);
    return XpUnary.astype(XpReduce.sum(p, a), out);
  }

  static CubedArray zerosLike(CubedArray x) {
    return fullLike(x, 0, x.dtype());
  }

  static CubedArray zerosLike(CubedArray x, DType dtype) {
    return fullLike(x, 0, dtype);
  }

  static CubedArray onesLike(CubedArray x) {
    return fullLike(x, 1, x.dtype());
  }

  static CubedArray onesLike(CubedArray x, DType dtype) {
    return fullLike(x, 1, dtype);
  }

  static CubedArray emptyLike(CubedArray x) {
    return fullLike(x, 0, x.dtype());
  }

  static CubedArray emptyLike(CubedArray x, DType dtype) {
    return fullLike(x, 0, dtype);
  }

  static CubedArray fullLike(CubedArray x, Object fillValue) {
    return fullLike(x, fillValue, x.dtype());
  }

  static CubedArray fullLike(CubedArray x, Object fillValue, DType dtype) {
    try {
      NDArray.full(dtype, fillValue, 1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("full_like: " + e.getMessage(), e);
    }
    return new CubedArray(Core.full(x.node().chunkGrid(), fillValue, dtype), x.spec());
  }

  static CubedArray empty(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return XpCreate.zeros(shape, dtype, chunks, spec);
  }

  // ------------------------------------------------------------------ manipulation, indexing

  static CubedArray permuteDims(CubedArray x, int... axes) {
    return XpBlocks.wrap(ChunkedManipulation.permuteDims(x.node(), axes), x);
  }

  static CubedArray expandDims(CubedArray x, int axis) {
    int n = x.ndim() + 1;
    if (axis < -n || axis >= n) {
      throw new IndexOutOfBoundsException(
          "expand_dims: axis "
              + axis
              + " is out of range for "
              + "an array of shape "
              + XpBlocks.shapeOf(x)
              + " (the result has "
              + n
              + " dimensions: valid "
              + "axes are "
              + -n
              + " to "
              + (n - 1)
              + ")");
    }
    return XpBlocks.wrap(ChunkedManipulation.expandDims(x.node(), axis), x);
  }

  static CubedArray squeeze(CubedArray x, int... axes) {
    return XpBlocks.wrap(ChunkedManipulation.squeeze(x.node(), axes), x);
  }

  static CubedArray broadcastTo(CubedArray x, long... shape) {
    return XpBlocks.wrap(ChunkedManipulation.broadcastTo(x.node(), shape), x);
  }

  static CubedArray concat(List<CubedArray> xs, int axis) {
    return XpBlocks.wrap(
        ChunkedManipulation.concat(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  static CubedArray stack(List<CubedArray> xs, int axis) {
    return XpBlocks.wrap(
        ChunkedManipulation.stack(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  static CubedArray reshape(CubedArray x, long... shape) {
    if (Arrays.equals(x.shape(), shape)) {
      return x;
    }
    return XpBlocks.wrap(Reshape.reshape(x.node(), shape), x);
  }

  static CubedArray getItem(CubedArray x, Index... index) {
    return XpBlocks.wrap(BasicIndexing.getItem(x.node(), index), x);
  }

  static CubedArray matmul(CubedArray a, CubedArray b) {
    return XpBlocks.wrap(Contraction.matmul(a.node(), b.node()), a);
  }

  static CubedArray matmul(CubedArray a, CubedArray b, int splitEvery) {
    checkSplit("matmul", splitEvery);
    return XpBlocks.wrap(Contraction.matmul(a.node(), b.node(), splitEvery), a);
  }

  static CubedArray tensordot(CubedArray a, CubedArray b, int[] axesA, int[] axesB) {
    return XpBlocks.wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB), a);
  }

  static CubedArray tensordot(
      CubedArray a, CubedArray b, int[] axesA, int[] axesB, int splitEvery) {
    checkSplit("tensordot", splitEvery);
    return XpBlocks.wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB, splitEvery), a);
  }

  private static void checkSplit(String fn, int splitEvery) {
    if (splitEvery < 2) {
      throw new IllegalArgumentException(fn + ": splitEvery must be >= 2, got " + splitEvery);
    }
  }
}
