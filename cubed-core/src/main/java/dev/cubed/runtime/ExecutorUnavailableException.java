package dev.cubed.runtime;

/**
 * An executor could not reach what it runs tasks on (a cluster master that does not answer or
 * refuses this client, workers that cannot start): a problem of the setup, not of the plan or of
 * the engine. The message names what was tried and what to check. Nothing of the compute ran, or
 * its finished tasks are kept for a resume as after any failure.
 */
public class ExecutorUnavailableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** An exception with a complete message and its cause. */
  public ExecutorUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
