package dev.cubed;

import dev.cubed.core.Positional;
import dev.cubed.core.Rearrange;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Shape-building functions of {@link Xp} (final and package-private; the contract of {@code
 * Xp.tile} is on {@link Xp}): {@code tile}, {@code repeat}, {@code meshgrid}, {@code tril}/{@code
 * triu}, {@code diff}.
 */
final class XpShape {
  private XpShape() {}

  static CubedArray tile(CubedArray x, long... repetitions) {
    int nd = Math.max(x.ndim(), repetitions.length);
    CubedArray y = x;
    while (y.ndim() < nd) {
      y = XpManip.expandDims(y, 0);
    }
    long[] reps = new long[nd];
    Arrays.fill(reps, 1);
    System.arraycopy(repetitions, 0, reps, nd - repetitions.length, repetitions.length);
    return XpBlocks.wrap(Rearrange.tile(y.node(), reps), x);
  }

  static CubedArray repeat(CubedArray x, long repeats, int axis) {
    return repeat(x, new long[] {repeats}, axis);
  }

  static CubedArray repeat(CubedArray x, long[] repeats, int axis) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          "repeat: a 0-d array has no axis " + axis + "; use repeat(x, repeats) (axis=None)");
    }
    return XpBlocks.wrap(Rearrange.repeat(x.node(), repeats, axis), x);
  }

  static CubedArray repeat(CubedArray x, long repeats) {
    return repeat(x.ndim() == 1 ? x : XpManip.reshape(x, x.size()), new long[] {repeats}, 0);
  }

  static List<CubedArray> meshgrid(Creation.MeshIndexing indexing, CubedArray... arrays) {
    int n = arrays.length;
    long[] shape = new long[n];
    for (int i = 0; i < n; i++) {
      if (arrays[i].ndim() != 1) {
        throw new IllegalArgumentException(
            "meshgrid: array "
                + i
                + " has shape "
                + XpBlocks.shapeOf(arrays[i])
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
        a = XpManip.expandDims(a, 0);
      }
      while (a.ndim() < n) {
        a = XpManip.expandDims(a, a.ndim());
      }
      out.add(XpManip.broadcastTo(a, shape));
    }
    return out;
  }

  static CubedArray tril(CubedArray x, long k) {
    return XpBlocks.wrap(Positional.triangle(x.node(), k, true), x);
  }

  static CubedArray triu(CubedArray x, long k) {
    return XpBlocks.wrap(Positional.triangle(x.node(), k, false), x);
  }

  static CubedArray diff(CubedArray x) {
    return diff(x, 1, -1, null, null);
  }

  static CubedArray diff(CubedArray x, int n, int axis, CubedArray prepend, CubedArray append) {
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
      cur = XpManip.concat(parts, ax);
    }
    for (int k = 0; k < n; k++) {
      long len = cur.shape()[ax];
      if (len == 0) {
        break;
      }
      Index[] hi = new Index[nd];
      Index[] lo = new Index[nd];
      Arrays.fill(hi, Index.all());
      Arrays.fill(lo, Index.all());
      hi[ax] = Index.slice(1L, null);
      lo[ax] = Index.slice(null, len - 1);
      CubedArray h = XpManip.getItem(cur, hi);
      CubedArray l = XpManip.getItem(cur, lo);
      cur =
          cur.dtype() == DType.BOOL
              ? XpBinary.NOT_EQUAL.apply(h, l)
              : XpBinary.SUBTRACT.apply(h, l);
    }
    return cur;
  }

  static List<CubedArray> unstack(CubedArray x, int axis) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("unstack: a 0-d array has no axis to unstack along");
    }
    int ax = Shapes.normalizeAxis("unstack", axis, x.ndim());
    List<CubedArray> out = new ArrayList<>();
    for (long i = 0; i < x.shape()[ax]; i++) {
      Index[] ix = new Index[x.ndim()];
      Arrays.fill(ix, Index.all());
      ix[ax] = Index.at(i);
      out.add(XpManip.getItem(x, ix));
    }
    return out;
  }

  static List<CubedArray> broadcastArrays(CubedArray... arrays) {
    long[][] shapes = new long[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      shapes[i] = arrays[i].shape();
    }
    long[] shape = Shapes.broadcast("broadcast_arrays", shapes);
    List<CubedArray> out = new ArrayList<>();
    for (CubedArray a : arrays) {
      out.add(Arrays.equals(a.shape(), shape) ? a : XpManip.broadcastTo(a, shape));
    }
    return out;
  }
}
