package dev.cubed.core;

import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.plan.ChunkGrid;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.List;

/**
 * Ops that move whole blocks to other positions of the block grid (no values cross a block
 * boundary): {@link #flip}.
 */
public final class Rearrange {
  private Rearrange() {}

  /**
   * Reverses the given axes (every axis when {@code axes} is null, as the kernel).
   * The output's block sizes along a flipped axis are the input's in reverse order (a partial last
   * block becomes the first one, so regular chunks with a partial edge become irregular); output
   * block k along it is input block {@code n-1-k} reversed. One input block per task.
   *
   * @throws IllegalArgumentException naming flip if an axis is out of range or repeated
   */
  public static ArrayNode flip(ArrayNode x, int[] axes) {
    long[] shape = x.shape();
    int nd = shape.length;
    int[] ax;
    if (axes == null) {
      ax = new int[nd];
      for (int i = 0; i < nd; i++) {
        ax[i] = i;
      }
    } else {
      ax = Shapes.normalizeAxes("flip", axes, nd);
    }
    boolean[] flipped = new boolean[nd];
    for (int a : ax) {
      flipped[a] = true;
    }
    ChunkGrid in = x.chunkGrid();
    long[][] sizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      long[] s = in.sizes(d);
      sizes[d] = s.clone();
      if (flipped[d]) {
        for (int i = 0; i < s.length; i++) {
          sizes[d][i] = s[s.length - 1 - i];
        }
      }
    }
    ChunkGrid grid = ChunkGrid.of(shape, sizes);
    long[] nb = in.numBlocks();
    int[] fax = ax.clone();
    KeyFunction keys = c -> {
      long[] k = c.clone();
      for (int d = 0; d < nd; d++) {
        if (flipped[d]) {
          k[d] = nb[d] - 1 - c[d];
        }
      }
      return List.of(BlockKeys.one(k));
    };
    BlockFunction bf = (args, c) -> Manipulation.flip((NDArray) args.get(0), fax);
    return new ArrayNode.Computed(new Blockwise("flip", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x), grid, x.dtype(), null);
  }
}
