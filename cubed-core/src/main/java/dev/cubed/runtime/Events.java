package dev.cubed.runtime;

import java.util.List;

/** The events an executor reports to {@link Callback}s. All times are epoch milliseconds. */
public final class Events {
  private Events() {}

  /**
   * Tells the callbacks that a compute of {@code ops} started at {@code startMillis} (a {@link
   * ComputeStart} with the op and task counts) and returns the compute, whose {@link Running#ended}
   * tells them it ended. Every executor brackets its run with these two.
   */
  public static Running computeStarted(
      String computeId, List<Operation> ops, long startMillis, List<Callback> callbacks) {
    long numTasks = 0;
    for (Operation op : ops) {
      numTasks += op.keys().size();
    }
    ComputeStart e = new ComputeStart(computeId, ops.size(), numTasks, startMillis);
    for (Callback c : callbacks) {
      c.onComputeStart(e);
    }
    return new Running(computeId, startMillis, callbacks);
  }

  /** A compute whose start was reported ({@link #computeStarted}). */
  public static final class Running {
    private final String computeId;
    private final long startMillis;
    private final List<Callback> callbacks;

    private Running(String computeId, long startMillis, List<Callback> callbacks) {
      this.computeId = computeId;
      this.startMillis = startMillis;
      this.callbacks = callbacks;
    }

    /** Tells the callbacks the compute ended now ({@link ComputeEnd}; null error = success). */
    public void ended(Throwable error) {
      ComputeEnd e = new ComputeEnd(computeId, startMillis, System.currentTimeMillis(), error);
      for (Callback c : callbacks) {
        c.onComputeEnd(e);
      }
    }
  }

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
   * @param projectedMem the task's projected memory (the plan's memory model), bytes
   * @param backup true if the successful run was a backup task (a duplicate launched because the
   *     original ran much longer than its op's other tasks); the attempts count is the winning
   *     run's
   * @param worker where the winning run ran (a thread name, or a worker process id), or null
   * @param measuredPeakMem the task's measured peak memory in bytes, as comparable with {@code
   *     projectedMem} as the executor can make it (a worker process: peak heap used during the task
   *     plus the worker's reserved baseline), -1 if the executor cannot measure a peak (the threads
   *     executor shares one heap between tasks: see {@code allocatedBytes})
   * @param peakRss peak resident set size of the worker process during the task, bytes; -1 if
   *     unknown or not per task (threads executor)
   */
  public record TaskEnd(
      String opName,
      long[] key,
      long startMillis,
      long endMillis,
      int attempts,
      long allocatedBytes,
      long projectedMem,
      boolean backup,
      String worker,
      long measuredPeakMem,
      long peakRss) {
    /** A task end without per-task measurements (worker unknown, peaks -1). */
    public TaskEnd(
        String opName,
        long[] key,
        long startMillis,
        long endMillis,
        int attempts,
        long allocatedBytes,
        long projectedMem,
        boolean backup) {
      this(
          opName,
          key,
          startMillis,
          endMillis,
          attempts,
          allocatedBytes,
          projectedMem,
          backup,
          null,
          -1,
          -1);
    }

    /** A task end of an original (non-backup) run without per-task measurements. */
    public TaskEnd(
        String opName,
        long[] key,
        long startMillis,
        long endMillis,
        int attempts,
        long allocatedBytes,
        long projectedMem) {
      this(opName, key, startMillis, endMillis, attempts, allocatedBytes, projectedMem, false);
    }

    /** True if the measured peak is known and exceeds the projection. */
    public boolean exceedsProjection() {
      return measuredPeakMem >= 0 && measuredPeakMem > projectedMem;
    }
  }
}
