package dev.cubed.plan;

import dev.cubed.plan.node.PlanSummary;

/**
 * A plan whose largest operation's projected memory per task exceeds {@code allowedMem}; thrown
 * before any task runs. The message names the op, its projected memory, allowedMem, reservedMem and
 * what to change.
 */
public final class MemoryBudgetExceededException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final String opName;
  private final long projectedMem;
  private final long allowedMem;
  private final long reservedMem;

  MemoryBudgetExceededException(
      String opName, long projectedMem, long allowedMem, long reservedMem) {
    super(
        "operation '"
            + opName
            + "' needs a projected "
            + PlanSummary.bytes(projectedMem)
            + " ("
            + projectedMem
            + " B) per task, more than allowedMem "
            + PlanSummary.bytes(allowedMem)
            + " ("
            + allowedMem
            + " B; reservedMem "
            + PlanSummary.bytes(reservedMem)
            + " = "
            + reservedMem
            + " B of it is the worker's own baseline). Use smaller chunks (rechunk the "
            + "inputs), or raise allowedMem (Spec.builder().allowedMem(...)); nothing was run");
    this.opName = opName;
    this.projectedMem = projectedMem;
    this.allowedMem = allowedMem;
    this.reservedMem = reservedMem;
  }

  /** The op that does not fit. */
  public String opName() {
    return opName;
  }

  /** Its projected memory per task, bytes. */
  public long projectedMem() {
    return projectedMem;
  }

  /** allowedMem, bytes. */
  public long allowedMem() {
    return allowedMem;
  }

  /** reservedMem, bytes. */
  public long reservedMem() {
    return reservedMem;
  }
}
