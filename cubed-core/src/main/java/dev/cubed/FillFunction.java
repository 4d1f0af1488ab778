package dev.cubed;

import java.io.Serializable;

/**
 * Writes any box of an array created by {@link Cubed#fromFunction(long[], long[],
 * dev.cubed.nd.DType, FillFunction, Spec)} into a buffer: the fast form of {@link BlockFunction}.
 * The engine asks for whole blocks, and for boxes inside a block when it needs only part of one (a
 * chain of elementwise ops written to its target a run at a time, a rechunk or slice reading a
 * region), so nothing larger than the box is made.
 *
 * <p>Contract: the values are a function of the elements' global indices only, never of which block
 * or box is asked for (a box must hold the same values as the same elements of the whole block, so
 * no block index is given); calls for the same box give the same values (tasks may be retried). It
 * must be serializable with its captured values (executors may run it in another JVM) and safe to
 * call from several threads at once.
 */
@FunctionalInterface
public interface FillFunction extends Serializable {
  /**
   * Writes the box {@code [start, start + shape)} of the array (inside one block) into {@code dst}
   * in C order from element {@code at}.
   *
   * @param start the global index of the box's first element per axis
   * @param shape the box's shape (at least 1 per axis)
   * @param dst the backing array of the array's dtype, as {@link dev.cubed.nd.NDArray#data()} holds
   *     it ({@code double[]} for float64, {@code float[]} for float32, {@code long[]} for int64 and
   *     so on; complex dtypes interleave real and imaginary parts, so element {@code at} starts at
   *     slot {@code 2 * at}); it may be larger than the box
   * @param at the element of {@code dst} where the box's first element goes
   */
  void fill(long[] start, long[] shape, Object dst, int at);
}
