package dev.cubed.cli;

import dev.cubed.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The executor options shared by every command that computes ({@code @Mixin}):
 * {@code --executor threads|processes}, {@code --workers N}, {@code --attempts N}. They are applied
 * to the command's {@link Spec}, and the compute then uses {@link dev.cubed.Cubed#executor(Spec)}.
 */
final class ExecutorOptions {
  @Option(names = "--executor", defaultValue = "threads", paramLabel = "NAME",
      description = "threads (tasks on threads of this JVM), processes (each task in a worker "
          + "JVM whose heap is --allowed-mem) or processes-strict (each op's tasks in a heap of "
          + "that op's projected memory: a task needing more fails) (default: ${DEFAULT-VALUE})")
  String executor;

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
    if (!executor.equals("threads") && !executor.equals("processes")
        && !executor.equals("processes-strict")) {
      try {
        dev.cubed.runtime.Executor.byName(executor);
      } catch (IllegalArgumentException e) {
        throw Cli.usage(cmd, "--executor: '" + executor + "' is not an executor; use threads,"
            + " processes or processes-strict");
      }
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
    return b.executor(executor).workers(workers).attempts(attempts);
  }

  /** The worker count actually used (0 resolved to the processor count). */
  int effectiveWorkers() {
    return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
  }
}
