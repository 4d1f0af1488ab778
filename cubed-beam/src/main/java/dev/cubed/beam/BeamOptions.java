package dev.cubed.beam;

import dev.cubed.Spec;
import dev.cubed.runtime.ExecutorSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The Beam settings of an executor, read from the executor options of a spec: {@code beam.runner}
 * (default {@code DirectRunner}), {@code beam.workerMemory} and {@code beam.tasksPerWorker} (the
 * memory check), and every other {@code beam.NAME} option passed to Beam as the pipeline option
 * {@code --NAME=VALUE}.
 */
record BeamOptions(
    String runner,
    long workerMemory,
    int tasksPerWorker,
    List<String> pipelineArgs,
    boolean targetParallelismGiven) {
  static final String PREFIX = "beam.";

  /** Whether the runner runs in this JVM (the DirectRunner). */
  boolean inProcess() {
    return BeamExecutor.DIRECT_RUNNER.equals(runner)
        || "org.apache.beam.runners.direct.DirectRunner".equals(runner);
  }

  /**
   * Refuses options that are not {@code beam.*} (they would otherwise be ignored silently).
   *
   * @throws IllegalArgumentException naming the first such option and the valid ones
   */
  static void checkKeys(Map<String, String> options) {
    for (String k : options.keySet()) {
      if (!k.startsWith(PREFIX) || k.length() == PREFIX.length()) {
        throw new IllegalArgumentException(
            "beam executor: unknown option '"
                + k
                + "'; the beam"
                + " executor takes "
                + BeamExecutor.RUNNER
                + ", "
                + BeamExecutor.WORKER_MEMORY
                + ", "
                + BeamExecutor.TASKS_PER_WORKER
                + " and any other beam.NAME=VALUE (Beam's pipeline"
                + " option --NAME=VALUE, e.g. beam.targetParallelism=4)");
      }
    }
  }

  /**
   * Reads and checks the options.
   *
   * @throws IllegalArgumentException naming the option when one is malformed, or when Beam rejects
   *     the pipeline options (unknown option, runner not on the classpath)
   */
  static BeamOptions of(ExecutorSettings s) {
    checkKeys(s.options());
    String runner = s.option(BeamExecutor.RUNNER, BeamExecutor.DIRECT_RUNNER).trim();
    long mem = -1;
    String memText = s.option(BeamExecutor.WORKER_MEMORY, null);
    if (memText != null) {
      try {
        mem = Spec.parseBytes(memText);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "beam executor: executor option "
                + BeamExecutor.WORKER_MEMORY
                + "='"
                + memText
                + "' is not a memory size (e.g. 4GB,"
                + " 3.5GiB): "
                + e.getMessage(),
            e);
      }
      if (mem <= 0) {
        throw new IllegalArgumentException(
            "beam executor: executor option "
                + BeamExecutor.WORKER_MEMORY
                + " must be positive, got '"
                + memText
                + "'");
      }
    }
    int perWorker = 1;
    String perText = s.option(BeamExecutor.TASKS_PER_WORKER, null);
    if (perText != null) {
      try {
        perWorker = Integer.parseInt(perText.trim());
      } catch (NumberFormatException e) {
        perWorker = 0;
      }
      if (perWorker < 1) {
        throw new IllegalArgumentException(
            "beam executor: executor option "
                + BeamExecutor.TASKS_PER_WORKER
                + " must be an integer >= 1, got '"
                + perText
                + "'");
      }
    }
    List<String> args = new ArrayList<>();
    args.add("--runner=" + runner);
    boolean parallelism = false;
    for (Map.Entry<String, String> e : s.options().entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(PREFIX)
          || k.equals(BeamExecutor.RUNNER)
          || k.equals(BeamExecutor.WORKER_MEMORY)
          || k.equals(BeamExecutor.TASKS_PER_WORKER)) {
        continue;
      }
      String name = k.substring(PREFIX.length());
      if (name.isEmpty() || name.startsWith("-")) {
        throw new IllegalArgumentException(
            "beam executor: executor option '"
                + k
                + "' names no"
                + " pipeline option; use beam.NAME=VALUE, e.g. beam.targetParallelism=4");
      }
      parallelism |= name.equals("targetParallelism");
      args.add("--" + name + "=" + e.getValue());
    }
    BeamOptions o = new BeamOptions(runner, mem, perWorker, List.copyOf(args), parallelism);
    o.pipelineOptions(1); // fails early on an unknown option or runner
    return o;
  }

  /**
   * The pipeline options of one run. For the DirectRunner: {@code --targetParallelism= concurrency}
   * unless given, and {@code --blockOnRun=false} so the launcher can poll progress.
   *
   * @throws IllegalArgumentException if Beam rejects an option (naming it) or the runner
   */
  PipelineOptions pipelineOptions(int concurrency) {
    List<String> args = new ArrayList<>(pipelineArgs);
    if (inProcess()) {
      if (!targetParallelismGiven) {
        args.add("--targetParallelism=" + concurrency);
      }
      args.add("--blockOnRun=false");
    }
    try {
      return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).withValidation().create();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "beam executor: Beam rejected the pipeline options "
              + pipelineArgs
              + " (from the executor options beam.*): "
              + e.getMessage()
              + (e.getMessage() != null && e.getMessage().contains("runner")
                  ? ". A runner other than DirectRunner needs its artifact on the classpath"
                      + " (e.g. beam-runners-flink-1.19, beam-runners-spark-3,"
                      + " beam-runners-google-cloud-dataflow-java)"
                  : ""),
          e);
    }
  }
}
