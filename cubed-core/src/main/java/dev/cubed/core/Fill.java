package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;

/**
 * The generator of a virtual array holding one value everywhere ({@link Core#full}): named (not a
 * lambda) so that an op can see that an input is a constant and read it as a value instead of a
 * block of copies ({@link Core#fillValue}).
 */
final class Fill implements ArrayNode.BlockGenerator {
  private static final long serialVersionUID = 1L;
  final DType dtype;
  final Object value;

  Fill(DType dtype, Object value) {
    this.dtype = dtype;
    this.value = value;
  }

  @Override
  public NDArray generate(long[] coords, long[] blockShape) {
    return NDArray.full(dtype, value, blockShape);
  }
}
