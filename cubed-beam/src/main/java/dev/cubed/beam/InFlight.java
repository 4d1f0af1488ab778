package dev.cubed.beam;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The task attempts running in this JVM, per run of a compute, and the runs that are over
 * (cancelled or failed). <b>In-process runners only</b> (the DirectRunner): it lets the launcher
 * stop retries and wait until no task of a failed run is still writing before {@link
 * BeamExecutor#execute} returns. On a remote runner the tasks run in other JVMs, where this
 * registry is empty and a cancelled run is stopped by the runner (the job is cancelled).
 */
final class InFlight {
  private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

  /** Runs forgotten after they ended, newest last (bounded): a late task of one stays stopped. */
  private static final Map<String, Boolean> ENDED =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > MAX_ENDED;
            }
          });

  static final int MAX_ENDED = 10_000;

  /** The running attempts of one run and whether it is over. */
  private static final class Run {
    private int running; // guarded by this
    private volatile boolean over;

    synchronized void enter() {
      running++;
    }

    synchronized void exit() {
      running--;
      notifyAll();
    }

    synchronized boolean awaitIdle(long millis) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      while (running > 0) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        wait(left);
      }
      return true;
    }
  }

  private InFlight() {}

  private static Run run(String runId) {
    return RUNS.computeIfAbsent(
        runId,
        k -> {
          Run r = new Run();
          r.over = ENDED.containsKey(k); // a late task of a forgotten run
          return r;
        });
  }

  /** A task of the run starts running in this JVM. */
  static void enter(String runId) {
    run(runId).enter();
  }

  /** A task of the run stopped running in this JVM. */
  static void exit(String runId) {
    run(runId).exit();
  }

  /** True if the run is over: tasks must not start another attempt. */
  static boolean isOver(String runId) {
    Run r = RUNS.get(runId);
    return r != null ? r.over : ENDED.containsKey(runId);
  }

  /** Marks the run over (no further attempts start in this JVM). */
  static void markOver(String runId) {
    run(runId).over = true;
  }

  /**
   * Waits until no task of the run is running in this JVM, at most {@code millis}.
   *
   * @return true if none is running
   */
  static boolean awaitIdle(String runId, long millis) throws InterruptedException {
    return run(runId).awaitIdle(millis);
  }

  /** Forgets the run's counts; it stays over for a task that starts late. */
  static void forget(String runId) {
    ENDED.put(runId, Boolean.TRUE);
    RUNS.remove(runId);
  }
}
