package dev.cubed.cli;

import dev.cubed.Spec;
import dev.cubed.runtime.ExecutorFactory;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The executor options shared by every command that computes ({@code @Mixin}): {@code --executor
 * NAME}, {@code --workers N}, {@code --attempts N}, {@code --executor-option KEY=VALUE}
 * (repeatable). They are applied to the command's {@link Spec}, and the compute then uses {@link
 * dev.cubed.Cubed#executor(Spec)}. Public for the commands of other modules ({@link
 * CommandProvider}).
 */
public final class ExecutorOptions {
  @Option(
      names = "--executor",
      defaultValue = "threads",
      paramLabel = "NAME",
      completionCandidates = ExecutorNames.class,
      description =
          "the executor, one of the executors available here: ${COMPLETION-CANDIDATES}"
              + " (threads: tasks on threads of this JVM; processes: each task in a worker JVM whose"
              + " heap is --allowed-mem; processes-strict: each op's tasks in a heap of that op's"
              + " projected memory; engine executors such as spark or beam when their module is on"
              + " the classpath; see docs/engine.md) (default: ${DEFAULT-VALUE})")
  String executor;

  /** The executor names of the registry ({@link dev.cubed.runtime.ExecutorFactory#available}). */
  static final class ExecutorNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return ExecutorFactory.available().iterator();
    }
  }

  @Option(
      names = "--executor-option",
      paramLabel = "KEY=VALUE",
      description =
          "an option of the executor, repeatable (e.g. spark.master=local[2]); see "
              + "docs/distributed.md")
  Map<String, String> executorOptions = new LinkedHashMap<>();

  @Option(
      names = "--workers",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "worker threads or processes; 0 = one per processor (default: " + "${DEFAULT-VALUE})")
  int workers;

  @Option(
      names = "--attempts",
      defaultValue = "3",
      paramLabel = "N",
      description = "attempts per task, 1 = no retry (default: ${DEFAULT-VALUE})")
  int attempts;

  /**
   * Checks the values, among them the executor options against what the chosen executor takes
   * ({@link dev.cubed.runtime.ExecutorFactory#checkOptions}: the built-ins take none).
   *
   * @throws picocli.CommandLine.ParameterException naming the bad option
   */
  public void validate(CommandSpec cmd) {
    ExecutorFactory factory;
    try {
      factory = ExecutorFactory.require(executor);
    } catch (IllegalArgumentException e) {
      throw Cli.usage(cmd, "--executor: " + e.getMessage());
    }
    try {
      factory.checkOptions(executorOptions);
    } catch (IllegalArgumentException e) {
      throw Cli.usage(cmd, "--executor-option: " + e.getMessage());
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
    return b.executor(executor)
        .workers(workers)
        .attempts(attempts)
        .executorOptions(executorOptions);
  }

  /** The worker count actually used (0 resolved to the processor count). */
  public int effectiveWorkers() {
    return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
  }

  /** The executor's name ({@code --executor}). */
  public String executor() {
    return executor;
  }

  /** Attempts per task ({@code --attempts}). */
  public int attempts() {
    return attempts;
  }

  /** The executor's options ({@code --executor-option KEY=VALUE}, in order). */
  public Map<String, String> executorOptions() {
    return executorOptions;
  }
}
