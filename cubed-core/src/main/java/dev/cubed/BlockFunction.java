package dev.cubed;

import dev.cubed.nd.NDArray;
import java.io.Serializable;

/**
 * Makes one block of an array created by {@link Cubed#fromFunction(long[], long[],
 * dev.cubed.nd.DType, BlockFunction, Spec)}, inside the task that needs it (nothing is stored).
 *
 * <p>Contract: {@link #apply} returns an array of the array's dtype and of exactly {@code shape}
 * (the block's shape, smaller than the chunks at the array's far edges), and the same values
 * whenever it is called for the same block: a task may be retried or run twice. It must be
 * serializable with its captured values (executors may run it in another JVM), and safe to call
 * from several threads at once. A block read only in part (a rechunk, a slice, a chain written a
 * run at a time) is still made whole; a function that can make any box of the array directly should
 * be a {@link FillFunction} instead.
 */
@FunctionalInterface
public interface BlockFunction extends Serializable {
  /**
   * The block at grid {@code index}.
   *
   * @param index the block's position in the chunk grid (0-based per axis)
   * @param start the global index of the block's first element per axis ({@code index[i] *
   *     chunks[i]})
   * @param shape the block's shape (the chunks clipped to the array's shape)
   * @return an array of the array's dtype and of shape {@code shape}
   */
  NDArray apply(long[] index, long[] start, long[] shape);
}
