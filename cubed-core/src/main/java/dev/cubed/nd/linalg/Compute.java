package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The working representation of product operands for a result dtype: float64 and float32 use their
 * own backing arrays (no copy when the operand already has that dtype), complex dtypes an
 * interleaved {@code double[]} (complex64 is widened), every integer dtype a {@code long[]} whose
 * wrapping arithmetic narrows to the same bits NumPy gets.
 */
final class Compute {
  private Compute() {}

  static Object operand(NDArray x, DType dt) {
    NDArray y = x.dtype() == dt ? x : x.astype(dt);
    switch (dt) {
      case FLOAT64, FLOAT32, COMPLEX128 -> {
        return y.data();
      }
      case COMPLEX64 -> {
        float[] f = (float[]) y.data();
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
          d[i] = f[i];
        }
        return d;
      }
      case INT64, UINT64 -> {
        return y.data();
      }
      default -> {
        long[] r = new long[y.size()];
        for (int i = 0; i < r.length; i++) {
          r[i] = y.getLong(i);
        }
        return r;
      }
    }
  }

  static Object allocate(DType dt, int n) {
    return switch (dt) {
      case FLOAT64 -> new double[n];
      case FLOAT32 -> new float[n];
      case COMPLEX64, COMPLEX128 -> new double[2 * n];
      default -> new long[n];
    };
  }

  static void gemm(
      DType dt, Object a, int offA, Object b, int offB, Object c, int offC, int m, int k, int n) {
    switch (dt) {
      case FLOAT64 ->
          MatmulKernels.dgemm((double[]) a, offA, (double[]) b, offB, (double[]) c, offC, m, k, n);
      case FLOAT32 ->
          MatmulKernels.sgemm((float[]) a, offA, (float[]) b, offB, (float[]) c, offC, m, k, n);
      case COMPLEX64, COMPLEX128 ->
          MatmulKernels.zgemm((double[]) a, offA, (double[]) b, offB, (double[]) c, offC, m, k, n);
      default -> MatmulKernels.lgemm((long[]) a, offA, (long[]) b, offB, (long[]) c, offC, m, k, n);
    }
  }

  static NDArray result(DType dt, Object c, long[] shape) {
    switch (dt) {
      case FLOAT64, FLOAT32, COMPLEX128, INT64, UINT64 -> {
        return new NDArray(dt, shape, c);
      }
      case COMPLEX64 -> {
        double[] d = (double[]) c;
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
          f[i] = (float) d[i];
        }
        return new NDArray(dt, shape, f);
      }
      default -> {
        long[] l = (long[]) c;
        NDArray out = NDArray.zeros(dt, shape);
        for (int i = 0; i < l.length; i++) {
          out.setLong(i, l[i]);
        }
        return out;
      }
    }
  }
}
