package dev.cubed.nd;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The raw byte encoding of an {@link NDArray}'s elements ({@link NDArray#toBytes}, {@link
 * NDArray#fromBytes}): C order, the given byte order, one byte 0 or 1 per bool, complex numbers as
 * (re, im) pairs.
 */
final class ByteCodec {
  private ByteCodec() {}

  /** The elements of a backing array as raw bytes in the given byte order. */
  static byte[] encode(DType dtype, int size, Object data, long nbytes, ByteOrder order) {
    byte[] out = new byte[Math.toIntExact(nbytes)];
    ByteBuffer bb = ByteBuffer.wrap(out).order(order);
    switch (dtype) {
      case BOOL -> {
        boolean[] b = (boolean[]) data;
        for (int i = 0; i < size; i++) {
          out[i] = (byte) (b[i] ? 1 : 0);
        }
      }
      case INT8, UINT8 -> System.arraycopy(data, 0, out, 0, size);
      case INT16, UINT16 -> bb.asShortBuffer().put((short[]) data);
      case INT32, UINT32 -> bb.asIntBuffer().put((int[]) data);
      case INT64, UINT64 -> bb.asLongBuffer().put((long[]) data);
      case FLOAT32, COMPLEX64 -> bb.asFloatBuffer().put((float[]) data);
      case FLOAT64, COMPLEX128 -> bb.asDoubleBuffer().put((double[]) data);
    }
    return out;
  }

  /**
   * A new backing array decoded from the remaining bytes of a buffer.
   *
   * @throws IllegalArgumentException if the byte count does not equal {@code size * itemSize}
   */
  static Object decode(DType dtype, long[] shape, ByteBuffer bytes, ByteOrder order) {
    int n = Shapes.intSize("fromBytes", shape);
    long expected = (long) n * dtype.itemSize();
    if (bytes.remaining() != expected) {
      throw new IllegalArgumentException(
          "fromBytes: shape "
              + Shapes.format(shape)
              + " of "
              + dtype
              + " needs "
              + expected
              + " bytes, got "
              + bytes.remaining());
    }
    ByteBuffer bb = bytes.slice().order(order);
    Object d = NDArray.allocate(dtype, n);
    switch (dtype) {
      case BOOL -> {
        boolean[] b = (boolean[]) d;
        for (int i = 0; i < n; i++) {
          b[i] = bb.get(i) != 0;
        }
      }
      case INT8, UINT8 -> bb.get((byte[]) d);
      case INT16, UINT16 -> bb.asShortBuffer().get((short[]) d);
      case INT32, UINT32 -> bb.asIntBuffer().get((int[]) d);
      case INT64, UINT64 -> bb.asLongBuffer().get((long[]) d);
      case FLOAT32, COMPLEX64 -> bb.asFloatBuffer().get((float[]) d);
      case FLOAT64, COMPLEX128 -> bb.asDoubleBuffer().get((double[]) d);
    }
    return d;
  }
}
