package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockwiseFunction;

/**
 * A block function that is pointwise: every output element depends only on the input elements at
 * the same position (e.g. {@code u * v}, {@code sin(x)}, {@code astype}), so the plan may evaluate
 * it on tiles (equal-shaped pieces cut from its input blocks) instead of whole blocks: regions of
 * the blocks when it feeds a {@link TileReduction} ({@link Tiles}), one-dimensional runs of the
 * blocks' elements in C order when its result is written ({@link TiledWrites}).
 */
public interface PointwiseFunction extends BlockwiseFunction {
  /**
   * The function on one tile per input, all of the same shape (the same region, or the same run of
   * elements flattened to one dimension, of each input block): the tile of the output, of that
   * shape and the output's dtype. Must not modify the tiles.
   */
  NDArray applyTiles(NDArray... tiles) throws Exception;

  /**
   * {@link #applyTiles}, with {@code buf}: an array of the output tile's shape and dtype that the
   * caller owns and reuses from tile to tile (it holds an earlier tile's output, or zeros), which
   * the function may fill and return instead of allocating a new tile. The caller uses the returned
   * array, whichever it is, and does not touch {@code buf} until it is done with that array. {@code
   * buf} is never one of the tiles. The default ignores it.
   */
  default NDArray applyTilesInto(NDArray buf, NDArray... tiles) throws Exception {
    return applyTiles(tiles);
  }

  /**
   * True if an input may be 0-d (a value, such as the fill of {@code where(mask, x, 0)}) while the
   * output is not: such an input's tile is then its 0-d block itself, for every tile, and the
   * function broadcasts it. The default is false: every input has the output's shape.
   */
  default boolean takesValues() {
    return false;
  }
}
