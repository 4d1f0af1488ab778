package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The sink of a decode of a box of a chunk straight into its place in a larger destination array:
 * the decoder hands over the full chunk's bytes (C order, items in the stored byte order) a slice
 * at a time, and of each row segment only the elements inside the box are converted and copied, to
 * the destination's element for that position. No chunk-sized array is made. A box may be strided:
 * along axis {@code i} it holds every {@code step[i]}-th element from {@code lo[i]}, written
 * densely into the destination.
 */
final class BoxInto implements JavaBlosc.Sink {
  private final DType dtype;
  private final ByteOrder order;
  private final Object d;
  private final int nd;
  private final long[] full;
  private final long[] lo;
  private final long[] box;
  private final long[] step;
  private final long[] dstAt;
  private final long[] dstStride;
  private final long rowLen;
  private final long c0;
  private final long c1;
  private final long cStep;
  private final long[] idx;

  /**
   * A sink writing the box at {@code lo} of shape {@code box} (with {@code step}, null for 1 on
   * every axis: every {@code step[i]}-th element along axis {@code i}) of a chunk of shape {@code
   * full} (elements in {@code order}) into {@code dst} at {@code dstAt}.
   */
  BoxInto(
      NDArray dst, ByteOrder order, long[] full, long[] lo, long[] box, long[] step, long[] dstAt) {
    this.dtype = dst.dtype();
    this.order = order;
    this.d = dst.data();
    this.nd = full.length;
    this.full = full.clone();
    this.lo = lo.clone();
    this.box = box.clone();
    this.step = steps(step, full.length);
    this.dstAt = dstAt.clone();
    long[] shape = dst.shape();
    this.dstStride = new long[nd];
    long s = 1;
    for (int i = nd - 1; i >= 0; i--) {
      dstStride[i] = s;
      s *= shape[i];
    }
    this.rowLen = full[nd - 1];
    this.cStep = this.step[nd - 1];
    this.c0 = lo[nd - 1];
    this.c1 = lo[nd - 1] + (box[nd - 1] - 1) * cStep + 1;
    this.idx = new long[nd];
  }

  private static long[] steps(long[] step, int nd) {
    long[] s = new long[nd];
    for (int i = 0; i < nd; i++) {
      s[i] = step == null ? 1 : step[i];
      if (s[i] < 1) {
        throw new IllegalArgumentException(
            "box steps must be at least 1: " + Arrays.toString(step));
      }
    }
    return s;
  }

  /**
   * The number of bytes of the chunk's C-order image up to and including the last element of the
   * box at {@code lo} of shape {@code box} (not empty; {@code step} as for the constructor) of a
   * chunk of shape {@code full}: a decode for this box can stop there.
   */
  static long endByte(long[] full, long[] lo, long[] box, long[] step, int itemSize) {
    long last = 0;
    for (int i = 0; i < full.length; i++) {
      last = last * full[i] + lo[i] + (box[i] - 1) * (step == null ? 1 : step[i]);
    }
    return (last + 1) * itemSize;
  }

  @Override
  public void accept(int off, byte[] src, int so, int len) {
    accept(off, ByteBuffer.wrap(src, so, len));
  }

  @Override
  public void accept(int off, ByteBuffer src) {
    int item = dtype.itemSize();
    int so = src.position();
    long e0 = off / item;
    long end = e0 + src.remaining() / item;
    long row = e0 / rowLen;
    long e = row * rowLen;
    while (e < end) {
      long a = Math.max(e + c0, e0);
      long b = Math.min(e + c1, end);
      if (a < b) {
        long at = target(row);
        if (at >= 0) {
          if (cStep == 1) {
            BloscStreams.fromBytes(
                src.slice(so + (int) (a - e0) * item, (int) (b - a) * item).order(order),
                dtype,
                d,
                (int) (at + a - e - c0),
                (int) (b - a));
          } else {
            // the selected columns in [a, b): c0 + j * cStep for j in [j0, j1)
            long j0 = Math.max(0, Math.floorDiv(a - e - c0 + cStep - 1, cStep));
            long j1 = Math.floorDiv(b - 1 - e - c0, cStep) + 1;
            if (j0 < j1) {
              int first = so + (int) (e + c0 + j0 * cStep - e0) * item;
              Strided.get(
                  src.duplicate().order(order),
                  first,
                  (int) cStep * item,
                  dtype,
                  d,
                  (int) (at + j0),
                  (int) (j1 - j0));
            }
          }
        }
      }
      row++;
      e += rowLen;
    }
  }

  /**
   * The destination element of the box's first column in row {@code row} of the full chunk (its
   * C-order position over all axes but the last), or -1 if that row is outside the box.
   */
  private long target(long row) {
    long r = row;
    for (int i = nd - 2; i >= 0; i--) {
      idx[i] = r % full[i];
      r /= full[i];
      long k = idx[i] - lo[i];
      if (k < 0 || k % step[i] != 0 || k / step[i] >= box[i]) {
        return -1;
      }
    }
    long t = dstAt[nd - 1];
    for (int i = 0; i < nd - 1; i++) {
      t += ((idx[i] - lo[i]) / step[i] + dstAt[i]) * dstStride[i];
    }
    return t;
  }

  /** Every n-th element of a byte buffer converted into a typed array. */
  private static final class Strided {
    private Strided() {}

    /**
     * Converts {@code n} elements of {@code dtype} from {@code bb} (in its byte order), the first
     * at byte {@code first}, each {@code stride} bytes after the one before, into {@code d} from
     * element {@code e0}.
     */
    static void get(ByteBuffer bb, int first, int stride, DType dtype, Object d, int e0, int n) {
      int p = first;
      switch (dtype) {
        case BOOL -> {
          boolean[] a = (boolean[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.get(p) != 0;
          }
        }
        case INT8, UINT8 -> {
          byte[] a = (byte[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.get(p);
          }
        }
        case INT16, UINT16 -> {
          short[] a = (short[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.getShort(p);
          }
        }
        case INT32, UINT32 -> {
          int[] a = (int[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.getInt(p);
          }
        }
        case INT64, UINT64 -> {
          long[] a = (long[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.getLong(p);
          }
        }
        case FLOAT32 -> {
          float[] a = (float[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.getFloat(p);
          }
        }
        case FLOAT64 -> {
          double[] a = (double[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[e0 + i] = bb.getDouble(p);
          }
        }
        case COMPLEX64 -> {
          float[] a = (float[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[2 * (e0 + i)] = bb.getFloat(p);
            a[2 * (e0 + i) + 1] = bb.getFloat(p + 4);
          }
        }
        case COMPLEX128 -> {
          double[] a = (double[]) d;
          for (int i = 0; i < n; i++, p += stride) {
            a[2 * (e0 + i)] = bb.getDouble(p);
            a[2 * (e0 + i) + 1] = bb.getDouble(p + 8);
          }
        }
      }
    }
  }
}
