package dev.cubed.nd;

import java.util.Arrays;

/**
 * Element-moving kernels shared by manipulation and indexing: orthogonal gather/scatter (one list
 * of positions per axis, innermost runs copied with {@link System#arraycopy}) and flat
 * gather/scatter by element index. All work on the primitive backing arrays; complex data moves in
 * (re, im) pairs.
 */
final class Gather {
  private Gather() {}

  static int mult(DType d) {
    return d.isComplex() ? 2 : 1;
  }

  /**
   * A new array of {@code x}'s dtype whose element at {@code (i0, i1, ...)} is {@code x[pos[0][i0],
   * pos[1][i1], ...]}; the result shape is the lengths of {@code pos}.
   */
  static NDArray orthogonal(NDArray x, int[][] pos) {
    int nd = pos.length;
    long[] outShape = new long[nd];
    for (int k = 0; k < nd; k++) {
      outShape[k] = pos[k].length;
    }
    NDArray out = NDArray.zeros(x.dtype(), outShape);
    if (out.size() == 0) {
      return out;
    }
    if (nd == 0) {
      System.arraycopy(x.data(), 0, out.data(), 0, mult(x.dtype()));
      return out;
    }
    walk(x.data(), x.shape(), pos, out.data(), mult(x.dtype()), true);
    return out;
  }

  /**
   * Writes {@code src} (shape = lengths of {@code pos}, same dtype as {@code dst}) into {@code
   * dst[pos[0][i0], pos[1][i1], ...]}.
   */
  static void scatterOrthogonal(NDArray dst, int[][] pos, NDArray src) {
    if (src.size() == 0) {
      return;
    }
    if (pos.length == 0) {
      System.arraycopy(src.data(), 0, dst.data(), 0, mult(dst.dtype()));
      return;
    }
    walk(dst.data(), dst.shape(), pos, src.data(), mult(dst.dtype()), false);
  }

  /** gather: dense[j] = big[offset(j)]; scatter (gather=false): big[offset(j)] = dense[j]. */
  private static void walk(
      Object big, long[] bigShape, int[][] pos, Object dense, int mult, boolean gather) {
    int nd = pos.length;
    long[] strides = Shapes.strides(bigShape);
    int[] inner = pos[nd - 1];
    int n = inner.length;
    boolean contiguous = true;
    for (int j = 1; j < n; j++) {
      if (inner[j] != inner[0] + j) {
        contiguous = false;
        break;
      }
    }
    int[] idx = new int[nd - 1];
    int densePos = 0;
    while (true) {
      int base = 0;
      for (int k = 0; k < nd - 1; k++) {
        base += pos[k][idx[k]] * (int) strides[k];
      }
      if (contiguous) {
        if (gather) {
          System.arraycopy(big, (base + inner[0]) * mult, dense, densePos * mult, n * mult);
        } else {
          System.arraycopy(dense, densePos * mult, big, (base + inner[0]) * mult, n * mult);
        }
      } else if (gather) {
        runGather(big, base, inner, dense, densePos, mult);
      } else {
        runScatter(dense, densePos, big, base, inner, mult);
      }
      densePos += n;
      int k = nd - 2;
      while (k >= 0) {
        if (++idx[k] < pos[k].length) {
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

  /** dst[dp + j] = src[base + p[j]] for each j (complex: pairs). */
  static void runGather(Object src, int base, int[] p, Object dst, int dp, int mult) {
    int n = p.length;
    if (mult == 2) {
      if (src instanceof double[] s) {
        double[] d = (double[]) dst;
        for (int j = 0; j < n; j++) {
          int from = 2 * (base + p[j]);
          d[2 * (dp + j)] = s[from];
          d[2 * (dp + j) + 1] = s[from + 1];
        }
      } else {
        float[] s = (float[]) src;
        float[] d = (float[]) dst;
        for (int j = 0; j < n; j++) {
          int from = 2 * (base + p[j]);
          d[2 * (dp + j)] = s[from];
          d[2 * (dp + j) + 1] = s[from + 1];
        }
      }
    } else if (src instanceof double[] s) {
      double[] d = (double[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else if (src instanceof float[] s) {
      float[] d = (float[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else if (src instanceof long[] s) {
      long[] d = (long[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else if (src instanceof int[] s) {
      int[] d = (int[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else if (src instanceof short[] s) {
      short[] d = (short[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else if (src instanceof byte[] s) {
      byte[] d = (byte[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    } else {
      boolean[] s = (boolean[]) src;
      boolean[] d = (boolean[]) dst;
      for (int j = 0; j < n; j++) {
        d[dp + j] = s[base + p[j]];
      }
    }
  }

  /** dst[base + p[j]] = src[sp + j] for each j (complex: pairs). */
  static void runScatter(Object src, int sp, Object dst, int base, int[] p, int mult) {
    int n = p.length;
    if (mult == 2) {
      if (src instanceof double[] s) {
        double[] d = (double[]) dst;
        for (int j = 0; j < n; j++) {
          int to = 2 * (base + p[j]);
          d[to] = s[2 * (sp + j)];
          d[to + 1] = s[2 * (sp + j) + 1];
        }
      } else {
        float[] s = (float[]) src;
        float[] d = (float[]) dst;
        for (int j = 0; j < n; j++) {
          int to = 2 * (base + p[j]);
          d[to] = s[2 * (sp + j)];
          d[to + 1] = s[2 * (sp + j) + 1];
        }
      }
    } else if (src instanceof double[] s) {
      double[] d = (double[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else if (src instanceof float[] s) {
      float[] d = (float[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else if (src instanceof long[] s) {
      long[] d = (long[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else if (src instanceof int[] s) {
      int[] d = (int[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else if (src instanceof short[] s) {
      short[] d = (short[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else if (src instanceof byte[] s) {
      byte[] d = (byte[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    } else {
      boolean[] s = (boolean[]) src;
      boolean[] d = (boolean[]) dst;
      for (int j = 0; j < n; j++) {
        d[base + p[j]] = s[sp + j];
      }
    }
  }

  /** A new array of {@code shape} whose flat element j is x's flat element {@code flat[j]}. */
  static NDArray flat(NDArray x, int[] flat, long[] shape) {
    NDArray out = NDArray.zeros(x.dtype(), shape);
    runGather(x.data(), 0, flat, out.data(), 0, mult(x.dtype()));
    return out;
  }

  /** dst's flat element {@code flat[j]} = src's flat element j (same dtype). */
  static void scatterFlat(NDArray dst, int[] flat, NDArray src) {
    runScatter(src.data(), 0, dst.data(), 0, flat, mult(dst.dtype()));
  }

  /** 0..n-1. */
  static int[] range(long n) {
    int[] r = new int[(int) n];
    for (int i = 0; i < r.length; i++) {
      r[i] = i;
    }
    return r;
  }

  /** Identity positions for each axis of a shape. */
  static int[][] identity(long[] shape) {
    int[][] p = new int[shape.length][];
    for (int k = 0; k < shape.length; k++) {
      p[k] = range(shape[k]);
    }
    return p;
  }

  /**
   * The value to write into a region of {@code shape} of {@code dst}: an NDArray (cast to dst's
   * dtype and broadcast; copied when it shares dst's data) or a scalar.
   */
  static NDArray valueFor(String fn, Object value, NDArray dst, long[] shape) {
    DType dtype = dst.dtype();
    NDArray v;
    if (value instanceof NDArray a) {
      // a value sharing the destination's data is copied first, so overlapping writes read old
      // values
      v = a.dtype() != dtype ? a.astype(dtype) : a.data() == dst.data() ? a.copy() : a;
      Shapes.checkBroadcastTo(fn, v.shape(), shape);
      return Arrays.equals(v.shape(), shape) ? v : v.broadcastTo(shape);
    }
    return NDArray.full(dtype, value, shape);
  }
}
