package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.processes.DeserializationFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A lazy array as bytes and back (Python's {@code pickle} of a {@code cubed_java.Array}): its plan,
 * not its data. The bytes are a header ({@link #MAGIC}) followed by the Java serialization of the
 * {@link CubedArray} (op graph and spec); the in-memory arrays of {@code from_array} ops are
 * written as their contents (dtype, shape, elements), which is all the data a plan carries. Nothing
 * is computed. Reading them back in any bridge process of the same build gives an array that
 * computes the same values.
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

  /** An in-memory array's contents, as written in place of the {@link NDArray}. */
  private record HeldArray(DType dtype, long[] shape, Object data) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private PlanBytes() {}

  /**
   * The array's plan as bytes.
   *
   * @throws NotSerializablePlan if an op holds a value that is not Serializable (the message names
   *     its class)
   */
  static byte[] write(CubedArray x) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
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

  private static final class Writer extends ObjectOutputStream {
    Writer(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) {
      if (o instanceof NDArray a) {
        return new HeldArray(a.dtype(), a.shape(), a.data());
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
      return o instanceof HeldArray h ? new NDArray(h.dtype(), h.shape(), h.data()) : o;
    }
  }
}
