package dev.cubed.bridge;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The Python worker processes of this JVM (the bridge's, a processes-executor worker JVM's, a Spark
 * executor's or a Beam worker's: wherever a {@link PyFunction} is deserialized and run, on first
 * use): idle workers per kind (Python executable and {@code sys.path}) kept for the next task, at
 * most {@link #MAX_IDLE} of a kind for {@link #KEEP_ALIVE_MILLIS}, and killed when this JVM exits
 * (they also exit at the end of their stdin, and when their parent process is gone); one task at a
 * time per worker.
 *
 * <p>A monitor thread (every {@link #POLL_MILLIS} ms while a worker is busy, every {@link
 * #IDLE_POLL_MILLIS} ms otherwise) reads the VmHWM of every busy worker from {@code
 * /proc/PID/status} (the worker resets it when a task starts, so it is the task's peak resident
 * set) and kills (SIGKILL) a worker whose peak passes its task's bound, or whose task thread was
 * interrupted (a timeout, a backup that won, a cancelled compute): a running Python function cannot
 * be stopped otherwise. The task then fails with the reason ({@link PythonWorker#killedFor}) and
 * the worker is not reused.
 */
final class PythonWorkers {
  /** Idle workers kept per kind. */
  static final int MAX_IDLE = 8;

  /** The monitor's period. */
  static final long POLL_MILLIS = 20;

  /**
   * How long an idle worker is kept for the next task (system property {@code
   * cubed.python.keepAliveSeconds}, default 30), as the processes executor keeps its JVM workers.
   */
  static final long KEEP_ALIVE_MILLIS = Long.getLong("cubed.python.keepAliveSeconds", 30) * 1000;

  /** How a worker is started: {@code python -m cubed_java._worker} with this {@code sys.path}. */
  record Kind(String python, List<String> path) {
    List<String> command() {
      return List.of(python, "-u", "-m", "cubed_java._worker");
    }
  }

  private static final Map<Kind, Deque<PythonWorker>> IDLE = new HashMap<>();
  private static final Set<PythonWorker> BUSY = ConcurrentHashMap.newKeySet();
  private static final Set<PythonWorker> ALL = ConcurrentHashMap.newKeySet();

  /** The monitor's period while no worker is busy (idle workers' keep-alive is in seconds). */
  static final long IDLE_POLL_MILLIS = 1000;

  private static final Thread MONITOR =
      new Thread(PythonWorkers::monitorLoop, "cubed-python-worker-monitor");

  static {
    MONITOR.setDaemon(true);
    MONITOR.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (PythonWorker w : ALL) {
                    w.shutdown();
                  }
                },
                "cubed-python-workers-exit"));
  }

  private PythonWorkers() {}

  /** An idle worker of this kind, or a new one. */
  static PythonWorker acquire(Kind kind) throws IOException {
    synchronized (IDLE) {
      Deque<PythonWorker> q = IDLE.get(kind);
      while (q != null && !q.isEmpty()) {
        PythonWorker w = q.pollFirst();
        if (w.isAlive()) {
          return w;
        }
        ALL.remove(w);
      }
    }
    PythonWorker w = PythonWorker.start(kind);
    ALL.add(w);
    return w;
  }

  /** Marks {@code w} busy with a task on the current thread, bounded to {@code rssBound} bytes. */
  static void busy(PythonWorker w, long rssBound, String what) {
    w.rssBound = rssBound;
    w.what = what;
    w.taskThread = Thread.currentThread();
    BUSY.add(w);
    LockSupport.unpark(MONITOR); // from its idle period to POLL_MILLIS at once
  }

  /** The task on {@code w} ended: back to the idle workers if it is healthy, else killed. */
  static void release(PythonWorker w, boolean healthy) {
    BUSY.remove(w);
    w.taskThread = null;
    if (!healthy || !w.isAlive()) {
      w.kill();
      ALL.remove(w);
      return;
    }
    synchronized (IDLE) {
      Deque<PythonWorker> q = IDLE.computeIfAbsent(w.kind, k -> new ArrayDeque<>());
      if (q.size() < MAX_IDLE && KEEP_ALIVE_MILLIS > 0) {
        w.idleSince = System.nanoTime();
        q.addFirst(w);
        return;
      }
    }
    w.shutdown();
    ALL.remove(w);
  }

  /** The pids of the live workers (for tests and diagnostics). */
  static List<Long> pids() {
    List<Long> l = new ArrayList<>();
    for (PythonWorker w : ALL) {
      l.add(w.pid());
    }
    return l;
  }

  private static void monitorLoop() {
    while (true) {
      // every POLL_MILLIS while a task runs; with none, the keep-alive check only, woken at once
      // when a worker becomes busy
      LockSupport.parkNanos(
          TimeUnit.MILLISECONDS.toNanos(BUSY.isEmpty() ? IDLE_POLL_MILLIS : POLL_MILLIS));
      if (Thread.interrupted()) {
        return;
      }
      for (PythonWorker w : BUSY) {
        check(w);
      }
      List<PythonWorker> expired = new ArrayList<>();
      synchronized (IDLE) {
        long now = System.nanoTime();
        for (Deque<PythonWorker> q : IDLE.values()) {
          // the oldest idle workers are at the end
          while (!q.isEmpty() && now - q.peekLast().idleSince > KEEP_ALIVE_MILLIS * 1_000_000) {
            expired.add(q.pollLast());
          }
        }
      }
      for (PythonWorker w : expired) {
        w.shutdown();
        ALL.remove(w);
      }
    }
  }

  /** Kills {@code w} if its task passed its bound or its task thread was interrupted. */
  static void check(PythonWorker w) {
    Thread t = w.taskThread;
    if (t == null || w.killedFor != null) {
      return;
    }
    long hwm = w.vmHwm();
    long bound = w.rssBound;
    if (bound > 0 && hwm > bound) {
      w.killedFor = overBound(w.pid(), w.what, hwm, bound);
      w.kill();
    } else if (t.isInterrupted()) {
      w.killedFor =
          "Python worker pid "
              + w.pid()
              + " was killed: the task thread of "
              + w.what
              + " was interrupted (a timeout, a backup that finished first, or the compute"
              + " ended)";
      w.kill();
    }
  }

  /** The message of a task whose worker passed its RSS bound. */
  static String overBound(long pid, String what, long hwm, long bound) {
    return String.format(
        "Python worker pid %d used %,d bytes (%.1f MiB resident, VmHWM) during %s, more than its"
            + " bound of %,d bytes (%.1f MiB, allowed_mem): it was killed (SIGKILL) and is"
            + " replaced by a new worker. The function needs more memory than the plan projected"
            + " for it: declare what it allocates with extra_projected_mem= (map_blocks,"
            + " blockwise, apply_gufunc; xarray: dask_gufunc_kwargs={'extra_projected_mem': N}),"
            + " use smaller chunks, or raise allowed_mem",
        pid, hwm, hwm / 1048576.0, what, bound, bound / 1048576.0);
  }
}
