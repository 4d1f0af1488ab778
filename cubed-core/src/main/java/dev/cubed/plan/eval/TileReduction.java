package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockwiseFunction;

/**
 * A block function that reduces its only input block over some axes to a state, and can do so tile
 * by tile (e.g. the first round of a tree reduction): the state of a block has the input block's
 * shape with extent 1 on the reduced axes, followed by the output's further trailing axes (whole),
 * and equals the {@link #merge} of the states of any tiling of the block, each state placed at its
 * tile's position (reduced axes at 0). The plan uses this to evaluate a fused pointwise chain
 * feeding the reduction tile by tile, never holding the chain's whole blocks ({@link Tiles}).
 *
 * <p>{@link #apply} returns the whole block's state as a new array, sharing no storage with the
 * input block and keeping no reference to it: the plan may decode the next block into the input's
 * array once it returns.
 */
public interface TileReduction extends BlockwiseFunction {
  /** The reduced axes of the input block (true = reduced). */
  boolean[] reducedAxes();

  /**
   * The state of one tile of the input block of output block {@code outCoords}; {@code tileStart}
   * is the tile's position inside the block. Returns a new array (sharing no storage with the
   * tile).
   */
  NDArray tileState(NDArray tile, long[] tileStart, long[] outCoords) throws Exception;

  /** Merges {@code state} into {@code into} (same shape; position by position). */
  void merge(NDArray into, NDArray state) throws Exception;

  /**
   * {@link #tileState}, written into {@code buf} when the function can: {@code buf} is null or an
   * array the caller owns and reuses from tile to tile (it holds an earlier tile's state), which
   * the function may overwrite and return instead of a new array. The caller uses the returned
   * array. The default ignores {@code buf}.
   */
  default NDArray tileStateInto(NDArray buf, NDArray tile, long[] tileStart, long[] outCoords)
      throws Exception {
    return tileState(tile, tileStart, outCoords);
  }

  /**
   * Merges {@code state} into the box of {@code into} that starts at {@code at} and has {@code
   * state}'s shape, in place, if the function can (the same values as {@link #merge} on a copy of
   * that box, written back); returns false, changing nothing, if it cannot (the caller then merges
   * through a copy). The default cannot.
   */
  default boolean mergeInPlace(NDArray into, long[] at, NDArray state) throws Exception {
    return false;
  }
}
