package dev.cubed.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The attempts of the tasks of one compute on the threads or processes executor ({@link
 * Scheduler.TaskRunner}): retries (with {@link RetryPolicy} and exponential backoff), task
 * timeouts, backup tasks and injected faults.
 *
 * <p>A task has one original <i>run</i> and at most one backup run; each run is a sequence of up to
 * {@code attempts} attempts on a pool thread. The first successful attempt of either run wins: it
 * reports the {@link Events.TaskEnd} and the task's success, and interrupts the other run, whose
 * outcome (result or error) is then ignored. The task fails when a deterministic error occurs, or
 * when every run has used all its attempts. A daemon monitor thread checks the running attempts
 * every few milliseconds: it interrupts an attempt older than the task timeout (a failed attempt,
 * retried) and launches a backup when the rule of {@link ExecutorBuilder#backupTasks} holds.
 */
public final class TaskRuns implements Scheduler.TaskRunner, AutoCloseable {
  private static final LazyLog LOG = new LazyLog(ThreadsExecutor.class.getName());

  /** Backups are considered once this many tasks of an op have started... */
  static final int BACKUP_MIN_STARTED = 10;

  /** ...and at least this fraction of them has finished... */
  static final double BACKUP_MIN_FINISHED_FRACTION = 0.5;

  /** ...for a task running this many times longer than the median finished task. */
  static final double BACKUP_SLOW_FACTOR = 3.0;

  /** The executor options that shape attempts. */
  public record Config(
      String executor,
      int attempts,
      Duration timeout,
      boolean backups,
      Duration backupMinDuration,
      Faults faults,
      Duration retryBackoff) {
    boolean needsMonitor() {
      return timeout != null || backups;
    }

    long tickMillis() {
      long t = 100;
      if (timeout != null) {
        t = Math.min(t, timeout.toMillis() / 4);
      }
      if (backups) {
        t = Math.min(t, backupMinDuration.toMillis() / 4);
      }
      return Math.max(5, t);
    }
  }

  private final Config cfg;
  private final java.util.concurrent.Executor pool;
  private final Map<String, OpStats> opStats = new ConcurrentHashMap<>();
  private final Set<Task> active = ConcurrentHashMap.newKeySet();
  private final AtomicLong backupsLaunched = new AtomicLong();
  private final AtomicLong backupsWon = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final Thread monitor;
  private final Probe probe;
  private volatile boolean stopped;

  /**
   * What an executor measured for the attempt that just succeeded on the current thread (asked on
   * that thread, right after the success).
   */
  public interface Probe {
    /** The winning attempt's measurements, or null if none. */
    Measurement lastAttempt(Operation op);
  }

  /** One attempt's measurements for {@link Events.TaskEnd}: -1 where unknown. */
  public record Measurement(String worker, long measuredPeakMem, long peakRss) {}

  public TaskRuns(Config cfg, java.util.concurrent.Executor pool) {
    this(cfg, pool, null);
  }

  public TaskRuns(Config cfg, java.util.concurrent.Executor pool, Probe probe) {
    this.cfg = cfg;
    this.pool = pool;
    this.probe = probe;
    if (cfg.needsMonitor()) {
      monitor = new Thread(this::monitorLoop, "cubed-task-monitor");
      monitor.setDaemon(true);
      monitor.start();
    } else {
      monitor = null;
    }
  }

  /** No attempt starts after this (the compute failed or is over). */
  public void stop() {
    stopped = true;
  }

  /** The report of the compute these runs served. */
  public RunReport report(int concurrency, long heapBound) {
    return new RunReport(
        cfg.executor(),
        concurrency,
        heapBound,
        retries.get(),
        timeouts.get(),
        backupsLaunched.get(),
        backupsWon.get(),
        Map.of());
  }

  /** Stops the monitor thread and waits for it. */
  @Override
  public void close() {
    stopped = true;
    if (monitor != null) {
      monitor.interrupt();
      try {
        monitor.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void run(Operation op, long[] key, List<Callback> callbacks, Scheduler.Outcome outcome) {
    OpStats s = opStats.computeIfAbsent(op.name(), n -> new OpStats());
    Task t = new Task(op, key, callbacks, outcome, s);
    Run r = new Run(t, false);
    t.runs.add(r);
    s.started.incrementAndGet();
    active.add(t);
    execRun(r);
  }

  /** Per-op figures for the backup rule. */
  private static final class OpStats {
    final AtomicInteger started = new AtomicInteger();
    final List<Long> finishedNanos = new ArrayList<>();

    synchronized void finished(long nanos) {
      finishedNanos.add(nanos);
    }

    /** Whether a task running for {@code elapsed} nanos deserves a backup. */
    synchronized boolean slow(long elapsed, long minNanos) {
      int n = started.get();
      int done = finishedNanos.size();
      if (n < BACKUP_MIN_STARTED || done < BACKUP_MIN_FINISHED_FRACTION * n || elapsed < minNanos) {
        return false;
      }
      long[] d = finishedNanos.stream().mapToLong(Long::longValue).sorted().toArray();
      double median =
          d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2.0;
      return elapsed > BACKUP_SLOW_FACTOR * median;
    }
  }

  /** One task (op, key): its runs and whether it is settled (won or failed for good). */
  private final class Task {
    final Operation op;
    final long[] key;
    final List<Callback> callbacks;
    final Scheduler.Outcome outcome;
    final OpStats stats;
    final long startNanos = System.nanoTime();
    final List<Run> runs = new CopyOnWriteArrayList<>();
    volatile boolean settled;
    boolean backupLaunched; // guarded by this
    int liveRuns = 1; // guarded by this

    Task(
        Operation op,
        long[] key,
        List<Callback> callbacks,
        Scheduler.Outcome outcome,
        OpStats stats) {
      this.op = op;
      this.key = key;
      this.callbacks = callbacks;
      this.outcome = outcome;
      this.stats = stats;
    }

    String describe() {
      return "task " + Arrays.toString(key) + " of " + op.name();
    }

    /** The first success wins; later ones (the other run's) are ignored. */
    void succeed(Run winner, int attempt, long startMillis, long allocated, Measurement m) {
      synchronized (this) {
        if (settled) {
          return;
        }
        settled = true;
      }
      active.remove(this);
      stats.finished(System.nanoTime() - startNanos);
      if (winner.backup) {
        backupsWon.incrementAndGet();
        LOG.get()
            .info(cfg.executor() + " executor: the backup of " + describe() + " finished first");
      }
      for (Run r : runs) {
        if (r != winner) {
          r.interruptIfRunning();
        }
      }
      try {
        long end = System.currentTimeMillis();
        for (Callback c : callbacks) {
          c.onTaskEnd(
              new Events.TaskEnd(
                  op.name(),
                  key.clone(),
                  startMillis,
                  end,
                  attempt,
                  allocated,
                  op.projectedMem(),
                  winner.backup,
                  m != null && m.worker() != null ? m.worker() : winner.workerName(),
                  m == null ? -1 : m.measuredPeakMem(),
                  m == null ? -1 : m.peakRss()));
        }
      } catch (Throwable e) {
        outcome.failed(e);
        return;
      }
      outcome.succeeded();
    }

    /** Fails the task now (a deterministic error, or an error outside the attempts). */
    void failNow(Throwable error) {
      synchronized (this) {
        if (settled) {
          return;
        }
        settled = true;
      }
      active.remove(this);
      outcome.failed(error);
    }

    /** A run used all its attempts: the task fails if no other run is still alive. */
    void runExhausted(Throwable error) {
      synchronized (this) {
        liveRuns--;
        if (settled || liveRuns > 0) {
          return;
        }
        settled = true;
      }
      active.remove(this);
      outcome.failed(error);
    }

    /** Starts the backup run, at most once, unless the task is settled. */
    void launchBackup() {
      synchronized (this) {
        if (settled || backupLaunched) {
          return;
        }
        backupLaunched = true;
        liveRuns++;
      }
      Run b = new Run(this, true);
      runs.add(b);
      try {
        pool.execute(
            () -> {
              try {
                execRun(b);
              } catch (Throwable e) {
                failNow(e);
              }
            });
        backupsLaunched.incrementAndGet();
        LOG.get()
            .info(
                cfg.executor()
                    + " executor: "
                    + describe()
                    + " is running "
                    + BACKUP_SLOW_FACTOR
                    + "x longer than the op's median task; launched a backup");
      } catch (RejectedExecutionException e) {
        synchronized (this) {
          liveRuns--; // the pool is shut down: the compute is over
        }
      }
    }
  }

  /** One run of a task (original or backup) and the attempt it is in. */
  private final class Run {
    final Task task;
    final boolean backup;
    private Thread thread;
    private String workerName;
    private boolean inAttempt;
    private long attemptStartNanos;
    private boolean timedOut;

    Run(Task task, boolean backup) {
      this.task = task;
      this.backup = backup;
    }

    synchronized void bind(Thread t) {
      thread = t;
      workerName = t.getName();
    }

    /** The name of the thread this run ran on (last bound), or null. */
    synchronized String workerName() {
      return workerName;
    }

    synchronized void unbind() {
      thread = null;
      inAttempt = false;
    }

    /** Begins an attempt unless the task is settled or the compute stopped. */
    synchronized boolean beginAttempt() {
      Thread.interrupted(); // a stale interrupt: whoever sent it is checked just below
      if (task.settled || stopped) {
        return false;
      }
      inAttempt = true;
      timedOut = false;
      attemptStartNanos = System.nanoTime();
      return true;
    }

    /** Ends the attempt; true if the monitor timed it out. */
    synchronized boolean endAttempt() {
      inAttempt = false;
      Thread.interrupted();
      return timedOut;
    }

    synchronized void interruptIfRunning() {
      if (thread != null) {
        thread.interrupt();
      }
    }

    synchronized void timeOutIfOverdue(long now, long timeoutNanos) {
      if (inAttempt && !timedOut && now - attemptStartNanos > timeoutNanos) {
        timedOut = true;
        thread.interrupt();
      }
    }
  }

  /** Runs the attempts of one run on the current thread. */
  private void execRun(Run r) {
    Task t = r.task;
    Operation op = t.op;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    com.sun.management.ThreadMXBean smx =
        mx instanceof com.sun.management.ThreadMXBean s ? s : null;
    long startMillis = System.currentTimeMillis();
    long alloc0 = smx != null ? smx.getCurrentThreadAllocatedBytes() : -1;
    r.bind(Thread.currentThread());
    try {
      Throwable last = null;
      int attempt = 0;
      while (attempt < cfg.attempts()) {
        if (!r.beginAttempt()) {
          return; // the other run won, or the compute is over
        }
        attempt++;
        Throwable err = null;
        try {
          if (cfg.faults() != null) {
            cfg.faults().runAttempt(op, t.key, attempt, r.backup);
          } else {
            TaskWorker.clear();
            op.function().run(t.key);
          }
        } catch (Exception | OutOfMemoryError e) {
          err = e;
        }
        boolean timedOut = r.endAttempt();
        if (err == null) {
          Measurement m = probe == null ? null : probe.lastAttempt(op);
          // a task measured elsewhere (a worker process) did not allocate in this thread: this
          // thread only shipped it, so its counter would be no figure of the task's
          long alloc =
              m == null && smx != null ? smx.getCurrentThreadAllocatedBytes() - alloc0 : -1;
          Measurement ran = TaskWorker.take();
          if (ran != null && (m == null || m.worker() == null)) {
            m = ran; // the task's function ran (part of) it in a process of its own (Python)
          }
          t.succeed(r, attempt, startMillis, alloc, m);
          return;
        }
        if (t.settled || stopped) {
          return; // a loser's or a cancelled attempt's error is ignored
        }
        if (timedOut) {
          timeouts.incrementAndGet();
          last = new TaskTimeoutException(op.name(), t.key, cfg.timeout(), err);
        } else if (RetryPolicy.isDeterministic(err)) {
          t.failNow(new TaskFailedException(op.name(), t.key, attempt, err, true));
          return;
        } else {
          last = err;
        }
        LOG.get()
            .fine(
                t.describe()
                    + (r.backup ? " (backup)" : "")
                    + " failed (attempt "
                    + attempt
                    + "): "
                    + last);
        if (attempt < cfg.attempts()) {
          retries.incrementAndGet();
          if (!backoff(attempt)) {
            return;
          }
        }
      }
      t.runExhausted(new TaskFailedException(op.name(), t.key, attempt, last));
    } finally {
      r.unbind();
      Thread.interrupted(); // nobody may interrupt this thread through this run any more
    }
  }

  /** Sleeps before attempt {@code failed + 1}; false if interrupted (the task was settled). */
  private boolean backoff(int failed) {
    long nanos = RetryPolicy.backoffNanos(cfg.retryBackoff().toNanos(), failed);
    if (nanos <= 0) {
      return true;
    }
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private void monitorLoop() {
    long timeoutNanos = cfg.timeout() == null ? 0 : cfg.timeout().toNanos();
    long backupMin = cfg.backupMinDuration().toNanos();
    long tick = cfg.tickMillis();
    while (!stopped) {
      try {
        Thread.sleep(tick);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (Task t : active) {
        if (t.settled) {
          continue;
        }
        if (timeoutNanos > 0) {
          for (Run r : t.runs) {
            r.timeOutIfOverdue(now, timeoutNanos);
          }
        }
        if (cfg.backups() && t.stats.slow(now - t.startNanos, backupMin)) {
          t.launchBackup();
        }
      }
    }
  }
}
