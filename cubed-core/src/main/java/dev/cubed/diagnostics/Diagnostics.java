package dev.cubed.diagnostics;

import dev.cubed.plan.Plan;
import dev.cubed.runtime.Callback;
import java.nio.file.Path;

/**
 * Diagnostics as callbacks, for any compute: add them to {@code ComputeOptions.withCallback} (or
 * pass them to {@code Plan.execute}).
 *
 * <pre>{@code
 * ComputeOptions opts = ComputeOptions.defaults()
 *     .withCallback(Diagnostics.progress())              // a bar per op on stderr
 *     .withCallback(Diagnostics.history(Path.of("h")))   // h/tasks.csv, h/ops.csv, h/plan.txt
 *     .withCallback(Diagnostics.plots(Path.of("p")))     // p/timeline.svg, p/memory.svg
 *     .withCallback(Diagnostics.visualizeEach(Path.of("plan.svg")));
 * Cubed.compute(opts, a, b);
 * Diagnostics.visualize(Cubed.plan(List.of(a, b)), Path.of("plan.svg")); // without computing
 * }</pre>
 *
 * See docs/diagnostics.md for what each writes. This package sits below the API ({@code
 * dev.cubed}): it knows plans and callbacks, not arrays ({@code CubedArray.visualize} calls {@link
 * #visualize}).
 */
public final class Diagnostics {
  private Diagnostics() {}

  /** One progress bar per op on standard error (see {@link ProgressCallback}). */
  public static ProgressCallback progress() {
    return new ProgressCallback();
  }

  /** The compute history as CSV in {@code dir} (see {@link HistoryCallback}). */
  public static HistoryCallback history(Path dir) {
    return new HistoryCallback(dir);
  }

  /** The timeline and memory charts as SVG in {@code dir} (see {@link PlotsCallback}). */
  public static PlotsCallback plots(Path dir) {
    return new PlotsCallback(dir);
  }

  /** A callback drawing each compute's plan before it runs (see {@link VisualizeCallback}). */
  public static Callback visualizeEach(Path file) {
    return new VisualizeCallback(file);
  }

  /**
   * Draws a plan now (see {@link PlanPicture#write}); for arrays, {@code
   * Diagnostics.visualize(Cubed.plan(List.of(a, b)), file)} or {@code a.visualize(file)}.
   */
  public static PlanPicture.Result visualize(Plan plan, Path file) {
    return PlanPicture.write(plan, file);
  }
}
