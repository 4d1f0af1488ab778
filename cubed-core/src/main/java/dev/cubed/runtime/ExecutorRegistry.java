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
      refuseOptions(name, options);
    }
  }

  /**
   * Refuses options of an executor that takes none, naming the first and saying what sets such an
   * executor up instead.
   *
   * @throws IllegalArgumentException if {@code options} is not empty
   */
  static void refuseOptions(String name, Map<String, String> options) {
    if (options.isEmpty()) {
      return;
    }
    String first = options.keySet().iterator().next();
    throw new IllegalArgumentException(
        "the "
            + name
            + " executor takes no executor options,"
            + " got '"
            + first
            + "'"
            + (options.size() > 1 ? " (and " + (options.size() - 1) + " more)" : "")
            + "; it is set up by the workers, attempts and memory settings"
            + " (--workers, --attempts, --allowed-mem); executor options are for engine executors"
            + " such as spark (spark.*) or beam (beam.*)");
  }

  /**
   * The built-ins. The processes executors made from settings keep their workers between computes
   * for {@link ExecutorSettings.Processes#keepAlive()} (the spec's {@code processes_keep_alive},
   * default 30 s) and take the other {@link ExecutorSettings.Processes} settings.
   */
  static final List<BuiltIn> BUILT_INS =
      List.of(
          new BuiltIn("threads", s -> ThreadsExecutor.builder().settings(s).build()),
          new BuiltIn("processes", s -> processes(s, false)),
          new BuiltIn("processes-strict", s -> processes(s, true)));

  /**
   * A processes executor from settings: heap bound allowedMem (0 = from the plan), idle workers
   * kept for {@link ExecutorSettings.Processes#keepAlive()} (default 30 s), the one keep-alive
   * policy of executors made by name.
   */
  private static Executor processes(ExecutorSettings s, boolean heapPerOp) {
    return ProcessesExecutor.builder()
        .settings(s)
        .keepAlive(s.processes().keepAlive())
        .gcSkip(s.processes().gcSkip())
        .workerJvmArgs(s.processes().workerJvmOptions())
        .postTaskGc(s.processes().postTaskGc())
        .workerStats(s.processes().workerStats())
        .heapPerOp(heapPerOp)
        .build();
  }

  /** Every executor available here by name, in registry order (built-ins first). */
  static Map<String, ExecutorFactory> all() {
    Map<String, ExecutorFactory> byName = new LinkedHashMap<>();
    for (BuiltIn b : BUILT_INS) {
      byName.putIfAbsent(b.name(), b);
    }
    for (ExecutorFactory f : ServiceLoader.load(ExecutorFactory.class)) {
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
