package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Chunked tensordot and matmul. The contracted block index is kept as an extra trailing output axis
 * of chunk size 1: a first op multiplies up to {@code splitEvery} pairs of input blocks along the
 * contracted axes per task (one pair held at a time, products added into an accumulator; for 2-D
 * float64/float32 matmul blocks the BLAS call adds into it, {@link Linalg#matmulAccumulate}, so no
 * product array is made per pair), so only one partial product per group of {@code splitEvery}
 * block pairs is written; rounds of tree sums then add up to {@code splitEvery} partial products
 * per task until the extra axis is gone. With {@link #AUTO} the first group size follows from the
 * output's block count (see there). The k blocks along the contracted axes are never concatenated.
 * Block products are the kernel's ({@link Linalg#matmul}, {@link Linalg#tensordot}), so integer
 * products are exact (wrapping like NumPy's) and float32 stays float32. Contracted (and batch) axes
 * of {@code b} are rechunked to {@code a}'s chunks when they differ.
 */
public final class Contraction {
  private Contraction() {}

  /** The product of one pair of blocks. */
  private interface PairProduct extends Serializable {
    NDArray apply(NDArray a, NDArray b);
  }

  /**
   * {@code acc + product(a, b)}, where the task owns {@code acc} (it may be overwritten and
   * returned).
   */
  private interface PairAccumulate extends Serializable {
    NDArray apply(NDArray acc, NDArray a, NDArray b);
  }

  /**
   * {@code tensordot(a, b, axesA, axesB)}: output axes are a's free axes then b's free axes.
   *
   * @throws IllegalArgumentException if contracted sizes differ, the axes are invalid or a dtype is
   *     bool, or splitEvery is below 2 and not {@link #AUTO}
   */
  public static ArrayNode tensordot(
      ArrayNode a0, ArrayNode b0, int[] axesA, int[] axesB, int splitEvery) {
    ArrayNode a = Regrid.regular(a0);
    ArrayNode b = Regrid.regular(b0);
    if (axesA.length != axesB.length) {
      throw new IllegalArgumentException(
          "tensordot: axes "
              + Arrays.toString(axesA)
              + " and "
              + Arrays.toString(axesB)
              + " must have the same length");
    }
    int na = a.shape().length;
    int nb = b.shape().length;
    int[] ca = new int[axesA.length];
    int[] cb = new int[axesB.length];
    for (int i = 0; i < ca.length; i++) {
      ca[i] = Shapes.normalizeAxis("tensordot", axesA[i], na);
      cb[i] = Shapes.normalizeAxis("tensordot", axesB[i], nb);
      for (int j = 0; j < i; j++) {
        if (ca[j] == ca[i] || cb[j] == cb[i]) {
          throw new IllegalArgumentException(
              "tensordot: repeated axis in "
                  + Arrays.toString(axesA)
                  + " / "
                  + Arrays.toString(axesB));
        }
      }
    }
    DType out = numeric("tensordot", a.dtype(), b.dtype());
    long[] bChunks = b.chunks();
    for (int i = 0; i < ca.length; i++) {
      if (a.shape()[ca[i]] != b.shape()[cb[i]]) {
        throw new IllegalArgumentException(
            "tensordot: shapes "
                + Shapes.format(a.shape())
                + " and "
                + Shapes.format(b.shape())
                + " are not aligned: dimension "
                + ca[i]
                + " of x1 ("
                + a.shape()[ca[i]]
                + ") != dimension "
                + cb[i]
                + " of x2 ("
                + b.shape()[cb[i]]
                + ")");
      }
      bChunks[cb[i]] = a.chunks()[ca[i]];
    }
    ArrayNode bb = Arrays.equals(bChunks, b.chunks()) ? b : Core.rechunk(b, bChunks);
    int[] fa = free(na, ca);
    int[] fb = free(nb, cb);
    int no = fa.length + fb.length;
    long[] shape = new long[no];
    long[] chunks = new long[no];
    int[] toA = new int[no];
    int[] toB = new int[no];
    Arrays.fill(toA, -1);
    Arrays.fill(toB, -1);
    for (int i = 0; i < fa.length; i++) {
      shape[i] = a.shape()[fa[i]];
      chunks[i] = a.chunks()[fa[i]];
      toA[i] = fa[i];
    }
    for (int i = 0; i < fb.length; i++) {
      shape[fa.length + i] = bb.shape()[fb[i]];
      chunks[fa.length + i] = bb.chunks()[fb[i]];
      toB[fa.length + i] = fb[i];
    }
    int[] pa = ca.clone();
    int[] pb = cb.clone();
    return contract(
        "tensordot",
        a,
        bb,
        shape,
        chunks,
        out,
        toA,
        toB,
        ca,
        cb,
        (x, y) -> Linalg.tensordot(x, y, pa, pb),
        (acc, x, y) -> Elementwise.add(acc, Linalg.tensordot(x, y, pa, pb)),
        splitEvery);
  }

  /**
   * {@link #tensordot(ArrayNode, ArrayNode, int[], int[], int)} with the automatic first-round
   * group ({@link #AUTO}) and tree rounds of 4.
   */
  public static ArrayNode tensordot(ArrayNode a0, ArrayNode b0, int[] axesA, int[] axesB) {
    ArrayNode a = Regrid.regular(a0);
    ArrayNode b = Regrid.regular(b0);
    return tensordot(a, b, axesA, axesB, AUTO);
  }

  /**
   * {@code matmul} with the standard's rules: a 1-D {@code a} is a row vector and a 1-D {@code b} a
   * column vector (the added axis is removed from the result); leading (batch) axes broadcast.
   *
   * @throws IllegalArgumentException for a 0-d or bool operand, misaligned inner dimensions, batch
   *     dimensions that do not broadcast, or splitEvery below 2 and not {@link #AUTO}
   */
  public static ArrayNode matmul(ArrayNode a0, ArrayNode b0, int splitEvery) {
    ArrayNode a = Regrid.regular(a0);
    ArrayNode b = Regrid.regular(b0);
    long[] s1 = a.shape();
    long[] s2 = b.shape();
    if (s1.length == 0 || s2.length == 0) {
      throw new IllegalArgumentException(
          "matmul: operands must have at least one dimension, got "
              + "shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2));
    }
    DType out = numeric("matmul", a.dtype(), b.dtype());
    boolean vec1 = s1.length == 1;
    boolean vec2 = s2.length == 1;
    long k1 = s1[s1.length - 1];
    long k2 = vec2 ? s2[0] : s2[s2.length - 2];
    if (k1 != k2) {
      throw new IllegalArgumentException(
          "matmul: shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2)
              + " are not aligned: dimension "
              + (s1.length - 1)
              + " of x1 ("
              + k1
              + ") != dimension "
              + (vec2 ? 0 : s2.length - 2)
              + " of x2 ("
              + k2
              + ")");
    }
    ArrayNode x = vec1 ? ChunkedManipulation.expandDims(a, 0) : a;
    ArrayNode y = vec2 ? ChunkedManipulation.expandDims(b, 1) : b;
    long[] xs = x.shape();
    long[] ys = y.shape();
    long[] batchX = Arrays.copyOf(xs, xs.length - 2);
    long[] batchY = Arrays.copyOf(ys, ys.length - 2);
    long[] batch;
    try {
      batch = Shapes.broadcast("matmul", batchX, batchY);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "matmul: batch dimensions "
              + Shapes.format(batchX)
              + " and "
              + Shapes.format(batchY)
              + " of shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2)
              + " do not broadcast",
          e);
    }
    int nBatch = batch.length;
    int no = nBatch + 2;
    int offX = nBatch - batchX.length;
    int offY = nBatch - batchY.length;
    long[] shape = new long[no];
    long[] chunks = new long[no];
    int[] toA = new int[no];
    int[] toB = new int[no];
    Arrays.fill(toA, -1);
    Arrays.fill(toB, -1);
    long[] yChunks = y.chunks();
    for (int d = 0; d < nBatch; d++) {
      shape[d] = batch[d];
      int ax = d - offX;
      int ay = d - offY;
      boolean fromX = ax >= 0 && xs[ax] == batch[d];
      boolean fromY = ay >= 0 && ys[ay] == batch[d];
      if (ax >= 0) {
        toA[d] = ax;
      }
      if (ay >= 0) {
        toB[d] = ay;
      }
      chunks[d] = fromX ? x.chunks()[ax] : fromY ? y.chunks()[ay] : 1;
      if (fromY) {
        yChunks[ay] = chunks[d];
      }
    }
    shape[nBatch] = xs[xs.length - 2];
    chunks[nBatch] = x.chunks()[xs.length - 2];
    toA[nBatch] = xs.length - 2;
    shape[nBatch + 1] = ys[ys.length - 1];
    chunks[nBatch + 1] = y.chunks()[ys.length - 1];
    toB[nBatch + 1] = ys.length - 1;
    yChunks[ys.length - 2] = x.chunks()[xs.length - 1];
    ArrayNode yy = Arrays.equals(yChunks, y.chunks()) ? y : Core.rechunk(y, yChunks);
    ArrayNode r =
        contract(
            "matmul",
            x,
            yy,
            shape,
            chunks,
            out,
            toA,
            toB,
            new int[] {xs.length - 1},
            new int[] {ys.length - 2},
            Linalg::matmul,
            Linalg::matmulAccumulate,
            splitEvery);
    if (vec2) {
      r = ChunkedManipulation.squeeze(r, no - 1);
    }
    if (vec1) {
      r = ChunkedManipulation.squeeze(r, no - 2);
    }
    return r;
  }

  /**
   * {@link #matmul(ArrayNode, ArrayNode, int)} with the automatic first-round group ({@link #AUTO})
   * and tree rounds of 4.
   */
  public static ArrayNode matmul(ArrayNode a0, ArrayNode b0) {
    ArrayNode a = Regrid.regular(a0);
    ArrayNode b = Regrid.regular(b0);
    return matmul(a, b, AUTO);
  }

  /**
   * splitEvery value selecting the automatic policy: the first op splits the k contracted block
   * pairs into {@code min(k, ceil(16 / outputBlocks))} groups, so an output with at least 16 blocks
   * folds all k pairs per task and writes no partial products (enough tasks for parallelism), and
   * an output with few blocks gets up to 16 groups summed by a tree of 4 per task.
   */
  public static final int AUTO = 0;

  private static final int AUTO_TARGET_TASKS = 16;
  private static final int AUTO_TREE = 4;

  private static DType numeric(String fn, DType a, DType b) {
    if (a.isBool() || b.isBool()) {
      throw new IllegalArgumentException(
          fn + ": operands must have a numeric dtype, got " + a + " and " + b);
    }
    return DType.resultType(a, b);
  }

  /**
   * The contraction proper. Output axis i reads axis {@code toA[i]} of a and {@code toB[i]} of b
   * (-1: not an axis of that operand; an operand axis of size 1 under a longer output axis is
   * broadcast by the block product). Contracted axes {@code ca[j]} of a pair with {@code cb[j]} of
   * b and have equal chunks.
   */
  private static ArrayNode contract(
      String name,
      ArrayNode a,
      ArrayNode b,
      long[] shape,
      long[] chunks,
      DType out,
      int[] toA,
      int[] toB,
      int[] ca,
      int[] cb,
      PairProduct product,
      PairAccumulate accumulate,
      int splitEvery) {
    if (splitEvery < 2 && splitEvery != AUTO) {
      throw new IllegalArgumentException(name + ": splitEvery must be >= 2, got " + splitEvery);
    }
    int no = shape.length;
    int na = a.shape().length;
    int nb = b.shape().length;
    long[] as = a.shape();
    long[] bs = b.shape();
    long[] kGrid = new long[ca.length];
    long kTotal = 1;
    for (int i = 0; i < ca.length; i++) {
      kGrid[i] = as[ca[i]] == 0 ? 0 : a.numBlocks()[ca[i]];
      kTotal *= kGrid[i];
    }
    if (kTotal == 0) {
      return Core.full(shape, chunks, 0, out);
    }
    long first = splitEvery;
    int tree = splitEvery;
    if (splitEvery == AUTO) {
      long outBlocks = 1;
      for (int i = 0; i < no; i++) {
        outBlocks *= shape[i] == 0 ? 1 : (shape[i] + chunks[i] - 1) / chunks[i];
      }
      long g = Math.max(1, Math.min(kTotal, (AUTO_TARGET_TASKS + outBlocks - 1) / outBlocks));
      first = Math.max(2, (kTotal + g - 1) / g);
      tree = AUTO_TREE;
    }
    long groups = (kTotal + first - 1) / first;
    boolean extra = groups > 1;
    long[] s1 = extra ? Arrays.copyOf(shape, no + 1) : shape;
    long[] c1 = extra ? Arrays.copyOf(chunks, no + 1) : chunks;
    if (extra) {
      s1[no] = groups;
      c1[no] = 1;
    }
    long total = kTotal;
    long se = first;
    KeyFunction keys =
        c -> {
          long g = extra ? c[no] : 0;
          List<long[]> ka = new ArrayList<>();
          List<long[]> kb = new ArrayList<>();
          for (long f = g * se; f < Math.min(total, (g + 1) * se); f++) {
            long[] k = Shapes.unravel(kGrid, f);
            long[] x = new long[na];
            long[] y = new long[nb];
            for (int i = 0; i < no; i++) {
              if (toA[i] >= 0) {
                x[toA[i]] = as[toA[i]] == 1 ? 0 : c[i];
              }
              if (toB[i] >= 0) {
                y[toB[i]] = bs[toB[i]] == 1 ? 0 : c[i];
              }
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
    BlockwiseFunction fn =
        (args, c) -> {
          @SuppressWarnings("unchecked")
          Iterator<NDArray> ia = (Iterator<NDArray>) args.get(0);
          @SuppressWarnings("unchecked")
          Iterator<NDArray> ib = (Iterator<NDArray>) args.get(1);
          NDArray acc = null;
          while (ia.hasNext()) {
            NDArray x = ia.next();
            NDArray y = ib.next();
            acc = acc == null ? product.apply(x, y) : accumulate.apply(acc, x, y);
          }
          return extra ? acc.reshape(withOne(acc.shape())) : acc;
        };
    long outBytes = blockBytes(shape, chunks, out);
    int reads = (int) Math.min(kTotal, first);
    ArrayNode cur =
        new ArrayNode.Computed(
            new Blockwise(
                name,
                keys,
                fn,
                new int[] {1, 1},
                new int[] {reads, reads},
                pairMem(name, a, b, as, bs, no, out, outBytes)),
            List.of(a, b),
            s1,
            c1,
            out,
            null);
    while (cur.shape().length == no + 1) {
      cur = sumRound(name, cur, shape, chunks, out, tree, outBytes);
    }
    return cur;
  }

  /** One round of the tree sum over the trailing partial-product axis. */
  private static ArrayNode sumRound(
      String name,
      ArrayNode x,
      long[] shape,
      long[] chunks,
      DType out,
      int splitEvery,
      long outBytes) {
    int no = shape.length;
    long g = x.shape()[no];
    long groups = (g + splitEvery - 1) / splitEvery;
    boolean extra = groups > 1;
    long[] s1 = extra ? Arrays.copyOf(shape, no + 1) : shape;
    long[] c1 = extra ? Arrays.copyOf(chunks, no + 1) : chunks;
    if (extra) {
      s1[no] = groups;
      c1[no] = 1;
    }
    int se = splitEvery;
    KeyFunction keys =
        c -> {
          long grp = extra ? c[no] : 0;
          List<long[]> ks = new ArrayList<>();
          for (long j = grp * se; j < Math.min(g, (grp + 1) * se); j++) {
            long[] k = Arrays.copyOf(c, no + 1);
            k[no] = j;
            ks.add(k);
          }
          return List.of(BlockKeys.stream(ks));
        };
    BlockwiseFunction fn =
        (args, c) -> {
          @SuppressWarnings("unchecked")
          Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
          NDArray acc = it.next();
          while (it.hasNext()) {
            acc = Elementwise.add(acc, it.next());
          }
          if (extra) {
            return acc;
          }
          long[] s = acc.shape();
          return acc.reshape(Arrays.copyOf(s, s.length - 1));
        };
    int reads = (int) Math.min(g, splitEvery);
    return new ArrayNode.Computed(
        new Blockwise(name + "-sum", keys, fn, new int[] {1}, new int[] {reads}, 2 * outBytes),
        List.of(x),
        s1,
        c1,
        out,
        null);
  }

  /**
   * Memory a contraction task holds beyond its input blocks and its output block. A 2-D float64 or
   * float32 matmul whose operands already have the result dtype runs the BLAS path of {@link
   * Linalg#matmulAccumulate}: the running sum is the output block itself and each pair's product is
   * added into it in place, with no conversion copies, so nothing more. Any other contraction may
   * hold the previous running sum, the pair's product and the new sum (three output blocks) and a
   * conversion of both operands to the result dtype.
   */
  private static long pairMem(
      String name,
      ArrayNode a,
      ArrayNode b,
      long[] as,
      long[] bs,
      int no,
      DType out,
      long outBytes) {
    boolean inPlace =
        name.equals("matmul")
            && no == 2
            && (out == DType.FLOAT64 || out == DType.FLOAT32)
            && a.dtype() == out
            && b.dtype() == out;
    if (inPlace) {
      return 0;
    }
    long promoted =
        (blockElems(as, a.chunks()) + blockElems(bs, b.chunks())) * Math.max(out.itemSize(), 8);
    return 3 * outBytes + promoted;
  }

  private static long[] withOne(long[] s) {
    long[] r = Arrays.copyOf(s, s.length + 1);
    r[s.length] = 1;
    return r;
  }

  private static long blockElems(long[] shape, long[] chunks) {
    long n = 1;
    for (int i = 0; i < shape.length; i++) {
      n *= Math.min(chunks[i], Math.max(1, shape[i]));
    }
    return n;
  }

  private static long blockBytes(long[] shape, long[] chunks, DType t) {
    return blockElems(shape, chunks) * t.itemSize();
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
}
