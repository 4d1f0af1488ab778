package dev.cubed.core;

import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Sets;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.plan.ChunkGrid;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * Blockwise ops whose block function needs more than the block: its position in the array
 * ({@link #triangle}) or a whole small second array ({@link #isin}).
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
      throw new IllegalArgumentException(fn + ": x must have at least 2 dimensions, got shape "
          + Shapes.format(x.shape()));
    }
    ChunkGrid grid = x.chunkGrid();
    KeyFunction keys = c -> List.of(BlockKeys.one(c));
    BlockFunction bf = (args, c) -> {
      long[] off = grid.blockOffset(c);
      long kk = k - off[nd - 1] + off[nd - 2];
      NDArray b = (NDArray) args.get(0);
      return lower ? Creation.tril(b, kk) : Creation.triu(b, kk);
    };
    return new ArrayNode.Computed(new Blockwise(fn, keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x), grid, x.dtype(), null);
  }

  /**
   * {@code isin(x1, x2)} (or its negation when {@code invert}): a bool array of x1's shape and
   * chunks. Each task reads one block of x1 and every block of x2 together (x2 is the small test
   * set: the memory check counts all its blocks plus a flattened copy of them per task).
   */
  public static ArrayNode isin(ArrayNode x1, ArrayNode x2, boolean invert) {
    long[] nb2 = x2.numBlocks();
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
    DType t2 = x2.dtype();
    List<long[]> keys2 = List.copyOf(all);
    KeyFunction keys = c -> List.of(BlockKeys.one(c), BlockKeys.many(keys2));
    BlockFunction bf = (args, c) -> {
      NDArray b = (NDArray) args.get(0);
      @SuppressWarnings("unchecked")
      List<NDArray> parts = (List<NDArray>) args.get(1);
      long n = 0;
      for (NDArray p : parts) {
        n += p.size();
      }
      NDArray set = NDArray.empty(t2, n);
      int at = 0;
      for (NDArray p : parts) {
        for (int i = 0; i < p.size(); i++) {
          set.setObject(at++, p.getObject(i));
        }
      }
      return Sets.isin(b, set, invert ? Sets.Membership.NOT_IN : Sets.Membership.IN);
    };
    int held = (int) Math.max(1, total);
    long setBytes = Shapes.size(x2.shape()) * t2.itemSize();
    return new ArrayNode.Computed(new Blockwise(invert ? "isin_not" : "isin", keys, bf,
        new int[] {1, held}, new int[] {1, held}, setBytes), List.of(x1, x2), x1.chunkGrid(),
        DType.BOOL, null);
  }
}
