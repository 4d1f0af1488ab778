package dev.cubed.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One compute's schedule: an operation's tasks are queued on the pool as soon as every operation it
 * depends on has finished, so independent operations (e.g. the branches of a plan with several
 * outputs) share the workers instead of running one after the other. An operation finishes when
 * each of its keys has reported one success. The first failure cancels the rest and is rethrown.
 */
final class DagRun {
  /** What happened to one task; exactly one call per task, from any thread. */
  interface Outcome {
    /** The task has succeeded (once, whichever of its runs won). */
    void succeeded();

    /** The task has failed for good; the compute fails with this error. */
    void failed(Throwable error);
  }

  /**
   * How a DagRun runs one task: reports through {@code outcome}, now or later from another thread
   * (e.g. a backup run). Throwing is the same as {@code outcome.failed}.
   */
  @FunctionalInterface
  interface TaskRunner {
    void run(Operation op, long[] key, List<Callback> callbacks, Outcome outcome);
  }

  private final java.util.concurrent.Executor pool;
  private final Runnable onFailure;
  private final TaskRunner runner;
  private final List<Operation> ops;
  private final List<Callback> callbacks;
  private final AtomicInteger[] waitingFor;
  private final AtomicInteger[] tasksLeft;
  private final AtomicBoolean[] started;
  private final List<List<Integer>> dependents = new ArrayList<>();
  private final long[] opStart;
  private final AtomicInteger opsLeft;
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  DagRun(
      java.util.concurrent.Executor pool,
      Runnable onFailure,
      List<Operation> ops,
      List<Callback> callbacks,
      TaskRunner runner) {
    this.pool = pool;
    this.onFailure = onFailure;
    this.runner = runner;
    this.ops = ops;
    this.callbacks = callbacks;
    int n = ops.size();
    waitingFor = new AtomicInteger[n];
    tasksLeft = new AtomicInteger[n];
    started = new AtomicBoolean[n];
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
            throw new IllegalArgumentException(
                "threads executor: operation "
                    + op.name()
                    + " depends on '"
                    + d
                    + "', which is not an earlier operation of the plan");
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
      started[i] = new AtomicBoolean();
      if (index.put(op.name(), i) != null) {
        throw new IllegalArgumentException(
            "threads executor: two operations are named " + op.name());
      }
    }
  }

  /** True once the compute has finished or failed. */
  boolean isDone() {
    return done.isDone();
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
      throw new IllegalStateException(
          "threads executor: operation "
              + ops.get(i).name()
              + " was started twice (scheduler bug)");
    }
    if (done.isDone()) {
      return;
    }
    Operation op = ops.get(i);
    opStart[i] = System.currentTimeMillis();
    for (Callback c : callbacks) {
      c.onOpStart(new Events.OpStart(op.name(), op.keys().size(), op.projectedMem(), opStart[i]));
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
    AtomicBoolean reported = new AtomicBoolean();
    Outcome outcome =
        new Outcome() {
          @Override
          public void succeeded() {
            if (reported.compareAndSet(false, true) && tasksLeft[i].decrementAndGet() == 0) {
              try {
                finishOp(i);
              } catch (Throwable t) {
                fail(t); // a callback or a dependent's start failed
              }
            }
          }

          @Override
          public void failed(Throwable error) {
            if (reported.compareAndSet(false, true)) {
              fail(error);
            }
          }
        };
    try {
      runner.run(ops.get(i), key, callbacks, outcome);
    } catch (Throwable t) {
      outcome.failed(t);
    }
  }

  private void fail(Throwable t) {
    done.completeExceptionally(t);
    onFailure.run();
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
