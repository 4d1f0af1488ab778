package dev.cubed.runtime.processes;

import java.io.IOException;

/**
 * A worker process died (or was killed) while it ran a task, or its channel broke. Transient for
 * {@link dev.cubed.runtime.RetryPolicy} (an {@link IOException}): the worker is replaced and the
 * task retried, the attempt counted. When the worker ran out of heap ({@link #outOfMemory()}), the
 * message names {@code OutOfMemoryError} and the worker's heap bound.
 */
public final class WorkerDiedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final long pid;
  private final int exitCode;
  private final boolean outOfMemory;

  WorkerDiedException(String message, long pid, int exitCode, boolean outOfMemory) {
    super(message);
    this.pid = pid;
    this.exitCode = exitCode;
    this.outOfMemory = outOfMemory;
  }

  /** The dead worker's process id. */
  public long pid() {
    return pid;
  }

  /** Its exit code (137 = killed by SIGKILL, 3 = OutOfMemoryError), or -1 if it did not exit. */
  public int exitCode() {
    return exitCode;
  }

  /** True if the worker exited because the task ran out of heap. */
  public boolean outOfMemory() {
    return outOfMemory;
  }
}
