package dev.cubed.runtime;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one service interface of pluggable executors: creates an executor, chosen by name, from a
 * spec's settings (workers, attempts, memory and executor-specific options such as a Spark master
 * URL). Executors of other engines (cubed-spark, cubed-beam, your own) implement this and register
 * it with {@link java.util.ServiceLoader}: list the class name in {@code
 * META-INF/services/dev.cubed.runtime.ExecutorFactory}. Then {@code Spec.builder().executor(name)}
 * and {@code --executor name} find it when its jar is on the classpath. Implementations need a
 * public no-argument constructor and must be cheap to construct (they are created whenever
 * executors are listed).
 */
public interface ExecutorFactory {
  /**
   * The name the executor is chosen by (e.g. "spark"); the built-in names (threads, processes,
   * processes-strict) are taken by the built-ins.
   */
  String name();

  /**
   * A new executor configured from the settings.
   *
   * @throws IllegalArgumentException if an option is missing or wrong, naming it
   */
  Executor create(ExecutorSettings settings);

  /**
   * Checks executor options before anything is planned or run (the CLI calls it to refuse a bad
   * {@code --executor-option} as a usage error). {@link #create} must refuse the same options. The
   * default accepts every option: a factory that knows its options overrides it.
   *
   * @throws IllegalArgumentException naming the first unknown or malformed option and listing the
   *     options this executor takes
   */
  default void checkOptions(Map<String, String> options) {}

  /**
   * The factory of a name, if any: a built-in ("threads", "processes", "processes-strict") or a
   * registered factory.
   */
  static Optional<ExecutorFactory> find(String name) {
    return ExecutorRegistry.find(name);
  }

  /**
   * The factory of a name.
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." listing every name
   *     available here, if none has that name
   */
  static ExecutorFactory require(String name) {
    return ExecutorRegistry.require(name);
  }

  /**
   * The names of every executor available here: "threads", "processes", "processes-strict", then
   * those registered as factories, in discovery order.
   */
  static List<String> available() {
    return ExecutorRegistry.names();
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
}
