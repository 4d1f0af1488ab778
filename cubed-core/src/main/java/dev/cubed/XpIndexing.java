package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * Integer-array indexing ({@code x[i0, i1, ...]} with integer index arrays) on chunked arrays, with
 * the index arrays in memory (as {@link Xp#take(CubedArray, NDArray, int)}).
 *
 * <p>Memory: one index array is a {@code take} along its axis on x's own chunk grid (its dimensions
 * replace the axis in place, as in NumPy; an n-d index array is taken flat and the axis reshaped).
 * For more than one index array the indexed axes are moved first (blocks permuted) and merged into
 * one axis by a C-order reshape (x is rechunked to contiguous blocks, bounded, when its blocks are
 * not); the flat indices then go through {@code take}, whose output blocks each read, one at a
 * time, only the input blocks their indices fall in. Nothing of x's size is allocated in a task.
 */
public final class XpIndexing {
  private XpIndexing() {}

  /**
   * {@code x[i0, i1, ..., ik-1]}: one integer array per leading axis (k at most x's number of
   * dimensions; the remaining axes are taken whole), broadcast together. The result's shape is the
   * broadcast index shape followed by {@code x.shape[k:]}; negative indices count from the end.
   *
   * @throws IllegalArgumentException for no index array, more arrays than dimensions, a non-integer
   *     dtype, shapes that do not broadcast or an index out of range (when built)
   */
  public static CubedArray getItem(CubedArray x, NDArray... indices) {
    int[] axes = new int[indices.length];
    for (int i = 0; i < axes.length; i++) {
      axes[i] = i;
    }
    return getItem(x, axes, indices);
  }

  /**
   * Integer arrays on the given axes (distinct; negatives from the end), the other axes whole. As
   * in the standard and NumPy: when the axes are adjacent and in increasing order the broadcast
   * index dimensions replace them in place; otherwise they come first.
   *
   * @throws IllegalArgumentException as {@link #getItem(CubedArray, NDArray...)}, or if axes and
   *     indices differ in number or an axis repeats
   */
  public static CubedArray getItem(CubedArray x, int[] axes, NDArray... indices) {
    String fn = "integer-array indexing";
    int nd = x.ndim();
    int k = indices.length;
    if (k == 0 || axes.length != k || k > nd) {
      throw new IllegalArgumentException(
          fn
              + ": expected between 1 and "
              + nd
              + " index arrays, one per axis, got "
              + k
              + " arrays for axes "
              + Arrays.toString(axes));
    }
    int[] ax = new int[k];
    boolean[] seen = new boolean[nd];
    long[][] shapes = new long[k][];
    for (int i = 0; i < k; i++) {
      ax[i] = Shapes.normalizeAxis(fn, axes[i], nd);
      if (seen[ax[i]]) {
        throw new IllegalArgumentException(
            fn + ": axis " + axes[i] + " is indexed twice in " + Arrays.toString(axes));
      }
      seen[ax[i]] = true;
      shapes[i] = indices[i].shape();
      Indexing.resolveIndices(fn, indices[i], x.shape()[ax[i]], ax[i]);
    }
    long[] b = Shapes.broadcast(fn, shapes);
    if (k == 1) {
      // one index array: its dimensions replace the axis in place, which is take along that
      // axis: one gather op on x's own grid, no permutation of x's blocks before and after
      return XpSearch.take(x, indices[0], ax[0]);
    }
    int[] perm = new int[nd];
    int p = 0;
    for (int a : ax) {
      perm[p++] = a;
    }
    for (int d = 0; d < nd; d++) {
      if (!seen[d]) {
        perm[p++] = d;
      }
    }
    CubedArray xp = isIdentity(perm) ? x : XpManip.permuteDims(x, perm);
    long[] s = xp.shape();
    long flatLen = 1;
    for (int i = 0; i < k; i++) {
      flatLen *= s[i];
    }
    CubedArray xf = xp;
    if (k > 1) {
      long[] fs = new long[nd - k + 1];
      fs[0] = flatLen;
      System.arraycopy(s, k, fs, 1, nd - k);
      xf = XpManip.reshape(xp, fs);
    }
    NDArray flat = NDArray.zeros(DType.INT64, b);
    NDArray[] bi = new NDArray[k];
    for (int i = 0; i < k; i++) {
      bi[i] = indices[i].broadcastTo(b);
    }
    for (int e = 0; e < flat.size(); e++) {
      long f = 0;
      for (int i = 0; i < k; i++) {
        long v = bi[i].getLong(e);
        f = f * s[i] + (v < 0 ? v + s[i] : v);
      }
      flat.setLong(e, f);
    }
    CubedArray r = XpSearch.take(xf, flat, 0);
    boolean adjacent = true;
    for (int i = 1; i < k; i++) {
      adjacent &= ax[i] == ax[i - 1] + 1;
    }
    if (!adjacent || ax[0] == 0 || b.length == 0) {
      return r;
    }
    // move the index dimensions to where the indexed axes were
    int nb = b.length;
    int rn = r.ndim();
    int[] back = new int[rn];
    int q = 0;
    for (int d = 0; d < ax[0]; d++) {
      back[q++] = nb + d;
    }
    for (int d = 0; d < nb; d++) {
      back[q++] = d;
    }
    for (int d = nb + ax[0]; d < rn; d++) {
      back[q++] = d;
    }
    return XpManip.permuteDims(r, back);
  }

  /**
   * {@code x} on regular {@code chunks} (-1 for a whole axis); when x is a Zarr input read as it is
   * stored, each block is read straight from the store as the region it covers (in the task that
   * needs it: no op, nothing written, as Dask's {@code from_array} with other chunks), else {@link
   * Xp#rechunk(CubedArray, long...)}. For chunks that overlap a few stored chunks each way: a
   * stored chunk is decoded by every block that overlaps it.
   *
   * @throws IllegalArgumentException for a chunk size below 1 other than -1
   */
  public static CubedArray readRegions(CubedArray x, long... chunks) {
    return XpBlocks.wrap(Core.readRegions(x.node(), chunks), x);
  }

  private static boolean isIdentity(int[] perm) {
    for (int d = 0; d < perm.length; d++) {
      if (perm[d] != d) {
        return false;
      }
    }
    return true;
  }
}
