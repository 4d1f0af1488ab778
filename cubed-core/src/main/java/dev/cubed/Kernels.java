package dev.cubed;

import dev.cubed.core.CoreKernels;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/** Per-chunk kernels used by {@link Xp} (forwarding to the engine's small kernels for now). */
final class Kernels {
  private Kernels() {}

  static NDArray add(NDArray a, NDArray b, DType t) {
    return CoreKernels.add(a, b, t);
  }

  static NDArray subtract(NDArray a, NDArray b, DType t) {
    return CoreKernels.subtract(a, b, t);
  }

  static NDArray multiply(NDArray a, NDArray b, DType t) {
    return CoreKernels.multiply(a, b, t);
  }

  static NDArray divide(NDArray a, NDArray b, DType t) {
    return CoreKernels.divide(a, b, t);
  }

  static NDArray negative(NDArray a, DType t) {
    return CoreKernels.negative(a, t);
  }
}
