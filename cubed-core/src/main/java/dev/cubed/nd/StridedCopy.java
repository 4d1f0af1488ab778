package dev.cubed.nd;

import java.util.Arrays;

/**
 * Strided copies between C-order backing arrays, and the array operations built on them: the
 * package-private machinery behind {@link NDArray#reshape}, {@link NDArray#getRegion}, {@link
 * NDArray#setRegion}, {@link NDArray#copyBox}, {@link NDArray#permuteDims} and {@link
 * NDArray#broadcastTo}. Offsets and strides count elements; {@code mult} is 2 for interleaved
 * complex data.
 */
final class StridedCopy {
  private StridedCopy() {}

  static void copyBox(
      Object src,
      long[] srcShape,
      long[] srcStart,
      Object dst,
      long[] dstShape,
      long[] dstStart,
      long[] box,
      int mult) {
    int nd = box.length;
    if (Shapes.size(box) == 0) {
      return;
    }
    if (nd == 0) {
      System.arraycopy(src, 0, dst, 0, mult);
      return;
    }
    // trailing axes the box spans whole in both arrays are contiguous in both: one run each
    long run = box[nd - 1];
    while (nd > 1 && box[nd - 1] == srcShape[nd - 1] && box[nd - 1] == dstShape[nd - 1]) {
      nd--;
      run *= box[nd - 1];
    }
    long[] ss = Shapes.strides(srcShape);
    long[] ds = Shapes.strides(dstShape);
    int inner = (int) run * mult;
    long[] idx = new long[nd - 1];
    while (true) {
      long so = srcStart[nd - 1] * ss[nd - 1];
      long dof = dstStart[nd - 1] * ds[nd - 1];
      for (int k = 0; k < nd - 1; k++) {
        so += (srcStart[k] + idx[k]) * ss[k];
        dof += (dstStart[k] + idx[k]) * ds[k];
      }
      System.arraycopy(src, (int) so * mult, dst, (int) dof * mult, inner);
      int k = nd - 2;
      while (k >= 0) {
        if (++idx[k] < box[k]) {
          break;
        }
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  /**
   * Fills {@code dst} (C order, shape {@code outShape}) with {@code src[sum(idx[k] *
   * srcStride[k])]}: a permutation when the strides are permuted C strides, a broadcast when some
   * strides are 0.
   */
  static void gatherStrided(Object src, int[] srcStride, Object dst, long[] outShape, int mult) {
    gatherStrided(src, 0, srcStride, dst, outShape, mult);
  }

  /** {@link #gatherStrided} from source element {@code srcOff} on. */
  private static void gatherStrided(
      Object src, int srcOff, int[] srcStride, Object dst, long[] outShape, int mult) {
    int nd = outShape.length;
    if (Shapes.size(outShape) == 0) {
      return;
    }
    if (nd == 0) {
      System.arraycopy(src, srcOff * mult, dst, 0, mult);
      return;
    }
    int innerLen = (int) outShape[nd - 1];
    int innerStride = srcStride[nd - 1];
    if (srcOff == 0 && mult == 1 && innerStride > 1 && tiled(src, srcStride, dst, outShape)) {
      return;
    }
    int[] idx = new int[nd - 1];
    int dstPos = 0;
    while (true) {
      int srcPos = srcOff;
      for (int k = 0; k < nd - 1; k++) {
        srcPos += idx[k] * srcStride[k];
      }
      if (innerStride == 1 && mult == 1) {
        System.arraycopy(src, srcPos, dst, dstPos, innerLen);
      } else {
        gather(src, srcPos, innerStride, dst, dstPos, innerLen, mult);
      }
      dstPos += innerLen;
      int k = nd - 2;
      while (k >= 0) {
        if (++idx[k] < outShape[k]) {
          break;
        }
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  /** The side of the square tiles of {@link #tiled}: 32 x 32 doubles are 8 KB. */
  private static final int TILE = 32;

  /**
   * A permutation that moves the source's contiguous axis away from the last output axis (a
   * transpose), copied as a batch of 2-d transposes in square tiles, so that both the reads and the
   * writes stay within a few cache lines per tile (the row-by-row gather reads one element per
   * cache line). False, having done nothing, when no output axis other than the last has source
   * stride 1 or the element type has no tiled loop (then the caller's gather runs).
   */
  private static boolean tiled(Object src, int[] srcStride, Object dst, long[] outShape) {
    int nd = outShape.length;
    int p = -1;
    for (int k = 0; k < nd - 1; k++) {
      if (srcStride[k] == 1 && outShape[k] > 1) {
        p = k;
      }
    }
    if (p < 0
        || !(src instanceof double[]
            || src instanceof float[]
            || src instanceof long[]
            || src instanceof int[])) {
      return false;
    }
    int rows = (int) outShape[p];
    int cols = (int) outShape[nd - 1];
    int colStride = srcStride[nd - 1];
    int[] dstStride = new int[nd];
    int st = 1;
    for (int k = nd - 1; k >= 0; k--) {
      dstStride[k] = st;
      st *= (int) outShape[k];
    }
    int rowStride = dstStride[p];
    // the other axes, outermost first: one 2-d transpose (rows x cols) each
    int[] idx = new int[nd];
    while (true) {
      int s0 = 0;
      int d0 = 0;
      for (int k = 0; k < nd; k++) {
        s0 += idx[k] * srcStride[k];
        d0 += idx[k] * dstStride[k];
      }
      for (int i0 = 0; i0 < rows; i0 += TILE) {
        int i1 = Math.min(rows, i0 + TILE);
        for (int j0 = 0; j0 < cols; j0 += TILE) {
          int j1 = Math.min(cols, j0 + TILE);
          tile(src, s0, colStride, dst, d0, rowStride, i0, i1, j0, j1);
        }
      }
      int k = nd - 2;
      while (k >= 0) {
        if (k != p && ++idx[k] < outShape[k]) {
          break;
        }
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        return true;
      }
    }
  }

  /**
   * dst[d0 + i * rowStride + j] = src[s0 + i + j * colStride] for i in [i0, i1), j in [j0, j1): one
   * tile of a transpose, for the element types {@link #tiled} accepts.
   */
  private static void tile(
      Object src,
      int s0,
      int colStride,
      Object dst,
      int d0,
      int rowStride,
      int i0,
      int i1,
      int j0,
      int j1) {
    if (src instanceof double[] s) {
      double[] d = (double[]) dst;
      for (int i = i0; i < i1; i++) {
        int dp = d0 + i * rowStride;
        int sp = s0 + i;
        for (int j = j0; j < j1; j++) {
          d[dp + j] = s[sp + j * colStride];
        }
      }
    } else if (src instanceof float[] s) {
      float[] d = (float[]) dst;
      for (int i = i0; i < i1; i++) {
        int dp = d0 + i * rowStride;
        int sp = s0 + i;
        for (int j = j0; j < j1; j++) {
          d[dp + j] = s[sp + j * colStride];
        }
      }
    } else if (src instanceof long[] s) {
      long[] d = (long[]) dst;
      for (int i = i0; i < i1; i++) {
        int dp = d0 + i * rowStride;
        int sp = s0 + i;
        for (int j = j0; j < j1; j++) {
          d[dp + j] = s[sp + j * colStride];
        }
      }
    } else {
      int[] s = (int[]) src;
      int[] d = (int[]) dst;
      for (int i = i0; i < i1; i++) {
        int dp = d0 + i * rowStride;
        int sp = s0 + i;
        for (int j = j0; j < j1; j++) {
          d[dp + j] = s[sp + j * colStride];
        }
      }
    }
  }

  /** dst[dstPos + j] = src[srcPos + j * stride] for j in [0, n), element-wise (complex: pairs). */
  private static void gather(
      Object src, int srcPos, int stride, Object dst, int dstPos, int n, int mult) {
    if (mult == 2) {
      if (src instanceof double[] s) {
        double[] d = (double[]) dst;
        for (int j = 0; j < n; j++) {
          d[2 * (dstPos + j)] = s[2 * (srcPos + j * stride)];
          d[2 * (dstPos + j) + 1] = s[2 * (srcPos + j * stride) + 1];
        }
      } else {
        float[] s2 = (float[]) src;
        float[] d = (float[]) dst;
        for (int j = 0; j < n; j++) {
          d[2 * (dstPos + j)] = s2[2 * (srcPos + j * stride)];
          d[2 * (dstPos + j) + 1] = s2[2 * (srcPos + j * stride) + 1];
        }
      }
      return;
    }
    if (src instanceof double[] s) {
      double[] d = (double[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else if (src instanceof float[] s) {
      float[] d = (float[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else if (src instanceof long[] s) {
      long[] d = (long[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else if (src instanceof int[] s) {
      int[] d = (int[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else if (src instanceof short[] s) {
      short[] d = (short[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else if (src instanceof byte[] s) {
      byte[] d = (byte[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    } else {
      boolean[] s = (boolean[]) src;
      boolean[] d = (boolean[]) dst;
      for (int j = 0; j < n; j++) {
        d[dstPos + j] = s[srcPos + j * stride];
      }
    }
  }

  /** The shape {@code newShape} with its -1 (if any) inferred, checked against x's size. */
  static long[] reshapeTarget(long[] shape, int size, long[] newShape) {
    long[] s = newShape.clone();
    int infer = -1;
    long known = 1;
    for (int i = 0; i < s.length; i++) {
      if (s[i] == -1) {
        if (infer >= 0) {
          throw new IllegalArgumentException(
              "reshape: only one dimension may be -1, got " + Shapes.format(newShape));
        }
        infer = i;
      } else {
        known *= s[i];
      }
    }
    if (infer >= 0) {
      if (known == 0 || size % known != 0) {
        throw new IllegalArgumentException(
            "reshape: cannot reshape array of size "
                + size
                + " into shape "
                + Shapes.format(newShape));
      }
      s[infer] = size / known;
    }
    if (Shapes.size(s) != size) {
      throw new IllegalArgumentException(
          "reshape: cannot reshape array of shape "
              + Shapes.format(shape)
              + " (size "
              + size
              + ") into shape "
              + Shapes.format(newShape)
              + " (size "
              + Shapes.size(s)
              + "); the sizes must be equal");
    }
    return s;
  }

  static NDArray getRegion(NDArray x, long[] start, long[] regionShape) {
    long[] shape = x.shape();
    DType dtype = x.dtype();
    checkRegion("getRegion", start, regionShape, shape);
    int mult = dtype.isComplex() ? 2 : 1;
    long from = contiguousFrom(shape, start, regionShape);
    if (from >= 0 && Shapes.size(regionShape) > 0) {
      // one run of the backing array (a block of whole trailing axes): copied into a new array
      // in one pass, without first zeroing it
      int a = Math.toIntExact(from * mult);
      int b = Math.toIntExact((from + Shapes.size(regionShape)) * mult);
      return new NDArray(dtype, regionShape, copyOfRange(x.data(), a, b));
    }
    NDArray out = NDArray.zeros(dtype, regionShape);
    copyBox(
        x.data(),
        shape,
        start,
        out.data(),
        regionShape,
        new long[shape.length],
        regionShape,
        dtype.isComplex() ? 2 : 1);
    return out;
  }

  /**
   * The C-order offset of {@code start} if the box {@code [start, start + region)} is one run of
   * elements of an array of {@code shape} (whole axes after the first axis it does not span with
   * one element, single elements before it), else -1.
   */
  private static long contiguousFrom(long[] shape, long[] start, long[] region) {
    int nd = shape.length;
    int d = 0;
    while (d < nd && region[d] == 1) {
      d++;
    }
    for (int a = d + 1; a < nd; a++) {
      if (start[a] != 0 || region[a] != shape[a]) {
        return -1;
      }
    }
    long off = 0;
    long[] strides = Shapes.strides(shape);
    for (int a = 0; a < nd; a++) {
      off += start[a] * strides[a];
    }
    return off;
  }

  /** {@code Arrays.copyOfRange} of a primitive backing array of any type. */
  private static Object copyOfRange(Object data, int from, int to) {
    if (data instanceof double[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof float[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof long[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof int[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof short[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof byte[] v) {
      return Arrays.copyOfRange(v, from, to);
    } else if (data instanceof boolean[] v) {
      return Arrays.copyOfRange(v, from, to);
    }
    throw new IllegalStateException("getRegion: unknown backing array " + data.getClass());
  }

  static void setRegion(NDArray x, long[] start, NDArray src) {
    long[] shape = x.shape();
    DType dtype = x.dtype();
    if (src.dtype() != dtype) {
      throw new IllegalArgumentException(
          "setRegion: source dtype "
              + src.dtype()
              + " differs from destination dtype "
              + dtype
              + "; convert with astype first");
    }
    checkRegion("setRegion", start, src.shape(), shape);
    copyBox(
        src.data(),
        src.shape(),
        new long[shape.length],
        x.data(),
        shape,
        start,
        src.shape(),
        dtype.isComplex() ? 2 : 1);
  }

  private static void checkRegion(String fn, long[] start, long[] region, long[] shape) {
    if (start.length != shape.length || region.length != shape.length) {
      throw new IllegalArgumentException(
          fn
              + ": start "
              + Arrays.toString(start)
              + " and region "
              + Shapes.format(region)
              + " must have "
              + shape.length
              + " dimensions like the array "
              + Shapes.format(shape));
    }
    for (int i = 0; i < shape.length; i++) {
      if (start[i] < 0 || region[i] < 0 || start[i] + region[i] > shape[i]) {
        throw new IllegalArgumentException(
            fn
                + ": region at "
                + Arrays.toString(start)
                + " of shape "
                + Shapes.format(region)
                + " is outside the array of shape "
                + Shapes.format(shape)
                + " in dimension "
                + i);
      }
    }
  }

  static NDArray permuteDims(NDArray x, int... axes) {
    long[] shape = x.shape();
    DType dtype = x.dtype();
    int nd = shape.length;
    if (axes.length != nd) {
      throw new IllegalArgumentException(
          "permute_dims: axes "
              + Arrays.toString(axes)
              + " must name each of the "
              + nd
              + " axes of shape "
              + Shapes.format(shape)
              + " once");
    }
    int[] ax = new int[nd];
    boolean[] seen = new boolean[nd];
    for (int i = 0; i < nd; i++) {
      ax[i] = Shapes.normalizeAxis("permute_dims", axes[i], nd);
      if (seen[ax[i]]) {
        throw new IllegalArgumentException(
            "permute_dims: axes "
                + Arrays.toString(axes)
                + " repeat axis "
                + axes[i]
                + "; it must be a permutation of 0.."
                + (nd - 1));
      }
      seen[ax[i]] = true;
    }
    long[] outShape = new long[nd];
    for (int i = 0; i < nd; i++) {
      outShape[i] = shape[ax[i]];
    }
    NDArray out = NDArray.zeros(dtype, outShape);
    if (x.size() == 0) {
      return out;
    }
    if (nd == 0) {
      return x.copy();
    }
    long[] inStrides = Shapes.strides(shape);
    int[] srcStride = new int[nd];
    for (int i = 0; i < nd; i++) {
      srcStride[i] = (int) inStrides[ax[i]];
    }
    gatherStrided(x.data(), srcStride, out.data(), outShape, dtype.isComplex() ? 2 : 1);
    return out;
  }

  /**
   * Fills {@code dst} (C order, shape {@code box}) with the box at {@code start} of {@code src} (C
   * order, shape {@code srcShape}) broadcast to {@code box}'s rank: {@code srcShape} is aligned
   * with the box's trailing axes, and along an axis where it is 1 (or absent) every position reads
   * index 0 of {@code src}, whatever {@code start} says there.
   */
  static void broadcastBox(
      Object src, long[] srcShape, long[] start, Object dst, long[] box, int mult) {
    int nd = box.length;
    int off = nd - srcShape.length;
    if (off < 0 || start.length != nd) {
      throw new IllegalArgumentException(
          "broadcast box: source of shape "
              + Shapes.format(srcShape)
              + " cannot broadcast to a box of rank "
              + nd
              + " (start of rank "
              + start.length
              + ")");
    }
    long[] ss = Shapes.strides(srcShape);
    int[] stride = new int[nd];
    long at = 0;
    for (int d = off; d < nd; d++) {
      long n = srcShape[d - off];
      if (n == 1) {
        continue; // broadcast: stride 0, index 0
      }
      if (start[d] < 0 || start[d] + box[d] > n) {
        throw new IllegalArgumentException(
            "broadcast box: ["
                + start[d]
                + ", "
                + (start[d] + box[d])
                + ") on axis "
                + d
                + " is outside the source's "
                + n);
      }
      stride[d] = (int) ss[d - off];
      at += start[d] * ss[d - off];
    }
    gatherStrided(src, (int) at, stride, dst, box, mult);
  }

  static NDArray broadcastTo(NDArray x, long... target) {
    long[] shape = x.shape();
    DType dtype = x.dtype();
    Shapes.checkBroadcastTo("broadcast_to", shape, target);
    if (Arrays.equals(shape, target)) {
      return x.copy();
    }
    NDArray out = NDArray.zeros(dtype, target);
    if (out.size() == 0) {
      return out;
    }
    broadcastBox(
        x.data(), shape, new long[target.length], out.data(), target, dtype.isComplex() ? 2 : 1);
    return out;
  }
}
