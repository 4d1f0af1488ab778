package dev.cubed.core;

import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.sort.Sets;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Blockwise ops whose block function needs more than the block: its position in the array ({@link
 * #triangle}) or a whole small second array ({@link #isin}, {@link #searchsorted}).
 */
public final class Positional {
  private Positional() {}

  /**
   * {@code tril} ({@code lower}) or {@code triu} of each matrix in the last two axes: the block at
   * offset (r0, c0) of those axes is the kernel's triangle with diagonal {@code k - c0 + r0}. One
   * block per task, same chunks as x.
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static ArrayNode triangle(ArrayNode x, long k, boolean lower) {
    String fn = lower ? "tril" : "triu";
    int nd = x.shape().length;
    if (nd < 2) {
      throw new IllegalArgumentException(
          fn + ": x must have at least 2 dimensions, got shape " + Shapes.format(x.shape()));
    }
    ChunkGrid grid = x.chunkGrid();
    KeyFunction keys = c -> List.of(BlockKeys.one(c));
    BlockwiseFunction bf =
        (args, c) -> {
          long[] off = grid.blockOffset(c);
          long kk = k - off[nd - 1] + off[nd - 2];
          NDArray b = (NDArray) args.get(0);
          return lower ? Creation.tril(b, kk) : Creation.triu(b, kk);
        };
    return new ArrayNode.Computed(
        new Blockwise(fn, keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  /** A function of one block of the large input and the whole small one (flattened). */
  @FunctionalInterface
  public interface WithWhole extends Serializable {
    /** Computes one output block. */
    NDArray apply(NDArray block, NDArray whole) throws Exception;
  }

  /**
   * {@code isin(x1, x2)} (or its negation when {@code invert}): a bool array of x1's shape and
   * chunks. Each task reads one block of x1 and every block of x2 together (x2 is the small test
   * set: the memory check counts all its blocks plus a flattened copy of them per task).
   */
  public static ArrayNode isin(ArrayNode x1, ArrayNode x2, boolean invert) {
    Sets.Membership m = invert ? Sets.Membership.NOT_IN : Sets.Membership.IN;
    return withWhole(
        invert ? "isin_not" : "isin", x1, x2, DType.BOOL, (b, set) -> Sets.isin(b, set, m));
  }

  /**
   * {@code searchsorted(x1, x2, side)}: int64 of x2's shape and chunks. Each task reads one block
   * of x2 and all of the sorted 1-D x1 (counted whole by the memory check: x1 must fit one task).
   *
   * @throws IllegalArgumentException if x1 is not 1-D or a dtype is complex
   */
  public static ArrayNode searchsorted(ArrayNode x1, ArrayNode x2, Searching.Side side) {
    Searching.searchsorted(
        NDArray.ones(x1.dtype(), onesShape(x1.shape().length)),
        NDArray.ones(x2.dtype(), 1),
        side,
        null);
    if (Shapes.size(x1.shape()) == 0) {
      return Core.full(x2.chunkGrid(), 0L, DType.INT64);
    }
    return withWhole(
        "searchsorted",
        x2,
        x1,
        DType.INT64,
        (b, sorted) -> Searching.searchsorted(sorted, b, side, null));
  }

  private static long[] onesShape(int nd) {
    long[] s = new long[nd];
    Arrays.fill(s, 1);
    return s;
  }

  /**
   * The blockwise op over {@code big}'s blocks where each task also reads every block of {@code
   * small} together, flattened into one 1-D array in block order (for a 1-D small array: its values
   * in order). The memory check counts small's blocks and the flattened copy.
   */
  static ArrayNode withWhole(String name, ArrayNode big, ArrayNode small, DType out, WithWhole fn) {
    long[] nb2 = small.numBlocks();
    List<long[]> all = new ArrayList<>();
    long total = 1;
    for (long n : nb2) {
      total *= n;
    }
    long[] idx = new long[nb2.length];
    for (long i = 0; i < total; i++) {
      all.add(idx.clone());
      for (int d = nb2.length - 1; d >= 0; d--) {
        if (++idx[d] < nb2[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
    DType t2 = small.dtype();
    List<long[]> keys2 = List.copyOf(all);
    KeyFunction keys = c -> List.of(BlockKeys.one(c), BlockKeys.many(keys2));
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray b = (NDArray) args.get(0);
          @SuppressWarnings("unchecked")
          List<NDArray> parts = (List<NDArray>) args.get(1);
          long n = 0;
          for (NDArray p : parts) {
            n += p.size();
          }
          NDArray whole = NDArray.empty(t2, n);
          int at = 0;
          for (NDArray p : parts) {
            for (int i = 0; i < p.size(); i++) {
              whole.setObject(at++, p.getObject(i));
            }
          }
          return fn.apply(b, whole);
        };
    int held = (int) Math.max(1, total);
    long wholeBytes = Shapes.size(small.shape()) * t2.itemSize();
    return new ArrayNode.Computed(
        new Blockwise(name, keys, bf, new int[] {1, held}, new int[] {1, held}, wholeBytes),
        List.of(big, small),
        big.chunkGrid(),
        out,
        null);
  }
}
