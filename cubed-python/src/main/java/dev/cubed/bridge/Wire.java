package dev.cubed.bridge;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bridge's value encoding: a one-byte tag, then the value, little-endian. Only these tags are
 * read; nothing is ever deserialized as a Java object. See docs/python.md for the table.
 */
final class Wire {
  static final int NONE = 0;
  static final int BOOL = 1;
  static final int INT = 2;
  static final int FLOAT = 3;
  static final int COMPLEX = 4;
  static final int STR = 5;
  static final int HANDLE = 6;
  static final int INTS = 7;
  static final int LIST = 8;
  static final int DTYPE = 9;
  static final int NDARRAY = 10;
  static final int SPEC = 11;
  static final int ARRAYINFO = 12;
  static final int INDEX = 13;

  /** An array in a shared file: dtype, ndim, shape, byte count, path ({@link SharedMemory}). */
  static final int SHMARRAY = 14;

  /** Longest string, list or index accepted in a message. */
  static final int MAX_COUNT = 1 << 24;

  private Wire() {}

  /** A value referring to a handle in the session's table. */
  record Handle(long id) {}

  /** The session's spec (tag {@link #SPEC}). */
  enum SessionSpec {
    INSTANCE
  }

  /** A message that does not follow the encoding; answered with an error frame. */
  static final class MalformedMessageException extends IllegalArgumentException {
    MalformedMessageException(String message) {
      super(message);
    }
  }

  /** Reads one value; throws {@link MalformedMessageException} on anything not in the table. */
  static Object read(ByteBuffer b) {
    try {
      int tag = b.get() & 0xff;
      return switch (tag) {
        case NONE -> null;
        case BOOL -> b.get() != 0;
        case INT -> b.getLong();
        case FLOAT -> b.getDouble();
        case COMPLEX -> new Complex(b.getDouble(), b.getDouble());
        case STR -> readString(b);
        case HANDLE -> new Handle(b.getLong());
        case INTS -> readLongs(b);
        case LIST -> {
          int n = count(b);
          List<Object> xs = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            xs.add(read(b));
          }
          yield xs;
        }
        case DTYPE -> dtype(readString(b));
        case NDARRAY -> readArray(b);
        case SPEC -> SessionSpec.INSTANCE;
        case INDEX -> readIndex(b);
        case SHMARRAY -> readSharedArray(b);
        default ->
            throw new MalformedMessageException(
                "unknown value tag "
                    + tag
                    + " at byte "
                    + (b.position() - 1)
                    + " (known tags 0.."
                    + SHMARRAY
                    + ")");
      };
    } catch (BufferUnderflowException e) {
      throw new MalformedMessageException(
          "message ends inside a value ("
              + b.limit()
              + " bytes): the sender's frame length does not match its content");
    }
  }

  static DType dtype(String name) {
    try {
      return DType.fromName(name);
    } catch (RuntimeException e) {
      throw new MalformedMessageException("unknown dtype '" + name + "'");
    }
  }

  static int count(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || n > MAX_COUNT || n > b.remaining()) {
      throw new MalformedMessageException(
          "count "
              + n
              + " out of range (0.."
              + Math.min(MAX_COUNT, b.remaining())
              + " at byte "
              + (b.position() - 4)
              + ")");
    }
    return n;
  }

  static String readString(ByteBuffer b) {
    int n = count(b);
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }

  static long[] readLongs(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || (long) n * 8 > b.remaining()) {
      throw new MalformedMessageException(
          "int list of " + n + " entries does not fit the " + b.remaining() + " bytes left");
    }
    long[] xs = new long[n];
    for (int i = 0; i < n; i++) {
      xs[i] = b.getLong();
    }
    return xs;
  }

  static NDArray readSharedArray(ByteBuffer b) {
    DType dtype = dtype(readString(b));
    long[] shape = readShape(b);
    long nbytes = b.getLong();
    long need = Math.multiplyExact(sizeOf(shape), (long) dtype.itemSize());
    if (nbytes != need) {
      throw new MalformedMessageException(
          "shared array of "
              + dtype
              + " shape "
              + Arrays.toString(shape)
              + " needs "
              + need
              + " bytes; message says "
              + nbytes);
    }
    return SharedMemory.read(dtype, shape, nbytes, readString(b));
  }

  private static long[] readShape(ByteBuffer b) {
    int ndim = b.get() & 0xff;
    long[] shape = new long[ndim];
    for (int i = 0; i < ndim; i++) {
      shape[i] = b.getLong();
      if (shape[i] < 0) {
        throw new MalformedMessageException("negative array dimension " + shape[i]);
      }
    }
    return shape;
  }

  private static long sizeOf(long[] shape) {
    long size = 1;
    for (long d : shape) {
      size = Math.multiplyExact(size, d);
    }
    return size;
  }

  static NDArray readArray(ByteBuffer b) {
    DType dtype = dtype(readString(b));
    int ndim = b.get() & 0xff;
    long[] shape = new long[ndim];
    long size = 1;
    for (int i = 0; i < ndim; i++) {
      shape[i] = b.getLong();
      if (shape[i] < 0) {
        throw new MalformedMessageException("negative array dimension " + shape[i]);
      }
      size = Math.multiplyExact(size, shape[i]);
    }
    long nbytes = b.getLong();
    if (nbytes != size * dtype.itemSize() || nbytes > b.remaining()) {
      throw new MalformedMessageException(
          "array of "
              + dtype
              + " shape "
              + Arrays.toString(shape)
              + " needs "
              + size * dtype.itemSize()
              + " bytes; message says "
              + nbytes
              + " with "
              + b.remaining()
              + " left");
    }
    ByteBuffer data = b.slice(b.position(), (int) nbytes).order(ByteOrder.LITTLE_ENDIAN);
    b.position(b.position() + (int) nbytes);
    return NDArray.fromBytes(dtype, shape, data, ByteOrder.LITTLE_ENDIAN);
  }

  static Index[] readIndex(ByteBuffer b) {
    int n = count(b);
    Index[] idx = new Index[n];
    for (int i = 0; i < n; i++) {
      int kind = b.get();
      idx[i] =
          switch (kind) {
            case 0 -> Index.at(b.getLong());
            case 1 -> {
              int mask = b.get();
              long start = b.getLong();
              long stop = b.getLong();
              long step = b.getLong();
              yield Index.slice(
                  (mask & 1) != 0 ? start : null, (mask & 2) != 0 ? stop : null, step);
            }
            case 2 -> Index.newAxis();
            case 3 -> Index.ellipsis();
            default ->
                throw new MalformedMessageException(
                    "unknown index kind " + kind + " (0 integer, 1 slice, 2 newaxis, 3 ellipsis)");
          };
    }
    return idx;
  }

  /** Growable little-endian output buffer; large arrays are written straight to the stream. */
  static final class Out extends ByteArrayOutputStream {
    private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    Out() {
      super(256);
    }

    void u8(int v) {
      write(v);
    }

    void i32(int v) {
      scratch.clear();
      scratch.putInt(v);
      write(scratch.array(), 0, 4);
    }

    void i64(long v) {
      scratch.clear();
      scratch.putLong(v);
      write(scratch.array(), 0, 8);
    }

    void f64(double v) {
      i64(Double.doubleToRawLongBits(v));
    }

    void str(String s) {
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      i32(bytes.length);
      write(bytes, 0, bytes.length);
    }

    byte[] buffer() {
      return buf;
    }
  }
}
