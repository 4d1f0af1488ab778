package dev.cubed.runtime;

/** The events an executor reports to {@link Callback}s. All times are epoch milliseconds. */
public final class Events {
  private Events() {}

  /** A compute starts: its id and its operations in the order they run. */
  public record ComputeStart(String computeId, int numOps, long numTasks, long startMillis) {}

  /** A compute ended, successfully or not ({@code error} null on success). */
  public record ComputeEnd(String computeId, long startMillis, long endMillis, Throwable error) {}

  /** An operation starts. */
  public record OpStart(String opName, int numTasks, long projectedMem, long startMillis) {}

  /** An operation ended (all its tasks done). */
  public record OpEnd(String opName, int numTasks, long startMillis, long endMillis) {}

  /**
   * A task ended successfully.
   *
   * @param attempts attempts used (1 = no retry)
   * @param allocatedBytes bytes the task's thread allocated while running (JVM thread allocation
   *     counter; an upper bound on the heap it could have held, NOT its peak), -1 if unavailable
   * @param backup true if the successful run was a backup task (a duplicate launched because the
   *     original ran much longer than its op's other tasks); the attempts count is the winning run's
   */
  public record TaskEnd(String opName, long[] key, long startMillis, long endMillis, int attempts,
      long allocatedBytes, long projectedMem, boolean backup) {
    /** A task end of an original (non-backup) run. */
    public TaskEnd(String opName, long[] key, long startMillis, long endMillis, int attempts,
        long allocatedBytes, long projectedMem) {
      this(opName, key, startMillis, endMillis, attempts, allocatedBytes, projectedMem, false);
    }
  }
}
