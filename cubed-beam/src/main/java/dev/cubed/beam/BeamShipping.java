package dev.cubed.beam;

import dev.cubed.runtime.Operation;
import dev.cubed.zarr.MemoryStore;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * Checks, before a pipeline is built, that every task function can travel the way Beam ships a
 * DoFn (Java serialization), and that none uses an in-memory store (a runner works on a
 * deserialized copy of the function, so writes to a {@link MemoryStore} would be lost).
 */
final class BeamShipping {
  private BeamShipping() {}

  /**
   * Serializes each operation's task function to nowhere.
   *
   * @throws IllegalArgumentException naming the operation and what could not be serialized
   */
  static void check(List<Operation> ops) {
    for (Operation op : ops) {
      try (ObjectOutputStream o = new Shipping(OutputStream.nullOutputStream())) {
        o.writeObject(op.function());
      } catch (InMemory e) {
        throw new IllegalArgumentException("beam executor: operation " + op.name() + " reads or"
            + " writes an in-memory store (MemoryStore '" + e.getMessage() + "'), which Beam"
            + " workers cannot share: they run a deserialized copy of the task and its writes"
            + " would be lost. Use a filesystem or s3:// store, or the threads executor", e);
      } catch (NotSerializableException e) {
        throw new IllegalArgumentException("beam executor: the task function of operation "
            + op.name() + " cannot be shipped to Beam workers: it holds a " + e.getMessage()
            + ", which is not Serializable. Make the captured value Serializable (or transient"
            + " and rebuilt on use), or use the threads executor", e);
      } catch (IOException e) {
        throw new IllegalArgumentException("beam executor: the task function of operation "
            + op.name() + " cannot be serialized for Beam: " + e, e);
      }
    }
  }

  private static final class InMemory extends NotSerializableException {
    private static final long serialVersionUID = 1L;

    InMemory(String name) {
      super(name);
    }
  }

  private static final class Shipping extends ObjectOutputStream {
    Shipping(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) throws IOException {
      if (o instanceof MemoryStore m) {
        throw new InMemory(m.name());
      }
      return o;
    }
  }
}
