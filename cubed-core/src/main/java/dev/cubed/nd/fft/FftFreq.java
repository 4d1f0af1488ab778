package dev.cubed.nd.fft;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;

/**
 * Sample frequencies and zero-frequency shifts ({@code fftfreq}, {@code rfftfreq}, {@code
 * fftshift}).
 */
final class FftFreq {
  private FftFreq() {}

  static NDArray fftfreq(String fn, int n, double d, DType dtype, boolean half) {
    if (n < 1) {
      throw new IllegalArgumentException(fn + ": n must be >= 1, got " + n);
    }
    if (!(d != 0) || Double.isNaN(d)) {
      throw new IllegalArgumentException(fn + ": sample spacing d must be non-zero, got " + d);
    }
    if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) {
      throw new IllegalArgumentException(
          fn + ": dtype must be a real floating-point dtype (float32 or float64), got " + dtype);
    }
    double scale = 1.0 / (n * d);
    int len = half ? n / 2 + 1 : n;
    double[] v = new double[len];
    int positive = half ? len : (n - 1) / 2 + 1;
    for (int i = 0; i < positive; i++) {
      v[i] = i * scale;
    }
    for (int i = positive; i < len; i++) {
      v[i] = (i - n) * scale;
    }
    NDArray out = NDArray.of(v, len);
    return dtype == DType.FLOAT64 ? out : out.astype(dtype);
  }

  /** Rolls each listed axis by {@code +len/2} (shift) or {@code -(len/2)} (inverse shift). */
  static NDArray shift(String fn, NDArray x, int[] axes, boolean inverse) {
    int nd = x.ndim();
    int[] ax = Shapes.normalizeAxes(fn, axes, nd);
    long[] shape = x.shape();
    int size = x.size();
    int[] strides = Shapes.intStrides(shape);
    int[] src = new int[size];
    int[] idx = new int[nd];
    int[] roll = new int[nd];
    for (int a : ax) {
      int len = (int) shape[a];
      int r = len / 2;
      roll[a] = inverse ? (len - r) % Math.max(len, 1) : r;
    }
    // out[i] = in[(i - roll) mod len] along rolled axes
    for (int flat = 0; flat < size; flat++) {
      int s = 0;
      for (int k = 0; k < nd; k++) {
        int len = (int) shape[k];
        int j = idx[k] - roll[k];
        if (j < 0) {
          j += len;
        }
        s += j * strides[k];
      }
      src[flat] = s;
      for (int k = nd - 1; k >= 0; k--) {
        if (++idx[k] < shape[k]) {
          break;
        }
        idx[k] = 0;
      }
    }
    Object in = x.data();
    Object out = NDArray.allocate(x.dtype(), size);
    int w = x.dtype().isComplex() ? 2 : 1;
    if (w == 2) {
      for (int i = 0; i < size; i++) {
        System.arraycopy(in, 2 * src[i], out, 2 * i, 2);
      }
    } else if (in instanceof double[] a) {
      double[] b = (double[]) out;
      for (int i = 0; i < size; i++) {
        b[i] = a[src[i]];
      }
    } else if (in instanceof float[] a) {
      float[] b = (float[]) out;
      for (int i = 0; i < size; i++) {
        b[i] = a[src[i]];
      }
    } else if (in instanceof long[] a) {
      long[] b = (long[]) out;
      for (int i = 0; i < size; i++) {
        b[i] = a[src[i]];
      }
    } else if (in instanceof int[] a) {
      int[] b = (int[]) out;
      for (int i = 0; i < size; i++) {
        b[i] = a[src[i]];
      }
    } else {
      for (int i = 0; i < size; i++) {
        System.arraycopy(in, src[i], out, i, 1);
      }
    }
    return new NDArray(x.dtype(), shape, out);
  }
}
