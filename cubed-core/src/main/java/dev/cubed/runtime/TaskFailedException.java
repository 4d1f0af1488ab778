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

  /** A task that failed on all of its {@code attempts} attempts. */
  public TaskFailedException(String opName, long[] key, int attempts, Throwable cause) {
    this(opName, key, attempts, cause, false);
  }

  /**
   * A failed task.
   *
   * @param attempts attempts made
   * @param deterministic true if the failure was deterministic and therefore not retried
   */
  public TaskFailedException(
      String opName, long[] key, int attempts, Throwable cause, boolean deterministic) {
    super(
        "task "
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
