package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.List;

/**
 * Tall-and-skinny QR of a 2-D array (one level of TSQR, as Python Cubed): x is rechunked to row
 * blocks holding whole rows; each row block i is factored {@code X_i = Q_i R_i}; the R factors are
 * stacked (one task) and factored again {@code [R_1; R_2; ...] = Q2 R}; then {@code Q = diag(Q_i)
 * Q2}, i.e. row block i of Q is {@code Q_i} (recomputed from {@code X_i}, so no Q_i is stored)
 * times the matching rows of Q2.
 *
 * <p>Memory per task: a row block of x with its factors (about {@code 6 * rows * n} doubles of
 * kernel work besides the block), or the stacked R factors ({@code K x n}, K the sum of {@code
 * min(rows_i, n)}) with their factors. Each must fit one task; otherwise the build refuses naming
 * qr and the sizes.
 */
public final class Tsqr {
  private Tsqr() {}

  /** The factors; {@code q} is null when only R was asked for. */
  public record Factors(ArrayNode q, ArrayNode r) {}

  /** Kernel work for factoring an r x n block: copies, Q, R and LAPACK work, in doubles. */
  static long work(long rows, long n, DType dt) {
    return 6 * rows * n * 8 * (dt.isComplex() ? 2 : 1);
  }

  /**
   * QR of the 2-D node x with whole columns in each task.
   *
   * @param fn the function named in a refusal ("qr", "svd", "svdvals")
   * @param out the floating dtype of the factors (the kernel's)
   * @param wantQ whether to build Q too
   * @throws IllegalArgumentException naming fn if a row block of one row, or the stacked R factors,
   *     do not fit one task
   */
  public static Factors qr(
      String fn, ArrayNode x, DType out, StackMap.Budget budget, boolean wantQ) {
    long m = x.shape()[0];
    long n = x.shape()[1];
    long room = budget.allowedMem() - budget.reservedMem();
    int it = x.dtype().itemSize();
    int ot = out.itemSize();
    // per row: the x row read (2 copies), Q row and R row written (2 copies each), kernel work
    long perRow = 2L * n * it + 2L * n * ot + 2L * n * ot + work(1, n, out);
    if (room < perRow) {
      throw new IllegalArgumentException(
          fn
              + ": one row of "
              + n
              + " "
              + x.dtype()
              + " elements with its factors needs a projected "
              + (budget.reservedMem() + perRow)
              + " B per task, more than allowedMem "
              + budget.allowedMem()
              + " B; the columns of a "
              + "tall-and-skinny matrix must fit one task: raise allowedMem; nothing was run");
    }
    long rows =
        Math.max(
            1, Math.min(Math.max(n, x.chunkGrid().maxChunks()[0]), room / Math.max(1, perRow)));
    ArrayNode xr = Core.rechunk(x, new long[] {rows, -1});
    long[] rowSizes = xr.chunkGrid().sizes(0);
    int nb = rowSizes.length;
    if (nb <= 1 || n == 0) {
      return single(fn, xr, out, budget, wantQ);
    }
    long[] kSizes = new long[nb];
    long kTotal = 0;
    for (int i = 0; i < nb; i++) {
      kSizes[i] = Math.min(rowSizes[i], n);
      kTotal += kSizes[i];
    }
    long k2 = Math.min(kTotal, n);
    long stackTask =
        budget.reservedMem()
            + 2 * kTotal * n * ot
            + 2 * (kTotal * k2 + k2 * n) * ot
            + work(kTotal, n, out);
    if (stackTask > budget.allowedMem()) {
      throw new IllegalArgumentException(
          fn
              + ": the stacked R factors of the "
              + nb
              + " row blocks ("
              + kTotal
              + "x"
              + n
              + " "
              + out
              + ") need a projected "
              + stackTask
              + " B in one task, more than allowedMem "
              + budget.allowedMem()
              + " B (one level of "
              + "TSQR): raise allowedMem, or use taller row blocks; nothing was run");
    }
    // R_i per row block
    ChunkGrid rGrid = ChunkGrid.of(new long[] {kTotal, n}, new long[][] {kSizes, {n}});
    BlockwiseFunction rf = (args, co) -> Linalg.qr(cast((NDArray) args.get(0), out)).R();
    long rowBlock = rows * n * it;
    ArrayNode rs =
        new ArrayNode.Computed(
            new Blockwise(
                fn + "_block_r",
                oneKey(),
                rf,
                new int[] {1},
                new int[] {1},
                rowBlock / it * 8 + work(rows, n, out)),
            List.of(xr),
            rGrid,
            out,
            null);
    ArrayNode rWhole = Core.rechunk(rs, new long[] {-1, -1});
    ArrayNode r = whole(fn + "_merge_r", rWhole, new long[] {k2, n}, out, false, kTotal, n);
    if (!wantQ) {
      return new Factors(null, r);
    }
    ArrayNode q2 = whole(fn + "_merge_q", rWhole, new long[] {kTotal, k2}, out, true, kTotal, n);
    ArrayNode q2r = Core.rechunk(q2, ChunkGrid.of(q2.shape(), new long[][] {kSizes, {k2}}));
    ChunkGrid qGrid = ChunkGrid.of(new long[] {m, k2}, new long[][] {rowSizes, {k2}});
    KeyFunction qk = co -> List.of(BlockKeys.one(co[0], 0), BlockKeys.one(co[0], 0));
    BlockwiseFunction qf =
        (args, co) -> {
          NDArray qi = Linalg.qr(cast((NDArray) args.get(0), out)).Q();
          return Linalg.matmul(qi, (NDArray) args.get(1));
        };
    ArrayNode q =
        new ArrayNode.Computed(
            new Blockwise(
                fn + "_q",
                qk,
                qf,
                new int[] {1, 1},
                new int[] {1, 1},
                rowBlock / it * 8 + work(rows, n, out) + rows * n * ot),
            List.of(xr, q2r),
            qGrid,
            out,
            null);
    return new Factors(q, r);
  }

  private static Factors single(
      String fn, ArrayNode xr, DType out, StackMap.Budget budget, boolean wantQ) {
    long m = xr.shape()[0];
    long n = xr.shape()[1];
    long k = Math.min(m, n);
    ArrayNode w = Core.rechunk(xr, new long[] {-1, -1});
    ArrayNode r = whole(fn + "_r", w, new long[] {k, n}, out, false, m, n);
    ArrayNode q = wantQ ? whole(fn + "_q", w, new long[] {m, k}, out, true, m, n) : null;
    return new Factors(q, r);
  }

  /** One task reading the whole (one-block) input and writing Q or R of its QR as one block. */
  private static ArrayNode whole(
      String name, ArrayNode in, long[] shape, DType out, boolean q, long m, long n) {
    BlockwiseFunction f =
        (args, co) -> {
          NDArray a = cast((NDArray) args.get(0), out);
          Linalg.QrResult qr = Linalg.qr(a);
          return q ? qr.Q() : qr.R();
        };
    long[] chunks = {Math.max(1, shape[0]), Math.max(1, shape[1])};
    KeyFunction keys = co -> List.of(BlockKeys.one(0, 0));
    return new ArrayNode.Computed(
        new Blockwise(name, keys, f, new int[] {1}, new int[] {1}, m * n * 8 + work(m, n, out)),
        List.of(in),
        shape,
        chunks,
        out,
        null);
  }

  private static KeyFunction oneKey() {
    return co -> List.of(BlockKeys.one(co[0], 0));
  }

  static NDArray cast(NDArray a, DType out) {
    return a.dtype() == out ? a : a.astype(out);
  }
}
