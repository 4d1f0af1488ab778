package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reductions by group along one axis when the labels are sorted (a resample, a sorted coordinate:
 * flox's "blockwise" method): each block of {@code x} touches a contiguous range of groups, so one
 * blockwise op turns each block into the states of only those groups, and a second op gives each
 * output block the groups that begin in one input block, merging the states of a group that
 * straddles block edges from the next blocks' states and finishing them (mean = total / count). Two
 * ops whatever the number of groups or blocks, with states no larger than the groups a block
 * touches; the result along the axis is chunked by the blocks the groups begin in.
 */
public final class SortedGroupReduce {
  private SortedGroupReduce() {}

  /** Whether the non-negative labels never decrease (negative labels belong to no group). */
  public static boolean sorted(long[] labels) {
    long last = Long.MIN_VALUE;
    for (long l : labels) {
      if (l >= 0) {
        if (l < last) {
          return false;
        }
        last = l;
      }
    }
    return true;
  }

  /**
   * As {@link GroupReduce#reduce} (same arguments, dtypes and results) for sorted {@code labels}
   * ({@link #sorted}); the result's axis of length {@code g} is chunked by the input blocks the
   * groups begin in (a group no element belongs to goes with the next group that has one).
   *
   * @throws IllegalArgumentException when the labels are not sorted
   */
  public static ArrayNode reduce(
      ArrayNode x, long[] labels, int ax, int g, GroupReduce.Func func, boolean skipNan, int ddof) {
    if (!sorted(labels)) {
      throw new IllegalArgumentException(
          "sorted groupby: the labels are not sorted (use the map-reduce groupby)");
    }
    boolean nan = skipNan && x.dtype().isFloating();
    ReduceKernel.Kind kind =
        switch (func) {
          case SUM, COUNT -> ReduceKernel.Kind.SUM;
          case MEAN -> nan ? ReduceKernel.Kind.NANMEAN : ReduceKernel.Kind.MEAN;
          case MIN -> nan ? ReduceKernel.Kind.NANMIN : ReduceKernel.Kind.MIN;
          case MAX -> nan ? ReduceKernel.Kind.NANMAX : ReduceKernel.Kind.MAX;
          case VAR, STD -> nan ? ReduceKernel.Kind.NANVAR : ReduceKernel.Kind.VAR;
        };
    boolean sqrt = func == GroupReduce.Func.STD;
    DType in = func == GroupReduce.Func.COUNT ? DType.INT64 : x.dtype();
    DType st = ReduceKernel.stateType(kind, in);
    int k = kind.fields();
    String name = "groupby_sorted_" + func.name().toLowerCase(Locale.ROOT);
    ChunkGrid grid = x.chunkGrid();
    int nd = x.shape().length;
    int nb = (int) grid.numBlocks()[ax];
    long[] starts = grid.offsets(ax);
    long[] lens = grid.sizes(ax);
    // the groups each block touches: [lo, lo + local) (one neutral group for a block of none)
    long[] lo = new long[nb];
    int[] local = new int[nb];
    long prev = 0;
    for (int b = 0; b < nb; b++) {
      long first = -1;
      long last = -1;
      for (long i = starts[b]; i < starts[b] + lens[b]; i++) {
        long l = labels[(int) i];
        if (l >= 0) {
          first = first < 0 ? l : first;
          last = l;
        }
      }
      if (first < 0) {
        first = Math.min(prev, g - 1);
        last = first;
      }
      lo[b] = first;
      local[b] = (int) (last - first + 1);
      prev = last;
    }
    // owner of group q: the block of the first element labelled q or more (else the last block)
    long[] hiLabel = new long[nb];
    for (int i = 0; i < nb; i++) {
      hiLabel[i] = lastLabel(labels, starts[i], lens[i]);
    }
    int[] owner = new int[g];
    int b = 0;
    for (int q = 0; q < g; q++) {
      while (b < nb - 1 && hiLabel[b] < q) {
        b++;
      }
      owner[q] = b;
    }
    List<long[]> outBlocks = new ArrayList<>(); // {first group, groups, first block, last block}
    for (int q = 0; q < g; ) {
      int o = owner[q];
      int e = q;
      while (e < g && owner[e] == o) {
        e++;
      }
      int lastBlock = o;
      while (lastBlock + 1 < nb && lo[lastBlock + 1] < e && local[lastBlock + 1] > 0) {
        lastBlock++;
      }
      outBlocks.add(new long[] {q, e - q, o, lastBlock});
      q = e;
    }
    long[][] stateSizes = new long[nd + 1][];
    long[] stateShape = new long[nd + 1];
    for (int d = 0; d < nd; d++) {
      if (d == ax) {
        stateSizes[d] = Arrays.stream(local).asLongStream().toArray();
        stateShape[d] = Arrays.stream(local).asLongStream().sum();
      } else {
        stateSizes[d] = grid.sizes(d);
        stateShape[d] = x.shape()[d];
      }
    }
    stateSizes[nd] = new long[] {k};
    stateShape[nd] = k;
    GroupReduce.Initial initial =
        new GroupReduce.Initial(
            kind,
            func == GroupReduce.Func.COUNT,
            nan,
            x.dtype(),
            st,
            labels,
            starts,
            ax,
            g,
            lo,
            local);
    BlockwiseFunction statesFn =
        (args, c) -> {
          NDArray s = initial.apply(args, new long[] {c[ax]});
          return s.reshape(Arrays.copyOfRange(s.shape(), 1, s.shape().length));
        };
    ArrayNode states =
        new ArrayNode.Computed(
            new Blockwise(
                name,
                c -> List.of(BlockKeys.one(Arrays.copyOf(c, nd))),
                statesFn,
                new int[] {1},
                new int[] {1},
                8L * labels.length),
            List.of(x),
            ChunkGrid.of(stateShape, stateSizes),
            st,
            null);
    int most = 1;
    for (long[] ob : outBlocks) {
      most = (int) Math.max(most, ob[3] - ob[2] + 1);
    }
    long[] outShape = x.shape().clone();
    outShape[ax] = g;
    long[][] outSizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      outSizes[d] = d == ax ? outBlocks.stream().mapToLong(ob -> ob[1]).toArray() : grid.sizes(d);
    }
    long[][] obs = outBlocks.toArray(new long[0][]);
    BlockwiseFunction finish =
        new Finish(kind, in, ddof, sqrt, st, k, ax, obs, lo, local, initial, starts);
    return new ArrayNode.Computed(
        new Blockwise(
            name + "-finish",
            c -> {
              long[] ob = obs[(int) c[ax]];
              List<long[]> keys = new ArrayList<>((int) (ob[3] - ob[2] + 1));
              for (long s = ob[2]; s <= ob[3]; s++) {
                long[] key = Arrays.copyOf(c, nd + 1);
                key[ax] = s;
                keys.add(key);
              }
              return List.of(BlockKeys.many(keys));
            },
            finish,
            new int[] {most},
            new int[] {most},
            0),
        List.of(states),
        ChunkGrid.of(outShape, outSizes),
        ReduceKernel.resultType(kind, in),
        null);
  }

  private static long lastLabel(long[] labels, long start, long len) {
    long last = -1;
    for (long i = start; i < start + len; i++) {
      last = Math.max(last, labels[(int) i]);
    }
    return last;
  }

  /** Merges the states of an output block's groups from the state blocks and finishes them. */
  private record Finish(
      ReduceKernel.Kind kind,
      DType in,
      int ddof,
      boolean sqrt,
      DType st,
      int k,
      int ax,
      long[][] obs,
      long[] lo,
      int[] local,
      GroupReduce.Initial initial,
      long[] starts)
      implements BlockwiseFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public NDArray apply(List<Object> args, long[] c) {
      @SuppressWarnings("unchecked")
      List<NDArray> blocks = (List<NDArray>) args.get(0);
      long[] ob = obs[(int) c[ax]];
      long q0 = ob[0];
      long gs = ob[1];
      NDArray acc = null;
      for (int i = 0; i < blocks.size(); i++) {
        int s = (int) (ob[2] + i);
        NDArray blk = blocks.get(i);
        long a = Math.max(q0, lo[s]);
        long e = Math.min(q0 + gs, lo[s] + local[s]);
        if (acc != null && e <= a) {
          continue;
        }
        if (a == q0 && e == q0 + gs && blk.shape(ax) == gs) {
          acc = acc == null ? copy(blk) : ReduceKernel.combine(kind, acc, blk);
          continue;
        }
        NDArray part = neutral(blk.shape(), gs);
        if (e > a) {
          long[] box = blk.shape().clone();
          box[ax] = e - a;
          long[] src = new long[box.length];
          long[] dst = new long[box.length];
          src[ax] = a - lo[s];
          dst[ax] = a - q0;
          NDArray.copyBox(blk.data(), blk.shape(), src, part.data(), part.shape(), dst, box, 1);
        }
        acc = acc == null ? part : ReduceKernel.combine(kind, acc, part);
      }
      return ReduceKernel.finish(kind, acc, in, ddof, sqrt);
    }

    private static NDArray copy(NDArray a) {
      NDArray r = NDArray.zeros(a.dtype(), a.shape());
      NDArray.copyBox(
          a.data(),
          a.shape(),
          new long[a.ndim()],
          r.data(),
          r.shape(),
          new long[a.ndim()],
          a.shape(),
          1);
      return r;
    }

    /** The states of {@code gs} groups no element belongs to (a state block's other axes). */
    private NDArray neutral(long[] like, long gs) {
      // the initial states of an empty block: zeros, or the fill of min/max
      long[] blockShape = Arrays.copyOf(like, like.length - 1);
      blockShape[ax] = 0;
      GroupReduce.Initial empty =
          new GroupReduce.Initial(
              kind, false, false, in, st, new long[0], new long[] {0}, ax, (int) gs, null, null);
      NDArray s = empty.apply(List.of(NDArray.zeros(in, blockShape)), new long[] {0});
      return s.reshape(Arrays.copyOfRange(s.shape(), 1, s.shape().length));
    }
  }
}
