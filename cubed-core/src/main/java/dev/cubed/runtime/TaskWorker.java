package dev.cubed.runtime;

/**
 * Where the current task attempt ran, when its function handed the work to another process itself
 * (e.g. a Python worker process started by the task's function): the function calls {@link #ranIn}
 * on the task's thread, and the executor reports that name and peak in {@link
 * Events.TaskEnd#worker()} and {@link Events.TaskEnd#peakRss()} of the winning attempt (unless the
 * executor measured the task itself, as the processes executor does). Executors that run the task
 * function themselves (Spark, Beam) call {@link #beginAttempt()} before an attempt and {@link
 * #reported()} after it, on the attempt's thread, and put what it returns in their task event.
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

  /**
   * Where an attempt's work ran, as its function reported it.
   *
   * @param worker the process's description, e.g. {@code "python worker pid 123"}
   * @param peakRss that process's peak resident set during the attempt, bytes; -1 if unknown
   */
  public record Ran(String worker, long peakRss) {}

  /** Forgets what an earlier attempt on this thread recorded: call before running an attempt. */
  public static void beginAttempt() {
    WHERE.remove();
  }

  /**
   * What the attempt that just ended on this thread reported with {@link #ranIn} (then forgotten),
   * or null when its function ran in this JVM only.
   */
  public static Ran reported() {
    TaskRuns.Measurement m = take();
    return m == null ? null : new Ran(m.worker(), m.peakRss());
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
