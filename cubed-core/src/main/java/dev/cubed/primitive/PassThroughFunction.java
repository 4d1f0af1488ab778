package dev.cubed.primitive;

/**
 * A block function that returns one of its input blocks unchanged (a concatenation's block is the
 * block of the array it comes from): block {@code outCoords} is the {@link BlockKeys.One} block of
 * input {@link #source}. A tiled chain can then read that input's stored chunk in place of the
 * block.
 */
public interface PassThroughFunction extends BlockwiseFunction {
  /** The input whose block is block {@code outCoords}. */
  int source(long[] outCoords);
}
