package dev.cubed;

import dev.cubed.plan.Plan;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to run a compute: the executor (default: the spec's, found by name), event callbacks and
 * whether to resume an earlier failed or killed run of the same plan ({@link #resume()}).
 * Immutable; start with {@link #defaults()}.
 */
public final class ComputeOptions {
  private final Executor executor;
  private final List<Callback> callbacks;
  private final boolean resume;
  private final Consumer<PlanFigures> figures;

  private ComputeOptions(
      Executor executor, List<Callback> callbacks, boolean resume, Consumer<PlanFigures> figures) {
    this.executor = executor;
    this.callbacks = List.copyOf(callbacks);
    this.resume = resume;
    this.figures = figures;
  }

  private ComputeOptions(Executor executor, List<Callback> callbacks, boolean resume) {
    this(executor, callbacks, resume, null);
  }

  /** The spec's executor, no callbacks, no resume. */
  public static ComputeOptions defaults() {
    return new ComputeOptions(null, List.of(), false);
  }

  /**
   * A copy whose computes ({@link Cubed#compute(ComputeOptions, CubedArray...)}, {@link
   * Cubed#toZarr(CubedArray, dev.cubed.zarr.store.Store, String, ComputeOptions)}, {@link
   * Cubed#store(List, List, ComputeOptions)}) pass the figures of their plan to {@code sink} once
   * it is made, before any task runs (the plan is made once: what {@link Cubed#summary} gives
   * without running). One sink; a later call replaces it.
   */
  public ComputeOptions withPlanFigures(Consumer<PlanFigures> sink) {
    return new ComputeOptions(executor, callbacks, resume, Objects.requireNonNull(sink, "sink"));
  }

  /** Passes a plan's figures to the sink of {@link #withPlanFigures}, if any. */
  void report(Plan plan, List<CubedArray> arrays) {
    if (figures != null) {
      figures.accept(PlanFigures.of(plan.summary(), arrays));
    }
  }

  /**
   * A copy that resumes: the same plan (same program, same inputs, same settings) run before and
   * failed or killed left its compute directory {@code workDir/compute-<id>/}; this run reuses it
   * and skips every task that finished (each has a completion marker), running only the rest. With
   * no such directory the compute simply runs. Without resume such a directory is emptied first.
   * Block functions must be deterministic for the result to equal an uninterrupted run's.
   */
  public ComputeOptions resume() {
    return new ComputeOptions(executor, callbacks, true, figures);
  }

  /** A copy with resume on or off. */
  public ComputeOptions withResume(boolean on) {
    return new ComputeOptions(executor, callbacks, on, figures);
  }

  /** Whether to resume (see {@link #resume()}). */
  public boolean resumes() {
    return resume;
  }

  /** Options running on a given executor. */
  public static ComputeOptions executor(Executor executor) {
    return defaults().withExecutor(executor);
  }

  /** A copy with another executor. */
  public ComputeOptions withExecutor(Executor e) {
    return new ComputeOptions(e, callbacks, resume, figures);
  }

  /** A copy with one more callback. */
  public ComputeOptions withCallback(Callback c) {
    List<Callback> l = new ArrayList<>(callbacks);
    l.add(c);
    return new ComputeOptions(executor, l, resume, figures);
  }

  /** The executor, or null for the spec's. */
  public Executor executorOrNull() {
    return executor;
  }

  /** The callbacks. */
  public List<Callback> callbacks() {
    return callbacks;
  }
}
