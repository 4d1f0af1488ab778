package dev.cubed.runtime;

import java.util.List;

/**
 * A task failed with an exception inside a worker process. The exception object itself is never
 * shipped back (only text is), so this carries the remote exception's class name, the class names
 * of its cause chain (outermost first), its message and its stack trace as text. {@link
 * RetryPolicy} classifies it by those class names, as it would the original exception.
 */
public final class WorkerTaskException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final List<String> remoteClassChain;
  private final String remoteStackTrace;

  /**
   * A remote failure.
   *
   * @param remoteClassChain class names of the exception and its causes, outermost first
   * @param remoteMessage the exception's message (may be empty)
   * @param remoteStackTrace its printed stack trace (causes included)
   * @param worker the worker it happened in (e.g. "worker pid 1234")
   */
  public WorkerTaskException(
      List<String> remoteClassChain, String remoteMessage, String remoteStackTrace, String worker) {
    super(
        first(remoteClassChain)
            + (remoteMessage == null || remoteMessage.isEmpty() ? "" : ": " + remoteMessage)
            + " (in "
            + worker
            + "; remote stack trace: "
            + "WorkerTaskException.remoteStackTrace())");
    this.remoteClassChain = List.copyOf(remoteClassChain);
    this.remoteStackTrace = remoteStackTrace;
  }

  private static String first(List<String> chain) {
    return chain.isEmpty() ? "unknown exception" : chain.get(0);
  }

  /** The remote exception's class name. */
  public String remoteClassName() {
    return first(remoteClassChain);
  }

  /** Class names of the remote exception and its causes, outermost first. */
  public List<String> remoteClassChain() {
    return remoteClassChain;
  }

  /** The remote exception's printed stack trace. */
  public String remoteStackTrace() {
    return remoteStackTrace;
  }
}
