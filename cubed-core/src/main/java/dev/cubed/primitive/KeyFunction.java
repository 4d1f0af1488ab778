package dev.cubed.primitive;

import java.io.Serializable;
import java.util.List;

/** Maps an output block's coordinates to the input blocks it reads, one entry per input. */
@FunctionalInterface
public interface KeyFunction extends Serializable {
  /** The blocks read for output block {@code outCoords}, in input order. */
  List<BlockKeys> keys(long[] outCoords);
}
