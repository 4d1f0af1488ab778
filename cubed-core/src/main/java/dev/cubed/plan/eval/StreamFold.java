package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockwiseFunction;
import java.util.Iterator;
import java.util.List;

/**
 * A block function of an op with one input read as a {@link dev.cubed.primitive.BlockKeys.Stream}
 * that folds the streamed blocks, in stream order, into an accumulator which is the output block
 * (e.g. a partial round of a tree reduction). The plan may drive the fold itself, one block at a
 * time, to interleave several such ops over shared sources ({@link MultiOutput}): the result must
 * then be the same as {@link #apply}'s, which is why {@code apply} is defined here from {@link
 * #start} and {@link #add}.
 */
public interface StreamFold extends BlockwiseFunction {
  /**
   * A new accumulator from the stream's first block; must not be (or share storage with) the block,
   * which the engine may cache or pass elsewhere.
   */
  NDArray start(NDArray first) throws Exception;

  /** Folds {@code next} into {@code acc} (modified in place; {@code next} is not modified). */
  void add(NDArray acc, NDArray next) throws Exception;

  /**
   * True if this fold's {@link #start} is a copy and its {@link #add} is {@code r}'s {@link
   * TileReduction#merge} when its stream holds blocks of {@code r}: the plan may then fold the tile
   * states of {@code r}'s blocks straight into the accumulator ({@link Tiles}), never holding a
   * whole block of {@code r}. False by default.
   */
  default boolean foldsStatesOf(TileReduction r) {
    return false;
  }

  /** Folds the stream of input 0: {@code start} on the first block, {@code add} on the rest. */
  @Override
  default NDArray apply(List<Object> args, long[] outCoords) throws Exception {
    @SuppressWarnings("unchecked")
    Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
    NDArray acc = start(it.next());
    while (it.hasNext()) {
      add(acc, it.next());
    }
    return acc;
  }
}
