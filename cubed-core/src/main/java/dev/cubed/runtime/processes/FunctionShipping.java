package dev.cubed.runtime.processes;

import dev.cubed.runtime.Operation;
import dev.cubed.zarr.store.MemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes task functions for executors that run them in another JVM (the processes executor's
 * workers, Spark executors, Beam workers), refusing what cannot work there with an error naming the
 * executor and the op: a task function that is not Serializable, and one that uses an in-memory
 * store ({@link dev.cubed.zarr.store.MemoryStore}), which lives in this JVM (the other JVM would
 * work on a copy and its writes would be lost).
 */
public final class FunctionShipping {
  private FunctionShipping() {}

  /** Serializes each op's task function once, for every worker ({@link WorkerProtocol#DEFINE}). */
  static byte[][] serializeFunctions(List<Operation> ops) {
    byte[][] fns = new byte[ops.size()][];
    for (int i = 0; i < ops.size(); i++) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      write(ops.get(i), "processes", "a worker process", b, true);
      fns[i] = b.toByteArray();
    }
    return fns;
  }

  /**
   * Checks, before anything runs, that every op's task function can be shipped to another JVM
   * (serialized to nowhere).
   *
   * @param executor the executor's name, for the message ("spark")
   * @param destination where the functions go, for the message ("Spark executors")
   * @throws IllegalArgumentException naming the executor, the op and what cannot be shipped
   */
  public static void check(List<Operation> ops, String executor, String destination) {
    for (Operation op : ops) {
      write(op, executor, destination, OutputStream.nullOutputStream(), false);
    }
  }

  /**
   * The ops with their task functions as an executor that ships functions with its own
   * serialization (Spark, Beam) should ship them: each checked as {@link #check} does, serialized
   * once here with {@link ClientData} replaced by its stand-in (the plan stored such data in the
   * work directory first: {@link dev.cubed.runtime.Executor#runsTasksInThisJvm()} false), and
   * deserialized where it runs, on first use.
   *
   * @param executor the executor's name, for messages ("spark")
   * @param destination where the function goes, for messages ("Spark executors")
   * @throws IllegalArgumentException naming the executor, the op and what cannot be shipped
   */
  public static List<Operation> shippable(
      List<Operation> ops, String executor, String destination) {
    List<Operation> out = new ArrayList<>(ops.size());
    for (Operation op : ops) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      write(op, executor, destination, b, true);
      out.add(op.withFunction(new ShippedFunction(op.name(), b.toByteArray())));
    }
    return out;
  }

  private static void write(
      Operation op, String executor, String destination, OutputStream out, boolean standIns) {
    try (ObjectOutputStream o = new ShippingStream(out, standIns)) {
      o.writeObject(op.function());
    } catch (InMemoryStoreException e) {
      throw new IllegalArgumentException(
          executor
              + " executor: operation "
              + op.name()
              + " reads or writes an in-memory store (MemoryStore"
              + (e.getMessage() == null ? "" : " '" + e.getMessage() + "'")
              + "), which lives in this JVM: "
              + destination
              + " would work on a copy and its writes would be lost. Use a filesystem every worker"
              + " sees or an object store (s3://...), or the threads executor",
          e);
    } catch (NotSerializableException e) {
      throw new IllegalArgumentException(
          executor
              + " executor: the task function of operation "
              + op.name()
              + " cannot be shipped to "
              + destination
              + ": it holds a "
              + e.getMessage()
              + ", which is not Serializable. Make the captured value Serializable (or transient and"
              + " rebuilt on use), or use the threads executor",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          executor
              + " executor: the task function of operation "
              + op.name()
              + " cannot be serialized: "
              + e,
          e);
    }
  }

  /** A MemoryStore met while shipping a task function. */
  private static final class InMemoryStoreException extends NotSerializableException {
    private static final long serialVersionUID = 1L;

    InMemoryStoreException(String name) {
      super(name);
    }
  }

  /**
   * Serializes task functions, refusing stores that live in this JVM; with {@code standIns}, writes
   * {@link ClientData} as its stand-in (executors whose plans store such data first: {@link
   * dev.cubed.runtime.Executor#runsTasksInThisJvm()} false; the processes executor, and Spark and
   * Beam through {@link #shippable}). Without, {@link #check} refuses such data as not
   * Serializable.
   */
  private static final class ShippingStream extends ObjectOutputStream {
    private final boolean standIns;

    ShippingStream(OutputStream out, boolean standIns) throws IOException {
      super(out);
      this.standIns = standIns;
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) throws IOException {
      if (o instanceof MemoryStore m) {
        throw new InMemoryStoreException(m.name());
      }
      if (standIns && o instanceof ClientData d) {
        return d.shippedForm();
      }
      return o;
    }
  }
}
