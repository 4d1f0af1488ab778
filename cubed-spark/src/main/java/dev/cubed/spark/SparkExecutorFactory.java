package dev.cubed.spark;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorFactory;
import dev.cubed.runtime.ExecutorSettings;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code spark} executor, chosen by name ({@code Spec.builder().executor("spark")}, {@code
 * --executor spark}). Options ({@code executorOption}, {@code --executor-option KEY=VALUE}, {@code
 * executor_option.KEY} in spec files): {@code spark.master} (default {@code local[workers]}), any
 * other {@code spark.*} setting (passed to the SparkConf), {@code backup_tasks=true} (Spark
 * speculation) and {@code auth_secret_file=PATH} (the cluster's shared secret, {@link
 * SparkExecutor.Builder#authSecretFile}). The spec's attempts become Spark's task attempts. Any
 * other option is refused.
 */
public final class SparkExecutorFactory implements ExecutorFactory {
  /** The option naming the file with the cluster's authentication secret. */
  static final String AUTH_SECRET_FILE = "auth_secret_file";

  /** For {@link java.util.ServiceLoader}. */
  public SparkExecutorFactory() {}

  @Override
  public String name() {
    return "spark";
  }

  /**
   * A Spark executor from the settings.
   *
   * @throws IllegalArgumentException for an option {@link #checkOptions} refuses, or an
   *     auth_secret_file that cannot be read
   */
  @Override
  public Executor create(ExecutorSettings settings) {
    checkOptions(settings.options());
    SparkExecutor.Builder b =
        SparkExecutor.builder().workers(settings.workers()).attempts(settings.attempts());
    for (Map.Entry<String, String> e : settings.options().entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      if (k.startsWith("spark.")) {
        b.conf(k, v);
      } else if ("backup_tasks".equals(k)) {
        b.backupTasks(Boolean.parseBoolean(v));
      } else {
        b.authSecretFile(Path.of(v));
      }
    }
    return b.build();
  }

  /**
   * Accepts spark.* settings, backup_tasks=true|false and auth_secret_file=PATH.
   *
   * @throws IllegalArgumentException for any other option (listing the valid ones), a backup_tasks
   *     value other than true/false, or an empty auth_secret_file
   */
  @Override
  public void checkOptions(Map<String, String> options) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      if (k.startsWith("spark.") && k.length() > "spark.".length()) {
        continue;
      }
      if ("backup_tasks".equals(k)) {
        if (!"true".equalsIgnoreCase(v) && !"false".equalsIgnoreCase(v)) {
          throw new IllegalArgumentException(
              "spark executor: option backup_tasks must be true or" + " false, got '" + v + "'");
        }
      } else if (AUTH_SECRET_FILE.equals(k)) {
        if (v == null || v.isBlank()) {
          throw new IllegalArgumentException(
              "spark executor: option auth_secret_file needs a"
                  + " path (the file holding the cluster's spark.authenticate.secret)");
        }
      } else {
        throw new IllegalArgumentException(
            "spark executor: unknown option '"
                + k
                + "'; the"
                + " spark executor takes spark.master, any other spark.* Spark setting (e.g."
                + " spark.executor.memory), backup_tasks=true|false and auth_secret_file=PATH");
      }
    }
  }
}
