package dev.cubed.nd;

/**
 * Strided copies between C-order backing arrays (package-private machinery behind {@link
 * NDArray#copyBox}, {@link NDArray#permuteDims} and {@link NDArray#broadcastTo}). Offsets and
 * strides count elements; {@code mult} is 2 for interleaved complex data.
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
    int nd = outShape.length;
    if (Shapes.size(outShape) == 0) {
      return;
    }
    if (nd == 0) {
      System.arraycopy(src, 0, dst, 0, mult);
      return;
    }
    int innerLen = (int) outShape[nd - 1];
    int innerStride = srcStride[nd - 1];
    int[] idx = new int[nd - 1];
    int dstPos = 0;
    while (true) {
      int srcPos = 0;
      for (int k = 0; k < nd - 1; k++) {
        srcPos += idx[k] * srcStride[k];
      }
      gather(src, srcPos, innerStride, dst, dstPos, innerLen, mult);
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
}
