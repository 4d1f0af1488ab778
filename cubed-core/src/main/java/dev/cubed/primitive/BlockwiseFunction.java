package dev.cubed.primitive;

import dev.cubed.nd.NDArray;
import java.io.Serializable;
import java.util.List;

/**
 * Computes one output block of a {@link Blockwise} op (the engine's internal form; users give a
 * {@code dev.cubed.BlockFunction} to {@code Cubed.fromFunction}). {@code args} holds, per input, an
 * {@link NDArray} (for {@link BlockKeys.One}), a {@code List<NDArray>} ({@link BlockKeys.Many}) or
 * an {@code Iterator<NDArray>} ({@link BlockKeys.Stream}). The result must have the output's dtype
 * and the output block's (edge-clipped) shape. A function must not modify its input blocks: the
 * engine may pass one block object for several arguments (e.g. both inputs of {@code x * x}) and
 * may cache blocks.
 */
@FunctionalInterface
public interface BlockwiseFunction extends Serializable {
  /** Computes output block {@code outCoords}. */
  NDArray apply(List<Object> args, long[] outCoords) throws Exception;
}
