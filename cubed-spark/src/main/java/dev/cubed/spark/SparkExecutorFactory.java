package dev.cubed.spark;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorFactory;
import dev.cubed.runtime.ExecutorSettings;
import java.util.Map;

/**
 * The {@code spark} executor, chosen by name ({@code Spec.builder().executor("spark")},
 * {@code --executor spark}). Options ({@code executorOption}, {@code --executor-option KEY=VALUE},
 * {@code executor_option.KEY} in spec files): {@code spark.master} (default
 * {@code local[workers]}), any other {@code spark.*} setting (passed to the SparkConf), and
 * {@code backup_tasks=true} (Spark speculation). The spec's attempts become Spark's task attempts.
 */
public final class SparkExecutorFactory implements ExecutorFactory {
  /** For {@link java.util.ServiceLoader}. */
  public SparkExecutorFactory() {}

  @Override
  public String name() {
    return "spark";
  }

  /**
   * A Spark executor from the settings.
   *
   * @throws IllegalArgumentException for an option that is neither spark.* nor backup_tasks, or a
   *     backup_tasks value other than true/false
   */
  @Override
  public Executor create(ExecutorSettings settings) {
    SparkExecutor.Builder b = SparkExecutor.builder().workers(settings.workers())
        .attempts(settings.attempts());
    for (Map.Entry<String, String> e : settings.options().entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      if (k.startsWith("spark.")) {
        b.conf(k, v);
      } else if ("backup_tasks".equals(k)) {
        if (!"true".equalsIgnoreCase(v) && !"false".equalsIgnoreCase(v)) {
          throw new IllegalArgumentException("spark executor: option backup_tasks must be true or"
              + " false, got '" + v + "'");
        }
        b.backupTasks(Boolean.parseBoolean(v));
      } else {
        throw new IllegalArgumentException("spark executor: unknown option '" + k + "': give"
            + " Spark settings (spark.master, spark.executor.memory, ...) or backup_tasks=true");
      }
    }
    return b.build();
  }
}
