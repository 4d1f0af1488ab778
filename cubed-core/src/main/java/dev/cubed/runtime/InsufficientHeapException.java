package dev.cubed.runtime;

/**
 * The JVM's maximum heap is smaller than the projected memory of one task of an operation, so the
 * plan cannot run even one task at a time; thrown before any task runs.
 */
public final class InsufficientHeapException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final String opName;
  private final long projectedMem;
  private final long maxHeap;

  /**
   * Operation {@code opName} projects {@code projectedMem} bytes per task; the heap is {@code
   * maxHeap}.
   */
  public InsufficientHeapException(String opName, long projectedMem, long maxHeap) {
    super(
        String.format(
            "threads executor: a task of operation %s is projected to need %,d bytes"
                + " (%.1f MiB), more than the JVM's max heap of %,d bytes (%.1f MiB), so not even one task"
                + " fits; nothing was run. Lower allowedMem or use smaller chunks so tasks project less"
                + " memory, or raise the heap (java -Xmx..., or CUBED_HEAP=... for the ./cubed launcher)",
            opName, projectedMem, projectedMem / 1048576.0, maxHeap, maxHeap / 1048576.0));
    this.opName = opName;
    this.projectedMem = projectedMem;
    this.maxHeap = maxHeap;
  }

  /**
   * The same refusal with an executor's own message (e.g. the processes executor's, or an engine
   * executor's naming its worker memory).
   */
  public InsufficientHeapException(String message, String opName, long projectedMem, long maxHeap) {
    super(message);
    this.opName = opName;
    this.projectedMem = projectedMem;
    this.maxHeap = maxHeap;
  }

  /** The operation whose tasks do not fit. */
  public String opName() {
    return opName;
  }

  /** Its projected memory per task, bytes. */
  public long projectedMem() {
    return projectedMem;
  }

  /** The max heap ({@link Runtime#maxMemory()}, or a worker's heap bound), bytes. */
  public long maxHeap() {
    return maxHeap;
  }
}
