package dev.cubed.runtime;

import java.time.Duration;

/**
 * The settings the threads and processes executors share, in one builder that theirs extend:
 * workers, attempts, task timeout, backup tasks, retry backoff and reservedMem, and {@link
 * #settings} to take them from a spec's {@link ExecutorSettings} (how every executor chosen by name
 * is made: {@link Executor#byName(String, ExecutorSettings)}).
 *
 * @param <B> the concrete builder
 */
public abstract class ExecutorBuilder<B extends ExecutorBuilder<B>> {
  private final String who;
  public int workers = Runtime.getRuntime().availableProcessors();
  int attempts = 3;
  Duration taskTimeout;
  boolean backupTasks;
  Duration backupMinDuration = Duration.ofSeconds(1);
  Duration retryBackoff = Duration.ofMillis(10);
  public long reservedMem;

  /** {@code who} names the executor in messages (e.g. "ThreadsExecutor"). */
  public ExecutorBuilder(String who) {
    this.who = who;
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * Takes workers, attempts and reservedMem from a spec's settings (the processes executor also
   * allowedMem); the other settings keep their values.
   */
  public B settings(ExecutorSettings s) {
    return workers(s.workers()).attempts(s.attempts()).reservedMem(s.reservedMem());
  }

  /**
   * Workers (threads before the memory cap, or worker processes); default the available processors.
   *
   * @throws IllegalArgumentException if below 1
   */
  public B workers(int n) {
    this.workers = atLeastOne("workers", n);
    return self();
  }

  /**
   * Attempts per task run (1 = no retry); a backup run has its own attempts, and a worker process
   * dying during a task uses one. Default 3.
   *
   * @throws IllegalArgumentException if below 1
   */
  public B attempts(int n) {
    this.attempts = atLeastOne("attempts", n);
    return self();
  }

  /**
   * An attempt running longer than this is interrupted (a worker process is killed) and counted as
   * a failed attempt, then retried; {@code null} (the default) means no timeout. A task on a thread
   * that ignores interruption cannot be stopped and keeps its worker until it returns.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B taskTimeout(Duration timeout) {
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new IllegalArgumentException(who + ": taskTimeout must be positive, got " + timeout);
    }
    this.taskTimeout = timeout;
    return self();
  }

  /**
   * Backup tasks (Python Cubed's rule, off by default): once at least 10 tasks of an operation have
   * started and at least half of those have finished, a task that has been running more than 3
   * times the median duration of the op's finished tasks, and at least {@link #backupMinDuration}
   * (default 1 s), gets one duplicate run. The first success wins; the op finishes when each key
   * has one success.
   */
  public B backupTasks(boolean on) {
    this.backupTasks = on;
    return self();
  }

  /**
   * The floor of the backup rule: no backup for a task running less than this (default 1 s).
   *
   * @throws IllegalArgumentException if negative
   */
  public B backupMinDuration(Duration min) {
    this.backupMinDuration = notNegative("backupMinDuration", min);
    return self();
  }

  /**
   * Sleep before the 2nd attempt, doubled before each later one, at most 1 s (default 10 ms);
   * {@link Duration#ZERO} retries at once.
   *
   * @throws IllegalArgumentException if negative
   */
  public B retryBackoff(Duration backoff) {
    this.retryBackoff = notNegative("retryBackoff", backoff);
    return self();
  }

  /**
   * The spec's reservedMem: the part of every task's projection that is a worker's own runtime
   * overhead (default 0). The threads executor's tasks share one JVM, so its memory cap counts it
   * once ({@link ThreadsExecutor#heapNeeded}); the processes executor adds it to each task's
   * measured heap growth so the measured peak is comparable with the projection.
   *
   * @throws IllegalArgumentException if negative
   */
  public B reservedMem(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException(who + ": reservedMem must be >= 0, got " + bytes);
    }
    this.reservedMem = bytes;
    return self();
  }

  /** The attempt settings of the executor named {@code executor}, with injected faults or null. */
  public TaskRuns.Config config(String executor, Faults faults) {
    return new TaskRuns.Config(
        executor, attempts, taskTimeout, backupTasks, backupMinDuration, faults, retryBackoff);
  }

  int atLeastOne(String option, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(who + ": " + option + " must be >= 1, got " + n);
    }
    return n;
  }

  protected Duration notNegative(String option, Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(who + ": " + option + " must be >= 0, got " + d);
    }
    return d;
  }
}
