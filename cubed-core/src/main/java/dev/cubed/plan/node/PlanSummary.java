package dev.cubed.plan.node;

import java.util.List;
import java.util.Locale;

/**
 * What a finalized plan will do: its operations (after fusion) with task counts, projected memory
 * per task and bytes written, plus totals.
 *
 * @param ops operations in run order
 * @param allowedMem allowedMem of the spec, bytes
 * @param reservedMem reservedMem of the spec, bytes
 */
public record PlanSummary(List<OpInfo> ops, long allowedMem, long reservedMem) {
  /**
   * The most tasks one operation may have: 100,000,000. An op's task keys are listed in memory
   * (about 40 bytes each for a 2-d array, so 4 GB at this limit), and at a typical 10 ms per task
   * such an op already runs for days on a few workers. A computed or rechunked array with more
   * blocks is refused when it is defined, with an {@link IllegalArgumentException} naming its
   * shape, chunks and block count; the remedy is larger chunks.
   */
  public static final long MAX_TASKS_PER_OP = 100_000_000L;

  /**
   * One operation.
   *
   * @param name op name
   * @param kind "blockwise" or "rechunk"
   * @param fused names of the arrays computed inside this op's tasks without being stored
   * @param tasks number of tasks
   * @param projectedMem projected memory per task, bytes
   * @param bytesWritten bytes of array data written (uncompressed)
   * @param intermediate whether the output is an intermediate (deleted after the compute)
   * @param bytesRead bytes of stored array data read by all tasks (uncompressed; an upper bound:
   *     every block read counts as a whole chunk, generated inputs count nothing)
   * @param taskThreads the threads one task keeps busy: 1 for most ops; a scan chain's task reads
   *     and writes its row's blocks on several (projectedMem counts what they hold), so {@code
   *     min(tasks, workers) x taskThreads} threads run the op at once
   */
  public record OpInfo(
      String name,
      String kind,
      List<String> fused,
      long tasks,
      long projectedMem,
      long bytesWritten,
      boolean intermediate,
      long bytesRead,
      int taskThreads) {
    /**
     * Checks the counts.
     *
     * @throws IllegalArgumentException if a count is negative (an overflow upstream) or {@code
     *     tasks} exceeds {@link #MAX_TASKS_PER_OP}
     */
    public OpInfo {
      if (taskThreads < 1) {
        throw new IllegalArgumentException(
            "operation '" + name + "': taskThreads must be at least 1, got " + taskThreads);
      }
      if (tasks < 0 || projectedMem < 0 || bytesWritten < 0 || bytesRead < 0) {
        throw new IllegalArgumentException(
            "operation '"
                + name
                + "': negative count (tasks "
                + tasks
                + ", projected memory "
                + projectedMem
                + " B, bytes written "
                + bytesWritten
                + " B, bytes read "
                + bytesRead
                + " B): an array size overflowed; use a smaller shape"
                + " or larger chunks");
      }
      if (tasks > MAX_TASKS_PER_OP) {
        throw new IllegalArgumentException(
            "operation '"
                + name
                + "' has "
                + tasks
                + " tasks, more than the "
                + MAX_TASKS_PER_OP
                + " tasks per operation the engine"
                + " supports (task keys are held in memory); use larger chunks");
      }
    }

    /** An op whose task runs on one thread. */
    public OpInfo(
        String name,
        String kind,
        List<String> fused,
        long tasks,
        long projectedMem,
        long bytesWritten,
        boolean intermediate,
        long bytesRead) {
      this(name, kind, fused, tasks, projectedMem, bytesWritten, intermediate, bytesRead, 1);
    }

    /** An op whose reads are not counted (bytesRead 0). */
    public OpInfo(
        String name,
        String kind,
        List<String> fused,
        long tasks,
        long projectedMem,
        long bytesWritten,
        boolean intermediate) {
      this(name, kind, fused, tasks, projectedMem, bytesWritten, intermediate, 0);
    }
  }

  /** Total tasks (saturating at {@link Long#MAX_VALUE}). */
  public long totalTasks() {
    return saturatingSum(ops.stream().mapToLong(OpInfo::tasks).toArray());
  }

  /** Largest projected memory of any op, bytes. */
  public long maxProjectedMem() {
    return ops.stream().mapToLong(OpInfo::projectedMem).max().orElse(0);
  }

  /** Bytes written by all ops (saturating at {@link Long#MAX_VALUE}, never negative). */
  public long totalBytesWritten() {
    return saturatingSum(ops.stream().mapToLong(OpInfo::bytesWritten).toArray());
  }

  /** Bytes of stored arrays read by all ops (saturating at {@link Long#MAX_VALUE}). */
  public long totalBytesRead() {
    return saturatingSum(ops.stream().mapToLong(OpInfo::bytesRead).toArray());
  }

  /** Bytes written to intermediate arrays (saturating at {@link Long#MAX_VALUE}). */
  public long intermediateBytesWritten() {
    return saturatingSum(
        ops.stream().filter(OpInfo::intermediate).mapToLong(OpInfo::bytesWritten).toArray());
  }

  private static long saturatingSum(long[] values) {
    long s = 0;
    for (long v : values) {
      s = v > Long.MAX_VALUE - s ? Long.MAX_VALUE : s + v;
    }
    return s;
  }

  /** A byte count in decimal units for messages and summaries, e.g. {@code "2.0 GB"}. */
  public static String bytes(long b) {
    if (b < 1000) {
      return b + " B";
    }
    String[] u = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double v = b;
    int i = -1;
    while (v >= 1000 && i < u.length - 1) {
      v /= 1000;
      i++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, u[i]);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "Plan: %d ops, %d tasks, max projected memory %s "
                + "(allowed %s, reserved %s), %s to read, %s to write (%s intermediate)%n",
            ops.size(),
            totalTasks(),
            bytes(maxProjectedMem()),
            bytes(allowedMem),
            bytes(reservedMem),
            bytes(totalBytesRead()),
            bytes(totalBytesWritten()),
            bytes(intermediateBytesWritten())));
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-28s %-9s %7s %12s %12s %12s  %s%n",
            "op",
            "kind",
            "tasks",
            "projected",
            "reads",
            "writes",
            "fused"));
    for (OpInfo o : ops) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-28s %-9s %7d %12s %12s %12s%s  %s%n",
              o.name(),
              o.kind(),
              o.tasks(),
              bytes(o.projectedMem()),
              bytes(o.bytesRead()),
              bytes(o.bytesWritten()),
              o.intermediate() ? "*" : " ",
              o.fused().isEmpty() ? "" : String.join(",", o.fused())));
    }
    if (ops.stream().anyMatch(OpInfo::intermediate)) {
      sb.append("  (* intermediate: written to the work directory, deleted after the compute)")
          .append(System.lineSeparator());
    }
    return sb.toString();
  }
}
