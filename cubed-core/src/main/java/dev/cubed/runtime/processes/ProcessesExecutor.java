package dev.cubed.runtime.processes;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorBuilder;
import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.runtime.Scheduler;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.TaskRuns;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Runs tasks in a pool of worker JVMs, one task at a time per worker, so a worker's heap bound is a
 * task's bound: a task that needs more memory than projected fails loudly (OutOfMemoryError)
 * instead of passing silently.
 *
 * <p><b>Workers.</b> A compute starts {@code workers} JVMs (the same {@code java} and classpath as
 * this one; no set-up) and stops them when it ends, so nothing outlives {@link #execute}, unless
 * {@link Builder#keepAlive} keeps them idle for the next compute (then {@link #close}, JVM exit or
 * the idle time stop them; {@link WorkerPool}). Each has the heap bound {@code -Xmx = allowedMem}
 * (a task's projection, reservedMem included, is at most allowedMem, and reservedMem covers the
 * worker's own heap baseline), runs the serial collector (one GC thread, the smallest footprint),
 * exits on OutOfMemoryError, and caps direct memory at {@code max(64 MiB, allowedMem / 4)}. Without
 * an allowedMem (e.g. {@code Executor.byName}), the heap bound is the plan's largest projected task
 * memory; either way at least 64 MiB. A worker's whole footprint is the heap bound plus the JVM's
 * own overhead (metaspace, code, GC and thread structures), measured by {@link
 * #measureWorkerBaseline}.
 *
 * <p><b>Channel.</b> The worker's stdin and stdout (never a network port) carry length-prefixed
 * frames ({@link WorkerProtocol}); the worker sends user prints to stderr. Each op's task function
 * is Java-serialized once per compute and sent once to each worker that runs one of its tasks;
 * after that a task is (op index, key). Results come back as status frames: success with
 * measurements, or the failure as text ({@link dev.cubed.runtime.WorkerTaskException}: class names,
 * message, stack).
 *
 * <p><b>Scheduling and failures.</b> As the threads executor: the {@link Scheduler} starts an op
 * when its dependencies are done, and each task's attempts, retries ({@link
 * dev.cubed.runtime.RetryPolicy}), timeouts and backups are run by {@link TaskRuns}, on {@code
 * workers} dispatcher threads, each bound to one worker process, which it sends the task to and
 * waits. A worker that dies (OutOfMemoryError, killed) is detected by the end of its channel
 * ({@link WorkerDiedException}, transient), replaced by a new one before the next attempt, and the
 * attempt counts. An attempt that is interrupted (a timeout, a backup won, the compute failed)
 * kills its worker, since a running task cannot be stopped otherwise. Before anything runs, a plan
 * with a task projecting more than the heap bound is refused ({@link
 * dev.cubed.runtime.InsufficientHeapException}).
 *
 * <p><b>Measured memory</b> ({@link Events.TaskEnd#measuredPeakMem()}): before each task the worker
 * (Linux) resets its VmHWM and runs a full GC unless its heap holds at most a slack ({@link
 * Builder#gcSkip}) above its <i>idle baseline</i> (the heap in use after its last full GC between
 * tasks: the idle worker plus the shipped functions). The task's figure is its <i>peak heap
 * growth</i> ({@link WorkerProtocol.Measured#peakGrowth}): the largest heap in use during the task
 * (when each collection during it started, from GC notifications, and at its end) above the heap in
 * use at its start until its first collection, and above the idle baseline from then on (so
 * leftover garbage of earlier tasks, at most the slack, may be charged to a task that collects).
 * Reported: {@code measuredPeakMem = reservedMem + peak growth}, in the projection's terms (what
 * the task added to the idle worker, plus the reserved memory the projection also counts). This is
 * an <b>upper bound</b> on the memory the task needed: it includes garbage the collector had not
 * reclaimed yet, so with a roomy heap (the default bound, allowedMem) it approaches what the task
 * allocated. The enforced check is the heap bound: with {@link Builder#heapPerOp} every task runs
 * in a heap of its own op's projection and one that needs more fails with OutOfMemoryError. {@code
 * peakRss} is the worker's VmHWM during the task (whole process: JVM + heap). A task whose measured
 * peak exceeds its projection has a TaskEnd with {@code exceedsProjection()} true; the log gets one
 * line per op when the compute ends: a WARNING only if some task's live data after a full
 * collection during the task (garbage-free, a lower bound on its need) exceeded the projection,
 * which proves the op under-projected; otherwise an INFO line (FINE in heapPerOp mode) with the
 * count and the worst task, since the occupancy alone is no evidence.
 */
public final class ProcessesExecutor implements Executor, AutoCloseable {
  static final Logger LOG = Logger.getLogger(ProcessesExecutor.class.getName());

  private final int workers;
  private final long allowedMem;
  private final long reservedMem;
  private final TaskRuns.Config config;
  private final List<String> extraJvmArgs;
  private final boolean heapPerOp;
  private final long keepAliveMillis;
  private final boolean gcSkip;
  private final boolean postTaskGc;
  private final boolean workerStats;

  /** Op ids unique in this JVM, so a worker kept between computes never confuses two ops. */
  private static final AtomicInteger OP_IDS = new AtomicInteger();

  private final List<WorkerProcess> live = new CopyOnWriteArrayList<>();
  private volatile Consumer<List<ProcessHandle>> workerStartHook;

  private static final Scheduler SCHEDULER = new Scheduler("processes");

  /** Workers = available processors, 3 attempts, heap bound from the plan. */
  public ProcessesExecutor() {
    this(builder());
  }

  private ProcessesExecutor(Builder b) {
    this.workers = b.workers;
    this.allowedMem = b.allowedMem;
    this.reservedMem = b.reservedMem;
    this.extraJvmArgs = List.copyOf(b.extraJvmArgs);
    this.heapPerOp = b.heapPerOp;
    this.keepAliveMillis = b.keepAlive.toMillis();
    this.gcSkip = b.gcSkip;
    this.postTaskGc = b.postTaskGc;
    this.workerStats = b.workerStats;
    this.config = b.config("processes", null);
  }

  /** A builder with the defaults: workers = available processors, 3 attempts. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Options of a {@link ProcessesExecutor}: those all pool executors share ({@link
   * ExecutorBuilder}), and allowedMem, keep-alive, strict memory and the workers' JVM options.
   */
  public static final class Builder extends ExecutorBuilder<Builder> {
    private long allowedMem;
    private final List<String> extraJvmArgs = new ArrayList<>();
    private boolean heapPerOp;
    private Duration keepAlive = Duration.ZERO;
    private boolean gcSkip = true;
    private boolean postTaskGc = true;
    private boolean workerStats;

    private Builder() {
      super("ProcessesExecutor");
    }

    /**
     * With a GC skip slack ({@link #gcSkip}), whether a worker also runs the GC check right after
     * each reply, while the parent handles it (default on; the spec's {@code worker_post_task_gc}).
     */
    public Builder postTaskGc(boolean on) {
      this.postTaskGc = on;
      return this;
    }

    /**
     * Whether each worker prints its pre-task GCs run and skipped to stderr when it exits (default
     * off; the spec's {@code worker_stats}).
     */
    public Builder workerStats(boolean on) {
      this.workerStats = on;
      return this;
    }

    /**
     * Keeps the worker JVMs of a compute that succeeded for the next compute (of this or any
     * executor with equal worker settings) for up to {@code idle} (default 0: workers stop when
     * their compute ends). Idle workers are stopped by {@link ProcessesExecutor#close}, at JVM exit
     * and after {@code idle}; they exit by themselves if this JVM dies. Executors made by name
     * ({@link Executor#byName(String, ExecutorSettings)}, so also {@code Cubed.executor(spec)})
     * keep them for the settings' keep-alive (the spec's {@code processes_keep_alive}, default 30
     * s).
     */
    public Builder keepAlive(Duration idle) {
      this.keepAlive = notNegative("keepAlive", idle);
      return this;
    }

    /**
     * Lets a worker skip the full GC before a task when the heap holds at most {@code min(64 MiB,
     * heap bound / 8)} above its idle baseline (default on; the spec's {@code
     * processes_gc_skip=false} turns it off). The measured peak stays an upper bound on the task's
     * heap; see docs/diagnostics.md. Not in {@link #heapPerOp} mode, whose figures are compared
     * with the projections: there a full GC runs before every task, so a task is never charged what
     * an earlier one left.
     */
    public Builder gcSkip(boolean on) {
      this.gcSkip = on;
      return this;
    }

    /**
     * Strict memory (off by default): each worker's heap bound is the projection of the op whose
     * task it runs (package-private {@code WorkerHeapBounds.forOp}) instead of allowedMem, so a
     * task that needs more than its op projected fails with OutOfMemoryError. Workers are restarted
     * when the next task belongs to an op with another bound (a JVM start, ~0.2-0.5 s, per op and
     * worker). Used by the memory test suite.
     */
    public Builder heapPerOp(boolean on) {
      this.heapPerOp = on;
      return this;
    }

    /** Also takes allowedMem: the workers' heap bound ({@link #allowedMem}). */
    @Override
    public Builder settings(ExecutorSettings s) {
      return super.settings(s).allowedMem(s.allowedMem());
    }

    /**
     * The memory a task may use (the spec's allowedMem): each worker's heap bound (-Xmx). 0 (the
     * default) derives the bound from each plan's largest projected task memory.
     *
     * @throws IllegalArgumentException if negative or below reservedMem
     */
    public Builder allowedMem(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException(
            "ProcessesExecutor: allowedMem must be >= 0, got " + bytes);
      }
      this.allowedMem = bytes;
      return this;
    }

    /**
     * An extra JVM option for the workers (e.g. a JFR recording: {@code
     * -XX:StartFlightRecording=filename=/tmp/worker-%p.jfr}); appended last, in the order given.
     */
    public Builder workerJvmArg(String arg) {
      extraJvmArgs.add(arg);
      return this;
    }

    /** {@link #workerJvmArg} for each option (the spec's {@code worker_jvm_options}). */
    public Builder workerJvmArgs(List<String> args) {
      args.forEach(this::workerJvmArg);
      return this;
    }

    /** The executor. */
    public ProcessesExecutor build() {
      if (allowedMem > 0 && reservedMem >= allowedMem) {
        throw new IllegalArgumentException(
            "ProcessesExecutor: reservedMem ("
                + reservedMem
                + " B) must be below allowedMem ("
                + allowedMem
                + " B)");
      }
      return new ProcessesExecutor(this);
    }
  }

  /**
   * The configuration as {workers, attempts, allowedMem, reservedMem, keepAliveMillis, heapPerOp ?
   * 1 : 0} (for tests of the registry).
   */
  public long[] configuration() {
    return new long[] {
      workers, config.attempts(), allowedMem, reservedMem, keepAliveMillis, heapPerOp ? 1 : 0
    };
  }

  @Override
  public String name() {
    return "processes";
  }

  /**
   * A hook (for tests and monitoring) called with the live workers' handles whenever a worker
   * process starts (also a replacement); null for none.
   */
  public void onWorkerStart(Consumer<List<ProcessHandle>> hook) {
    this.workerStartHook = hook;
  }

  /** The worker processes still running (empty when no compute is running). */
  public List<ProcessHandle> liveWorkers() {
    List<ProcessHandle> r = new ArrayList<>();
    for (WorkerProcess w : live) {
      if (w.handle().isAlive()) {
        r.add(w.handle());
      }
    }
    return r;
  }

  @Override
  public RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
    long start = System.currentTimeMillis();
    long bound = WorkerHeapBounds.forPlan(ops, allowedMem);
    WorkerHeapBounds.checkFits(ops, bound);
    byte[][] fns = FunctionShipping.serializeFunctions(ops);
    int opBase = OP_IDS.getAndAdd(ops.size());
    Slot[] slots = new Slot[workers];
    for (int i = 0; i < workers; i++) {
      slots[i] = new Slot(i, extraJvmArgs);
    }
    ThreadLocal<Slot> mySlot = new ThreadLocal<>();
    TaskMeasurements measured = new TaskMeasurements(reservedMem);
    AtomicInteger threadNo = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            workers,
            r -> {
              Slot s = slots[threadNo.getAndIncrement() % workers];
              Thread t =
                  new Thread(
                      () -> {
                        mySlot.set(s);
                        r.run();
                      },
                      "cubed-dispatch-" + s.index);
              t.setDaemon(true);
              return t;
            });
    List<Operation> remote = new ArrayList<>(ops.size());
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      int index = i;
      TaskFunction fn =
          key -> {
            measured.starting(key);
            Slot s = mySlot.get();
            String what = "task " + Arrays.toString(key) + " of " + op.name();
            s.busy.lockInterruptibly(); // one task at a time per worker, whatever the thread pool
            // does
            try {
              WorkerProcess w =
                  s.worker(heapPerOp ? WorkerHeapBounds.forOp(op, reservedMem) : bound);
              WorkerProcess.Reply reply = w.run(opBase + index, fns[index], key, what);
              if (reply.failure() != null) {
                throw reply.failure();
              }
              measured.finished(w, reply.measured());
            } finally {
              s.busy.unlock();
            }
          };
      remote.add(
          new Operation(
              op.name(),
              op.keys(),
              fn,
              op.projectedMem(),
              op.hasKnownDependencies() ? op.dependencies() : null));
    }
    Events.Running compute = Events.computeStarted(computeId, ops, start, callbacks);
    TaskRuns runs = new TaskRuns(config, pool, measured);
    SCHEDULER.runOnPool(
        computeId,
        remote,
        callbacks,
        pool,
        runs,
        () ->
            startAll(
                slots,
                heapPerOp && !ops.isEmpty()
                    ? WorkerHeapBounds.forOp(ops.get(0), reservedMem)
                    : bound),
        error -> {
          // the pool has stopped: no dispatcher is still talking to a worker when the slots close
          // (an interrupt of this thread does not cut that wait short)
          for (Slot s : slots) {
            s.close(error == null && keepAliveMillis > 0);
          }
          measured.logOverProjections(heapPerOp);
          compute.ended(error);
        });
    return runs.report(workers, bound);
  }

  /** Starts every slot's worker at once (JVM start-up overlaps). */
  private void startAll(Slot[] slots, long firstBound) {
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    for (Slot s : slots) {
      Thread t =
          new Thread(
              () -> {
                try {
                  s.worker(firstBound);
                } catch (IOException | RuntimeException e) {
                  errors.add(e);
                }
              },
              "cubed-worker-start-" + s.index);
      t.start();
      ts.add(t);
    }
    for (Thread t : ts) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting worker processes", e);
      }
    }
    if (!errors.isEmpty()) {
      IllegalStateException e =
          new IllegalStateException(
              "processes executor: could not start"
                  + " worker processes: "
                  + errors.get(0).getMessage(),
              errors.get(0));
      throw e;
    }
  }

  /** One dispatcher thread's worker process, started on first use and replaced when dead. */
  private final class Slot {
    final int index;
    final List<String> jvmArgs;
    final ReentrantLock busy = new ReentrantLock();
    private WorkerProcess current;
    private boolean closed;

    Slot(int index, List<String> jvmArgs) {
      this.index = index;
      this.jvmArgs = jvmArgs;
    }

    /** This slot's worker with the given heap bound, (re)started if needed. */
    synchronized WorkerProcess worker(long heapBound) throws IOException {
      if (closed) {
        throw new IOException("processes executor: the compute is over");
      }
      if (current != null && current.isAlive() && current.heapBound() == heapBound) {
        return current;
      }
      if (current != null) {
        live.remove(current);
        if (current.isAlive()) {
          retire(current); // strict mode: another op's bound
        } else {
          current.kill();
          LOG.info("processes executor: replacing dead worker " + current.pid());
        }
      }
      WorkerProcess.Settings settings =
          new WorkerProcess.Settings(
              heapBound,
              jvmArgs,
              gcSkip && !heapPerOp ? WorkerProcess.Settings.defaultGcSkipSlack(heapBound) : 0,
              postTaskGc,
              workerStats);
      current = keepAliveMillis > 0 ? WorkerPool.SHARED.take(settings) : null;
      if (current == null) {
        current = WorkerProcess.start(settings);
      }
      live.add(current);
      Consumer<List<ProcessHandle>> hook = workerStartHook;
      if (hook != null) {
        hook.accept(liveWorkers());
      }
      return current;
    }

    /** Ends the slot: its worker goes back to the pool if {@code keep}, else stops. */
    void close(boolean keep) {
      WorkerProcess w;
      synchronized (this) {
        closed = true;
        w = current;
        current = null;
      }
      if (w != null) {
        live.remove(w);
        if (keep) {
          retire(w);
        } else {
          w.shutdown();
        }
      }
    }
  }

  /** A worker this executor is done with: to the pool when keeping workers, else stopped. */
  private void retire(WorkerProcess w) {
    if (keepAliveMillis > 0) {
      WorkerPool.SHARED.release(w, this, Math.max(workers, 1), keepAliveMillis);
    } else {
      w.shutdown();
    }
  }

  /** Stops every idle worker kept for a next compute (any executor's); e.g. when a command ends. */
  public static void stopIdleWorkers() {
    WorkerPool.SHARED.stopAll();
  }

  /** Workers kept idle for the next compute (see {@link Builder#keepAlive}), any executor's. */
  public static List<ProcessHandle> idleWorkers() {
    return WorkerPool.SHARED.idleWorkers();
  }

  /**
   * Stops any worker still running (normally none: each compute stops its own) and the idle workers
   * this executor handed back to the pool ({@link Builder#keepAlive}).
   */
  @Override
  public void close() {
    for (WorkerProcess w : live) {
      w.kill();
    }
    live.clear();
    WorkerPool.SHARED.closeOwnedBy(this);
  }

  /** An idle worker's footprint: heap used after a GC and resident set size, bytes. */
  public record WorkerBaseline(
      long heapBound,
      long idleHeap,
      long idleRss,
      long rssAfterEmptyTask,
      long emptyTaskMeasured) {}

  /**
   * Starts one worker as a compute would (heap bound = {@code allowedMem}), runs an empty task in
   * it and reports its baseline; used by {@code cubed measure-reserved-mem}.
   *
   * @throws IllegalStateException if the worker cannot be started
   */
  public static WorkerBaseline measureWorkerBaseline(long allowedMem) {
    if (allowedMem < WorkerHeapBounds.MIN) {
      throw new IllegalArgumentException(
          "measureWorkerBaseline: allowedMem must be >= "
              + WorkerHeapBounds.MIN
              + " B, got "
              + allowedMem);
    }
    WorkerProcess w;
    try {
      w = WorkerProcess.start(new WorkerProcess.Settings(allowedMem, List.of()));
    } catch (IOException e) {
      throw new IllegalStateException(
          "measure-reserved-mem: could not start a worker: " + e.getMessage(), e);
    }
    try {
      WorkerProcess.Reply r = w.run(-1, null, new long[0], "an empty task");
      WorkerProtocol.Measured m = r.measured();
      return new WorkerBaseline(allowedMem, w.idleHeap(), w.idleRss(), m.vmHwm(), m.peakGrowth());
    } catch (WorkerDiedException e) {
      throw new IllegalStateException("measure-reserved-mem: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("measure-reserved-mem: interrupted", e);
    } finally {
      w.shutdown();
    }
  }
}
