package dev.cubed.runtime;

/**
 * Where the current task attempt ran, when its function handed the work to another process itself
 * (e.g. a Python worker process started by the task's function): the function calls {@link #ranIn}
 * on the task's thread, and the executor reports that name and peak in {@link
 * Events.TaskEnd#worker()} and {@link Events.TaskEnd#peakRss()} of the winning attempt (unless the
 * executor measured the task itself, as the processes executor does).
 */
public final class TaskWorker {
  private static final ThreadLocal<TaskRuns.Measurement> WHERE = new ThreadLocal<>();

  private TaskWorker() {}

  /**
   * Records that the current attempt's work ran in {@code worker} (a description such as {@code
   * "python worker pid 123"}) whose resident set peaked at {@code peakRss} bytes (-1 if unknown).
   */
  public static void ranIn(String worker, long peakRss) {
    WHERE.set(new TaskRuns.Measurement(worker, -1, peakRss));
  }

  /** Forgets what an earlier attempt on this thread recorded. */
  static void clear() {
    WHERE.remove();
  }

  /** What the attempt that just ended on this thread recorded (then forgotten), or null. */
  static TaskRuns.Measurement take() {
    TaskRuns.Measurement m = WHERE.get();
    WHERE.remove();
    return m;
  }
}
