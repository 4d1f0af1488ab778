package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import java.util.Arrays;

/**
 * The engine's generators behind {@link Cubed#fromFunction}: a {@link BlockFunction} makes whole
 * blocks (the engine slices a part it needs), a {@link FillFunction} makes whole blocks and any box
 * of one in place ({@link ArrayNode.RegionGenerator}), so the engine's run-at-a-time writes and
 * region reads make only what they use.
 */
final class FunctionBlocks {
  private FunctionBlocks() {}

  /** The generator of a block function on a regular grid of {@code chunks}. */
  static ArrayNode.BlockGenerator of(BlockFunction f, long[] chunks, DType dtype) {
    return new Blocks(f, chunks.clone(), dtype);
  }

  /** The generator of a fill function on a regular grid of {@code chunks}. */
  static ArrayNode.BlockGenerator of(FillFunction f, long[] chunks, DType dtype) {
    return new Fills(f, chunks.clone(), dtype);
  }

  private static long[] globalStart(long[] coords, long[] chunks, long[] offset) {
    long[] s = new long[coords.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = coords[i] * chunks[i] + (offset == null ? 0 : offset[i]);
    }
    return s;
  }

  private record Blocks(BlockFunction f, long[] chunks, DType dtype)
      implements ArrayNode.BlockGenerator {
    @Override
    public NDArray generate(long[] coords, long[] blockShape) {
      NDArray b = f.apply(coords.clone(), globalStart(coords, chunks, null), blockShape.clone());
      if (b == null || b.dtype() != dtype || !Arrays.equals(b.shape(), blockShape)) {
        throw new IllegalStateException(
            "fromFunction: the block function gave "
                + (b == null ? "null" : b.dtype() + " of shape " + Arrays.toString(b.shape()))
                + " for block "
                + Arrays.toString(coords)
                + "; it must return "
                + dtype
                + " of shape "
                + Arrays.toString(blockShape)
                + " (the block's shape)");
      }
      return b;
    }
  }

  private record Fills(FillFunction f, long[] chunks, DType dtype)
      implements ArrayNode.RegionGenerator {
    @Override
    public NDArray generate(long[] coords, long[] blockShape) {
      NDArray b = NDArray.empty(dtype, blockShape);
      f.fill(globalStart(coords, chunks, null), blockShape.clone(), b.data(), 0);
      return b;
    }

    @Override
    public NDArray region(long[] coords, long[] blockShape, long[] start, long[] shape) {
      NDArray r = NDArray.empty(dtype, shape);
      f.fill(globalStart(coords, chunks, start), shape.clone(), r.data(), 0);
      return r;
    }

    @Override
    public void regionInto(
        long[] coords,
        long[] blockShape,
        long[] start,
        long[] shape,
        DType dt,
        Object dst,
        int at) {
      if (dt != dtype) {
        throw new IllegalStateException(
            "fromFunction: asked for " + dt + " but the array is " + dtype);
      }
      f.fill(globalStart(coords, chunks, start), shape.clone(), dst, at);
    }
  }
}
