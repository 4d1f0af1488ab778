package dev.cubed;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reductions by group along one axis in bounded memory (the design of Python Cubed's {@code
 * groupby_reduction}): each block of {@code x} is reduced per group label into a partial block
 * whose reduced axis has {@code numGroups} entries (one blockwise op, one task per block), the
 * partials of the blocks along the axis are merged by the plain tree reduction ({@link Xp#sum},
 * {@link Xp#min}, ...), and a pointwise step finishes (mean = sum / count). The plan has the same
 * ops whatever the number of groups; a task holds one block of {@code x}, its partial ({@code
 * numGroups} along the axis, the other axes as x's block) and the labels, and the plan's memory
 * check refuses a partial that does not fit allowed_mem.
 */
public final class XpGroupby {
  private XpGroupby() {}

  /** What each group's values are reduced to. */
  private enum Kind {
    SUM,
    COUNT,
    MIN,
    MAX
  }

  /**
   * Reduces {@code x} along {@code axis} per group: element {@code i} along the axis belongs to
   * group {@code codes[i]} (0 to numGroups - 1; a negative code belongs to no group, as xarray's
   * codes for missing labels). The result has x's shape with the axis of length {@code numGroups}
   * (in one block), other axes chunked as x.
   *
   * <p>{@code func}: {@code "sum"} (dtype of {@link Xp#sum}), {@code "count"} (int64: elements that
   * are not NaN), {@code "mean"} (float64, or x's floating dtype), {@code "min"}, {@code "max"}
   * (x's dtype). With {@code skipna} NaN elements are left out (NumPy's nansum, nanmean, nanmin,
   * nanmax: a group of only NaN gives 0 for sum, NaN for the others); without it a NaN makes its
   * group's result NaN. A group no element belongs to gives 0 (sum, count), NaN (mean; min/max of a
   * floating x with skipna), +-infinity (min/max of a floating x without skipna) or the dtype's
   * extreme value (min/max of integers).
   *
   * @throws IllegalArgumentException for an unknown func, an axis out of range, codes of another
   *     length than the axis or not integers, a code of numGroups or more, numGroups below 1, or
   *     complex x
   */
  public static CubedArray groupbyReduce(
      CubedArray x, NDArray codes, int axis, int numGroups, String func, boolean skipna) {
    int nd = x.shape().length;
    int ax = axis < 0 ? axis + nd : axis;
    if (ax < 0 || ax >= nd) {
      throw new IllegalArgumentException(
          "groupbyReduce: axis " + axis + " is out of range for " + nd + "-d x");
    }
    long[] labels = labels(codes, x.shape()[ax], numGroups);
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException("groupbyReduce: complex x is not supported");
    }
    boolean nan = skipna && x.dtype().isFloating();
    Axes blocks = Axes.of(0);
    switch (func.toLowerCase(Locale.ROOT)) {
      case "sum" -> {
        CubedArray s =
            Xp.sum(partial(x, labels, ax, numGroups, Kind.SUM, nan), blocks, XpReduce.AUTO_SPLIT);
        return x.dtype().isFloating() ? Xp.astype(s, x.dtype()) : s;
      }
      case "count" -> {
        return Xp.sum(
            partial(x, labels, ax, numGroups, Kind.COUNT, true), blocks, XpReduce.AUTO_SPLIT);
      }
      case "mean" -> {
        CubedArray s =
            Xp.sum(partial(x, labels, ax, numGroups, Kind.SUM, nan), blocks, XpReduce.AUTO_SPLIT);
        CubedArray n =
            Xp.sum(partial(x, labels, ax, numGroups, Kind.COUNT, nan), blocks, XpReduce.AUTO_SPLIT);
        CubedArray m = Xp.divide(Xp.astype(s, DType.FLOAT64), Xp.astype(n, DType.FLOAT64));
        return x.dtype().isFloating() ? Xp.astype(m, x.dtype()) : m;
      }
      case "min" -> {
        CubedArray p = partial(x, labels, ax, numGroups, Kind.MIN, nan);
        return nan
            ? Xp.nanmin(p, blocks, XpReduce.AUTO_SPLIT)
            : Xp.min(p, blocks, XpReduce.AUTO_SPLIT);
      }
      case "max" -> {
        CubedArray p = partial(x, labels, ax, numGroups, Kind.MAX, nan);
        return nan
            ? Xp.nanmax(p, blocks, XpReduce.AUTO_SPLIT)
            : Xp.max(p, blocks, XpReduce.AUTO_SPLIT);
      }
      default ->
          throw new IllegalArgumentException(
              "groupbyReduce: func '"
                  + func
                  + "' is not one of sum, count, mean, min, max (other reductions: reduce each"
                  + " group with the array functions)");
    }
  }

  private static long[] labels(NDArray codes, long n, int numGroups) {
    if (numGroups < 1) {
      throw new IllegalArgumentException("groupbyReduce: numGroups must be 1 or more");
    }
    if (codes == null || codes.ndim() != 1 || codes.shape(0) != n) {
      throw new IllegalArgumentException(
          "groupbyReduce: codes must be a 1-d integer array of the axis' length "
              + n
              + ", got "
              + (codes == null ? "null" : Arrays.toString(codes.shape())));
    }
    if (!codes.dtype().isInteger()) {
      throw new IllegalArgumentException(
          "groupbyReduce: codes must be integers, got " + codes.dtype());
    }
    long[] l = new long[(int) n];
    for (int i = 0; i < l.length; i++) {
      l[i] = codes.getLong(i);
      if (l[i] >= numGroups) {
        throw new IllegalArgumentException(
            "groupbyReduce: code " + l[i] + " at " + i + " is not below numGroups " + numGroups);
      }
    }
    return l;
  }

  /**
   * The per-block partials: a new leading axis with one entry per block of x along {@code ax}, and
   * {@code ax} (now at ax + 1) of length g in one block.
   */
  private static CubedArray partial(
      CubedArray x, long[] labels, int ax, int g, Kind kind, boolean skipNan) {
    ChunkGrid grid = x.node().chunkGrid();
    int nd = x.shape().length;
    long nb = grid.numBlocks()[ax];
    long[] starts = grid.offsets(ax);
    boolean floating = x.dtype().isFloating();
    DType out =
        switch (kind) {
          case SUM -> floating ? DType.FLOAT64 : DType.INT64;
          case COUNT -> DType.INT64;
          case MIN, MAX -> x.dtype();
        };
    long[][] sizes = new long[nd + 1][];
    sizes[0] = filled(nb, 1);
    for (int d = 0; d < nd; d++) {
      sizes[d + 1] = d == ax ? new long[] {g} : grid.sizes(d);
    }
    long[] shape = new long[nd + 1];
    shape[0] = nb;
    for (int d = 0; d < nd; d++) {
      shape[d + 1] = d == ax ? g : x.shape()[d];
    }
    ChunkGrid outGrid = ChunkGrid.of(shape, sizes);
    // the accumulator (double or long per output element) and the labels the closure carries
    long outElems = 1;
    for (int d = 0; d < nd; d++) {
      outElems *= d == ax ? g : grid.maxChunks()[d];
    }
    long extra = 8L * outElems + 8L * labels.length;
    DType in = x.dtype();
    Blockwise op =
        new Blockwise(
            "groupby_" + kind.name().toLowerCase(Locale.ROOT),
            c -> {
              long[] k = new long[nd];
              for (int d = 0; d < nd; d++) {
                k[d] = d == ax ? c[0] : c[d + 1];
              }
              return List.of(BlockKeys.one(k));
            },
            (args, c) ->
                GroupKernel.reduce(
                    (NDArray) args.get(0),
                    in,
                    labels,
                    starts[(int) c[0]],
                    ax,
                    g,
                    kind.ordinal(),
                    skipNan,
                    out),
            new int[] {1},
            new int[] {1},
            extra);
    ArrayNode n = new ArrayNode.Computed(op, List.of(x.node()), outGrid, out, null);
    return XpBlocks.wrap(n, x);
  }

  private static long[] filled(long n, long v) {
    long[] a = new long[(int) n];
    Arrays.fill(a, v);
    return a;
  }

  /** The per-block kernel (kind is the ordinal of {@link Kind}). */
  static final class GroupKernel {
    private GroupKernel() {}

    static NDArray reduce(
        NDArray b,
        DType in,
        long[] labels,
        long start,
        int ax,
        int g,
        int kind,
        boolean skipNan,
        DType out) {
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
      long[] os = new long[s.length + 1];
      os[0] = 1;
      for (int d = 0; d < s.length; d++) {
        os[d + 1] = d == ax ? g : s[d];
      }
      int size = (int) (outer * g * inner);
      boolean floating = in.isFloating();
      if (floating) {
        double[] acc = new double[size];
        double init =
            kind == 2
                ? (skipNan ? Double.NaN : Double.POSITIVE_INFINITY)
                : kind == 3 ? (skipNan ? Double.NaN : Double.NEGATIVE_INFINITY) : 0;
        Arrays.fill(acc, init);
        Object data = b.data();
        double[] dd = data instanceof double[] a ? a : null;
        float[] ff = data instanceof float[] a ? a : null;
        for (long o = 0; o < outer; o++) {
          for (int t = 0; t < n; t++) {
            long lab = labels[(int) (start + t)];
            if (lab < 0) {
              continue;
            }
            int src = (int) ((o * n + t) * inner);
            int dst = (int) ((o * g + lab) * inner);
            for (int j = 0; j < in0; j++) {
              double v = dd != null ? dd[src + j] : ff != null ? ff[src + j] : b.getDouble(src + j);
              boolean isNan = v != v;
              switch (kind) {
                case 0 -> {
                  if (!(isNan && skipNan)) {
                    acc[dst + j] += v;
                  }
                }
                case 1 -> {
                  if (!(isNan && skipNan)) {
                    acc[dst + j] += 1;
                  }
                }
                case 2 -> {
                  double a = acc[dst + j];
                  if (isNan) {
                    if (!skipNan) {
                      acc[dst + j] = v;
                    }
                  } else if (a != a ? skipNan : v < a) {
                    acc[dst + j] = v;
                  }
                }
                default -> {
                  double a = acc[dst + j];
                  if (isNan) {
                    if (!skipNan) {
                      acc[dst + j] = v;
                    }
                  } else if (a != a ? skipNan : v > a) {
                    acc[dst + j] = v;
                  }
                }
              }
            }
          }
        }
        NDArray r = NDArray.empty(out, os);
        if (out == DType.FLOAT64) {
          System.arraycopy(acc, 0, r.data(), 0, size);
        } else {
          for (int i = 0; i < size; i++) {
            if (out == DType.INT64) {
              r.setLong(i, (long) acc[i]);
            } else {
              r.setDouble(i, acc[i]);
            }
          }
        }
        return r;
      }
      long[] acc = new long[size];
      long init = kind == 2 ? maxOf(in) : kind == 3 ? minOf(in) : 0;
      Arrays.fill(acc, init);
      for (long o = 0; o < outer; o++) {
        for (int t = 0; t < n; t++) {
          long lab = labels[(int) (start + t)];
          if (lab < 0) {
            continue;
          }
          int src = (int) ((o * n + t) * inner);
          int dst = (int) ((o * g + lab) * inner);
          for (int j = 0; j < in0; j++) {
            switch (kind) {
              case 0 -> acc[dst + j] += b.getLong(src + j);
              case 1 -> acc[dst + j] += 1;
              case 2 -> acc[dst + j] = Math.min(acc[dst + j], b.getLong(src + j));
              default -> acc[dst + j] = Math.max(acc[dst + j], b.getLong(src + j));
            }
          }
        }
      }
      NDArray r = NDArray.empty(out, os);
      for (int i = 0; i < size; i++) {
        if (out.isBool()) {
          r.setBoolean(i, acc[i] != 0);
        } else {
          r.setLong(i, acc[i]);
        }
      }
      return r;
    }

    private static long maxOf(DType t) {
      if (t.isBool()) {
        return 1;
      }
      int bits = 8 * t.itemSize();
      boolean unsigned = t.name().startsWith("UINT");
      return bits == 64 || (unsigned && bits == 64)
          ? Long.MAX_VALUE
          : unsigned ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    }

    private static long minOf(DType t) {
      if (t.isBool() || t.name().startsWith("UINT")) {
        return 0;
      }
      int bits = 8 * t.itemSize();
      return bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
    }
  }
}
