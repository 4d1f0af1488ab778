package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Cumulative sums and products along an axis: each block is scanned, each block's total taken,
 * the totals of the blocks before each block folded (streamed one at a time) into its offset, and
 * the offset combined blockwise into the scanned block. Real dtypes and bool; sums of integers and
 * bool accumulate in int64 (uint64 for unsigned), floats in their own dtype via double.
 */
public final class Scans {
  private Scans() {}

  /** The scans available. */
  public enum Op {
    SUM, PROD
  }

  /**
   * Inclusive scan of {@code x} along {@code axis}.
   *
   * @throws UnsupportedOperationException for complex dtypes
   */
  public static ArrayNode cumulative(ArrayNode x, Op op, int axis) {
    String name = op == Op.SUM ? "cumulative_sum" : "cumulative_prod";
    int nd = x.shape().length;
    int a = Shapes.normalizeAxis(name, axis, nd);
    ChunkMath.checkReal(name, x.dtype());
    DType out = ReduceKernel.resultType(ReduceKernel.Kind.SUM, x.dtype());
    boolean prod = op == Op.PROD;
    ArrayNode scanned = Core.mapBlocks(b -> scan(b[0], a, out, prod), out, x);
    long[] ts = x.shape();
    long[] tc = x.chunks();
    ts[a] = x.numBlocks()[a];
    tc[a] = 1;
    KeyFunction one = c -> List.of(BlockKeys.one(c));
    ArrayNode totals = new ArrayNode.Computed(new Blockwise(name + "-totals", one, (args, c) -> {
      NDArray s = scan((NDArray) args.get(0), a, out, prod);
      long[] start = new long[nd];
      long[] shape = s.shape();
      start[a] = shape[a] - 1;
      shape[a] = 1;
      return s.getRegion(start, shape);
    }, new int[] {1}, new int[] {1}, 0), List.of(x), ts, tc, out, null);
    KeyFunction before = c -> {
      List<long[]> keys = new ArrayList<>();
      for (long j = 0; j < c[a]; j++) {
        long[] k = c.clone();
        k[a] = j;
        keys.add(k);
      }
      return List.of(BlockKeys.one(c), BlockKeys.stream(keys));
    };
    long[] xc = x.chunks();
    long[] xs = x.shape();
    return new ArrayNode.Computed(new Blockwise(name, before, (args, c) -> {
      NDArray s = (NDArray) args.get(0);
      @SuppressWarnings("unchecked")
      Iterator<NDArray> it = (Iterator<NDArray>) args.get(1);
      if (!it.hasNext()) {
        return s;
      }
      NDArray off = it.next().copy();
      while (it.hasNext()) {
        off = combine(off, it.next(), out, prod);
      }
      return combine(s, off.broadcastTo(s.shape()), out, prod);
    }, new int[] {1, 1}, new int[] {1, (int) Math.min(Integer.MAX_VALUE / 4,
        x.numBlocks()[a])}, Shapes.size(tc) * out.itemSize()), List.of(scanned, totals), xs, xc,
        out, null);
  }

  private static NDArray combine(NDArray a, NDArray b, DType out, boolean prod) {
    return prod ? ChunkMath.binary("cumulative_prod", ChunkMath.MUL, a, b, out)
        : ChunkMath.binary("cumulative_sum", ChunkMath.ADD, a, b, out);
  }

  /** Inclusive scan of one block along an axis, in dtype out. */
  static NDArray scan(NDArray b, int axis, DType out, boolean prod) {
    NDArray x = b.dtype() == out ? b.copy() : b.astype(out);
    long[] shape = x.shape();
    long n = shape[axis];
    long inner = 1;
    for (int i = axis + 1; i < shape.length; i++) {
      inner *= shape[i];
    }
    long outer = x.size() / Math.max(1, n * inner);
    boolean fl = out.isFloating();
    for (long o = 0; o < outer; o++) {
      for (long in = 0; in < inner; in++) {
        int base = (int) (o * n * inner + in);
        for (long j = 1; j < n; j++) {
          int p = (int) (base + (j - 1) * inner);
          int q = (int) (base + j * inner);
          if (fl) {
            x.setDouble(q, prod ? x.getDouble(p) * x.getDouble(q) : x.getDouble(p) + x.getDouble(q));
          } else {
            x.setLong(q, prod ? x.getLong(p) * x.getLong(q) : x.getLong(p) + x.getLong(q));
          }
        }
      }
    }
    return x;
  }
}
