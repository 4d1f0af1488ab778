package dev.cubed.runtime;

import java.util.Arrays;

/**
 * A task failed for good; the cause is the last attempt's exception. Either the failure was
 * deterministic ({@link RetryPolicy#isDeterministic}) and was not retried, or every attempt failed.
 */
public final class TaskFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String opName;
  private final long[] key;
  private final int attempts;
  private final boolean deterministic;
  private final String executor;

  /** A task that failed on all of its {@code attempts} attempts. */
  public TaskFailedException(String opName, long[] key, int attempts, Throwable cause) {
    this(opName, key, attempts, cause, false);
  }

  /**
   * A failed task, not yet naming the executor that ran it (the {@link Scheduler} names it when the
   * compute fails).
   *
   * @param attempts attempts made
   * @param deterministic true if the failure was deterministic and therefore not retried
   */
  public TaskFailedException(
      String opName, long[] key, int attempts, Throwable cause, boolean deterministic) {
    this(null, opName, key, attempts, cause, deterministic);
  }

  /**
   * A failed task; the message starts with "EXECUTOR executor: " when the executor is known.
   *
   * @param executor the executor's name (e.g. "threads"), or null if not known yet
   * @param attempts attempts made
   * @param deterministic true if the failure was deterministic and therefore not retried
   */
  public TaskFailedException(
      String executor,
      String opName,
      long[] key,
      int attempts,
      Throwable cause,
      boolean deterministic) {
    super(
        (executor == null ? "" : executor + " executor: ")
            + "task "
            + Arrays.toString(key)
            + " of operation "
            + opName
            + " failed "
            + (deterministic
                ? "on attempt "
                    + attempts
                    + ", not retried: deterministic error ("
                    + typeOf(cause)
                    + " would recur on every attempt)"
                : "after " + attempts + " attempt(s)")
            + ": "
            + cause,
        cause);
    this.opName = opName;
    this.key = key.clone();
    this.attempts = attempts;
    this.deterministic = deterministic;
    this.executor = executor;
  }

  /** This failure naming the executor that ran the task (same cause, stack and suppressed). */
  public TaskFailedException withExecutor(String executor) {
    TaskFailedException e =
        new TaskFailedException(executor, opName, key, attempts, getCause(), deterministic);
    e.setStackTrace(getStackTrace());
    for (Throwable s : getSuppressed()) {
      e.addSuppressed(s);
    }
    return e;
  }

  /** The executor that ran the task (e.g. "threads"), or null if not known. */
  public String executor() {
    return executor;
  }

  private static String typeOf(Throwable t) {
    if (t instanceof WorkerTaskException w) {
      String n = w.remoteClassName();
      return n.substring(n.lastIndexOf('.') + 1);
    }
    return t == null ? "unknown" : t.getClass().getSimpleName();
  }

  /** The failing operation. */
  public String opName() {
    return opName;
  }

  /** The failing task's key. */
  public long[] key() {
    return key.clone();
  }

  /** Attempts made. */
  public int attempts() {
    return attempts;
  }

  /** True if the failure was deterministic and was not retried. */
  public boolean deterministic() {
    return deterministic;
  }
}
