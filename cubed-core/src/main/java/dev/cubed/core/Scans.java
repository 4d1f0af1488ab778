package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Cumulative sums and products along an axis. Two plans, chosen by cost ({@link #cumulative}):
 *
 * <ul>
 *   <li>The chain ({@link ScanChain}): one op whose tasks each walk one row of blocks along the
 *       axis, scanning each block on from the carry of the blocks before it (the last slice of the
 *       previous output block) and writing it. The input is read once, nothing but the output is
 *       written, and the sums accumulate in NumPy's order. Only the carry waits for the block
 *       before: a task reads and decodes the blocks ahead and encodes and writes the blocks behind
 *       on its lanes ({@link #lanes}), as many threads as the executor has workers per row running
 *       at once, so one row of blocks (a scan over one-step blocks) keeps every worker busy.
 *   <li>The tree, as in DESIGN.md: each block is scanned; a totals array holds each block's total
 *       (one entry per block along the axis, chunked {@code max(2, chunk)} entries per block so it
 *       is no bigger than the input's chunks); the totals are scanned recursively the same way; and
 *       each scanned block is combined with the scanned total of the block before it (one extra
 *       block read per task, never the O(k^2) reads of folding all earlier totals). Every block is
 *       independent, so all workers are busy however few the rows, but the input is read twice and
 *       the scanned blocks and totals are written and read back.
 * </ul>
 *
 * <p>Real, bool and complex dtypes; sums/products of integers and bool accumulate in int64 (uint64
 * for unsigned), floats and complex in their own dtype.
 */
public final class Scans {
  private Scans() {}

  /** The scans available. */
  public enum Op {
    SUM,
    PROD
  }

  /**
   * What the choice between the chain and the tree depends on.
   *
   * @param workers the executor's workers (threads or processes), at least 1
   * @param chainMaxBlocks the most blocks a chain task may walk along the axis; 0: automatic (see
   *     {@link #chainLimit})
   * @param allowedMem memory a task may use, bytes
   * @param reservedMem the worker's own part of it, bytes
   */
  public record Budget(int workers, long chainMaxBlocks, long allowedMem, long reservedMem) {
    /** Checks the figures. */
    public Budget {
      if (workers < 1 || chainMaxBlocks < 0) {
        throw new IllegalArgumentException(
            "scan budget: workers must be >= 1 and chainMaxBlocks >= 0 (0: automatic), got "
                + workers
                + " and "
                + chainMaxBlocks);
      }
    }
  }

  /**
   * The most threads one chain task reads and writes on ({@link ScanChain#lanes()}): beyond it the
   * walk is bound by the blocks it scans in order, not by reading and writing.
   */
  static final int MAX_LANES = 8;

  /**
   * Inclusive scan of {@code x} along {@code axis}: the chain when a chain task fits the budget's
   * memory ({@link #lanes}) and its row is at most {@link #chainLimit} blocks long; the tree
   * otherwise.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static ArrayNode cumulative(ArrayNode x0, Op op, int axis, Budget budget) {
    ArrayNode x = Regrid.regular(x0);
    String name = op == Op.SUM ? "cumulative_sum" : "cumulative_prod";
    int nd = x.shape().length;
    int a = Shapes.normalizeAxis(name, axis, nd);
    DType out = ReduceKernel.resultType(ReduceKernel.Kind.SUM, x.dtype());
    long nb = x.numBlocks()[a];
    long rows = Math.max(1, Shapes.size(x.numBlocks()) / Math.max(1, nb));
    int lanes = lanes(x, out, a, rows, budget);
    long limit =
        budget.chainMaxBlocks() > 0
            ? budget.chainMaxBlocks()
            : chainLimit(nb, rows, budget.workers(), Math.max(1, lanes));
    if (lanes > 0 && nb <= limit) {
      return chain(name, x, out, op == Op.PROD, a, lanes);
    }
    return scanAlong(name, x, out, op == Op.PROD, a);
  }

  /**
   * The threads a chain task reads and writes on, or 0 where no chain task fits the budget's
   * memory. The executor runs {@code min(rows, workers)} rows at once, so each gets {@code
   * ceil(workers / min(rows, workers))} threads (at most {@link #MAX_LANES}), fewer where that many
   * would not fit: a task with {@code n > 1} lanes holds {@code n + 1} blocks' inputs (the block it
   * scans and {@code n} read ahead) and {@code n + 1} output blocks (the one it scans and {@code n}
   * being written), with one lane two inputs and one output; each counted with one read or write
   * copy, plus two carries.
   */
  static int lanes(ArrayNode x, DType out, int a, long rows, Budget budget) {
    long running = Math.min(rows, budget.workers());
    int lanes = (int) Math.min(MAX_LANES, ceilDiv(budget.workers(), running));
    for (; lanes >= 1; lanes--) {
      if (chainMem(x, out, a, lanes) + budget.reservedMem() <= budget.allowedMem()) {
        return lanes;
      }
    }
    return 0;
  }

  /**
   * The automatic limit on a chain's length in blocks: {@code 4 * lanes * ceil(rows * nb / workers)
   * / ceil(rows / workers)}. A worker walks {@code ceil(rows / workers)} rows of {@code nb} blocks
   * one after another, each on {@code lanes} threads, where a plan of independent blocks would give
   * it {@code ceil(rows * nb / workers)} blocks; the tree reads and writes each block about four
   * times (the input twice, the scanned blocks once each way), so the chain is the faster plan
   * while its walk is at most four times that share. With as many rows as workers the limit is at
   * least {@code 4 nb} (always the chain); with one row walked on every worker's thread it is at
   * least {@code 4 nb} too, and where the lanes stop at {@link #MAX_LANES} (more than 8 workers) it
   * is about {@code 4 * 8 nb / workers}.
   */
  static long chainLimit(long nb, long rows, int workers, int lanes) {
    long share = ceilDiv(rows * Math.max(1, nb), workers);
    return 4L * lanes * share / ceilDiv(rows, workers);
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** A chain task's memory beside reservedMem ({@link #lanes}). */
  private static long chainMem(ArrayNode x, DType out, int a, int lanes) {
    long in = 2 * x.chunkBytes();
    long o = 2 * chunkBytes(x.shape(), x.chunks(), out);
    long blocks = lanes == 1 ? 2 * in + o : (lanes + 1L) * (in + o);
    return blocks + 2 * carryBytes(x, out, a);
  }

  /**
   * The chain op's extra memory: what its task holds beyond what the plan counts for every chain
   * (one block's inputs, one more read ahead, the output block and its write copies; {@link
   * dev.cubed.plan.eval.ChainFunction}): the two carries and, with {@code n > 1} lanes, {@code n -
   * 1} more blocks' inputs and {@code n} output blocks being written.
   */
  private static long chainExtraMem(ArrayNode x, DType out, int a, int lanes) {
    long in = 2 * x.chunkBytes();
    long o = 2 * chunkBytes(x.shape(), x.chunks(), out);
    long more = lanes == 1 ? 0 : (lanes - 1L) * in + lanes * o;
    return more + 2 * carryBytes(x, out, a);
  }

  private static long carryBytes(ArrayNode x, DType out, int a) {
    long[] c = x.chunks();
    c[a] = 1;
    return chunkBytes(x.shape(), c, out);
  }

  private static ArrayNode chain(
      String name, ArrayNode x, DType out, boolean prod, int a, int lanes) {
    return new ArrayNode.Computed(
        new Blockwise(
            name,
            c -> List.of(BlockKeys.one(c)),
            new ScanChain(a, out, prod, lanes),
            new int[] {1},
            new int[] {1},
            chainExtraMem(x, out, a, lanes)),
        List.of(x),
        x.shape(),
        x.chunks(),
        out,
        null);
  }

  private static ArrayNode scanAlong(String name, ArrayNode x, DType out, boolean prod, int a) {
    int nd = x.shape().length;
    ArrayNode scanned = Core.mapBlocks(b -> scan(b[0], a, out, prod), out, x);
    long nb = x.numBlocks()[a];
    if (nb <= 1) {
      return scanned;
    }
    // totals: one entry per block of x along the axis, ct entries per totals chunk
    long[] xc = x.chunks();
    long ct = Math.max(2, xc[a]);
    long[] ts = x.shape();
    long[] tc = xc.clone();
    ts[a] = nb;
    tc[a] = ct;
    KeyFunction tk =
        c -> {
          List<long[]> keys = new ArrayList<>();
          for (long j = c[a] * ct; j < Math.min(nb, (c[a] + 1) * ct); j++) {
            long[] k = c.clone();
            k[a] = j;
            keys.add(k);
          }
          return List.of(BlockKeys.stream(keys));
        };
    ArrayNode totals =
        new ArrayNode.Computed(
            new Blockwise(
                name + "-totals",
                tk,
                (args, c) -> {
                  @SuppressWarnings("unchecked")
                  Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
                  List<NDArray> parts = new ArrayList<>();
                  while (it.hasNext()) {
                    NDArray s = total(it.next(), a, out, prod);
                    parts.add(s);
                  }
                  return concatAlong(parts, a, out);
                },
                new int[] {1},
                new int[] {(int) Math.min(nb, ct)},
                2 * chunkBytes(x.shape(), xc, out)),
            List.of(x),
            ts,
            tc,
            out,
            null);
    ArrayNode scannedTotals = scanAlong(name, totals, out, prod, a);
    KeyFunction fk =
        c -> {
          if (c[a] == 0) {
            return List.of(BlockKeys.one(c), BlockKeys.stream(List.of()));
          }
          long[] k = c.clone();
          k[a] = (c[a] - 1) / ct;
          return List.of(BlockKeys.one(c), BlockKeys.stream(List.of(k)));
        };
    return new ArrayNode.Computed(
        new Blockwise(
            name,
            fk,
            (args, c) -> {
              NDArray s = (NDArray) args.get(0);
              @SuppressWarnings("unchecked")
              Iterator<NDArray> it = (Iterator<NDArray>) args.get(1);
              if (!it.hasNext()) {
                return s;
              }
              NDArray tb = it.next();
              long[] start = new long[nd];
              long[] shape = tb.shape();
              start[a] = (c[a] - 1) % ct;
              shape[a] = 1;
              NDArray off = tb.getRegion(start, shape);
              return combine(s, off.broadcastTo(s.shape()), out, prod);
            },
            new int[] {1, 1},
            new int[] {1, 1},
            chunkBytes(x.shape(), xc, out)),
        List.of(scanned, scannedTotals),
        x.shape(),
        xc,
        out,
        null);
  }

  private static long chunkBytes(long[] shape, long[] chunks, DType t) {
    long n = t.itemSize();
    for (int i = 0; i < shape.length; i++) {
      n *= Math.min(chunks[i], Math.max(1, shape[i]));
    }
    return n;
  }

  /** The total of one block along an axis (extent 1 along it), in dtype out. */
  private static NDArray total(NDArray b, int a, DType out, boolean prod) {
    return ScanKernel.lastSlice(scan(b, a, out, prod), a);
  }

  private static NDArray concatAlong(List<NDArray> parts, int a, DType out) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    long[] shape = parts.get(0).shape();
    shape[a] = parts.size();
    NDArray r = NDArray.empty(out, shape);
    long[] start = new long[shape.length];
    for (int i = 0; i < parts.size(); i++) {
      start[a] = i;
      r.setRegion(start, parts.get(i));
    }
    return r;
  }

  private static NDArray combine(NDArray a, NDArray b, DType out, boolean prod) {
    NDArray r = prod ? Elementwise.multiply(a, b) : Elementwise.add(a, b);
    return r.dtype() == out ? r : r.astype(out);
  }

  /** Inclusive scan of one block along an axis, in dtype out. */
  static NDArray scan(NDArray b, int axis, DType out, boolean prod) {
    return ScanKernel.scan(b, axis, out, prod, null);
  }
}
