package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.StreamFold;
import dev.cubed.plan.eval.TileReduction;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Tree reductions: a first round computes a partial state per block (reduced axes kept with extent
 * 1 and an extra trailing axis for the state's fields); rounds of partial reduce then merge up to
 * {@code splitEvery} blocks per reduced axis per task, streaming them one at a time into an
 * accumulator (extra memory: the accumulator, one output chunk); a last blockwise step turns states
 * into results and drops the reduced axes unless keepdims.
 */
public final class Reductions {
  private Reductions() {}

  /** The reductions available. */
  public enum Op {
    SUM,
    PROD,
    MIN,
    MAX,
    ALL,
    ANY,
    MEAN,
    VAR,
    STD,
    ARGMIN,
    ARGMAX,
    /**
     * The NaN-skipping reductions of real floating inputs (NaN elements left out; see {@link
     * NanKernel} for the states and the all-NaN results).
     */
    NANMEAN,
    NANVAR,
    NANSTD,
    NANMIN,
    NANMAX,
    NANARGMIN,
    NANARGMAX,
    /** The sum of the non-NaN elements (0 for a slice of NaNs only), read in one pass. */
    NANSUM,
    /**
     * The number of non-NaN elements, int64 (every element of an integer or bool array; complex
     * inputs are refused: their NaN test is on either part, see {@code dev.cubed.Xp#nancount}).
     */
    NANCOUNT
  }

  /**
   * The blocks merged per task in each round of a reduction with the default split, {@code base}
   * (for example {@link dev.cubed.Xp#DEFAULT_SPLIT_EVERY}), unless a larger one, at most twice it,
   * spreads the first round's tasks more evenly over {@code workers}: when one reduced axis has
   * more than {@code base} blocks and the first round has fewer than four tasks per worker, the
   * split whose first round (tasks of s blocks and one of the rest, per block of the kept axes,
   * longest first onto the least loaded worker) finishes in the fewest steps; the smallest such.
   * Example: 10 blocks on 2 workers: 4 gives tasks of 4, 4 and 2 blocks, 6 steps on the longer
   * worker; 5 gives 5 and 5, 5 steps. A task streams its blocks one at a time, so a larger split
   * costs no memory.
   *
   * @param numBlocks the input's blocks per axis
   * @param axes the reduced axes
   */
  public static int balancedSplit(long[] numBlocks, int[] axes, int workers, int base) {
    boolean[] red = new boolean[numBlocks.length];
    for (int a : axes) {
      red[a] = true;
    }
    long n = 1;
    int multi = 0;
    long kept = 1;
    for (int d = 0; d < numBlocks.length; d++) {
      if (!red[d]) {
        kept *= numBlocks[d];
      } else if (numBlocks[d] > 1) {
        multi++;
        n = numBlocks[d];
      }
    }
    if (workers <= 1 || multi != 1 || n <= base || kept * ((n + base - 1) / base) >= 4L * workers) {
      return base;
    }
    int best = base;
    long bestSpan = firstRoundSpan(n, base, kept, workers);
    for (int s = base + 1; s <= 2 * base; s++) {
      long span = firstRoundSpan(n, s, kept, workers);
      if (span < bestSpan) {
        best = s;
        bestSpan = span;
      }
    }
    return best;
  }

  /** Steps of the busiest worker in a first round of tasks of s blocks (longest first). */
  private static long firstRoundSpan(long n, int s, long kept, int workers) {
    List<Long> sizes = new ArrayList<>();
    for (long k = 0; k < kept; k++) {
      for (long lo = 0; lo < n; lo += s) {
        sizes.add(Math.min(s, n - lo));
      }
    }
    sizes.sort(Comparator.reverseOrder());
    PriorityQueue<Long> loads = new PriorityQueue<>();
    for (int w = 0; w < workers; w++) {
      loads.add(0L);
    }
    long span = 0;
    for (long z : sizes) {
      long l = loads.poll() + z;
      span = Math.max(span, l);
      loads.add(l);
    }
    return span;
  }

  /**
   * {@code x} itself when its blocks are regular along every axis the reduction keeps (the state
   * arrays are regular: one state per block along a reduced axis, x's chunks along a kept one) and
   * the reduction is not an arg reduction (those need x's regular chunk to place an index):
   * irregular blocks along reduced axes, e.g. of a concat or a strided slice, need no rechunk.
   * Otherwise {@code x} rechunked to its regular grid.
   */
  private static ArrayNode regularWhereKept(ArrayNode x, Op op, int[] axes) {
    if (x.isRegular() || op.name().contains("ARG")) {
      return Regrid.regular(x);
    }
    boolean[] red = new boolean[x.shape().length];
    for (int a : axes) {
      red[a] = true;
    }
    for (int d = 0; d < red.length; d++) {
      long[] sizes = x.chunkGrid().sizes(d);
      for (int b = 0; !red[d] && b < sizes.length; b++) {
        if (b < sizes.length - 1 ? sizes[b] != sizes[0] : sizes[b] > sizes[0]) {
          return Regrid.regular(x);
        }
      }
    }
    return x;
  }

  /**
   * Reduces {@code x} over {@code axes} (already normalized, distinct).
   *
   * @param correction degrees of freedom correction for var/std
   * @throws IllegalArgumentException for arg reductions over more than one axis of an n-d array, or
   *     splitEvery below 2
   */
  public static ArrayNode reduce(
      ArrayNode x0, Op op0, int[] axes, boolean keepDims, int splitEvery, int correction) {
    ArrayNode x = regularWhereKept(x0, op0, axes);
    String name = op0.name().toLowerCase();
    // integer and bool inputs hold no NaN: a NaN-skipping reduction of them is the plain one
    Op op = x.dtype().isFloating() ? op0 : withoutNan(op0);
    if (splitEvery < 2) {
      throw new IllegalArgumentException(name + ": splitEvery must be >= 2, got " + splitEvery);
    }
    // The mean of a real floating array is its sum divided by the number of elements reduced,
    // which the shape gives: its states carry the totals only (half the bytes of (count, total)
    // states; the same additions in the same order, so the same results). Integer inputs keep
    // (count, total) states: their sums would be exact int64 states, not float64 ones.
    boolean meanBySum = op == Op.MEAN && x.dtype().isFloating() && !x.dtype().isComplex();
    ReduceKernel.Kind kind =
        switch (op) {
          case STD -> ReduceKernel.Kind.VAR;
          case NANSTD -> ReduceKernel.Kind.NANVAR;
          case MEAN -> meanBySum ? ReduceKernel.Kind.SUM : ReduceKernel.Kind.MEAN;
          default -> ReduceKernel.Kind.valueOf(op.name());
        };
    int nd = x.shape().length;
    boolean[] red = new boolean[nd];
    for (int a : axes) {
      red[a] = true;
    }
    int argAxis = -1;
    if (kind.isArg()) {
      if (axes.length != 1 && nd != 1) {
        throw new IllegalArgumentException(
            name
                + ": reduces over one axis; flatten with reshape "
                + "to reduce an array of shape "
                + Shapes.format(x.shape())
                + " over all axes");
      }
      argAxis = nd == 0 ? -1 : axes.length == 1 ? axes[0] : 0;
    }
    DType in = x.dtype();
    checkAsKernel(name, op, x.shape(), in, red);
    DType st = ReduceKernel.stateType(kind, in);
    int k = kind.fields();
    // round 0: state per block
    long[] nb = x.numBlocks();
    long[] s0 = new long[nd + 1];
    long[] c0 = new long[nd + 1];
    for (int d = 0; d < nd; d++) {
      s0[d] = red[d] ? nb[d] : x.shape()[d];
      c0[d] = red[d] ? 1 : x.chunks()[d];
    }
    s0[nd] = k;
    c0[nd] = k;
    long[] xc = x.chunks();
    int aa = argAxis;
    KeyFunction k0 = c -> List.of(BlockKeys.one(Arrays.copyOf(c, nd)));
    BlockwiseFunction f0 = new Initial(kind, red, aa, aa < 0 ? 0 : xc[aa]);
    boolean empty = false;
    for (int d = 0; d < nd; d++) {
      if (red[d] && x.shape()[d] == 0) {
        empty = true;
        s0[d] = 1;
      }
    }
    ArrayNode cur;
    if (empty) {
      // a reduction over an empty axis: identity states, generated without reading x
      cur =
          new ArrayNode.Virtual(
              name + "-empty",
              s0,
              c0,
              st,
              (c, bs) -> {
                long[] blk = new long[nd];
                for (int d = 0; d < nd; d++) {
                  blk[d] = red[d] ? 0 : bs[d];
                }
                return ReduceKernel.initial(kind, NDArray.zeros(in, blk), red, 0, 0);
              });
    } else {
      cur =
          new ArrayNode.Computed(
              new Blockwise(name + "-initial", k0, f0, new int[] {1}, new int[] {1}, 0),
              List.of(x),
              s0,
              c0,
              st,
              null);
    }
    cur = combineRounds(cur, kind, red, splitEvery, name);
    // finish
    long[] fs = new long[nd];
    long[] fc = new long[nd];
    for (int d = 0; d < nd; d++) {
      fs[d] = red[d] ? 1 : x.shape()[d];
      fc[d] = red[d] ? 1 : x.chunks()[d];
    }
    long[] outShape = keepDims ? fs : drop(fs, red);
    long[] outChunks = keepDims ? fc : drop(fc, red);
    boolean sqrt = op == Op.STD || op == Op.NANSTD;
    DType rt = ReduceKernel.resultType(kind, in);
    double count = 1;
    for (int d = 0; d < nd; d++) {
      count *= red[d] ? x.shape()[d] : 1;
    }
    double reducedCount = count;
    KeyFunction kfin =
        c -> {
          long[] key = new long[nd + 1];
          int j = 0;
          for (int d = 0; d < nd; d++) {
            key[d] = red[d] ? 0 : c[keepDims ? d : j++];
          }
          return List.of(BlockKeys.one(key));
        };
    BlockwiseFunction ffin =
        (args, c) -> {
          NDArray r =
              meanBySum
                  ? ReduceKernel.finishMean((NDArray) args.get(0), in, reducedCount)
                  : ReduceKernel.finish(kind, (NDArray) args.get(0), in, correction, sqrt);
          long[] want = keepDims ? r.shape() : drop(r.shape(), red);
          return r.reshape(want);
        };
    return new ArrayNode.Computed(
        new Blockwise(name, kfin, ffin, new int[] {1}, new int[] {1}, 0),
        List.of(cur),
        outShape,
        outChunks,
        rt,
        null);
  }

  /**
   * The partial rounds of a tree reduction: merges the states {@code cur} (the reduced axes {@code
   * red} with one state per block, a last axis of the state's fields) {@code splitEvery} blocks per
   * reduced axis per task until every reduced axis has one block. {@code cur} itself when it has.
   */
  static ArrayNode combineRounds(
      ArrayNode cur, ReduceKernel.Kind kind, boolean[] red, int splitEvery, String name) {
    int nd = red.length;
    DType st = cur.dtype();
    while (true) {
      long[] cs = cur.shape();
      boolean more = false;
      for (int d = 0; d < nd; d++) {
        more |= red[d] && cs[d] > 1;
      }
      if (!more) {
        break;
      }
      long[] ns = cs.clone();
      int groupMax = 1;
      for (int d = 0; d < nd; d++) {
        if (red[d]) {
          ns[d] = (cs[d] + splitEvery - 1) / splitEvery;
          groupMax *= (int) Math.min(cs[d], splitEvery);
        }
      }
      long[] inShape = cs;
      KeyFunction kf =
          c -> {
            List<long[]> keys = new ArrayList<>();
            long[] lo = c.clone();
            long[] cnt = new long[nd + 1];
            Arrays.fill(cnt, 1);
            for (int d = 0; d < nd; d++) {
              if (red[d]) {
                lo[d] = c[d] * splitEvery;
                cnt[d] = Math.min(splitEvery, inShape[d] - lo[d]);
              }
            }
            long total = Shapes.size(cnt);
            for (long f = 0; f < total; f++) {
              long[] rel = Shapes.unravel(cnt, f);
              long[] key = lo.clone();
              for (int d = 0; d < nd; d++) {
                key[d] += rel[d];
              }
              keys.add(key);
            }
            return List.of(BlockKeys.stream(keys));
          };
      BlockwiseFunction fr = new Combine(kind);
      long outChunkBytes = cur.chunkBytes();
      cur =
          new ArrayNode.Computed(
              new Blockwise(
                  name + "-partial", kf, fr, new int[] {1}, new int[] {groupMax}, outChunkBytes),
              List.of(cur),
              ns,
              cur.chunks(),
              st,
              null);
    }
    return cur;
  }

  /**
   * The first round's function: the partial states of one block. A {@link TileReduction} (states of
   * tiles merge with {@link ReduceKernel#combine}), so the plan may evaluate a fused pointwise
   * chain feeding it tile by tile.
   */
  private static final class Initial implements TileReduction {
    private static final long serialVersionUID = 1L;
    private final ReduceKernel.Kind kind;
    private final boolean[] red;

    /** The arg axis, or -1; and the input's chunk along it (block offsets for arg indices). */
    private final int argAxis;

    private final long argChunk;

    Initial(ReduceKernel.Kind kind, boolean[] red, int argAxis, long argChunk) {
      this.kind = kind;
      this.red = red.clone();
      this.argAxis = argAxis;
      this.argChunk = argChunk;
    }

    @Override
    public NDArray apply(List<Object> args, long[] c) {
      return tileState((NDArray) args.get(0), new long[red.length], c);
    }

    @Override
    public boolean[] reducedAxes() {
      return red.clone();
    }

    @Override
    public NDArray tileState(NDArray tile, long[] tileStart, long[] c) {
      return tileStateInto(null, tile, tileStart, c);
    }

    @Override
    public void merge(NDArray into, NDArray state) {
      ReduceKernel.combine(kind, into, state);
    }

    @Override
    public NDArray tileStateInto(NDArray buf, NDArray tile, long[] tileStart, long[] c) {
      return ReduceKernel.initial(
          kind,
          tile,
          red,
          argAxis < 0 ? 0 : argAxis,
          argAxis < 0 ? 0 : c[argAxis] * argChunk + tileStart[argAxis],
          buf);
    }

    @Override
    public boolean mergeInPlace(NDArray into, long[] at, NDArray state) {
      return SumRows.combineAt(kind, into, at, state);
    }
  }

  /**
   * A partial round's function: copies the first streamed state and combines the others into it. A
   * {@link StreamFold}, so the plan may interleave the first rounds of several reductions over
   * shared sources in one task (reading each source block once).
   */
  private static final class Combine implements StreamFold {
    private static final long serialVersionUID = 1L;
    private final ReduceKernel.Kind kind;

    Combine(ReduceKernel.Kind kind) {
      this.kind = kind;
    }

    @Override
    public NDArray start(NDArray first) {
      return first.copy();
    }

    @Override
    public void add(NDArray acc, NDArray next) {
      ReduceKernel.combine(kind, acc, next);
    }

    @Override
    public boolean foldsStatesOf(TileReduction r) {
      return r instanceof Initial i && i.kind == kind;
    }
  }

  /** The plain reduction of a NaN-skipping one (NANMEAN -> MEAN), others unchanged. */
  private static Op withoutNan(Op op) {
    return switch (op) {
      case NANMEAN -> Op.MEAN;
      case NANVAR -> Op.VAR;
      case NANSTD -> Op.STD;
      case NANMIN -> Op.MIN;
      case NANMAX -> Op.MAX;
      case NANARGMIN -> Op.ARGMIN;
      case NANARGMAX -> Op.ARGMAX;
      case NANSUM -> Op.SUM;
      default -> op;
    };
  }

  /**
   * Refuses, when the op is built, what the in-memory kernel ({@code
   * dev.cubed.nd.reduce.Statistics}, {@code Searching}) refuses when it runs, with the same kind of
   * message: mean, var and std of bool (defined for numeric dtypes only), argmin/argmax over an
   * empty axis (NumPy's "attempt to get argmax of an empty sequence"), and min/max over an empty
   * axis when the result is not empty (no identity).
   */
  private static void checkAsKernel(String name, Op op, long[] shape, DType in, boolean[] red) {
    if (in.isBool() && (op == Op.MEAN || op == Op.VAR || op == Op.STD)) {
      throw new IllegalArgumentException(
          name
              + ": dtype bool is not supported: "
              + name
              + " is defined for numeric dtypes (integer, real or complex floating); convert with"
              + " astype first");
    }
    long reduced = 1;
    long kept = 1;
    for (int d = 0; d < shape.length; d++) {
      if (red[d]) {
        reduced *= shape[d];
      } else {
        kept *= shape[d];
      }
    }
    if (reduced != 0) {
      return;
    }
    if (op == Op.ARGMIN || op == Op.ARGMAX || op == Op.NANARGMIN || op == Op.NANARGMAX) {
      throw new IllegalArgumentException(
          name
              + ": attempt to get "
              + name
              + " of an empty"
              + " sequence (shape "
              + Shapes.format(shape)
              + "): every reduced run must hold an"
              + " element");
    }
    if ((op == Op.MIN || op == Op.MAX || op == Op.NANMIN || op == Op.NANMAX) && kept > 0) {
      throw new IllegalArgumentException(
          name
              + ": zero-size reduction of shape "
              + Shapes.format(shape)
              + ": "
              + name
              + " has no identity, so every reduced run must"
              + " hold at least one element");
    }
  }

  private static long[] drop(long[] s, boolean[] red) {
    long[] r = new long[s.length - count(red)];
    int j = 0;
    for (int d = 0; d < s.length; d++) {
      if (!red[d]) {
        r[j++] = s[d];
      }
    }
    return r;
  }

  private static int count(boolean[] red) {
    int n = 0;
    for (boolean b : red) {
      n += b ? 1 : 0;
    }
    return n;
  }
}
