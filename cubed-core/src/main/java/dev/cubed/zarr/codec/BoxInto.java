package dev.cubed.zarr.codec;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The sink of a decode of a box of a chunk straight into its place in a larger destination array:
 * the decoder hands over the full chunk's bytes (C order, items in the stored byte order) a slice
 * at a time, and of each row segment only the elements inside the box are converted and copied, to
 * the destination's element for that position. No chunk-sized array is made.
 */
final class BoxInto implements JavaBlosc.Sink {
  private final DType dtype;
  private final ByteOrder order;
  private final Object d;
  private final int nd;
  private final long[] full;
  private final long[] lo;
  private final long[] box;
  private final long[] dstAt;
  private final long[] dstStride;
  private final long rowLen;
  private final long c0;
  private final long c1;
  private final long[] idx;

  /**
   * A sink writing the box at {@code lo} of shape {@code box} of a chunk of shape {@code full}
   * (elements in {@code order}) into {@code dst} at {@code dstAt}.
   */
  BoxInto(NDArray dst, ByteOrder order, long[] full, long[] lo, long[] box, long[] dstAt) {
    this.dtype = dst.dtype();
    this.order = order;
    this.d = dst.data();
    this.nd = full.length;
    this.full = full.clone();
    this.lo = lo.clone();
    this.box = box.clone();
    this.dstAt = dstAt.clone();
    long[] shape = dst.shape();
    this.dstStride = new long[nd];
    long s = 1;
    for (int i = nd - 1; i >= 0; i--) {
      dstStride[i] = s;
      s *= shape[i];
    }
    this.rowLen = full[nd - 1];
    this.c0 = lo[nd - 1];
    this.c1 = lo[nd - 1] + box[nd - 1];
    this.idx = new long[nd];
  }

  /**
   * The number of bytes of the chunk's C-order image up to and including the last element of the
   * box at {@code lo} of shape {@code box} (not empty) of a chunk of shape {@code full}: a decode
   * for this box can stop there.
   */
  static long endByte(long[] full, long[] lo, long[] box, int itemSize) {
    long last = 0;
    for (int i = 0; i < full.length; i++) {
      last = last * full[i] + lo[i] + box[i] - 1;
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
          BloscStreams.fromBytes(
              src.slice(so + (int) (a - e0) * item, (int) (b - a) * item).order(order),
              dtype,
              d,
              (int) (at + a - e - c0),
              (int) (b - a));
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
      if (idx[i] < lo[i] || idx[i] >= lo[i] + box[i]) {
        return -1;
      }
    }
    long t = dstAt[nd - 1];
    for (int i = 0; i < nd - 1; i++) {
      t += (idx[i] - lo[i] + dstAt[i]) * dstStride[i];
    }
    return t;
  }
}
