package dev.cubed.runtime.processes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Idle worker JVMs kept between the computes of a run (processes executors built with {@link
 * ProcessesExecutor.Builder#keepAlive}), so that a run of several computes (a benchmark workload, a
 * sort, successive {@code compute()} calls of a session) starts its workers once and they keep
 * their JIT-compiled code. A worker is handed back after a compute that succeeded, told to forget
 * its task functions ({@link WorkerProtocol#RESET}), and taken by the next compute whose worker
 * settings (heap bound, JVM options) are equal. Idle workers are stopped after their idle time,
 * when the pool holds more than the releasing executor's worker count, on {@link
 * ProcessesExecutor#close}, and at JVM exit (shutdown hook); a worker whose coordinator died exits
 * by itself (end of its stdin, or its parent watch, see {@link WorkerMain}).
 */
final class WorkerPool {
  static final WorkerPool SHARED = new WorkerPool();

  private record Idle(WorkerProcess worker, Object owner, long until) {}

  private final LinkedList<Idle> idle = new LinkedList<>();
  private ScheduledExecutorService reaper;

  private WorkerPool() {
    Runtime.getRuntime().addShutdownHook(new Thread(this::killAll, "cubed-worker-pool-exit"));
  }

  /** An idle worker with these settings (removed from the pool), or null. */
  synchronized WorkerProcess take(WorkerProcess.Settings settings) {
    for (Iterator<Idle> it = idle.iterator(); it.hasNext(); ) {
      Idle i = it.next();
      if (!i.worker().isAlive()) {
        it.remove();
        i.worker().kill();
      } else if (i.worker().settings().equals(settings)) {
        it.remove();
        return i.worker();
      }
    }
    return null;
  }

  /**
   * Hands a worker back: it forgets its task functions and waits up to {@code idleMillis} for the
   * next compute; the oldest idle workers beyond {@code cap} are stopped.
   */
  void release(WorkerProcess w, Object owner, int cap, long idleMillis) {
    if (!w.isAlive() || !w.reset()) {
      w.kill();
      return;
    }
    List<Idle> evicted = new ArrayList<>();
    synchronized (this) {
      idle.addLast(new Idle(w, owner, System.currentTimeMillis() + idleMillis));
      while (idle.size() > cap) {
        evicted.add(idle.removeFirst());
      }
      if (reaper == null) {
        reaper =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "cubed-worker-pool-reaper");
                  t.setDaemon(true);
                  return t;
                });
        reaper.scheduleWithFixedDelay(this::reap, 1, 1, TimeUnit.SECONDS);
      }
    }
    for (Idle i : evicted) {
      i.worker().shutdown();
    }
  }

  /** Stops the idle workers handed back by {@code owner}. */
  void closeOwnedBy(Object owner) {
    stopIf(i -> i.owner() == owner);
  }

  /** Stops every idle worker. */
  void stopAll() {
    stopIf(i -> true);
  }

  /** Idle workers now (for tests). */
  synchronized List<ProcessHandle> idleWorkers() {
    List<ProcessHandle> r = new ArrayList<>();
    for (Idle i : idle) {
      r.add(i.worker().handle());
    }
    return r;
  }

  private void reap() {
    long now = System.currentTimeMillis();
    stopIf(i -> i.until() <= now || !i.worker().isAlive());
  }

  private void stopIf(Predicate<Idle> p) {
    List<Idle> stop = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Idle> it = idle.iterator(); it.hasNext(); ) {
        Idle i = it.next();
        if (p.test(i)) {
          it.remove();
          stop.add(i);
        }
      }
    }
    for (Idle i : stop) {
      i.worker().shutdown();
    }
  }

  private void killAll() {
    List<Idle> all;
    synchronized (this) {
      all = new ArrayList<>(idle);
      idle.clear();
    }
    for (Idle i : all) {
      i.worker().destroy();
    }
  }
}
