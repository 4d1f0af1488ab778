package dev.cubed.diagnostics;

import dev.cubed.runtime.Events;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The history of a compute, written to a directory when the compute ends (also when it failed):
 *
 * <ul>
 *   <li>{@code tasks.csv}: one row per successful task ({@link #TASK_COLUMNS});
 *   <li>{@code ops.csv}: one row per operation ({@link #OP_COLUMNS});
 *   <li>{@code plan.txt}: each compute's id, times, outcome and plan summary.
 * </ul>
 *
 * Times are epoch milliseconds; memory in bytes. A measured value the executor cannot measure is an
 * empty cell, not -1: the threads executor shares one heap between tasks, so it has no per-task
 * peak ({@code measured_peak_mem}, {@code peak_rss} empty) and reports the bytes each task's thread
 * allocated ({@code allocated_bytes}: an upper bound on what it could have held, not a peak). The
 * same instance may serve several computes in a row: rows accumulate, the {@code compute} column
 * numbers the computes (1, 2, ...), and the files are rewritten after each compute.
 */
public final class HistoryCallback extends Recorder {
  /** The columns of {@code tasks.csv}. */
  public static final List<String> TASK_COLUMNS =
      List.of(
          "compute",
          "op",
          "key",
          "start_ms",
          "end_ms",
          "duration_ms",
          "attempts",
          "backup",
          "worker",
          "projected_mem",
          "measured_peak_mem",
          "peak_rss",
          "allocated_bytes");

  /** The columns of {@code ops.csv}. */
  public static final List<String> OP_COLUMNS =
      List.of(
          "compute",
          "op",
          "kind",
          "tasks",
          "start_ms",
          "end_ms",
          "wall_seconds",
          "projected_mem",
          "max_measured_peak_mem",
          "measured_over_projected",
          "max_peak_rss",
          "max_allocated_bytes",
          "tasks_over_projection",
          "retries",
          "backups");

  private final Path dir;

  /** A history written to {@code dir} (created if missing). */
  public HistoryCallback(Path dir) {
    this.dir = dir;
  }

  /** The directory written to. */
  public Path dir() {
    return dir;
  }

  @Override
  void computeEnded(List<ComputeRecord> computes, List<RecordedTask> tasks) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("tasks.csv"), tasksCsv(tasks));
      Files.writeString(dir.resolve("ops.csv"), opsCsv(computes, tasks));
      Files.writeString(dir.resolve("plan.txt"), planText(computes));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the compute history to " + dir + ": " + e, e);
    }
  }

  static String tasksCsv(List<RecordedTask> tasks) {
    StringBuilder sb = new StringBuilder(String.join(",", TASK_COLUMNS)).append('\n');
    for (RecordedTask t : tasks) {
      Events.TaskEnd e = t.event();
      row(
          sb,
          t.compute(),
          t.op(),
          t.key(),
          e.startMillis(),
          e.endMillis(),
          e.endMillis() - e.startMillis(),
          e.attempts(),
          e.backup(),
          e.worker() == null ? "" : e.worker(),
          e.projectedMem(),
          opt(e.measuredPeakMem()),
          opt(e.peakRss()),
          opt(e.allocatedBytes()));
    }
    return sb.toString();
  }

  static String opsCsv(List<ComputeRecord> computes, List<RecordedTask> tasks) {
    StringBuilder sb = new StringBuilder(String.join(",", OP_COLUMNS)).append('\n');
    for (ComputeRecord c : computes) {
      for (String op : opNames(c, tasks)) {
        List<RecordedTask> ts =
            tasks.stream().filter(t -> t.compute() == c.seq && t.op().equals(op)).toList();
        Events.OpStart s = c.opStarts.get(op);
        Events.OpEnd end = c.opEnds.get(op);
        long start =
            s != null
                ? s.startMillis()
                : ts.stream().mapToLong(t -> t.event().startMillis()).min().orElse(-1);
        long stop =
            end != null
                ? end.endMillis()
                : ts.stream().mapToLong(t -> t.event().endMillis()).max().orElse(-1);
        long projected = projected(c, op, tasks);
        long measured = ts.stream().mapToLong(t -> t.event().measuredPeakMem()).max().orElse(-1);
        long rss = ts.stream().mapToLong(t -> t.event().peakRss()).max().orElse(-1);
        long alloc = ts.stream().mapToLong(t -> t.event().allocatedBytes()).max().orElse(-1);
        long retries = ts.stream().mapToLong(t -> t.event().attempts() - 1L).sum();
        long over = ts.stream().filter(t -> t.event().exceedsProjection()).count();
        long backups = ts.stream().filter(t -> t.event().backup()).count();
        row(
            sb,
            c.seq,
            op,
            kind(c, op),
            ts.size(),
            start < 0 ? "" : start,
            stop < 0 ? "" : stop,
            start < 0 || stop < 0 ? "" : String.format(Locale.ROOT, "%.3f", (stop - start) / 1e3),
            projected,
            opt(measured),
            measured < 0 || projected <= 0
                ? ""
                : String.format(Locale.ROOT, "%.3f", (double) measured / projected),
            opt(rss),
            opt(alloc),
            measured < 0 ? "" : over,
            retries,
            backups);
      }
    }
    return sb.toString();
  }

  static String planText(List<ComputeRecord> computes) {
    StringBuilder sb = new StringBuilder();
    for (ComputeRecord c : computes) {
      sb.append(
          String.format(
              Locale.ROOT,
              "compute %d: %s, started %s, %s%n",
              c.seq,
              c.id,
              Instant.ofEpochMilli(c.start),
              c.end < 0
                  ? "did not end"
                  : String.format(
                      Locale.ROOT,
                      "%.3f s, %s",
                      (c.end - c.start) / 1e3,
                      c.error == null ? "succeeded" : "failed: " + c.error)));
      sb.append(c.plan != null ? c.plan.toString() : "(no plan summary: run without a Plan)\n");
      sb.append('\n');
    }
    sb.append(
        "Empty measured cells in tasks.csv and ops.csv: the executor could not measure that"
            + " value. The threads executor\nshares one heap between tasks: it has no per-task peak"
            + " heap or RSS, and allocated_bytes is the bytes\nthe task's thread allocated (an upper"
            + " bound on what it held, not a peak).\n");
    return sb.toString();
  }

  private static String opt(long v) {
    return v < 0 ? "" : Long.toString(v);
  }

  private static void row(StringBuilder sb, Object... cells) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      String s = String.valueOf(cells[i]);
      if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
        s = '"' + s.replace("\"", "\"\"") + '"';
      }
      sb.append(s);
    }
    sb.append('\n');
  }
}
