package dev.cubed.nd;

import java.util.Arrays;

/**
 * Indexing of in-memory arrays: basic indexing ({@code x[...]} with integers, slices of any step,
 * new axes and an ellipsis), integer-array {@code take} and {@code take_along_axis}, and boolean
 * masks. Every result is a new array (a copy); setters write in place.
 */
public final class Indexing {
  private Indexing() {}

  /**
   * {@code x[index]} with basic indexing; a copy. All-integer indices give a 0-d array.
   *
   * @throws IllegalArgumentException for too many indices, several ellipses, or an integer index
   *     out of bounds (the message names the index, the axis and its size)
   */
  public static NDArray get(NDArray x, Index... index) {
    ResolvedIndex bi = ResolvedIndex.resolve("__getitem__", index, x.shape());
    return Gather.orthogonal(x, bi.intPositions()).reshape(bi.outputShape());
  }

  /**
   * {@code x[index] = value} in place. {@code value} is an {@link NDArray} (cast to x's dtype as
   * NumPy's assignment does, then broadcast to the selection's shape) or a scalar (Boolean, Number,
   * {@link Complex}).
   *
   * @throws IllegalArgumentException as {@link #get}, or if the value does not broadcast to the
   *     selection
   */
  public static void set(NDArray x, Index[] index, Object value) {
    ResolvedIndex bi = ResolvedIndex.resolve("__setitem__", index, x.shape());
    NDArray v = Gather.valueFor("__setitem__", value, x, bi.outputShape());
    Gather.scatterOrthogonal(x, bi.intPositions(), v.reshape(bi.selectionShape()));
  }

  /** {@code take(x, indices)} for a 1-d {@code x} (the standard allows omitting the axis then). */
  public static NDArray take(NDArray x, NDArray indices) {
    if (x.ndim() != 1) {
      throw new IllegalArgumentException(
          "take: axis is required for an array of shape "
              + Shapes.format(x.shape())
              + "; it may be omitted only for 1-d arrays");
    }
    return take(x, indices, 0);
  }

  /**
   * The standard's {@code take}: elements along {@code axis} at integer {@code indices} (any shape;
   * negative values count from the end). The result shape is {@code x.shape[:axis] + indices.shape
   * + x.shape[axis+1:]}.
   *
   * @throws IllegalArgumentException for a non-integer index dtype, an axis out of range, or an
   *     index outside {@code [-n, n)} (naming the index, the axis and its size)
   */
  public static NDArray take(NDArray x, NDArray indices, int axis) {
    int ax = Shapes.normalizeAxis("take", axis, x.ndim());
    int[] idx = resolveIndices("take", indices, x.shape(ax), ax);
    int[][] pos = Gather.identity(x.shape());
    pos[ax] = idx;
    NDArray g = Gather.orthogonal(x, pos);
    long[] s = x.shape();
    long[] is = indices.shape();
    long[] out = new long[s.length - 1 + is.length];
    System.arraycopy(s, 0, out, 0, ax);
    System.arraycopy(is, 0, out, ax, is.length);
    System.arraycopy(s, ax + 1, out, ax + is.length, s.length - ax - 1);
    return g.reshape(out);
  }

  /**
   * The result shape of {@code take_along_axis}: x's and the indices' shapes broadcast on every
   * axis but {@code ax}, which takes the indices' length. Shared with the chunked layer.
   *
   * @throws IllegalArgumentException if the other axes do not broadcast
   */
  public static long[] takeAlongAxisShape(String fn, long[] xs, long[] is, int ax) {
    long[] xs1 = xs.clone();
    long[] is1 = is.clone();
    xs1[ax] = 1;
    is1[ax] = 1;
    long[] out = Shapes.broadcast(fn, xs1, is1);
    out[ax] = is[ax];
    return out;
  }

  /**
   * The standard's {@code take_along_axis}: {@code out[..., j, ...] = x[..., indices[..., j, ...],
   * ...]} along {@code axis}. {@code indices} has x's number of dimensions; the other dimensions
   * broadcast against x's.
   *
   * @throws IllegalArgumentException for a non-integer index dtype, a dimension mismatch, shapes
   *     that do not broadcast, or an index out of range
   */
  public static NDArray takeAlongAxis(NDArray x, NDArray indices, int axis) {
    String fn = "take_along_axis";
    if (indices.ndim() != x.ndim()) {
      throw new IllegalArgumentException(
          fn
              + ": indices of shape "
              + Shapes.format(indices.shape())
              + " must have as many"
              + " dimensions as x of shape "
              + Shapes.format(x.shape())
              + " ("
              + x.ndim()
              + ")");
    }
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    long[] xs = x.shape();
    long[] is = indices.shape();
    long[] out = takeAlongAxisShape(fn, xs, is, ax);
    NDArray ib = indices.broadcastTo(out);
    int[] flatIdx = resolveIndices(fn, ib, xs[ax], ax);
    long[] xStr = Shapes.strides(xs);
    int n = flatIdx.length;
    int nd = out.length;
    long[] mi = new long[nd];
    for (int j = 0; j < n; j++) {
      long off = 0;
      for (int k = 0; k < nd; k++) {
        long p = k == ax ? flatIdx[j] : (xs[k] == 1 ? 0 : mi[k]);
        off += p * xStr[k];
      }
      flatIdx[j] = (int) off;
      for (int k = nd - 1; k >= 0; k--) {
        if (++mi[k] < out[k]) {
          break;
        }
        mi[k] = 0;
      }
    }
    return Gather.flat(x, flatIdx, out);
  }

  /**
   * {@code x[mask]} for a boolean {@code mask} whose shape equals the leading {@code mask.ndim}
   * dimensions of x: a new array of shape {@code (count,) + x.shape[mask.ndim:]} holding the
   * selected elements (or sub-arrays) in C order.
   *
   * @throws IllegalArgumentException if the mask is not bool or its shape does not match
   */
  public static NDArray getMask(NDArray x, NDArray mask) {
    int[] sel = maskPositions("__getitem__", x, mask);
    long[] inner = Arrays.copyOfRange(x.shape(), mask.ndim(), x.ndim());
    int block = (int) Shapes.size(inner);
    long[] outShape = new long[inner.length + 1];
    outShape[0] = sel.length;
    System.arraycopy(inner, 0, outShape, 1, inner.length);
    NDArray out = NDArray.zeros(x.dtype(), outShape);
    int m = Gather.mult(x.dtype());
    if (block == 1) {
      Gather.runGather(x.data(), 0, sel, out.data(), 0, m);
      return out;
    }
    for (int j = 0; j < sel.length; j++) {
      System.arraycopy(x.data(), sel[j] * block * m, out.data(), j * block * m, block * m);
    }
    return out;
  }

  /**
   * {@code x[mask] = value} in place: value (an {@link NDArray} cast to x's dtype, or a scalar) is
   * broadcast to {@code (count,) + x.shape[mask.ndim:]}.
   *
   * @throws IllegalArgumentException as {@link #getMask}, or if the value does not broadcast
   */
  public static void setMask(NDArray x, NDArray mask, Object value) {
    int[] sel = maskPositions("__setitem__", x, mask);
    long[] inner = Arrays.copyOfRange(x.shape(), mask.ndim(), x.ndim());
    int block = (int) Shapes.size(inner);
    long[] vShape = new long[inner.length + 1];
    vShape[0] = sel.length;
    System.arraycopy(inner, 0, vShape, 1, inner.length);
    NDArray v = Gather.valueFor("__setitem__", value, x, vShape);
    int m = Gather.mult(x.dtype());
    if (block == 1) {
      Gather.runScatter(v.data(), 0, x.data(), 0, sel, m);
      return;
    }
    for (int j = 0; j < sel.length; j++) {
      System.arraycopy(v.data(), j * block * m, x.data(), sel[j] * block * m, block * m);
    }
  }

  private static int[] maskPositions(String fn, NDArray x, NDArray mask) {
    if (mask.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(
          fn
              + ": a mask index must be bool, got "
              + mask.dtype()
              + "; use take for integer"
              + " indices");
    }
    long[] ms = mask.shape();
    long[] xs = x.shape();
    if (ms.length > xs.length) {
      throw new IllegalArgumentException(
          fn
              + ": too many indices for array: boolean mask of shape "
              + Shapes.format(ms)
              + " has more dimensions than the array of shape "
              + Shapes.format(xs));
    }
    for (int k = 0; k < ms.length; k++) {
      if (ms[k] != xs[k]) {
        throw new IllegalArgumentException(
            fn
                + ": boolean mask of shape "
                + Shapes.format(ms)
                + " does not match the array of"
                + " shape "
                + Shapes.format(xs)
                + " along axis "
                + k
                + ": size of axis is "
                + xs[k]
                + " but size of the mask axis is "
                + ms[k]
                + "; a mask must equal the leading dimensions");
      }
    }
    boolean[] b = (boolean[]) mask.data();
    int c = 0;
    for (boolean v : b) {
      if (v) {
        c++;
      }
    }
    int[] sel = new int[c];
    c = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i]) {
        sel[c++] = i;
      }
    }
    return sel;
  }

  /**
   * Integer index values resolved against an axis of size n (negatives from the end), flat.
   *
   * @throws IllegalArgumentException for a non-integer dtype or an index out of range (naming
   *     {@code fn}, the index, the axis and the valid range)
   */
  public static int[] resolveIndices(String fn, NDArray indices, long n, int axis) {
    if (!indices.dtype().isInteger()) {
      throw new IllegalArgumentException(
          fn + ": indices must have an integer dtype, got " + indices.dtype());
    }
    int size = indices.size();
    int[] out = new int[size];
    boolean u64 = indices.dtype() == DType.UINT64;
    for (int i = 0; i < size; i++) {
      long v = indices.getLong(i);
      long r = v < 0 && !u64 ? v + n : v;
      if (r < 0 || r >= n || (u64 && v < 0)) {
        throw new IllegalArgumentException(
            fn
                + ": index "
                + (u64 ? Long.toUnsignedString(v) : v)
                + " is out of bounds for axis "
                + axis
                + " with size "
                + n
                + "; valid indices are -"
                + n
                + " to "
                + (n - 1));
      }
      out[i] = (int) r;
    }
    return out;
  }
}
