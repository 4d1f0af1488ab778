package dev.cubed.primitive;

import dev.cubed.nd.NDArray;
import java.io.Serializable;

/**
 * Sets element {@code i} of a block from the element's flat index in the whole array: the generator
 * of {@code Cubed.fromFunction}, run inside the tasks that make each block.
 */
@FunctionalInterface
public interface IndexFunction extends Serializable {
  /** Sets {@code block[i]}; {@code flat} is the element's C-order index in the whole array. */
  void set(NDArray block, int i, long flat, long[] inBlock, long[] blockCoords);
}
