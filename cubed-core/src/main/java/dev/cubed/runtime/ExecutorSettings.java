package dev.cubed.runtime;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an {@link ExecutorFactory} is given to create an executor: the settings of the spec that
 * chose it by name.
 *
 * @param workers workers of the executor (threads, processes, engine executors; always at least 1:
 *     "one per processor" is resolved before the factory is called)
 * @param attempts attempts per task, 1 = no retry
 * @param allowedMem memory a task may use, bytes (the plan has been checked against it); 0 when not
 *     given ({@link #defaults()}): the processes executor then bounds its workers' heap by the
 *     plan's largest projected task memory
 * @param reservedMem memory of the worker itself, counted in every task's projection, bytes
 * @param options executor-specific options by key (for example {@code spark.master}); never null,
 *     unmodifiable, sorted by key
 * @param processes the settings of the processes executors and their worker JVMs
 */
public record ExecutorSettings(
    int workers,
    int attempts,
    long allowedMem,
    long reservedMem,
    Map<String, String> options,
    Processes processes)
    implements Serializable {

  /**
   * The settings of the processes executors (the spec's {@code processes_*} and {@code worker_*}
   * settings; see {@code dev.cubed.Spec}).
   *
   * @param keepAlive how long idle workers are kept for the next compute ({@link
   *     dev.cubed.runtime.processes.ProcessesExecutor.Builder#keepAlive})
   * @param gcSkip workers may skip the pre-task full GC ({@link
   *     dev.cubed.runtime.processes.ProcessesExecutor.Builder#gcSkip})
   * @param workerJvmOptions extra JVM options of the workers
   * @param postTaskGc workers run the GC check right after each reply
   * @param workerStats workers print their pre-task GC counts when they exit
   */
  public record Processes(
      Duration keepAlive,
      boolean gcSkip,
      List<String> workerJvmOptions,
      boolean postTaskGc,
      boolean workerStats)
      implements Serializable {
    /** The defaults: 30 s keep-alive, GC skip on, no extra options, post-task GC on, no stats. */
    public static final Processes DEFAULTS =
        new Processes(Duration.ofSeconds(30), true, List.of(), true, false);

    /** Checks and copies the values. */
    public Processes {
      Objects.requireNonNull(keepAlive);
      workerJvmOptions = List.copyOf(workerJvmOptions);
    }
  }

  /** Settings with the {@link Processes#DEFAULTS}. */
  public ExecutorSettings(
      int workers, int attempts, long allowedMem, long reservedMem, Map<String, String> options) {
    this(workers, attempts, allowedMem, reservedMem, options, Processes.DEFAULTS);
  }

  /**
   * Checks and copies the values.
   *
   * @throws IllegalArgumentException if workers or attempts is below 1, or reservedMem is negative
   *     or not below a given (non-zero) allowedMem
   */
  public ExecutorSettings {
    if (workers < 1) {
      throw new IllegalArgumentException("ExecutorSettings: workers must be >= 1, got " + workers);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException(
          "ExecutorSettings: attempts must be >= 1 (1 = no retry)," + " got " + attempts);
    }
    if (reservedMem < 0 || allowedMem < 0 || (allowedMem > 0 && allowedMem <= reservedMem)) {
      throw new IllegalArgumentException(
          "ExecutorSettings: allowedMem ("
              + allowedMem
              + " B) must exceed reservedMem ("
              + reservedMem
              + " B), and reservedMem must be >= 0");
    }
    options = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(options)));
    Objects.requireNonNull(processes);
  }

  /**
   * The settings of an executor made by name without a spec: one worker per available processor, 3
   * attempts, no allowedMem (0), no reservedMem, no options.
   */
  public static ExecutorSettings defaults() {
    return new ExecutorSettings(Runtime.getRuntime().availableProcessors(), 3, 0, 0, Map.of());
  }

  /** The option of a key, or {@code fallback} when it is not set. */
  public String option(String key, String fallback) {
    return options.getOrDefault(key, fallback);
  }

  /**
   * The option of a key.
   *
   * @throws IllegalArgumentException naming the key and the executor option syntax when it is not
   *     set
   */
  public String requireOption(String key) {
    String v = options.get(key);
    if (v == null) {
      throw new IllegalArgumentException(
          "executor option '"
              + key
              + "' is not set: give it with"
              + " Spec.builder().executorOption(\""
              + key
              + "\", value) or --executor-option "
              + key
              + "=VALUE");
    }
    return v;
  }
}
