package dev.cubed.cli;

import dev.cubed.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The executor options shared by every command that computes ({@code @Mixin}):
 * {@code --executor NAME}, {@code --workers N}, {@code --attempts N},
 * {@code --executor-option KEY=VALUE} (repeatable). They are applied
 * to the command's {@link Spec}, and the compute then uses {@link dev.cubed.Cubed#executor(Spec)}.
 */
final class ExecutorOptions {
  @Option(names = "--executor", defaultValue = "threads", paramLabel = "NAME",
      description = "threads (tasks on threads of this JVM), processes (each task in a worker "
          + "JVM whose heap is --allowed-mem), processes-strict (each op's tasks in a heap of "
          + "that op's projected memory: a task needing more fails), or an engine executor "
          + "whose module is on the classpath (spark, beam) (default: ${DEFAULT-VALUE})")
  String executor;

  @Option(names = "--executor-option", paramLabel = "KEY=VALUE",
      description = "an option of the executor, repeatable (e.g. spark.master=local[2]); see "
          + "docs/distributed.md")
  java.util.Map<String, String> executorOptions = new java.util.LinkedHashMap<>();

  @Option(names = "--workers", defaultValue = "0", paramLabel = "N",
      description = "worker threads or processes; 0 = one per processor (default: "
          + "${DEFAULT-VALUE})")
  int workers;

  @Option(names = "--attempts", defaultValue = "3", paramLabel = "N",
      description = "attempts per task, 1 = no retry (default: ${DEFAULT-VALUE})")
  int attempts;

  /**
   * Checks the values.
   *
   * @throws picocli.CommandLine.ParameterException naming the bad option
   */
  void validate(CommandSpec cmd) {
    java.util.List<String> known = dev.cubed.runtime.ExecutorFactory.available();
    if (!known.contains(executor)) {
      throw Cli.usage(cmd, "--executor: '" + executor + "' is not an executor here; use one of "
          + String.join(", ", known));
    }
    if (workers < 0) {
      throw Cli.usage(cmd, "--workers: " + workers + " must be 0 (one per processor) or more");
    }
    if (attempts < 1) {
      throw Cli.usage(cmd, "--attempts: " + attempts + " must be at least 1");
    }
  }

  /** The spec builder with these options applied. */
  Spec.Builder apply(Spec.Builder b) {
    return b.executor(executor).workers(workers).attempts(attempts)
        .executorOptions(executorOptions);
  }

  /** The worker count actually used (0 resolved to the processor count). */
  int effectiveWorkers() {
    return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
  }
}
