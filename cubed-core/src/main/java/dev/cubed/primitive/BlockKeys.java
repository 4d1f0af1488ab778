package dev.cubed.primitive;

import java.io.Serializable;
import java.util.List;

/**
 * What one output block of a blockwise operation reads from one of its inputs: a single block
 * ({@link One}), several blocks read together ({@link Many}, passed as a {@code List<NDArray>}), or
 * several blocks read one at a time ({@link Stream}, passed as an {@code Iterator<NDArray>} so a
 * function folding over them holds one input block at a time).
 */
public sealed interface BlockKeys extends Serializable {
  /** One input block. */
  record One(long[] key) implements BlockKeys {}

  /** Several input blocks read together. */
  record Many(List<long[]> keys) implements BlockKeys {}

  /** Several input blocks read one at a time. */
  record Stream(List<long[]> keys) implements BlockKeys {}

  /** One block. */
  static BlockKeys one(long... key) {
    return new One(key.clone());
  }

  /** Blocks read together. */
  static BlockKeys many(List<long[]> keys) {
    return new Many(List.copyOf(keys));
  }

  /** Blocks read one at a time. */
  static BlockKeys stream(List<long[]> keys) {
    return new Stream(List.copyOf(keys));
  }

  /** Number of blocks read. */
  default int count() {
    if (this instanceof One) {
      return 1;
    }
    return this instanceof Many m ? m.keys().size() : ((Stream) this).keys().size();
  }

  /** Number of blocks held in memory at once. */
  default int held() {
    return this instanceof Many m ? m.keys().size() : 1;
  }
}
