package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random inputs for {@link DifferentialTest}: shapes with zero-length and size-1 axes, values per
 * dtype (small integers with the type's extremes now and then; floats as multiples of 1/4 so sums
 * are exact, with ±0, ±inf and NaN mixed in; sometimes arrays of only ±0), and chunkings (regular,
 * or irregular Dask-style block lists).
 */
final class DiffData {
  static final DType[] DTYPES = {
    DType.BOOL,
    DType.INT8,
    DType.INT16,
    DType.INT32,
    DType.INT64,
    DType.UINT8,
    DType.UINT16,
    DType.UINT32,
    DType.UINT64,
    DType.FLOAT32,
    DType.FLOAT64,
    DType.COMPLEX64,
    DType.COMPLEX128
  };
  private static final long[] DIMS = {0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7};

  private DiffData() {}

  static DType dtype(Random r) {
    return DTYPES[r.nextInt(DTYPES.length)];
  }

  static long dim(Random r) {
    return DIMS[r.nextInt(DIMS.length)];
  }

  static long[] shape(Random r) {
    int nd = r.nextInt(10) < 1 ? 0 : 1 + r.nextInt(3);
    long[] s = new long[nd];
    for (int i = 0; i < nd; i++) {
      s[i] = dim(r);
    }
    return s;
  }

  static NDArray array(Random r, DType t, long[] shape) {
    NDArray a = NDArray.zeros(t, shape);
    int mode = r.nextInt(12); // 0: only signed zeros, 1: all equal, else mixed
    double zero = r.nextBoolean() ? -0.0 : 0.0;
    double constant = value(r, t);
    for (int i = 0; i < a.size(); i++) {
      if (t.isBool()) {
        a.setBoolean(i, mode == 1 ? constant != 0 : r.nextInt(3) != 0);
      } else if (t.isFloating()) {
        double re =
            mode == 0 ? (r.nextInt(3) == 0 ? -zero : zero) : mode == 1 ? constant : value(r, t);
        if (t.isComplex()) {
          double im = mode == 0 ? zero : mode == 1 ? constant : value(r, t);
          a.setComplex(i, re, im);
        } else {
          a.setDouble(i, re);
        }
      } else {
        a.setLong(i, mode <= 1 ? (long) constant : intValue(r, t));
      }
    }
    return a;
  }

  private static double value(Random r, DType t) {
    if (!t.isFloating()) {
      return intValue(r, t);
    }
    int k = r.nextInt(40);
    return switch (k) {
      case 0 -> Double.NaN;
      case 1 -> Double.POSITIVE_INFINITY;
      case 2 -> Double.NEGATIVE_INFINITY;
      case 3 -> -0.0;
      case 4 -> 0.0;
      default -> (r.nextInt(65) - 32) / 4.0;
    };
  }

  private static long intValue(Random r, DType t) {
    if (r.nextInt(25) == 0) {
      int bits = (int) t.itemSize() * 8;
      if (t.isUnsigned()) {
        return bits == 64 ? -1L : (1L << bits) - 1;
      }
      return r.nextBoolean() ? -(1L << (bits - 1)) : (1L << (bits - 1)) - 1;
    }
    return t.isUnsigned() ? r.nextInt(10) : r.nextInt(13) - 6;
  }

  /** Regular chunks (every axis 1..length) for {@code shape}. */
  static long[] chunks(Random r, long[] shape) {
    long[] c = new long[shape.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = shape[i] <= 1 ? 1 : 1 + r.nextInt((int) shape[i]);
    }
    return c;
  }

  /** Irregular block sizes per axis (a random partition of each axis). */
  static long[][] blocks(Random r, long[] shape) {
    long[][] b = new long[shape.length][];
    for (int i = 0; i < b.length; i++) {
      long left = shape[i];
      List<Long> l = new ArrayList<>();
      while (left > 0) {
        long s = 1 + r.nextInt((int) Math.min(left, 4));
        l.add(s);
        left -= s;
      }
      b[i] = l.stream().mapToLong(Long::longValue).toArray();
    }
    return b;
  }

  static String describe(NDArray a) {
    return a.dtype() + Shapes.format(a.shape());
  }
}
