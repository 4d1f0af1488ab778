package dev.cubed.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.List;

/**
 * Turns the ops' task functions into the bytes a processes-executor worker receives
 * ({@link WorkerProtocol#DEFINE}), refusing what cannot work in another JVM with an error naming
 * the op.
 */
final class FunctionShipping {
  private FunctionShipping() {}

  /** Serializes each op's task function once, for every worker. */
  static byte[][] serializeFunctions(List<Operation> ops) {
    byte[][] fns = new byte[ops.size()][];
    for (int i = 0; i < ops.size(); i++) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (ObjectOutputStream o = new ShippingStream(b)) {
        o.writeObject(ops.get(i).function());
      } catch (InMemoryStoreException e) {
        throw new IllegalArgumentException("processes executor: operation " + ops.get(i).name()
            + " reads or writes an in-memory store (MemoryStore" + (e.getMessage() == null ? ""
            : " '" + e.getMessage() + "'") + "), which lives in this JVM: a worker process"
            + " would read and write its own copy and the results would be lost. Use a"
            + " filesystem or object store, or the threads executor", e);
      } catch (NotSerializableException e) {
        throw new IllegalArgumentException("processes executor: the task function of operation "
            + ops.get(i).name() + " cannot be sent to a worker process: it holds a "
            + e.getMessage() + ", which is not Serializable. Make the captured value Serializable"
            + " (or transient and rebuilt on use), or use the threads executor", e);
      } catch (IOException e) {
        throw new IllegalArgumentException("processes executor: the task function of operation "
            + ops.get(i).name() + " cannot be serialized: " + e, e);
      }
      fns[i] = b.toByteArray();
    }
    return fns;
  }

  /** A MemoryStore met while shipping a task function. */
  private static final class InMemoryStoreException extends NotSerializableException {
    private static final long serialVersionUID = 1L;

    InMemoryStoreException(String name) {
      super(name);
    }
  }

  /** Serializes task functions for workers, refusing stores that live in this JVM. */
  private static final class ShippingStream extends ObjectOutputStream {
    ShippingStream(java.io.OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) throws IOException {
      if (o instanceof dev.cubed.zarr.MemoryStore m) {
        throw new InMemoryStoreException(m.name());
      }
      return o;
    }
  }
}
