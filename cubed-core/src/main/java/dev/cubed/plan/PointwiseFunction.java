package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockFunction;

/**
 * A block function that is pointwise: every output element depends only on the input elements at
 * the same position (e.g. {@code u * v}, {@code sin(x)}, {@code astype}), so the plan may evaluate
 * it on tiles (equal-shaped pieces cut from its input blocks) instead of whole blocks: regions of
 * the blocks when it feeds a {@link TileReduction} ({@link Tiles}), one-dimensional runs of the
 * blocks' elements in C order when its result is written ({@link TiledWrites}).
 */
public interface PointwiseFunction extends BlockFunction {
  /**
   * The function on one tile per input, all of the same shape (the same region, or the same run
   * of elements flattened to one dimension, of each input block): the tile of the output, of that
   * shape and the output's dtype. Must not modify the tiles.
   */
  NDArray applyTiles(NDArray... tiles) throws Exception;
}
