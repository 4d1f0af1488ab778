package dev.cubed.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Creates an executor, chosen by name, from a spec's settings (workers, attempts, memory and
 * executor-specific options such as a Spark master URL). Executors of other engines (cubed-spark,
 * cubed-beam, your own) implement this and register it with {@link ServiceLoader}: list the
 * class name in {@code META-INF/services/dev.cubed.runtime.ExecutorFactory}. Then
 * {@code Spec.builder().executor(name)} and {@code --executor name} find it when its jar is on the
 * classpath. Implementations need a public no-argument constructor and must be cheap to
 * construct (they are created whenever executors are listed).
 */
public interface ExecutorFactory {
  /** The name the executor is chosen by (e.g. "spark"); not "threads" or "processes". */
  String name();

  /**
   * A new executor configured from the settings.
   *
   * @throws IllegalArgumentException if an option is missing or wrong, naming it
   */
  Executor create(ExecutorSettings settings);

  /** The factory registered under a name, if any. */
  static Optional<ExecutorFactory> find(String name) {
    for (ExecutorFactory f : ServiceLoader.load(ExecutorFactory.class)) {
      if (f.name().equals(name)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /**
   * The names of every executor available here: "threads", "processes", "processes-strict", then those registered as
   * factories or as {@link Executor} services, in discovery order.
   */
  static List<String> available() {
    java.util.Set<String> names = new java.util.LinkedHashSet<>(List.of("threads", "processes", "processes-strict"));
    for (ExecutorFactory f : ServiceLoader.load(ExecutorFactory.class)) {
      names.add(f.name());
    }
    for (Executor e : ServiceLoader.load(Executor.class)) {
      names.add(e.name());
    }
    return new ArrayList<>(names);
  }
}
