package dev.cubed.plan;

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
   * One operation.
   *
   * @param name op name
   * @param kind "blockwise" or "rechunk"
   * @param fused names of the arrays computed inside this op's tasks without being stored
   * @param tasks number of tasks
   * @param projectedMem projected memory per task, bytes
   * @param bytesWritten bytes of array data written (uncompressed)
   * @param intermediate whether the output is an intermediate (deleted after the compute)
   */
  public record OpInfo(String name, String kind, List<String> fused, long tasks, long projectedMem,
      long bytesWritten, boolean intermediate) {}

  /** Total tasks. */
  public long totalTasks() {
    return ops.stream().mapToLong(OpInfo::tasks).sum();
  }

  /** Largest projected memory of any op, bytes. */
  public long maxProjectedMem() {
    return ops.stream().mapToLong(OpInfo::projectedMem).max().orElse(0);
  }

  /** Bytes written by all ops. */
  public long totalBytesWritten() {
    return ops.stream().mapToLong(OpInfo::bytesWritten).sum();
  }

  /** Bytes written to intermediate arrays. */
  public long intermediateBytesWritten() {
    return ops.stream().filter(OpInfo::intermediate).mapToLong(OpInfo::bytesWritten).sum();
  }

  static String bytes(long b) {
    if (b < 1000) {
      return b + " B";
    }
    String[] u = {"kB", "MB", "GB", "TB"};
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
    sb.append(String.format(Locale.ROOT, "Plan: %d ops, %d tasks, max projected memory %s "
        + "(allowed %s, reserved %s), %s to write (%s intermediate)%n", ops.size(), totalTasks(),
        bytes(maxProjectedMem()), bytes(allowedMem), bytes(reservedMem), bytes(totalBytesWritten()),
        bytes(intermediateBytesWritten())));
    sb.append(String.format(Locale.ROOT, "  %-28s %-9s %7s %12s %12s  %s%n", "op", "kind",
        "tasks", "projected", "writes", "fused"));
    for (OpInfo o : ops) {
      sb.append(String.format(Locale.ROOT, "  %-28s %-9s %7d %12s %12s  %s%n", o.name(), o.kind(),
          o.tasks(), bytes(o.projectedMem()), bytes(o.bytesWritten()),
          o.fused().isEmpty() ? "" : String.join(",", o.fused())));
    }
    return sb.toString();
  }
}
