package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockFunction;

/**
 * A block function that is pointwise: every output element depends only on the input elements at
 * the same position (e.g. {@code u * v}, {@code sin(x)}, {@code astype}), so the plan may evaluate
 * it on tiles (equal-shaped regions cut from its input blocks) instead of whole blocks when it
 * feeds a {@link TileReduction} ({@link Tiles}).
 */
public interface PointwiseFunction extends BlockFunction {
  /**
   * The function on one tile per input, all of the same shape (the same region of each input
   * block): the tile of the output, of that shape and the output's dtype. Must not modify the
   * tiles.
   */
  NDArray applyTiles(NDArray... tiles) throws Exception;
}
