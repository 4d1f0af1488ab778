package dev.cubed.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The default executor: runs tasks on a thread pool in this JVM. Each task is tried up to
 * {@code attempts} times (default 3); the compute fails with {@link TaskFailedException} carrying
 * the last cause once a task exhausts its attempts. Concurrency is capped so that
 * {@code workers x largest projected task memory + baseline <= Runtime.maxMemory()}, where baseline
 * is the heap in use when the compute starts (re-measured after a GC before capping); a cap is
 * logged. Operations run as soon as the operations they depend on ({@link Operation#dependencies()})
 * have finished, so independent operations share the workers; op events of independent operations
 * may interleave. Measured memory per task is the
 * bytes its thread allocated (JVM thread allocation counter), which bounds from above what the task
 * could have held at once; it is not a peak.
 */
public final class ThreadsExecutor implements Executor {
  private static final Logger LOG = Logger.getLogger(ThreadsExecutor.class.getName());
  /**
   * Stack size of worker threads (16 MiB): native BLAS/LAPACK routines called by block kernels can
   * overflow the JVM's default 1 MiB thread stack on large blocks.
   */
  public static final long WORKER_STACK_BYTES = 16L << 20;

  private final int workers;
  private final int attempts;
  private volatile int lastConcurrency;

  /** Workers = available processors, 3 attempts. */
  public ThreadsExecutor() {
    this(Runtime.getRuntime().availableProcessors(), 3);
  }

  /**
   * An executor with a number of worker threads and attempts per task.
   *
   * @throws IllegalArgumentException if workers or attempts is below 1
   */
  public ThreadsExecutor(int workers, int attempts) {
    if (workers < 1 || attempts < 1) {
      throw new IllegalArgumentException("ThreadsExecutor: workers (" + workers + ") and attempts ("
          + attempts + ") must be >= 1");
    }
    this.workers = workers;
    this.attempts = attempts;
  }

  @Override
  public String name() {
    return "threads";
  }

  /** The concurrency used by the last compute (after the memory cap). */
  public int lastConcurrency() {
    return lastConcurrency;
  }

  /**
   * The concurrency allowed for tasks of a given projected memory: at most {@code workers}, and at
   * most {@code (maxHeap - baseline) / taskMem}, never below 1.
   */
  static int cappedConcurrency(int workers, long taskMem, long maxHeap, long baseline) {
    if (taskMem <= 0) {
      return workers;
    }
    long fit = (maxHeap - baseline) / taskMem;
    return (int) Math.max(1, Math.min(workers, fit));
  }

  @Override
  public void execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
    long start = System.currentTimeMillis();
    long numTasks = 0;
    long maxMem = 0;
    for (Operation op : ops) {
      numTasks += op.keys().size();
      maxMem = Math.max(maxMem, op.projectedMem());
    }
    Runtime rt = Runtime.getRuntime();
    long baseline = rt.totalMemory() - rt.freeMemory();
    int conc = cappedConcurrency(workers, maxMem, rt.maxMemory(), baseline);
    if (conc < workers) {
      // the heap in use may be mostly garbage: measure the live baseline after a collection
      System.gc();
      baseline = rt.totalMemory() - rt.freeMemory();
      conc = cappedConcurrency(workers, maxMem, rt.maxMemory(), baseline);
    }
    if (conc < workers) {
      LOG.warning(String.format("threads executor: concurrency capped at %d of %d workers: %d x "
          + "projected task memory %d B + baseline %d B must fit in max heap %d B", conc, workers,
          conc, maxMem, baseline, rt.maxMemory()));
    }
    lastConcurrency = conc;
    for (Callback c : callbacks) {
      c.onComputeStart(new Events.ComputeStart(computeId, ops.size(), numTasks, start));
    }
    ExecutorService pool = Executors.newFixedThreadPool(conc, r -> {
      Thread t = new Thread(null, r, "cubed-task", WORKER_STACK_BYTES);
      t.setDaemon(true);
      return t;
    });
    Throwable error = null;
    try {
      new DagRun(pool, pool::shutdownNow, ops, callbacks, this::runTask).run();
    } catch (RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      pool.shutdownNow();
      awaitTasks(pool, computeId);
      long end = System.currentTimeMillis();
      for (Callback c : callbacks) {
        c.onComputeEnd(new Events.ComputeEnd(computeId, start, end, error));
      }
    }
  }

  /** How long a compute waits for running tasks to stop after it failed, before warning. */
  static final long STOP_WAIT_SECONDS = 60;

  /**
   * Waits until no task of the compute is running, so nothing writes after the compute has ended
   * (a failed compute interrupts its tasks; one that ignores interrupts is waited for, and a
   * warning is logged each {@link #STOP_WAIT_SECONDS} seconds until it stops).
   */
  private static void awaitTasks(ExecutorService pool, String computeId) {
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(STOP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
          break;
        }
        LOG.warning("threads executor: compute " + computeId + " has ended but some of its tasks"
            + " ignore interruption and are still running; waiting for them");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One compute's schedule: an operation's tasks are queued on the pool as soon as every operation
   * it depends on has finished, so independent operations (e.g. the branches of a plan with several
   * outputs) share the workers instead of running one after the other. The first failure cancels
   * the rest and is rethrown.
   */
  /** How a DagRun runs one task (all attempts); throws when the task has failed for good. */
  @FunctionalInterface
  interface TaskRunner {
    void run(Operation op, long[] key, List<Callback> callbacks);
  }

  /**
   * Runs a plan on a given pool (package-private so tests can supply a pool that forces an order of
   * events, e.g. one that runs every task inline on the submitting thread).
   */
  static void runDag(java.util.concurrent.Executor pool, Runnable onFailure, List<Operation> ops,
      List<Callback> callbacks, TaskRunner runner) {
    new DagRun(pool, onFailure, ops, callbacks, runner).run();
  }

  static final class DagRun {
    private final java.util.concurrent.Executor pool;
    private final Runnable onFailure;
    private final TaskRunner runner;
    private final List<Operation> ops;
    private final List<Callback> callbacks;
    private final AtomicInteger[] waitingFor;
    private final AtomicInteger[] tasksLeft;
    private final java.util.concurrent.atomic.AtomicBoolean[] started;
    private final List<List<Integer>> dependents = new ArrayList<>();
    private final long[] opStart;
    private final AtomicInteger opsLeft;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    DagRun(java.util.concurrent.Executor pool, Runnable onFailure, List<Operation> ops,
        List<Callback> callbacks, TaskRunner runner) {
      this.pool = pool;
      this.onFailure = onFailure;
      this.runner = runner;
      this.ops = ops;
      this.callbacks = callbacks;
      int n = ops.size();
      waitingFor = new AtomicInteger[n];
      tasksLeft = new AtomicInteger[n];
      started = new java.util.concurrent.atomic.AtomicBoolean[n];
      opStart = new long[n];
      opsLeft = new AtomicInteger(n);
      Map<String, Integer> index = new HashMap<>();
      for (int i = 0; i < n; i++) {
        dependents.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        Operation op = ops.get(i);
        Set<Integer> deps = new HashSet<>();
        if (op.hasKnownDependencies()) {
          for (String d : op.dependencies()) {
            Integer j = index.get(d);
            if (j == null) {
              throw new IllegalArgumentException("threads executor: operation " + op.name()
                  + " depends on '" + d + "', which is not an earlier operation of the plan");
            }
            deps.add(j);
          }
        } else {
          for (int j = 0; j < i; j++) {
            deps.add(j);
          }
        }
        for (int j : deps) {
          dependents.get(j).add(i);
        }
        waitingFor[i] = new AtomicInteger(deps.size());
        tasksLeft[i] = new AtomicInteger(op.keys().size());
        started[i] = new java.util.concurrent.atomic.AtomicBoolean();
        if (index.put(op.name(), i) != null) {
          throw new IllegalArgumentException("threads executor: two operations are named "
              + op.name());
        }
      }
    }

    void run() {
      if (ops.isEmpty()) {
        return;
      }
      // The ops ready at the start are decided before any starts: once one has started, a pool
      // thread finishing it may start its dependents while this loop is still running, and a
      // dependent whose count is 0 here would otherwise be started a second time by the loop.
      List<Integer> ready = new ArrayList<>();
      for (int i = 0; i < ops.size(); i++) {
        if (waitingFor[i].get() == 0) {
          ready.add(i);
        }
      }
      for (int i : ready) {
        startOp(i);
      }
      try {
        done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while running the plan", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RuntimeException re) {
          throw re;
        }
        if (c instanceof Error er) {
          throw er;
        }
        throw new IllegalStateException(c);
      }
    }

    /** Starts op i's tasks; an op is started at most once, whoever calls this. */
    private void startOp(int i) {
      if (!started[i].compareAndSet(false, true)) {
        throw new IllegalStateException("threads executor: operation " + ops.get(i).name()
            + " was started twice (scheduler bug)");
      }
      if (done.isDone()) {
        return;
      }
      Operation op = ops.get(i);
      opStart[i] = System.currentTimeMillis();
      for (Callback c : callbacks) {
        c.onOpStart(new Events.OpStart(op.name(), op.keys().size(), op.projectedMem(),
            opStart[i]));
      }
      if (op.keys().isEmpty()) {
        finishOp(i);
        return;
      }
      for (long[] key : op.keys()) {
        try {
          pool.execute(() -> runQueued(i, key));
        } catch (RejectedExecutionException e) {
          return; // the pool is shut down after a failure
        }
      }
    }

    private void runQueued(int i, long[] key) {
      if (done.isDone()) {
        return;
      }
      try {
        runner.run(ops.get(i), key, callbacks);
      } catch (Throwable t) {
        done.completeExceptionally(t);
        onFailure.run();
        return;
      }
      if (tasksLeft[i].decrementAndGet() == 0) {
        finishOp(i);
      }
    }

    private void finishOp(int i) {
      Operation op = ops.get(i);
      long end = System.currentTimeMillis();
      for (Callback c : callbacks) {
        c.onOpEnd(new Events.OpEnd(op.name(), op.keys().size(), opStart[i], end));
      }
      for (int d : dependents.get(i)) {
        if (waitingFor[d].decrementAndGet() == 0) {
          startOp(d);
        }
      }
      if (opsLeft.decrementAndGet() == 0) {
        done.complete(null);
      }
    }
  }

  private void runTask(Operation op, long[] key, List<Callback> callbacks) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    com.sun.management.ThreadMXBean smx =
        mx instanceof com.sun.management.ThreadMXBean s ? s : null;
    long start = System.currentTimeMillis();
    long alloc0 = smx != null ? smx.getCurrentThreadAllocatedBytes() : -1;
    Throwable last = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        op.function().run(key);
        long alloc = smx != null ? smx.getCurrentThreadAllocatedBytes() - alloc0 : -1;
        long end = System.currentTimeMillis();
        for (Callback c : callbacks) {
          c.onTaskEnd(new Events.TaskEnd(op.name(), key.clone(), start, end, attempt, alloc,
              op.projectedMem()));
        }
        return;
      } catch (Exception | OutOfMemoryError e) {
        last = e;
        if (Thread.currentThread().isInterrupted()) {
          break;
        }
        LOG.fine("task " + java.util.Arrays.toString(key) + " of " + op.name() + " failed (attempt "
            + attempt + "): " + e);
      }
    }
    throw new TaskFailedException(op.name(), key, attempts, last);
  }
}
