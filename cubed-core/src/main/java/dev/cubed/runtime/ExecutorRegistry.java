package dev.cubed.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The one list of executors known by name, in this order: the built-ins ("threads", "processes",
 * "processes-strict"), then the {@link ExecutorFactory} services on the classpath (cubed-spark's
 * "spark", cubed-beam's "beam", your own); the first entry of a name wins. {@link
 * ExecutorFactory#find}, {@link ExecutorFactory#available}, {@link Executor#byName} and the CLI all
 * read it, so no caller tests names, and every executor of a name is made one way: its factory
 * given the settings.
 */
final class ExecutorRegistry {
  private ExecutorRegistry() {}

  /** A built-in executor, made from settings; takes no options. */
  record BuiltIn(String name, Function<ExecutorSettings, Executor> fromSettings)
      implements ExecutorFactory {
    /** Refuses every option: the built-ins take none. */
    @Override
    public Executor create(ExecutorSettings settings) {
      checkOptions(settings.options());
      return fromSettings.apply(settings);
    }

    @Override
    public void checkOptions(Map<String, String> options) {
      ExecutorFactory.refuseOptions(name, options);
    }
  }

  /**
   * The built-in names, first in every listing. "threads" is made here; "processes" and
   * "processes-strict" come from {@code dev.cubed.runtime.processes.ProcessesExecutorFactory}, a
   * service of cubed-core itself (the processes executor sits a layer above this package).
   */
  static final List<String> BUILT_IN_NAMES = List.of("threads", "processes", "processes-strict");

  private static final BuiltIn THREADS =
      new BuiltIn("threads", s -> ThreadsExecutor.builder().settings(s).build());

  /** Every executor available here by name, in registry order (built-ins first). */
  static Map<String, ExecutorFactory> all() {
    List<ExecutorFactory> services = new ArrayList<>();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ClassLoader own = ExecutorRegistry.class.getClassLoader();
    for (ClassLoader cl :
        context == null || context == own ? List.of(own) : List.of(context, own)) {
      for (ExecutorFactory f : ServiceLoader.load(ExecutorFactory.class, cl)) {
        services.add(f);
      }
    }
    Map<String, ExecutorFactory> byName = new LinkedHashMap<>();
    byName.put(THREADS.name(), THREADS);
    for (String name : BUILT_IN_NAMES) {
      for (ExecutorFactory f : services) {
        if (f.name().equals(name) && f.getClass().getName().startsWith("dev.cubed.runtime.")) {
          byName.putIfAbsent(name, f);
        }
      }
    }
    for (ExecutorFactory f : services) {
      byName.putIfAbsent(f.name(), f);
    }
    return byName;
  }

  static Optional<ExecutorFactory> find(String name) {
    return Optional.ofNullable(all().get(name));
  }

  static List<String> names() {
    return new ArrayList<>(all().keySet());
  }

  /**
   * The factory of a name.
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." if none has it
   */
  static ExecutorFactory require(String name) {
    if (THREADS.name().equals(name)) {
      // the first entry of every listing, whatever the services: no classpath scan per compute
      return THREADS;
    }
    Map<String, ExecutorFactory> all = all();
    ExecutorFactory f = all.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "unknown executor '"
              + name
              + "'; available: "
              + String.join(", ", all.keySet())
              + " (engine executors such as spark or beam need"
              + " their module, cubed-spark or cubed-beam, on the classpath)");
    }
    return f;
  }
}
