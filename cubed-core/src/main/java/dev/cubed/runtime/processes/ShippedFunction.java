package dev.cubed.runtime.processes;

import dev.cubed.runtime.TaskFunction;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * A task function serialized once in the client, with {@link ClientData} replaced by its stand-in
 * ({@link FunctionShipping#shippable}), for executors that ship task functions with their own
 * serialization (Spark, Beam): what they ship is these bytes, and the function is deserialized
 * where it runs, on its first task there. So an in-memory input the plan stored in the work
 * directory is not shipped with every task: the tasks read its stored blocks.
 *
 * <p>Classes resolve through the thread's context class loader (where Spark and Flink put the job's
 * classes), then through this class's loader.
 */
final class ShippedFunction implements TaskFunction {
  private static final long serialVersionUID = 1L;

  private final String op;
  private final byte[] bytes;
  private transient volatile TaskFunction function;

  ShippedFunction(String op, byte[] bytes) {
    this.op = op;
    this.bytes = bytes;
  }

  @Override
  public void run(long[] key) throws Exception {
    TaskFunction f = function;
    if (f == null) {
      f = deserialize();
      function = f;
    }
    f.run(key);
  }

  private TaskFunction deserialize() throws IOException, ClassNotFoundException {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ClassLoader own = ShippedFunction.class.getClassLoader();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes)) {
          @Override
          protected Class<?> resolveClass(ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            for (ClassLoader cl : new ClassLoader[] {context, own}) {
              if (cl != null) {
                try {
                  return Class.forName(desc.getName(), false, cl);
                } catch (ClassNotFoundException e) {
                  // the next loader
                }
              }
            }
            return super.resolveClass(desc);
          }
        }) {
      return (TaskFunction) in.readObject();
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      throw new IllegalStateException(
          "the task function of operation " + op + " could not be read where it runs: " + e, e);
    }
  }
}
