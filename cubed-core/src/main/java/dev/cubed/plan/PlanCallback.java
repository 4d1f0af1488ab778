package dev.cubed.plan;

import dev.cubed.runtime.Callback;

/**
 * A {@link Callback} that also wants the plan: {@link Plan} calls {@link #onPlan} once per compute,
 * before the memory check and before any task runs (so a picture of a plan that is then refused can
 * still be drawn). Diagnostics use it for the plan summary and picture.
 */
public interface PlanCallback extends Callback {
  /** Called with the plan about to run, on the thread that started the compute. */
  void onPlan(Plan plan);

  /**
   * Called on a resumed run ({@link RunOptions#resume}) once the completion markers are read and
   * before any task runs, with the tasks an earlier run had finished (skipped now; 0 when nothing
   * was reused). Default: nothing.
   */
  default void onResume(long skippedTasks) {}
}
