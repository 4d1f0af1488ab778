package dev.cubed.spark;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;

/**
 * What the executor needs to know about a Spark master: the attempts a task gets, and the memory
 * one task may use in an executor (the executor's heap less Spark's reserved 300 MiB, shared by the
 * task slots of that executor).
 */
final class SparkCluster {
  /** Heap Spark reserves for itself in every executor (its RESERVED_SYSTEM_MEMORY_BYTES). */
  static final long SPARK_RESERVED = 300L << 20;

  private static final Pattern LOCAL =
      Pattern.compile("local(?:\\[\\s*(\\*|\\d+)\\s*(?:,\\s*(\\d+)\\s*)?])?");
  private static final Pattern LOCAL_CLUSTER =
      Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*]");

  private SparkCluster() {}

  /**
   * The memory of one task slot.
   *
   * @param heapBytes the executor's heap (-Xmx)
   * @param slots tasks one executor runs at once
   * @param where how the figures were found, for messages
   */
  record Slots(long heapBytes, int slots, String where) {
    /** Memory one task may use: (heap - Spark's 300 MiB) / slots. */
    long perTask() {
      return Math.max(0, heapBytes - SPARK_RESERVED) / slots;
    }
  }

  /** True for local and local[...] masters (tasks run in the driver JVM). */
  static boolean isLocal(String master) {
    return LOCAL.matcher(master.strip()).matches();
  }

  /** True if every Spark process of this master runs on this machine's loopback interface. */
  static boolean isLoopback(String master) {
    String m = master.strip();
    return isLocal(m)
        || LOCAL_CLUSTER.matcher(m).matches()
        || m.startsWith("spark://127.0.0.1:")
        || m.startsWith("spark://localhost:");
  }

  /**
   * The master with our attempts for local mode, which ignores {@code spark.task.maxFailures}:
   * {@code local[N]} becomes {@code local[N,attempts]}; a master that gives its own count, or any
   * other master, is returned unchanged.
   */
  static String withAttempts(String master, int attempts) {
    Matcher m = LOCAL.matcher(master.strip());
    if (!m.matches() || m.group(2) != null) {
      return master;
    }
    String threads = m.group(1) == null ? "1" : m.group(1);
    return "local[" + threads + "," + attempts + "]";
  }

  /**
   * Attempts a task gets on this master: for local masters the count in {@code local[N,F]} (1
   * without one), else {@code spark.task.maxFailures} (Spark's default 4).
   */
  static int maxAttempts(SparkConf conf, String master) {
    Matcher m = LOCAL.matcher(master.strip());
    if (m.matches()) {
      return m.group(2) == null ? 1 : Math.max(1, Integer.parseInt(m.group(2)));
    }
    return Math.max(1, conf.getInt("spark.task.maxFailures", 4));
  }

  /**
   * The executors' task slots and heap: local masters run tasks in the driver JVM (its max heap, N
   * slots); local-cluster[n,cores,MB] gives both; other masters use {@code spark.executor.memory}
   * (default 1g) and {@code spark.executor.cores} (default 1, which this executor sets for the
   * contexts it starts), divided by {@code spark.task.cpus}.
   */
  static Slots slots(SparkConf conf, String master, long driverHeap) {
    String m = master.strip();
    int taskCpus = Math.max(1, conf.getInt("spark.task.cpus", 1));
    Matcher local = LOCAL.matcher(m);
    if (local.matches()) {
      int n =
          local.group(1) == null
              ? 1
              : "*".equals(local.group(1))
                  ? Runtime.getRuntime().availableProcessors()
                  : Integer.parseInt(local.group(1));
      return new Slots(
          driverHeap,
          Math.max(1, n / taskCpus),
          "local mode: tasks run in the driver"
              + " JVM (max heap "
              + mib(driverHeap)
              + ", -Xmx of this JVM), "
              + n
              + " at once");
    }
    Matcher lc = LOCAL_CLUSTER.matcher(m);
    if (lc.matches()) {
      int cores = Integer.parseInt(lc.group(2));
      long heap = Long.parseLong(lc.group(3)) << 20;
      return new Slots(
          heap,
          Math.max(1, cores / taskCpus),
          "local-cluster: " + mib(heap) + " per executor, " + cores + " core(s) each");
    }
    long heap = conf.getSizeAsBytes("spark.executor.memory", "1g");
    int cores = conf.getInt("spark.executor.cores", 1);
    return new Slots(
        heap,
        Math.max(1, cores / taskCpus),
        "spark.executor.memory="
            + mib(heap)
            + ", spark.executor.cores="
            + cores
            + ", spark.task.cpus="
            + taskCpus);
  }

  static String mib(long bytes) {
    return String.format("%.1f MiB", bytes / 1048576.0);
  }
}
