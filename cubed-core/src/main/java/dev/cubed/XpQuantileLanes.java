package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.sort.Sorting;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import java.util.Arrays;
import java.util.List;

/**
 * {@code quantile}/{@code nanquantile} of float64 lanes that fit a task, as one op (final and
 * package-private, used by {@link XpQuantile}): the lanes (the last axis, whole in each block) are
 * sorted in the task and every quantile is read from each sorted lane there, so the plan has the
 * one op (plus the rechunk to whole lanes) instead of a sort op and a chain of small per-quantile
 * ops. The values are NumPy's method "linear": {@code k = (n - 1) q}, the neighbours at {@code
 * floor(k)} and {@code min(floor(k) + 1, n - 1)}, {@code a + (b - a) t} below {@code t = 0.5} and
 * {@code b - (b - a)(1 - t)} from it on, where {@code n} is the lane's length (quantile: NaN if the
 * lane holds a NaN) or its count of non-NaN values (nanquantile: NaN if it has none). A task holds
 * its block, the sorted copy, the sort's lane scratch and the small output.
 */
final class XpQuantileLanes {
  private XpQuantileLanes() {}

  /**
   * The quantiles {@code q} of the lanes of float64 {@code y} (shape {@code (rest..., m)}), shape
   * {@code (q.length, rest...)}; null when a lane does not fit a task or y is not float64 (then
   * {@link XpQuantile} takes its general path).
   */
  static CubedArray of(CubedArray y, double[] q, boolean skipNan) {
    int last = y.ndim() - 1;
    if (y.dtype() != DType.FLOAT64 || last < 0 || !XpSort.lanesFitOneTask(y, last, y.dtype())) {
      return null;
    }
    long m = y.shape()[last];
    long[] chunks = XpSort.laneChunks(y, last, y.dtype());
    ArrayNode whole = Core.rechunk(y.node(), chunks);
    long[] outShape = new long[y.ndim()];
    long[] outChunks = new long[y.ndim()];
    outShape[0] = q.length;
    outChunks[0] = q.length;
    for (int d = 0; d < last; d++) {
      outShape[d + 1] = y.shape()[d];
      outChunks[d + 1] = chunks[d];
    }
    double[] qs = q.clone();
    // the block, its sorted copy and the sort's lane scratch (as XpSort's one-block sort)
    long extra = 40 * m + whole.chunkBytes();
    Blockwise op =
        new Blockwise(
            skipNan ? "nanquantile" : "quantile",
            c -> List.of(BlockKeys.one(inputKey(c))),
            (args, c) -> lanes((NDArray) args.get(0), qs, skipNan),
            new int[] {1},
            new int[] {1},
            extra);
    ArrayNode out =
        new ArrayNode.Computed(
            op, List.of(whole), ChunkGrid.regular(outShape, outChunks), DType.FLOAT64, null);
    return XpBlocks.wrap(out, y);
  }

  /** Output block {@code (0, c...)} reads input block {@code (c..., 0)}. */
  private static long[] inputKey(long[] c) {
    long[] k = Arrays.copyOfRange(c, 1, c.length + 1);
    k[k.length - 1] = 0;
    return k;
  }

  /** The quantiles of each lane (last axis) of {@code block}: shape {@code (q.length, rest...)}. */
  static NDArray lanes(NDArray block, double[] q, boolean skipNan) {
    long[] bs = block.shape();
    int last = bs.length - 1;
    int m = Math.toIntExact(bs[last]);
    NDArray sorted = Sorting.sort(block, last, Sorting.Order.ASCENDING);
    double[] s = (double[]) sorted.data();
    int lanes = m == 0 ? 0 : s.length / m;
    double[] out = new double[q.length * lanes];
    for (int l = 0; l < lanes; l++) {
      int from = l * m;
      int n = m;
      if (skipNan) {
        while (n > 0 && Double.isNaN(s[from + n - 1])) {
          n--;
        }
      }
      boolean none = n == 0 || (!skipNan && Double.isNaN(s[from + m - 1]));
      for (int i = 0; i < q.length; i++) {
        out[i * lanes + l] = none ? Double.NaN : linear(s, from, n, q[i]);
      }
    }
    long[] os = new long[bs.length];
    os[0] = q.length;
    System.arraycopy(bs, 0, os, 1, last);
    return NDArray.of(out, os);
  }

  /** NumPy's "linear" quantile {@code v} of the {@code n} sorted values at {@code s[from...]}. */
  private static double linear(double[] s, int from, int n, double v) {
    double k = (n - 1) * v;
    double lo = Math.floor(k);
    int i = (int) lo;
    int j = Math.min(i + 1, n - 1);
    double t = k - lo;
    double a = s[from + i];
    double b = s[from + j];
    double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
  }
}
