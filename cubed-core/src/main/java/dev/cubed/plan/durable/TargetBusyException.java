package dev.cubed.plan.durable;

/**
 * A compute was refused because another compute is writing one of its targets (its write lock is
 * held). Nothing was written; wait for the other compute to finish or choose another target.
 */
public final class TargetBusyException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  TargetBusyException(String message) {
    super(message);
  }
}
