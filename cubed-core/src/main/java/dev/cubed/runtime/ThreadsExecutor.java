package dev.cubed.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The default executor: runs tasks on a thread pool in this JVM.
 *
 * <p><b>Scheduling.</b> Operations run as soon as the operations they depend on ({@link
 * Operation#dependencies()}) have finished, so independent operations share the workers; op events
 * of independent operations may interleave. An operation starts at most once, and {@link #execute}
 * returns (or throws) only after every task it started has stopped, so nothing writes after it
 * returns.
 *
 * <p><b>Memory.</b> Before anything runs: if one task of an operation projects more memory than the
 * JVM's max heap ({@link Runtime#maxMemory()}) plus reservedMem, the compute is refused with {@link
 * InsufficientHeapException} (it could not run even alone). Otherwise concurrency is capped so that
 * {@link #heapNeeded heapNeeded(concurrency, largest projected task memory, reservedMem, baseline)}
 * {@code <= max heap}, where baseline is the heap in use when the compute starts (re-measured after
 * a GC before capping), and never below 1: a task that fits alone but not beside the baseline runs
 * one at a time, with a logged warning. The tasks share this JVM, whose own overhead is the
 * measured baseline and memory outside the heap, so the spec's reservedMem (a worker's own
 * overhead, part of every task's projection) is not counted in the heap ({@link
 * Builder#reservedMem}; 0 unless set: then every projection counts whole). Measured memory per task
 * is the bytes its thread allocated (JVM thread allocation counter), an upper bound on what it
 * could have held at once, not a peak.
 *
 * <p><b>Failures.</b> Each task is tried up to {@code attempts} times (default 3). A deterministic
 * failure ({@link RetryPolicy}) is not retried; transient ones are, after an exponential backoff
 * (default 10 ms, doubling, at most 1 s). A task that fails for good fails the compute with {@link
 * TaskFailedException} (its last cause), and the remaining tasks are cancelled.
 *
 * <p><b>Timeouts and backups</b> (off by default; see {@link Builder}). An attempt running longer
 * than the task timeout is interrupted and counts as a failed, retried attempt. With backup tasks
 * on, a task running much longer than its op's other tasks gets one duplicate; the first success
 * wins and the other run is interrupted and its outcome ignored (both writing the same chunk is
 * harmless: chunk writes replace whole values atomically, and tasks are idempotent).
 */
public final class ThreadsExecutor implements Executor {
  private static final Logger LOG = Logger.getLogger(ThreadsExecutor.class.getName());

  /**
   * Stack size of worker threads (16 MiB): native BLAS/LAPACK routines called by block kernels can
   * overflow the JVM's default 1 MiB thread stack on large blocks.
   */
  public static final long WORKER_STACK_BYTES = 16L << 20;

  /** How long a compute waits for running tasks to stop after it ended, before warning. */
  static final long STOP_WAIT_SECONDS = 60;

  private final int workers;
  private final long reservedMem;
  private final TaskRuns.Config config;
  private volatile int lastConcurrency;
  private volatile TaskRuns.Stats lastStats = new TaskRuns.Stats(0, 0, 0, 0);

  /** Workers = available processors, 3 attempts. */
  public ThreadsExecutor() {
    this(builder());
  }

  /**
   * An executor with a number of worker threads and attempts per task (no timeout, no backups).
   *
   * @throws IllegalArgumentException if workers or attempts is below 1
   */
  public ThreadsExecutor(int workers, int attempts) {
    this(builder().workers(workers).attempts(attempts));
  }

  private ThreadsExecutor(Builder b) {
    this.workers = b.workers;
    this.reservedMem = b.reservedMem;
    this.config =
        new TaskRuns.Config(
            b.attempts,
            b.taskTimeout,
            b.backupTasks,
            b.backupMinDuration,
            b.faults,
            b.retryBackoff);
  }

  /** A builder with the defaults: workers = available processors, 3 attempts. */
  public static Builder builder() {
    return new Builder();
  }

  /** Options of a {@link ThreadsExecutor}. */
  public static final class Builder {
    private int workers = Runtime.getRuntime().availableProcessors();
    private int attempts = 3;
    private Duration taskTimeout;
    private boolean backupTasks;
    private Duration backupMinDuration = Duration.ofSeconds(1);
    private Faults faults;
    private Duration retryBackoff = Duration.ofMillis(10);
    private long reservedMem;

    private Builder() {}

    /**
     * Worker threads (before the memory cap).
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder workers(int workers) {
      this.workers = TaskRuns.atLeastOne("ThreadsExecutor", "workers", workers);
      return this;
    }

    /**
     * Attempts per task run (1 = no retry); a backup run has its own attempts.
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder attempts(int attempts) {
      this.attempts = TaskRuns.atLeastOne("ThreadsExecutor", "attempts", attempts);
      return this;
    }

    /**
     * An attempt running longer than this is interrupted and counted as a failed attempt (then
     * retried); {@code null} (the default) means no timeout. A task that ignores interruption
     * cannot be stopped and keeps its worker until it returns.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder taskTimeout(Duration timeout) {
      this.taskTimeout = TaskRuns.positiveOrNull("ThreadsExecutor", "taskTimeout", timeout);
      return this;
    }

    /**
     * Backup tasks (Python Cubed's rule, off by default): once at least 10 tasks of an operation
     * have started and at least half of those have finished, a task that has been running more than
     * 3 times the median duration of the op's finished tasks, and at least {@link
     * #backupMinDuration} (default 1 s), gets one duplicate run on the same pool. The first success
     * wins; the op finishes when each key has one success.
     */
    public Builder backupTasks(boolean on) {
      this.backupTasks = on;
      return this;
    }

    /**
     * The floor of the backup rule: no backup for a task running less than this (default 1 s).
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder backupMinDuration(Duration min) {
      this.backupMinDuration = TaskRuns.notNegative("ThreadsExecutor", "backupMinDuration", min);
      return this;
    }

    /** Faults injected into every attempt (testing); {@code null} (the default) for none. */
    public Builder faults(Faults faults) {
      this.faults = faults;
      return this;
    }

    /**
     * Sleep before the 2nd attempt, doubled before each later one, at most 1 s (default 10 ms);
     * {@link Duration#ZERO} retries at once.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder retryBackoff(Duration backoff) {
      this.retryBackoff = TaskRuns.notNegative("ThreadsExecutor", "retryBackoff", backoff);
      return this;
    }

    /**
     * The spec's reservedMem: the part of every task's projection that is a worker's own runtime
     * overhead, which tasks on threads of this JVM share, so the memory cap counts it once ({@link
     * #heapNeeded}); default 0 (every projection counted whole).
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder reservedMem(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException(
            "ThreadsExecutor: reservedMem must be >= 0, got " + bytes);
      }
      this.reservedMem = bytes;
      return this;
    }

    /** The executor. */
    public ThreadsExecutor build() {
      return new ThreadsExecutor(this);
    }
  }

  /** {workers, attempts, reservedMem} as configured (for tests of the registry). */
  long[] configuration() {
    return new long[] {workers, config.attempts(), reservedMem};
  }

  @Override
  public String name() {
    return "threads";
  }

  @Override
  public boolean allowsInlineTinyPlans() {
    return config.faults() == null;
  }

  /** The concurrency used by the last compute (after the memory cap). */
  public int lastConcurrency() {
    return lastConcurrency;
  }

  /** Backups, timeouts and retries of the last compute. */
  TaskRuns.Stats lastStats() {
    return lastStats;
  }

  /**
   * The concurrency allowed for tasks of a given projected memory: at most {@code workers}, and at
   * most {@code (maxHeap - baseline) / taskMem}, never below 1.
   */
  static int cappedConcurrency(
      int workers, long taskMem, long reservedMem, long maxHeap, long baseline) {
    long own = taskMem - Math.min(reservedMem, taskMem);
    if (own <= 0) {
      return workers;
    }
    long fit = (maxHeap - baseline) / own;
    return (int) Math.max(1, Math.min(workers, fit));
  }

  /**
   * The heap that {@code concurrency} tasks of projected memory {@code taskMem} need beside {@code
   * baseline} bytes already in use: {@code baseline + concurrency x (taskMem - r)} with {@code r =
   * min(reservedMem, taskMem)}. The reserved part of a projection is a worker's own overhead; the
   * threads of one JVM share it, and in this JVM it is the baseline (measured: the engine's live
   * data) and memory outside the heap (code, class data, thread stacks), so it is not counted
   * again; the rest of each task's projection is its own. The compute runs at full concurrency in a
   * heap of at least this size.
   */
  public static long heapNeeded(int concurrency, long taskMem, long reservedMem, long baseline) {
    long r = Math.min(Math.max(0, reservedMem), taskMem);
    return baseline + (long) Math.max(1, concurrency) * (taskMem - r);
  }

  /**
   * Refuses a plan whose largest task cannot fit in the heap even alone.
   *
   * @throws InsufficientHeapException naming the first such operation
   */
  static void checkFitsHeap(List<Operation> ops, long maxHeap) {
    checkFitsHeap(ops, maxHeap, 0);
  }

  /**
   * Refuses a plan whose largest task cannot fit in the heap even alone: its projection less the
   * reserved part (the JVM's own overhead, see {@link #heapNeeded}) is more than the max heap.
   *
   * @throws InsufficientHeapException naming the first such operation
   */
  static void checkFitsHeap(List<Operation> ops, long maxHeap, long reservedMem) {
    for (Operation op : ops) {
      long r = Math.min(Math.max(0, reservedMem), op.projectedMem());
      if (op.projectedMem() - r > maxHeap) {
        if (r == 0) {
          throw new InsufficientHeapException(op.name(), op.projectedMem(), maxHeap);
        }
        throw new InsufficientHeapException(
            String.format(
                "threads executor: a task of operation"
                    + " %s is projected to need %,d bytes (%.1f MiB) of which %,d are reservedMem (the"
                    + " JVM's own overhead), so %,d bytes of heap, more than the JVM's max heap of %,d"
                    + " bytes (%.1f MiB): not even one task fits; nothing was run. Lower allowedMem or use"
                    + " smaller chunks so tasks project less memory, or raise the heap (java -Xmx..., or"
                    + " CUBED_HEAP=... for the ./cubed launcher)",
                op.name(),
                op.projectedMem(),
                op.projectedMem() / 1048576.0,
                r,
                op.projectedMem() - r,
                maxHeap,
                maxHeap / 1048576.0),
            op.name(),
            op.projectedMem(),
            maxHeap);
      }
    }
  }

  @Override
  public void execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
    long start = System.currentTimeMillis();
    Runtime rt = Runtime.getRuntime();
    checkFitsHeap(ops, rt.maxMemory(), reservedMem);
    long maxMem = 0;
    for (Operation op : ops) {
      maxMem = Math.max(maxMem, op.projectedMem());
    }
    long baseline = rt.totalMemory() - rt.freeMemory();
    int conc = cappedConcurrency(workers, maxMem, reservedMem, rt.maxMemory(), baseline);
    if (conc < workers) {
      // the heap in use may be mostly garbage: measure the live baseline after a collection
      System.gc();
      baseline = rt.totalMemory() - rt.freeMemory();
      conc = cappedConcurrency(workers, maxMem, reservedMem, rt.maxMemory(), baseline);
    }
    if (conc < workers) {
      LOG.warning(
          String.format(
              "threads executor: concurrency capped at %d of %d workers: %d x "
                  + "projected task memory %d B (less reserved %d B each) + baseline %d B must fit in"
                  + " max heap %d B",
              conc, workers, conc, maxMem, reservedMem, baseline, rt.maxMemory()));
    }
    lastConcurrency = conc;
    Events.Running compute = Events.computeStarted(computeId, ops, start, callbacks);
    java.util.concurrent.atomic.AtomicInteger threadNo =
        new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            conc,
            r -> {
              Thread t =
                  new Thread(
                      null, r, "cubed-task-" + threadNo.incrementAndGet(), WORKER_STACK_BYTES);
              t.setDaemon(true);
              return t;
            });
    TaskRuns runs = new TaskRuns(config, pool);
    Throwable error = null;
    try {
      new DagRun(
              pool,
              () -> {
                runs.stop();
                pool.shutdownNow();
              },
              ops,
              callbacks,
              runs)
          .run();
    } catch (RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      runs.stop();
      pool.shutdownNow(); // interrupts the losing runs of backed-up tasks
      awaitTasks(pool, "threads executor", computeId);
      runs.close();
      lastStats = runs.stats();
      compute.ended(error);
    }
  }

  /**
   * Waits until no task of the compute is running, so nothing writes after the compute has ended (a
   * failed compute interrupts its tasks; one that ignores interrupts is waited for, and a warning
   * is logged each {@link #STOP_WAIT_SECONDS} seconds until it stops).
   */
  static void awaitTasks(ExecutorService pool, String who, String computeId) {
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
          break;
        }
        LOG.warning(
            who
                + ": compute "
                + computeId
                + " has ended but some of its tasks"
                + " ignore interruption and are still running; waiting for them");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** How a test runs one task (all attempts); throws when the task has failed for good. */
  @FunctionalInterface
  interface TaskRunner {
    void run(Operation op, long[] key, List<Callback> callbacks);
  }

  /**
   * Runs a plan on a given pool (package-private so tests can supply a pool that forces an order of
   * events, e.g. one that runs every task inline on the submitting thread).
   */
  static void runDag(
      java.util.concurrent.Executor pool,
      Runnable onFailure,
      List<Operation> ops,
      List<Callback> callbacks,
      TaskRunner runner) {
    new DagRun(
            pool,
            onFailure,
            ops,
            callbacks,
            (op, key, cbs, outcome) -> {
              runner.run(op, key, cbs);
              outcome.succeeded();
            })
        .run();
  }
}
