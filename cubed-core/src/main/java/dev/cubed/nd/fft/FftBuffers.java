package dev.cubed.nd.fft;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The arrays the transforms work on: an {@link NDArray} copied into a fresh double buffer
 * (interleaved real and imaginary parts for complex data) and a buffer turned back into an array of
 * the input's precision.
 */
final class FftBuffers {
  private FftBuffers() {}

  /** True for the single-precision dtypes (their transforms return single precision). */
  static boolean single(DType dt) {
    return dt == DType.FLOAT32 || dt == DType.COMPLEX64;
  }

  /** The shape as ints (an in-memory array has fewer than 2^31 elements). */
  static int[] intShape(NDArray x) {
    long[] s = x.shape();
    int[] out = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      out[i] = (int) s[i];
    }
    return out;
  }

  /** A fresh interleaved complex double copy of any input. */
  static double[] complexBuffer(NDArray x) {
    int n = x.size();
    Object d = x.data();
    double[] out = new double[2 * n];
    switch (x.dtype()) {
      case COMPLEX128 -> System.arraycopy(d, 0, out, 0, 2 * n);
      case COMPLEX64 -> {
        float[] f = (float[]) d;
        for (int i = 0; i < 2 * n; i++) {
          out[i] = f[i];
        }
      }
      case FLOAT64 -> {
        double[] f = (double[]) d;
        for (int i = 0; i < n; i++) {
          out[2 * i] = f[i];
        }
      }
      case FLOAT32 -> {
        float[] f = (float[]) d;
        for (int i = 0; i < n; i++) {
          out[2 * i] = f[i];
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          out[2 * i] = x.getDouble(i);
        }
      }
    }
    return out;
  }

  /** A fresh real double copy of a real input. */
  static double[] realBuffer(NDArray x) {
    int n = x.size();
    Object d = x.data();
    switch (x.dtype()) {
      case FLOAT64 -> {
        return ((double[]) d).clone();
      }
      case FLOAT32 -> {
        float[] f = (float[]) d;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
          out[i] = f[i];
        }
        return out;
      }
      default -> {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
          out[i] = x.getDouble(i);
        }
        return out;
      }
    }
  }

  /** The shape as longs. */
  static long[] longShape(int[] shape) {
    long[] s = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      s[i] = shape[i];
    }
    return s;
  }

  /** An interleaved complex buffer as an array, single precision when the input was. */
  static NDArray complexResult(double[] buf, int[] shape, DType in) {
    if (single(in)) {
      float[] f = new float[buf.length];
      for (int i = 0; i < buf.length; i++) {
        f[i] = (float) buf[i];
      }
      return new NDArray(DType.COMPLEX64, longShape(shape), f);
    }
    return new NDArray(DType.COMPLEX128, longShape(shape), buf);
  }

  /** A real buffer as an array, single precision when the input was. */
  static NDArray realResult(double[] buf, int[] shape, DType in) {
    if (single(in)) {
      float[] f = new float[buf.length];
      for (int i = 0; i < buf.length; i++) {
        f[i] = (float) buf[i];
      }
      return new NDArray(DType.FLOAT32, longShape(shape), f);
    }
    return new NDArray(DType.FLOAT64, longShape(shape), buf);
  }

  /** Negates the imaginary parts of a complex array. */
  static void conjugateInPlace(NDArray r) {
    Object d = r.data();
    if (d instanceof double[] a) {
      for (int i = 1; i < a.length; i += 2) {
        a[i] = -a[i];
      }
    } else {
      float[] a = (float[]) d;
      for (int i = 1; i < a.length; i += 2) {
        a[i] = -a[i];
      }
    }
  }
}
