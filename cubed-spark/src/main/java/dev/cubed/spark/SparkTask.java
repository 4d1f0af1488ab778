package dev.cubed.spark;

import com.sun.management.ThreadMXBean;
import dev.cubed.runtime.RetryPolicy;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.TaskWorker;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction2;

/**
 * The closure Spark ships for one operation: runs the operation's {@link TaskFunction} on the one
 * key of its partition, inside an executor. A transient failure before the last attempt is thrown
 * (Spark retries the task); a deterministic failure, or any failure on the last attempt, is
 * returned as a {@link TaskOutcome} so the driver learns the key, the attempts and the message, and
 * Spark does not retry what would fail again. A function that ran its work in a process of its own
 * (a Python function: {@link TaskWorker}) is reported as that process in this executor, with its
 * peak resident set.
 */
final class SparkTask extends AbstractFunction2<TaskContext, Iterator<long[]>, TaskOutcome>
    implements Serializable {
  private static final long serialVersionUID = 1L;
  private final TaskFunction function;
  private final int maxAttempts;

  SparkTask(TaskFunction function, int maxAttempts) {
    this.function = function;
    this.maxAttempts = maxAttempts;
  }

  @Override
  public TaskOutcome apply(TaskContext ctx, Iterator<long[]> keys) {
    long[] key = keys.next();
    if (keys.hasNext()) {
      throw new IllegalStateException(
          "spark executor: partition "
              + ctx.partitionId()
              + " holds more than one key; each task must be its own partition");
    }
    int attempt = ctx.attemptNumber() + 1;
    String worker = worker();
    long allocatedBefore = allocated();
    long start = System.currentTimeMillis();
    TaskWorker.beginAttempt();
    try {
      function.run(key);
    } catch (Throwable t) {
      boolean deterministic = RetryPolicy.isDeterministic(t);
      if (!deterministic && attempt < maxAttempts) {
        throw sneaky(t);
      }
      return new TaskOutcome(
          key,
          start,
          System.currentTimeMillis(),
          attempt,
          -1,
          worker,
          -1,
          chain(t),
          t.getMessage(),
          stack(t),
          deterministic);
    }
    long end = System.currentTimeMillis();
    long after = allocated();
    TaskWorker.Ran ran = TaskWorker.reported();
    return new TaskOutcome(
        key,
        start,
        end,
        attempt,
        allocatedBefore >= 0 && after >= 0 ? after - allocatedBefore : -1,
        ran == null ? worker : ran.worker() + " in " + worker,
        ran == null ? -1 : ran.peakRss(),
        null,
        null,
        null,
        false);
  }

  /** The executor this runs in: its id, host and process id. */
  static String worker() {
    SparkEnv env = SparkEnv.get();
    String id = env == null ? "?" : env.executorId();
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown-host";
    }
    return "spark executor " + id + " (pid " + ProcessHandle.current().pid() + " on " + host + ")";
  }

  private static long allocated() {
    if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean m
        && m.isThreadAllocatedMemoryEnabled()) {
      return m.getCurrentThreadAllocatedBytes();
    }
    return -1;
  }

  static List<String> chain(Throwable t) {
    List<String> names = new ArrayList<>();
    for (Throwable c = t; c != null && names.size() < 16; c = c.getCause()) {
      names.add(c.getClass().getName());
    }
    return names;
  }

  private static String stack(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
    throw (E) t;
  }
}
