package dev.cubed.runtime;

import java.time.Duration;
import java.util.Arrays;

/**
 * An attempt of a task ran longer than the executor's task timeout and was interrupted; it counts
 * as a failed (transient, retried) attempt. The cause, if any, is what the interrupted task threw.
 */
public final class TaskTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An attempt of task {@code key} of {@code opName} exceeded {@code timeout}. */
  public TaskTimeoutException(String opName, long[] key, Duration timeout, Throwable cause) {
    super(
        "task "
            + Arrays.toString(key)
            + " of operation "
            + opName
            + " timed out: an attempt ran"
            + " longer than the task timeout of "
            + timeout.toMillis()
            + " ms and was interrupted"
            + " (raise ThreadsExecutor.builder().taskTimeout(...) if tasks are legitimately this slow)",
        cause);
  }
}
