package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * Public entry to the engine's small per-chunk elementwise kernels (same-shape inputs, computed in
 * the given result dtype; real dtypes and bool only; complex throws UnsupportedOperationException).
 */
public final class CoreKernels {
  private CoreKernels() {}

  /** a + b in dtype t. */
  public static NDArray add(NDArray a, NDArray b, DType t) {
    return ChunkMath.binary("add", ChunkMath.ADD, a, b, t);
  }

  /** a - b in dtype t. */
  public static NDArray subtract(NDArray a, NDArray b, DType t) {
    return ChunkMath.binary("subtract", ChunkMath.SUB, a, b, t);
  }

  /** a * b in dtype t. */
  public static NDArray multiply(NDArray a, NDArray b, DType t) {
    return ChunkMath.binary("multiply", ChunkMath.MUL, a, b, t);
  }

  /** a / b in floating dtype t. */
  public static NDArray divide(NDArray a, NDArray b, DType t) {
    return ChunkMath.binary("divide", ChunkMath.DIV, a, b, t);
  }

  /** -a in dtype t. */
  public static NDArray negative(NDArray a, DType t) {
    return ChunkMath.unary("negative", ChunkMath.NEG, a, t);
  }
}
