package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.sort.Sorting;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.List;

/** Runs of equal values in a sorted 1-d array: the grouping behind the chunked unique functions. */
public final class Runs {
  private Runs() {}

  /**
   * A bool array with the grid of the sorted (ascending) 1-d {@code sorted}: true where an element
   * starts a run of equal values (the first element, an element whose sort key differs from its
   * predecessor's, and every NaN, each NaN being distinct). Block j reads blocks j-1 and j together
   * (only the last element of j-1 is used).
   */
  public static ArrayNode starts(ArrayNode sorted) {
    if (sorted.shape().length != 1) {
      throw new IllegalArgumentException("unique: expected a 1-d sorted array");
    }
    boolean floating = sorted.dtype().isRealFloating();
    KeyFunction keys =
        c ->
            List.of(
                c[0] == 0
                    ? BlockKeys.many(List.of(new long[] {0}))
                    : BlockKeys.many(List.of(new long[] {c[0] - 1}, new long[] {c[0]})));
    BlockwiseFunction bf =
        (args, c) -> {
          @SuppressWarnings("unchecked")
          List<NDArray> bs = (List<NDArray>) args.get(0);
          NDArray cur = bs.get(bs.size() - 1);
          long[] k = Sorting.keys(cur, Sorting.Order.ASCENDING);
          boolean hasPrev = bs.size() == 2;
          long prev = 0;
          if (hasPrev) {
            NDArray p = bs.get(0);
            prev =
                Sorting.keys(
                    p.getRegion(new long[] {p.size() - 1}, new long[] {1}),
                    Sorting.Order.ASCENDING)[0];
          }
          boolean[] out = new boolean[k.length];
          for (int i = 0; i < k.length; i++) {
            boolean nan = floating && k[i] == -1L;
            if (i == 0) {
              out[i] = !hasPrev || nan || k[i] != prev;
            } else {
              out[i] = nan || k[i] != k[i - 1];
            }
          }
          return new NDArray(DType.BOOL, new long[] {k.length}, out);
        };
    long c = sorted.chunkGrid().maxChunks()[0];
    return new ArrayNode.Computed(
        new Blockwise("unique_starts", keys, bf, new int[] {2}, new int[] {2}, 8 * c),
        List.of(sorted),
        sorted.chunkGrid(),
        DType.BOOL,
        null);
  }
}
