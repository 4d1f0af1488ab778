package dev.cubed;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import java.util.ArrayList;
import java.util.List;

/**
 * How to run a compute: the executor (default: the spec's, found by name) and event callbacks.
 * Immutable; start with {@link #defaults()}.
 */
public final class ComputeOptions {
  private final Executor executor;
  private final List<Callback> callbacks;

  private ComputeOptions(Executor executor, List<Callback> callbacks) {
    this.executor = executor;
    this.callbacks = List.copyOf(callbacks);
  }

  /** The spec's executor, no callbacks. */
  public static ComputeOptions defaults() {
    return new ComputeOptions(null, List.of());
  }

  /** Options running on a given executor. */
  public static ComputeOptions executor(Executor executor) {
    return defaults().withExecutor(executor);
  }

  /** A copy with another executor. */
  public ComputeOptions withExecutor(Executor e) {
    return new ComputeOptions(e, callbacks);
  }

  /** A copy with one more callback. */
  public ComputeOptions withCallback(Callback c) {
    List<Callback> l = new ArrayList<>(callbacks);
    l.add(c);
    return new ComputeOptions(executor, l);
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
