package dev.cubed.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;

/**
 * The default executor: runs tasks on a thread pool in this JVM. Each task is tried up to
 * {@code attempts} times (default 3); the compute fails with {@link TaskFailedException} carrying
 * the last cause once a task exhausts its attempts. Concurrency is capped so that
 * {@code workers x largest projected task memory + baseline <= Runtime.maxMemory()}, where baseline
 * is the heap in use when the compute starts (re-measured after a GC before capping); a cap is
 * logged. Measured memory per task is the
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
      for (Operation op : ops) {
        runOp(pool, op, callbacks);
      }
    } catch (RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      pool.shutdownNow();
      long end = System.currentTimeMillis();
      for (Callback c : callbacks) {
        c.onComputeEnd(new Events.ComputeEnd(computeId, start, end, error));
      }
    }
  }

  private void runOp(ExecutorService pool, Operation op, List<Callback> callbacks) {
    long opStart = System.currentTimeMillis();
    for (Callback c : callbacks) {
      c.onOpStart(new Events.OpStart(op.name(), op.keys().size(), op.projectedMem(), opStart));
    }
    List<Future<?>> futures = new ArrayList<>(op.keys().size());
    for (long[] key : op.keys()) {
      futures.add(pool.submit(() -> {
        runTask(op, key, callbacks);
        return null;
      }));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while running " + op.name(), e);
      } catch (ExecutionException e) {
        for (Future<?> other : futures) {
          other.cancel(true);
        }
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
    long opEnd = System.currentTimeMillis();
    for (Callback c : callbacks) {
      c.onOpEnd(new Events.OpEnd(op.name(), op.keys().size(), opStart, opEnd));
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
