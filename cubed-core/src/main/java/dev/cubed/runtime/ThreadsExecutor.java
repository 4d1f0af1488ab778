package dev.cubed.runtime;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default executor: runs tasks on a thread pool in this JVM.
 *
 * <p><b>Scheduling</b> ({@link Scheduler#runTasks}, shared by every executor). Operations run as
 * soon as the operations they depend on ({@link Operation#dependencies()}) have finished, so
 * independent operations share the workers; op events of independent operations may interleave. An
 * operation starts at most once, and {@link #execute} returns (or throws) only after every task it
 * started has stopped, so nothing writes after it returns.
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
  private static final LazyLog LOG = new LazyLog(ThreadsExecutor.class.getName());

  /**
   * Stack size of worker threads (16 MiB): native BLAS/LAPACK routines called by block kernels can
   * overflow the JVM's default 1 MiB thread stack on large blocks.
   */
  public static final long WORKER_STACK_BYTES = 16L << 20;

  private static final Scheduler SCHEDULER = new Scheduler("threads");

  private final int workers;
  private final long reservedMem;
  private final TaskRuns.Config config;

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
    this.config = b.config("threads", b.faults);
  }

  /** A builder with the defaults: workers = available processors, 3 attempts. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Options of a {@link ThreadsExecutor}: those all pool executors share ({@link ExecutorBuilder})
   * and injected faults.
   */
  public static final class Builder extends ExecutorBuilder<Builder> {
    private Faults faults;

    private Builder() {
      super("ThreadsExecutor");
    }

    /** Faults injected into every attempt (testing); {@code null} (the default) for none. */
    public Builder faults(Faults faults) {
      this.faults = faults;
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
  public boolean runsTasksInThisJvm() {
    return true;
  }

  @Override
  public boolean allowsInlineTinyPlans() {
    return config.faults() == null;
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
  public RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
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
      LOG.get()
          .warning(
              String.format(
                  "threads executor: concurrency capped at %d of %d workers: %d x "
                      + "projected task memory %d B (less reserved %d B each) + baseline %d B must fit in"
                      + " max heap %d B",
                  conc, workers, conc, maxMem, reservedMem, baseline, rt.maxMemory()));
    }
    Events.Running compute = Events.computeStarted(computeId, ops, start, callbacks);
    AtomicInteger threadNo = new AtomicInteger();
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
    SCHEDULER.runOnPool(computeId, ops, callbacks, pool, runs, () -> {}, compute::ended);
    return runs.report(conc, -1);
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
    SCHEDULER.runTasks(
        ops,
        callbacks,
        pool,
        onFailure,
        (op, key, cbs, outcome) -> {
          runner.run(op, key, cbs);
          outcome.succeeded();
        });
  }
}
