package dev.cubed.diagnostics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes two SVG charts to a directory when a compute ends (also when it failed), drawn with
 * JFreeChart (headless):
 *
 * <ul>
 *   <li>{@code timeline.svg}: every task as a bar from its start to its end, coloured by op, one
 *       row per worker (per task slot when the executor names no workers);
 *   <li>{@code memory.svg}: per op, the projected memory per task beside the largest measured peak
 *       (or, on an executor that cannot measure peaks, the largest bytes a task's thread allocated,
 *       labelled as not a peak) and the worker's peak RSS where known, in MB.
 * </ul>
 *
 * Used for several computes in a row, the charts cover them all (ops prefixed by the compute's
 * number).
 */
public final class PlotsCallback extends Recorder {
  private final Path dir;

  /** Charts written to {@code dir} (created if missing). */
  public PlotsCallback(Path dir) {
    this.dir = dir;
  }

  @Override
  void computeEnded(List<ComputeRecord> computes, List<RecordedTask> tasks) {
    try {
      long lanes = tasks.stream().map(t -> t.event().worker()).distinct().count();
      Charts.writeSvg(
          Charts.timeline(computes, tasks),
          1000,
          Charts.height((int) Math.max(lanes, 4), 28) + 60,
          dir.resolve("timeline.svg"));
      long ops = computes.stream().mapToLong(c -> Recorder.opNames(c, tasks).size()).sum();
      Charts.writeSvg(
          Charts.memory(computes, tasks),
          1000,
          Charts.height((int) ops, 75),
          dir.resolve("memory.svg"));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the charts to " + dir + ": " + e, e);
    }
  }
}
