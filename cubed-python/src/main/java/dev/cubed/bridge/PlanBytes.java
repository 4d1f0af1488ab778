package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.processes.DeserializationFilters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A lazy array as bytes and back (Python's {@code pickle} of a {@code cubed_java.Array}): its plan,
 * not its data. The bytes are a header ({@link #MAGIC}) followed by the Java serialization of the
 * {@link CubedArray} (op graph and spec); the in-memory arrays of {@code from_array} ops are
 * written as their contents (dtype, shape, elements as little-endian bytes), which is all the data
 * a plan carries. Nothing is computed. Reading them back in any bridge process of the same build
 * gives an array that computes the same values.
 *
 * <p>Reading accepts only classes of {@code dev.cubed} and the few JDK types plans hold, within
 * limits on depth, references and array lengths ({@link DeserializationFilters#plans}): bytes
 * naming anything else (a {@code HashSet}, say) are refused at that class, before any of it is
 * built. Reading is still running the engine's code on a described graph, so bytes are to be read
 * only from a source one trusts, as Python's own pickles.
 */
final class PlanBytes {
  /** The bytes' first bytes: the format and its version. */
  static final byte[] MAGIC = "cubed-java-plan-1\n".getBytes(StandardCharsets.US_ASCII);

  /** Serialization refused: the plan holds a value that is not Serializable. */
  static final class NotSerializablePlan extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    NotSerializablePlan(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * An in-memory array's contents, as written in place of the {@link NDArray}: its elements as
   * little-endian bytes, converted in one bulk copy each way ({@link NDArray#toBytes}, {@link
   * NDArray#fromBytes}) and written as one byte array, where the serialization of a {@code
   * double[]} converts and buffers it an element at a time.
   */
  private record HeldArray(DType dtype, long[] shape, byte[] elements) implements Serializable {
    private static final long serialVersionUID = 2L;
  }

  private PlanBytes() {}

  /**
   * The array's plan as bytes.
   *
   * @throws NotSerializablePlan if an op holds a value that is not Serializable (the message names
   *     its class)
   */
  static byte[] write(CubedArray x) throws IOException {
    Pieces bytes = new Pieces();
    bytes.write(MAGIC);
    try (ObjectOutputStream out = new Writer(bytes)) {
      out.writeObject(x);
    } catch (NotSerializableException e) {
      throw new NotSerializablePlan(
          "this array's plan holds a "
              + e.getMessage()
              + ", which is"
              + " not java.io.Serializable, so the array cannot be pickled (an op made from a Java"
              + " value that cannot travel); compute it, or write it with to_zarr and pickle"
              + " from_zarr of the result",
          e);
    }
    return bytes.toByteArray();
  }

  /**
   * The array written by {@link #write}.
   *
   * @throws IllegalArgumentException if the bytes are not such an array, name a class outside the
   *     engine, or were written by a build whose classes differ from this one's
   */
  static CubedArray read(byte[] b) throws IOException {
    return read(b, DeserializationFilters.plans(b.length));
  }

  /** {@link #read(byte[])} with another filter (tests). */
  static CubedArray read(byte[] b, ObjectInputFilter filter) throws IOException {
    if (b.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(b, MAGIC.length), MAGIC)) {
      throw new IllegalArgumentException(
          "deserialize: these bytes are not a pickled"
              + " cubed_java array (they do not start with the format's header "
              + new String(MAGIC, 0, MAGIC.length - 1, StandardCharsets.US_ASCII)
              + ")");
    }
    InputStream in = new ByteArrayInputStream(b, MAGIC.length, b.length - MAGIC.length);
    try (ObjectInputStream ois = new Reader(in)) {
      ois.setObjectInputFilter(filter);
      Object o = ois.readObject();
      if (!(o instanceof CubedArray x)) {
        throw new IllegalArgumentException(
            "deserialize: the bytes hold a "
                + (o == null ? "null" : o.getClass().getName())
                + ", not an array");
      }
      return x;
    } catch (InvalidClassException | ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "deserialize: the pickled array cannot be read by this"
              + " engine ("
              + e
              + "): it was pickled by a different build of Cubed for Java, or"
              + " names classes outside the engine; unpickle it with the same build",
          e);
    } catch (ObjectStreamException e) {
      throw new IllegalArgumentException(
          "deserialize: the pickled array cannot be read by this"
              + " engine ("
              + e
              + "): it is damaged, or was pickled by a different build of Cubed"
              + " for Java; unpickle it with the same build",
          e);
    }
  }

  /**
   * Bytes written in pieces that are kept as they fill (a {@code ByteArrayOutputStream} copies all
   * it holds each time it grows: three times the plan's data for a large one), joined once at the
   * end.
   */
  private static final class Pieces extends OutputStream {
    private static final int LARGEST = 1 << 26;
    private final List<byte[]> full = new ArrayList<>();
    private byte[] piece = new byte[1 << 16];
    private int pos;
    private long total;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      while (len > 0) {
        if (pos == piece.length) {
          full.add(piece);
          piece = new byte[(int) Math.min(LARGEST, 2L * piece.length)];
          pos = 0;
        }
        int n = Math.min(len, piece.length - pos);
        System.arraycopy(b, off, piece, pos, n);
        pos += n;
        off += n;
        len -= n;
        total += n;
      }
    }

    /**
     * All bytes written, in one array.
     *
     * @throws IllegalArgumentException above 2 GiB, the largest array
     */
    byte[] toByteArray() {
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "serialize: this array's plan takes "
                + total
                + " bytes, more than a pickle of it may hold (2 GiB); write it with to_zarr and"
                + " pickle from_zarr of the result");
      }
      byte[] out = new byte[(int) total];
      int at = 0;
      for (byte[] p : full) {
        System.arraycopy(p, 0, out, at, p.length);
        at += p.length;
      }
      System.arraycopy(piece, 0, out, at, pos);
      return out;
    }
  }

  private static final class Writer extends ObjectOutputStream {
    Writer(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) {
      if (o instanceof NDArray a) {
        return new HeldArray(a.dtype(), a.shape(), a.toBytes(ByteOrder.LITTLE_ENDIAN));
      }
      return o;
    }
  }

  private static final class Reader extends ObjectInputStream {
    Reader(InputStream in) throws IOException {
      super(in);
      enableResolveObject(true);
    }

    /** The JDK's immutable collections' form is read as {@link CollSer}: lists only. */
    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return desc.getName().equals("java.util.CollSer") ? CollSer.class : super.resolveClass(desc);
    }

    @Override
    protected Object resolveObject(Object o) {
      return o instanceof HeldArray h
          ? NDArray.fromBytes(h.dtype(), h.shape(), h.elements(), ByteOrder.LITTLE_ENDIAN)
          : o;
    }
  }
}
