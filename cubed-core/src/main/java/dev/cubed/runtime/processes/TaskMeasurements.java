package dev.cubed.runtime.processes;

import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskRuns;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The measured memory of the tasks of one compute on the {@link ProcessesExecutor}: what the worker
 * reported for the task that just ran on the current dispatcher thread (handed to {@link TaskRuns}
 * through {@link #probe()} for {@link dev.cubed.runtime.Events.TaskEnd}), and the tasks whose
 * measured peak exceeded their op's projection, logged once per op when the compute ends ({@link
 * OverProjection}).
 *
 * <p>A dispatcher thread runs one task at a time and {@link TaskRuns} asks the probe on that thread
 * right after the attempt succeeded, so the figures are kept per thread.
 */
final class TaskMeasurements implements TaskRuns.Probe {
  private final long reservedMem;
  private final ThreadLocal<TaskRuns.Measurement> last = new ThreadLocal<>();
  private final ThreadLocal<Long> lastLive = new ThreadLocal<>();
  private final ThreadLocal<long[]> lastKey = new ThreadLocal<>();
  private final Map<String, OverProjection> over = new ConcurrentHashMap<>();

  /** For a compute whose projections count {@code reservedMem} bytes of the worker itself. */
  TaskMeasurements(long reservedMem) {
    this.reservedMem = reservedMem;
  }

  /** Forgets the previous task's figures on this thread: a task of {@code key} starts. */
  void starting(long[] key) {
    last.remove();
    lastLive.remove();
    lastKey.set(key);
  }

  /**
   * Keeps what worker {@code w} measured for the task that ran on this thread: measured peak {@code
   * reservedMem + peak growth}, the worker's VmHWM, and (when a full collection ran during the
   * task) the live data after it, {@code reservedMem} included.
   */
  void finished(WorkerProcess w, WorkerProtocol.Measured m) {
    last.set(
        new TaskRuns.Measurement("worker pid " + w.pid(), reservedMem + m.peakGrowth(), m.vmHwm()));
    if (m.heapMaxAfterMajorGc() >= 0) {
      lastLive.set(reservedMem + Math.max(0, m.heapMaxAfterMajorGc() - m.heapAtStart()));
    }
  }

  /** The measurements of this thread's last task; counts it when above the op's projection. */
  @Override
  public TaskRuns.Measurement lastAttempt(Operation op) {
    TaskRuns.Measurement m = last.get();
    Long live = lastLive.get();
    if (m != null && m.measuredPeakMem() > op.projectedMem()) {
      over.computeIfAbsent(op.name(), k -> new OverProjection(op.projectedMem()))
          .add(lastKey.get(), m.measuredPeakMem(), live == null ? -1 : live);
    }
    return m;
  }

  /** Logs one line per op with a task above its projection ({@link OverProjection#log}). */
  void logOverProjections(boolean heapPerOp) {
    for (Map.Entry<String, OverProjection> e : over.entrySet()) {
      e.getValue().log(e.getKey(), heapPerOp);
    }
  }
}
