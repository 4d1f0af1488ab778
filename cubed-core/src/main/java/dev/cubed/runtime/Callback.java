package dev.cubed.runtime;

/**
 * Receives compute, operation and task events. Methods may be called from several threads at once
 * (task events come from worker threads); implementations must be thread-safe. Defaults do nothing.
 */
public interface Callback {
  /** Called once before any task runs. */
  default void onComputeStart(Events.ComputeStart e) {}

  /** Called once when the compute ends (also on failure). */
  default void onComputeEnd(Events.ComputeEnd e) {}

  /** Called before an operation's first task. */
  default void onOpStart(Events.OpStart e) {}

  /** Called after an operation's last task. */
  default void onOpEnd(Events.OpEnd e) {}

  /**
   * Called once per successful task: for the run that won when a backup ran too, never for a failed
   * attempt.
   */
  default void onTaskEnd(Events.TaskEnd e) {}
}
