package dev.cubed.nd;

/**
 * The wide forms the generic (non fast-path) kernels compute in, and back: real floats as {@code
 * double[]}, integers as {@code long[]} (sign- or zero-extended), complex numbers as interleaved
 * {@code double[]}. Widening returns the backing array itself, not a copy, when it already has the
 * wide form (float64, int64/uint64, complex128); callers that write must copy first. Narrowing
 * rounds (float32, complex64) or wraps (integers) each element once.
 */
public final class WideArrays {
  private WideArrays() {}

  /** Real floating elements as doubles (float64: the backing array itself, not copied). */
  public static double[] doubles(NDArray x) {
    if (x.data() instanceof double[] d && !x.dtype().isComplex()) {
      return d;
    }
    int n = x.size();
    double[] out = new double[n];
    if (x.data() instanceof float[] f && !x.dtype().isComplex()) {
      for (int i = 0; i < n; i++) {
        out[i] = f[i];
      }
      return out;
    }
    for (int i = 0; i < n; i++) {
      out[i] = x.getDouble(i);
    }
    return out;
  }

  /** Complex elements as interleaved doubles (complex128: the backing array, not copied). */
  public static double[] complexes(NDArray x) {
    if (x.dtype() == DType.COMPLEX128) {
      return (double[]) x.data();
    }
    int n = x.size();
    double[] out = new double[2 * n];
    if (x.dtype() == DType.COMPLEX64) {
      float[] f = (float[]) x.data();
      for (int i = 0; i < 2 * n; i++) {
        out[i] = f[i];
      }
      return out;
    }
    for (int i = 0; i < n; i++) {
      out[2 * i] = x.getDouble(i);
    }
    return out;
  }

  /**
   * Integer elements as longs, sign- or zero-extended by dtype (int64/uint64: the backing array,
   * not copied; uint64 keeps its bits).
   */
  public static long[] longs(NDArray x) {
    Object d = x.data();
    if (d instanceof long[] l) {
      return l;
    }
    int n = x.size();
    long[] out = new long[n];
    boolean u = x.dtype().isUnsigned();
    if (d instanceof int[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFFFFFFFFL : a[i];
      }
    } else if (d instanceof short[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFFFF : a[i];
      }
    } else if (d instanceof byte[] a) {
      for (int i = 0; i < n; i++) {
        out[i] = u ? a[i] & 0xFF : a[i];
      }
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = x.getLong(i);
      }
    }
    return out;
  }

  /** An array of a real floating dtype from doubles (float32 rounds each). */
  public static NDArray fromDoubles(DType t, long[] shape, double[] v) {
    if (t == DType.FLOAT64) {
      return new NDArray(t, shape, v);
    }
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return new NDArray(t, shape, f);
  }

  /** An array of a complex dtype from interleaved doubles (complex64 rounds each part). */
  public static NDArray fromComplexes(DType t, long[] shape, double[] v) {
    if (t == DType.COMPLEX128) {
      return new NDArray(t, shape, v);
    }
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return new NDArray(t, shape, f);
  }

  /** An array of an integer dtype from longs, wrapping each to the dtype's width. */
  public static NDArray fromLongs(DType t, long[] shape, long[] v) {
    int n = v.length;
    Object d;
    switch (t.itemSize()) {
      case 8 -> d = v;
      case 4 -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = (int) v[i];
        }
        d = a;
      }
      case 2 -> {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) {
          a[i] = (short) v[i];
        }
        d = a;
      }
      default -> {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
          a[i] = (byte) v[i];
        }
        d = a;
      }
    }
    return new NDArray(t, shape, d);
  }

  /** {@code x} converted to {@code t}, or {@code x} itself when it already has that dtype. */
  public static NDArray cast(NDArray x, DType t) {
    return x.dtype() == t ? x : x.astype(t);
  }
}
