package dev.cubed.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The one scheduler of every executor: which operation runs when, the operation events, and how a
 * failure ends a compute. The threads and processes executors hand it their tasks ({@link
 * #runTasks}); engine executors that run a whole operation as one job (Spark) hand it operations
 * ({@link #runOps}); those that build a static graph (Beam) take its {@link #dependencies}.
 *
 * <p><b>Order.</b> An operation starts as soon as every operation it depends on has finished
 * ({@link Operation#dependencies()}; unknown dependencies = every earlier operation), so
 * independent operations share the workers. Each operation starts at most once, with an {@link
 * Events.OpStart} before its first task; an {@link Events.OpEnd} follows its last task's success,
 * before any operation depending on it starts. An operation with no tasks starts and ends at once.
 *
 * <p><b>Tasks.</b> In {@link #runTasks} each task is queued on the given pool when its operation
 * starts; the {@link TaskRunner} runs it (its attempts, retries with the {@link RetryPolicy},
 * timeouts and backups: {@code TaskRuns} for the built-ins) and reports one outcome. A task is done
 * at its first reported success (a backup's or the original's).
 *
 * <p><b>Failures.</b> The first failure ends the compute: {@code onFailure} runs once (to cancel
 * what is running), no further operation starts, and the run throws that failure; a {@link
 * TaskFailedException} that does not name an executor is given this scheduler's executor name, so
 * every message says which executor ran the task. Errors in the plan's shape (a dependency that is
 * not an earlier operation, two operations of one name) are refused before anything runs, naming
 * the executor.
 *
 * <p><b>Resume.</b> Tasks already done by an earlier run never reach an executor: the plan removes
 * them from the operations it hands over (their completion markers), and an operation with no task
 * left is not handed over at all, so every executor skips them alike.
 *
 * <p>The scheduler does not wait for tasks it started: after {@code runTasks} or {@code runOps}
 * returns or throws, the executor stops its pool and waits ({@link #awaitStopped}), so nothing
 * writes after {@link Executor#execute} has returned. Executors that own a task pool for the
 * compute run their tasks through {@link #runOnPool}, which does that for them.
 */
public final class Scheduler {
  private static final LazyLog LOG = new LazyLog(Scheduler.class.getName());

  /** How long {@link #awaitStopped} waits before warning (and waiting again), seconds. */
  static final long STOP_WAIT_SECONDS = 60;

  private final String executor;

  /**
   * A scheduler for one executor.
   *
   * @param executor the executor's name as messages give it (e.g. "threads", "spark")
   */
  public Scheduler(String executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /** The name of the executor this scheduler runs for. */
  public String executor() {
    return executor;
  }

  /** What happened to one task (or one operation, in {@link #runOps}): exactly one call. */
  public interface Outcome {
    /** It has succeeded (once, whichever of its runs won). */
    void succeeded();

    /** It has failed for good; the compute fails with this error. */
    void failed(Throwable error);
  }

  /**
   * Runs one task: reports through {@code outcome}, now or later from another thread (e.g. a backup
   * run), and reports the task's {@link Events.TaskEnd} to the callbacks itself. Throwing is the
   * same as {@code outcome.failed}.
   */
  @FunctionalInterface
  public interface TaskRunner {
    void run(Operation op, long[] key, List<Callback> callbacks, Outcome outcome);
  }

  /**
   * Runs one whole operation (e.g. one engine job) on a thread of the pool, blocking until it is
   * done, and reports its tasks' {@link Events.TaskEnd}s itself; returning is success, throwing is
   * failure. Op events come from the scheduler.
   */
  @FunctionalInterface
  public interface OpRunner {
    void run(Operation op, List<Callback> callbacks) throws Exception;
  }

  /**
   * The operations each operation depends on, as indexes of earlier operations (unknown
   * dependencies = every earlier operation).
   *
   * @throws IllegalArgumentException naming the executor if a dependency is not an earlier
   *     operation, or two operations have one name
   */
  public int[][] dependencies(List<Operation> ops) {
    Map<String, Integer> index = new HashMap<>();
    int[][] deps = new int[ops.size()][];
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      Set<Integer> d = new LinkedHashSet<>();
      if (op.hasKnownDependencies()) {
        for (String name : op.dependencies()) {
          Integer j = index.get(name);
          if (j == null) {
            throw new IllegalArgumentException(
                executor
                    + " executor: operation "
                    + op.name()
                    + " depends on '"
                    + name
                    + "', which is not an earlier operation of the plan");
          }
          d.add(j);
        }
      } else {
        for (int j = 0; j < i; j++) {
          d.add(j);
        }
      }
      deps[i] = d.stream().mapToInt(Integer::intValue).toArray();
      if (index.put(op.name(), i) != null) {
        throw new IllegalArgumentException(
            executor + " executor: two operations are named " + op.name());
      }
    }
    return deps;
  }

  /**
   * Runs every task of every operation in dependency order: each task is queued on {@code pool}
   * when its operation starts and run by {@code runner}. Returns when every task has succeeded.
   *
   * @param onFailure run once on the first failure (e.g. stop the pool, interrupting its tasks)
   * @throws RuntimeException the first failure ({@link TaskFailedException} naming the executor for
   *     a task that failed for good)
   */
  public void runTasks(
      List<Operation> ops,
      List<Callback> callbacks,
      java.util.concurrent.Executor pool,
      Runnable onFailure,
      TaskRunner runner) {
    new Run(
            ops,
            callbacks,
            onFailure,
            (run, i) -> {
              Operation op = ops.get(i);
              AtomicInteger left = new AtomicInteger(op.keys().size());
              for (long[] key : op.keys()) {
                try {
                  pool.execute(() -> run.runTask(i, key, left, runner));
                } catch (RejectedExecutionException e) {
                  return; // the pool is shut down after a failure
                }
              }
            })
        .run();
  }

  /**
   * The run of an executor that owns a task pool for one compute (the threads and processes
   * executors): runs {@code first} and then every task ({@link #runTasks}, by {@code runs}; the
   * first failure stops {@code runs} and the pool). Whatever happens, it then stops {@code runs},
   * shuts the pool down (interrupting the runs still going, e.g. the losing runs of backed-up
   * tasks), waits until no task is running there ({@link #awaitStopped}), closes {@code runs}, and
   * last calls {@code last} with the failure (null on success), when nothing of the compute runs
   * any more: the place to release workers and report the compute's end.
   *
   * @param first run before the tasks, inside the bracket (e.g. start worker processes); a failure
   *     there is the compute's failure
   * @throws RuntimeException the first failure, after {@code last} has seen it
   */
  public void runOnPool(
      String computeId,
      List<Operation> ops,
      List<Callback> callbacks,
      ExecutorService pool,
      TaskRuns runs,
      Runnable first,
      Consumer<Throwable> last) {
    Throwable error = null;
    try {
      first.run();
      runTasks(
          ops,
          callbacks,
          pool,
          () -> {
            runs.stop();
            pool.shutdownNow();
          },
          runs);
    } catch (RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      runs.stop();
      pool.shutdownNow();
      awaitStopped(pool, computeId);
      runs.close();
      last.accept(error);
    }
  }

  /**
   * Runs every operation in dependency order, each as a whole on a thread of {@code pool} (an
   * operation's own tasks are the runner's business). Returns when every operation has succeeded.
   *
   * @param onFailure run once on the first failure (e.g. cancel the engine's running jobs)
   * @throws RuntimeException the first failure
   */
  public void runOps(
      List<Operation> ops,
      List<Callback> callbacks,
      java.util.concurrent.Executor pool,
      Runnable onFailure,
      OpRunner runner) {
    new Run(
            ops,
            callbacks,
            onFailure,
            (run, i) -> {
              try {
                pool.execute(() -> run.runOp(i, runner));
              } catch (RejectedExecutionException e) {
                // the pool is shut down after a failure
              }
            })
        .run();
  }

  /**
   * Stops accepting work on {@code pool} and waits until no task of the compute is running there,
   * so nothing writes after the compute has ended (call {@code pool.shutdownNow()} first to
   * interrupt them; a task that ignores the interrupt is waited for, with a logged warning each
   * minute).
   */
  public void awaitStopped(ExecutorService pool, String computeId) {
    pool.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
          break;
        }
        LOG.get()
            .warning(
                executor
                    + " executor: compute "
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

  /**
   * A failure as the compute reports it: a {@link TaskFailedException} without an executor gets
   * this scheduler's.
   */
  public Throwable named(Throwable t) {
    if (t instanceof TaskFailedException tf && tf.executor() == null) {
      return tf.withExecutor(executor);
    }
    return t;
  }

  /** How a started operation's work is launched (its tasks queued, or the op handed over). */
  private interface Launcher {
    void launch(Run run, int op);
  }

  /** One compute's walk of the operation graph. */
  private final class Run {
    private final List<Operation> ops;
    private final List<Callback> callbacks;
    private final Runnable onFailure;
    private final Launcher launcher;
    private final int[][] deps;
    private final List<List<Integer>> dependents = new ArrayList<>();
    private final AtomicInteger[] waitingFor;
    private final AtomicBoolean[] started;
    private final long[] opStart;
    private final AtomicInteger opsLeft;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    Run(List<Operation> ops, List<Callback> callbacks, Runnable onFailure, Launcher launcher) {
      this.ops = ops;
      this.callbacks = callbacks;
      this.onFailure = onFailure;
      this.launcher = launcher;
      this.deps = dependencies(ops);
      int n = ops.size();
      waitingFor = new AtomicInteger[n];
      started = new AtomicBoolean[n];
      opStart = new long[n];
      opsLeft = new AtomicInteger(n);
      for (int i = 0; i < n; i++) {
        dependents.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        for (int j : deps[i]) {
          dependents.get(j).add(i);
        }
        waitingFor[i] = new AtomicInteger(deps[i].length);
        started[i] = new AtomicBoolean();
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
      try {
        for (int i : ready) {
          startOp(i);
        }
      } catch (RuntimeException | Error e) {
        fail(e); // a callback failed
      }
      try {
        done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail(e);
        throw new IllegalStateException(
            executor + " executor: interrupted while running the plan", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RuntimeException re) {
          throw re;
        }
        if (c instanceof Error er) {
          throw er;
        }
        throw new IllegalStateException(executor + " executor: " + c, c);
      }
    }

    /** Starts op i; an op is started at most once, whoever calls this. */
    private void startOp(int i) {
      if (!started[i].compareAndSet(false, true)) {
        throw new IllegalStateException(
            executor
                + " executor: operation "
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
      launcher.launch(this, i);
    }

    private void runTask(int i, long[] key, AtomicInteger left, TaskRunner runner) {
      if (done.isDone()) {
        return;
      }
      AtomicBoolean reported = new AtomicBoolean();
      Outcome outcome =
          new Outcome() {
            @Override
            public void succeeded() {
              if (reported.compareAndSet(false, true) && left.decrementAndGet() == 0) {
                finishSafely(i);
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

    private void runOp(int i, OpRunner runner) {
      if (done.isDone()) {
        return;
      }
      try {
        runner.run(ops.get(i), callbacks);
      } catch (Throwable t) {
        fail(t);
        return;
      }
      finishSafely(i);
    }

    private void finishSafely(int i) {
      try {
        finishOp(i);
      } catch (Throwable t) {
        fail(t); // a callback or a dependent's start failed
      }
    }

    private void fail(Throwable t) {
      if (failed.compareAndSet(false, true)) {
        done.completeExceptionally(named(t));
        onFailure.run();
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
}
