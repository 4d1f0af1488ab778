package dev.cubed.runtime;

import java.util.Arrays;

/** A task failed on every attempt; the cause is the last attempt's exception. */
public final class TaskFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String opName;
  private final long[] key;
  private final int attempts;

  /** Creates the exception for a task of an operation. */
  public TaskFailedException(String opName, long[] key, int attempts, Throwable cause) {
    super("task " + Arrays.toString(key) + " of operation " + opName + " failed after " + attempts
        + " attempt(s): " + cause, cause);
    this.opName = opName;
    this.key = key.clone();
    this.attempts = attempts;
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
}
