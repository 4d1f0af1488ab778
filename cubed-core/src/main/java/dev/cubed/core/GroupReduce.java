package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reductions by group along one axis as a tree reduction whose first round reduces each block per
 * group: one blockwise op turns each block of {@code x} into the states of its groups (the states
 * of {@link ReduceKernel}: a sum, (count, total) for a mean, a value for min/max, in one array with
 * a last axis of the state's fields, so a mean reads each block once), the partial rounds of {@link
 * Reductions#combineRounds} merge the states of the blocks along the axis, and a last blockwise
 * step turns states into results. The ops do not depend on the number of groups.
 */
public final class GroupReduce {
  private GroupReduce() {}

  /** The reductions by group. */
  public enum Func {
    SUM,
    COUNT,
    MEAN,
    MIN,
    MAX,
    VAR,
    STD
  }

  /**
   * Reduces {@code x} along {@code ax} per group of {@code labels} (one per element along the axis,
   * 0 to g - 1, negative for none); the result has x's shape with the axis of length {@code g} in
   * one block. {@code skipNan} (for a floating x) leaves NaN elements out. Result dtypes: sum as
   * {@code sum} (x's floating dtype, int64 or uint64), count int64, mean x's floating dtype or
   * float64, min/max x's dtype, var/std (states (count, mean, M2) merged with Chan's formula,
   * divided by count - {@code correction}, NaN where that is not positive) as mean.
   */
  public static ArrayNode reduce(
      ArrayNode x,
      long[] labels,
      int ax,
      int g,
      Func func,
      boolean skipNan,
      int splitEvery,
      int correction) {
    boolean nan = skipNan && x.dtype().isFloating();
    ReduceKernel.Kind kind =
        switch (func) {
          case SUM, COUNT -> ReduceKernel.Kind.SUM;
          case MEAN -> nan ? ReduceKernel.Kind.NANMEAN : ReduceKernel.Kind.MEAN;
          case MIN -> nan ? ReduceKernel.Kind.NANMIN : ReduceKernel.Kind.MIN;
          case MAX -> nan ? ReduceKernel.Kind.NANMAX : ReduceKernel.Kind.MAX;
          case VAR, STD -> nan ? ReduceKernel.Kind.NANVAR : ReduceKernel.Kind.VAR;
        };
    boolean sqrt = func == Func.STD;
    // what the finish sees as the input dtype: counts are int64 sums
    DType in = func == Func.COUNT ? DType.INT64 : x.dtype();
    DType st = ReduceKernel.stateType(kind, in);
    int k = kind.fields();
    String name = "groupby_" + func.name().toLowerCase(Locale.ROOT);
    ChunkGrid grid = x.chunkGrid();
    int nd = x.shape().length;
    long nb = grid.numBlocks()[ax];
    long[] starts = grid.offsets(ax);
    // states: a leading axis of one entry per block along ax, ax of length g, the fields last
    long[][] sizes = new long[nd + 2][];
    long[] shape = new long[nd + 2];
    sizes[0] = filled(nb, 1);
    shape[0] = nb;
    for (int d = 0; d < nd; d++) {
      sizes[d + 1] = d == ax ? new long[] {g} : grid.sizes(d);
      shape[d + 1] = d == ax ? g : x.shape()[d];
    }
    sizes[nd + 1] = new long[] {k};
    shape[nd + 1] = k;
    ChunkGrid stateGrid = ChunkGrid.of(shape, sizes);
    BlockwiseFunction initial =
        new Initial(kind, func == Func.COUNT, nan, x.dtype(), st, labels, starts, ax, g);
    ArrayNode states =
        new ArrayNode.Computed(
            new Blockwise(
                name,
                c -> {
                  long[] key = new long[nd];
                  for (int d = 0; d < nd; d++) {
                    key[d] = d == ax ? c[0] : c[d + 1];
                  }
                  return List.of(BlockKeys.one(key));
                },
                initial,
                new int[] {1},
                new int[] {1},
                8L * labels.length),
            List.of(x),
            stateGrid,
            st,
            null);
    boolean[] red = new boolean[nd + 1];
    red[0] = true;
    ArrayNode merged = Reductions.combineRounds(states, kind, red, splitEvery, name);
    long[] outShape = x.shape().clone();
    outShape[ax] = g;
    long[][] outSizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      outSizes[d] = d == ax ? new long[] {g} : grid.sizes(d);
    }
    return new ArrayNode.Computed(
        new Blockwise(
            name + "-finish",
            c -> {
              long[] key = new long[nd + 2];
              System.arraycopy(c, 0, key, 1, nd);
              return List.of(BlockKeys.one(key));
            },
            (args, c) -> {
              NDArray r = ReduceKernel.finish(kind, (NDArray) args.get(0), in, correction, sqrt);
              return r.reshape(Arrays.copyOfRange(r.shape(), 1, r.shape().length));
            },
            new int[] {1},
            new int[] {1},
            0),
        List.of(merged),
        ChunkGrid.of(outShape, outSizes),
        ReduceKernel.resultType(kind, in),
        null);
  }

  private static long[] filled(long n, long v) {
    long[] a = new long[(int) n];
    Arrays.fill(a, v);
    return a;
  }

  /**
   * One block's states per group (see {@link #reduce}); the key's first entry is the block's index
   * along the axis. With {@code base}/{@code local} (per block along the axis, for {@link
   * SortedGroupReduce}) a block's states hold only its {@code local[b]} groups from {@code base[b]}
   * on, and a label outside them is skipped.
   */
  static final class Initial implements BlockwiseFunction {
    private static final long serialVersionUID = 1L;
    private final ReduceKernel.Kind kind;
    private final boolean count;
    private final boolean skipNan;
    private final DType in;
    private final DType st;
    private final long[] labels;
    private final long[] starts;
    private final int ax;
    private final int g;
    private final long[] base;
    private final int[] local;

    Initial(
        ReduceKernel.Kind kind,
        boolean count,
        boolean skipNan,
        DType in,
        DType st,
        long[] labels,
        long[] starts,
        int ax,
        int g) {
      this(kind, count, skipNan, in, st, labels, starts, ax, g, null, null);
    }

    Initial(
        ReduceKernel.Kind kind,
        boolean count,
        boolean skipNan,
        DType in,
        DType st,
        long[] labels,
        long[] starts,
        int ax,
        int g,
        long[] base,
        int[] local) {
      this.base = base;
      this.local = local;
      this.kind = kind;
      this.count = count;
      this.skipNan = skipNan;
      this.in = in;
      this.st = st;
      this.labels = labels;
      this.starts = starts;
      this.ax = ax;
      this.g = g;
    }

    @Override
    public NDArray apply(List<Object> args, long[] c) {
      NDArray b = (NDArray) args.get(0);
      long[] s = b.shape();
      long outer = 1;
      long inner = 1;
      for (int d = 0; d < ax; d++) {
        outer *= s[d];
      }
      for (int d = ax + 1; d < s.length; d++) {
        inner *= s[d];
      }
      int n = (int) s[ax];
      int in0 = (int) inner;
      int k = kind.fields();
      int bi = (int) c[0];
      int gl = local == null ? g : local[bi];
      long lo = base == null ? 0 : base[bi];
      long[] os = new long[s.length + 2];
      os[0] = 1;
      for (int d = 0; d < s.length; d++) {
        os[d + 1] = d == ax ? gl : s[d];
      }
      os[s.length + 1] = k;
      NDArray state = NDArray.zeros(st, os);
      long start = starts[bi];
      if (st == DType.FLOAT64) {
        floating(b, (double[]) state.data(), outer, n, in0, start, gl, lo);
      } else {
        integral(b, (long[]) state.data(), outer, n, in0, start, gl, lo);
      }
      return state;
    }

    private void floating(
        NDArray b, double[] acc, long outer, int n, int in0, long start, int g, long lo) {
      switch (kind) {
        case MIN -> Arrays.fill(acc, Double.POSITIVE_INFINITY);
        case MAX -> Arrays.fill(acc, Double.NEGATIVE_INFINITY);
        case NANMIN, NANMAX -> Arrays.fill(acc, Double.NaN);
        default -> {}
      }
      Object data = b.data();
      double[] dd = data instanceof double[] a ? a : null;
      float[] ff = data instanceof float[] a ? a : null;
      boolean fl = in.isFloating();
      for (long o = 0; o < outer; o++) {
        for (int t = 0; t < n; t++) {
          long lab = labels[(int) (start + t)] - lo;
          if (lab < 0 || lab >= g || labels[(int) (start + t)] < 0) {
            continue;
          }
          int src = (int) ((o * n + t) * in0);
          int dst = (int) ((o * g + lab) * in0);
          switch (kind) {
            case SUM -> {
              for (int j = 0; j < in0; j++) {
                double v = value(b, dd, ff, fl, src + j);
                if (!skipNan || v == v) {
                  acc[dst + j] += v;
                }
              }
            }
            case MEAN -> {
              for (int j = 0; j < in0; j++) {
                acc[2 * (dst + j)] += 1;
                acc[2 * (dst + j) + 1] += value(b, dd, ff, fl, src + j);
              }
            }
            case NANMEAN -> {
              for (int j = 0; j < in0; j++) {
                double v = value(b, dd, ff, fl, src + j);
                if (v == v) {
                  acc[2 * (dst + j)] += 1;
                  acc[2 * (dst + j) + 1] += v;
                }
              }
            }
            case VAR, NANVAR -> {
              boolean skip = kind == ReduceKernel.Kind.NANVAR;
              for (int j = 0; j < in0; j++) {
                double v = value(b, dd, ff, fl, src + j);
                if (skip && v != v) {
                  continue;
                }
                int at = 3 * (dst + j);
                double cnt = acc[at] + 1;
                double delta = v - acc[at + 1];
                double mean = acc[at + 1] + delta / cnt;
                acc[at] = cnt;
                acc[at + 1] = mean;
                acc[at + 2] += delta * (v - mean);
              }
            }
            case MIN, MAX -> {
              boolean max = kind == ReduceKernel.Kind.MAX;
              for (int j = 0; j < in0; j++) {
                double v = value(b, dd, ff, fl, src + j);
                double a = acc[dst + j];
                // NaN wins, as the plain min/max
                if (a == a && (v != v || (max ? v > a : v < a))) {
                  acc[dst + j] = v;
                }
              }
            }
            case NANMIN, NANMAX -> {
              boolean max = kind == ReduceKernel.Kind.NANMAX;
              for (int j = 0; j < in0; j++) {
                double v = value(b, dd, ff, fl, src + j);
                double a = acc[dst + j];
                if (v == v && (a != a || (max ? v > a : v < a))) {
                  acc[dst + j] = v;
                }
              }
            }
            default -> throw new IllegalStateException("groupby: state " + kind);
          }
        }
      }
    }

    private static double value(NDArray b, double[] dd, float[] ff, boolean fl, int i) {
      if (dd != null) {
        return dd[i];
      }
      if (ff != null) {
        return ff[i];
      }
      return fl ? b.getDouble(i) : b.getLong(i);
    }

    private void integral(
        NDArray b, long[] acc, long outer, int n, int in0, long start, int g, long lo) {
      boolean unsigned = st == DType.UINT64;
      if (kind == ReduceKernel.Kind.MIN) {
        Arrays.fill(acc, maxOf(in));
      } else if (kind == ReduceKernel.Kind.MAX) {
        Arrays.fill(acc, minOf(in));
      }
      Object data = b.data();
      double[] dd = data instanceof double[] a ? a : null;
      float[] ff = data instanceof float[] a ? a : null;
      for (long o = 0; o < outer; o++) {
        for (int t = 0; t < n; t++) {
          long lab = labels[(int) (start + t)] - lo;
          if (lab < 0 || lab >= g || labels[(int) (start + t)] < 0) {
            continue;
          }
          int src = (int) ((o * n + t) * in0);
          int dst = (int) ((o * g + lab) * in0);
          if (count) {
            // the non-NaN elements of a floating x, every element of another
            for (int j = 0; j < in0; j++) {
              if (dd != null
                  ? dd[src + j] == dd[src + j]
                  : ff == null || ff[src + j] == ff[src + j]) {
                acc[dst + j]++;
              }
            }
            continue;
          }
          for (int j = 0; j < in0; j++) {
            long v = in.isBool() ? (b.getBoolean(src + j) ? 1 : 0) : b.getLong(src + j);
            long a = acc[dst + j];
            switch (kind) {
              case SUM -> acc[dst + j] = a + v;
              case MIN -> {
                if (unsigned ? Long.compareUnsigned(v, a) < 0 : v < a) {
                  acc[dst + j] = v;
                }
              }
              case MAX -> {
                if (unsigned ? Long.compareUnsigned(v, a) > 0 : v > a) {
                  acc[dst + j] = v;
                }
              }
              default -> throw new IllegalStateException("groupby: state " + kind);
            }
          }
        }
      }
    }

    /** The largest value of an integer or bool dtype (as the unsigned bits for uint64). */
    private static long maxOf(DType t) {
      if (t.isBool()) {
        return 1;
      }
      int bits = 8 * t.itemSize();
      if (t.isUnsigned()) {
        return bits == 64 ? -1L : (1L << bits) - 1;
      }
      return bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
    }

    private static long minOf(DType t) {
      if (t.isBool() || t.isUnsigned()) {
        return 0;
      }
      int bits = 8 * t.itemSize();
      return bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
    }
  }
}
