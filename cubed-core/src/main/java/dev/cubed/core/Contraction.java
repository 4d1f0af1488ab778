package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Chunked tensordot and matmul. Each output block streams the pairs of input blocks along the
 * contracted axes one pair at a time and adds each block product into an accumulator, so a task
 * holds one block of each input, one product and the accumulator (never the k blocks together).
 * Contracted axes of {@code b} are rechunked to {@code a}'s chunks when they differ.
 */
public final class Contraction {
  private Contraction() {}

  /**
   * {@code tensordot(a, b, axesA, axesB)}: output axes are a's free axes then b's free axes.
   *
   * @throws IllegalArgumentException if contracted sizes differ or the axes are invalid
   */
  public static ArrayNode tensordot(ArrayNode a, ArrayNode b, int[] axesA, int[] axesB) {
    if (axesA.length != axesB.length) {
      throw new IllegalArgumentException("tensordot: " + axesA.length + " axes of x1 but "
          + axesB.length + " of x2");
    }
    int na = a.shape().length;
    int nb = b.shape().length;
    int[] ca = new int[axesA.length];
    int[] cb = new int[axesB.length];
    for (int i = 0; i < ca.length; i++) {
      ca[i] = Shapes.normalizeAxis("tensordot", axesA[i], na);
      cb[i] = Shapes.normalizeAxis("tensordot", axesB[i], nb);
    }
    long[] bChunks = b.chunks();
    for (int i = 0; i < ca.length; i++) {
      if (a.shape()[ca[i]] != b.shape()[cb[i]]) {
        throw new IllegalArgumentException("tensordot: shapes " + Shapes.format(a.shape())
            + " and " + Shapes.format(b.shape()) + " are not aligned: dimension " + ca[i]
            + " of x1 (" + a.shape()[ca[i]] + ") != dimension " + cb[i] + " of x2 ("
            + b.shape()[cb[i]] + ")");
      }
      bChunks[cb[i]] = a.chunks()[ca[i]];
    }
    ArrayNode bb = Arrays.equals(bChunks, b.chunks()) ? b : Core.rechunk(b, bChunks);
    int[] fa = free(na, ca);
    int[] fb = free(nb, cb);
    long[] shape = new long[fa.length + fb.length];
    long[] chunks = new long[shape.length];
    for (int i = 0; i < fa.length; i++) {
      shape[i] = a.shape()[fa[i]];
      chunks[i] = a.chunks()[fa[i]];
    }
    for (int i = 0; i < fb.length; i++) {
      shape[fa.length + i] = bb.shape()[fb[i]];
      chunks[fa.length + i] = bb.chunks()[fb[i]];
    }
    long[] kGrid = new long[ca.length];
    for (int i = 0; i < ca.length; i++) {
      kGrid[i] = a.numBlocks()[ca[i]];
    }
    DType out = DType.resultType(a.dtype(), b.dtype());
    ChunkMath.checkReal("tensordot", out);
    KeyFunction keys = c -> {
      List<long[]> ka = new ArrayList<>();
      List<long[]> kb = new ArrayList<>();
      long total = Shapes.size(kGrid);
      for (long f = 0; f < total; f++) {
        long[] k = Shapes.unravel(kGrid, f);
        long[] x = new long[na];
        long[] y = new long[nb];
        for (int i = 0; i < fa.length; i++) {
          x[fa[i]] = c[i];
        }
        for (int i = 0; i < fb.length; i++) {
          y[fb[i]] = c[fa.length + i];
        }
        for (int i = 0; i < ca.length; i++) {
          x[ca[i]] = k[i];
          y[cb[i]] = k[i];
        }
        ka.add(x);
        kb.add(y);
      }
      return List.of(BlockKeys.stream(ka), BlockKeys.stream(kb));
    };
    BlockFunction fn = (args, c) -> {
      @SuppressWarnings("unchecked")
      Iterator<NDArray> ia = (Iterator<NDArray>) args.get(0);
      @SuppressWarnings("unchecked")
      Iterator<NDArray> ib = (Iterator<NDArray>) args.get(1);
      NDArray acc = null;
      while (ia.hasNext()) {
        NDArray p = blockTensordot(ia.next(), ib.next(), ca, cb, out);
        acc = acc == null ? p : ChunkMath.binary("tensordot", ChunkMath.ADD, acc, p, out);
      }
      return acc;
    };
    long outBytes = 1;
    for (int i = 0; i < shape.length; i++) {
      outBytes *= Math.min(chunks[i], Math.max(1, shape[i]));
    }
    outBytes *= out.itemSize();
    int k = (int) Shapes.size(kGrid);
    return new ArrayNode.Computed(new Blockwise("tensordot", keys, fn, new int[] {1, 1},
        new int[] {k, k}, 2 * outBytes), List.of(a, bb), shape, chunks, out, null);
  }

  /**
   * {@code matmul} of 2-D arrays (1-D operands are not supported yet).
   *
   * @throws UnsupportedOperationException for operands that are not 2-D
   */
  public static ArrayNode matmul(ArrayNode a, ArrayNode b) {
    if (a.shape().length != 2 || b.shape().length != 2) {
      throw new UnsupportedOperationException("matmul: only 2-D operands are supported by the "
          + "chunked engine so far, got " + Shapes.format(a.shape()) + " and "
          + Shapes.format(b.shape()));
    }
    if (a.shape()[1] != b.shape()[0]) {
      throw new IllegalArgumentException("matmul: shapes " + Shapes.format(a.shape()) + " and "
          + Shapes.format(b.shape()) + " are not aligned: dimension 1 of x1 (" + a.shape()[1]
          + ") != dimension 0 of x2 (" + b.shape()[0] + ")");
    }
    return tensordot(a, b, new int[] {1}, new int[] {0});
  }

  private static int[] free(int n, int[] contracted) {
    int[] f = new int[n - contracted.length];
    int j = 0;
    outer:
    for (int i = 0; i < n; i++) {
      for (int c : contracted) {
        if (c == i) {
          continue outer;
        }
      }
      f[j++] = i;
    }
    return f;
  }

  /** In-memory tensordot of two blocks: permute to 2-D, multiply, reshape. */
  static NDArray blockTensordot(NDArray a, NDArray b, int[] ca, int[] cb, DType out) {
    int na = a.ndim();
    int nb = b.ndim();
    int[] fa = free(na, ca);
    int[] fb = free(nb, cb);
    int[] pa = new int[na];
    int[] pb = new int[nb];
    long m = 1;
    long k = 1;
    long n = 1;
    long[] outShape = new long[fa.length + fb.length];
    for (int i = 0; i < fa.length; i++) {
      pa[i] = fa[i];
      m *= a.shape(fa[i]);
      outShape[i] = a.shape(fa[i]);
    }
    for (int i = 0; i < ca.length; i++) {
      pa[fa.length + i] = ca[i];
      pb[i] = cb[i];
      k *= a.shape(ca[i]);
    }
    for (int i = 0; i < fb.length; i++) {
      pb[cb.length + i] = fb[i];
      n *= b.shape(fb[i]);
      outShape[fa.length + i] = b.shape(fb[i]);
    }
    NDArray a2 = a.astype(DType.FLOAT64).permuteDims(pa).reshape(m, k);
    NDArray b2 = b.astype(DType.FLOAT64).permuteDims(pb).reshape(k, n);
    double[] x = (double[]) a2.data();
    double[] y = (double[]) b2.data();
    double[] r = new double[(int) (m * n)];
    int mi = (int) m;
    int ki = (int) k;
    int ni = (int) n;
    for (int i = 0; i < mi; i++) {
      for (int p = 0; p < ki; p++) {
        double v = x[i * ki + p];
        if (v == 0) {
          continue;
        }
        int yo = p * ni;
        int ro = i * ni;
        for (int j = 0; j < ni; j++) {
          r[ro + j] += v * y[yo + j];
        }
      }
    }
    NDArray res = new NDArray(DType.FLOAT64, new long[] {m, n}, r).reshape(outShape);
    return out == DType.FLOAT64 ? res : res.astype(out);
  }
}
