package dev.cubed.beam;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorFactory;
import dev.cubed.runtime.ExecutorSettings;
import java.util.Map;

/**
 * Makes the {@code beam} executor ({@link BeamExecutor}) from a spec's settings: its workers (the
 * DirectRunner's parallelism unless {@code beam.targetParallelism} is given), attempts per task and
 * the executor options {@code beam.runner}, {@code beam.workerMemory}, {@code beam.tasksPerWorker}
 * and any other {@code beam.NAME=VALUE}, passed to Beam as the pipeline option {@code
 * --NAME=VALUE}. Registered with {@link java.util.ServiceLoader}.
 */
public final class BeamExecutorFactory implements ExecutorFactory {
  /** Needed by {@link java.util.ServiceLoader}; cheap. */
  public BeamExecutorFactory() {}

  @Override
  public String name() {
    return "beam";
  }

  /**
   * A beam executor.
   *
   * @throws IllegalArgumentException if an option is malformed or Beam rejects the pipeline options
   *     (an unknown option, a runner whose artifact is not on the classpath)
   */
  @Override
  public Executor create(ExecutorSettings settings) {
    return new BeamExecutor(settings);
  }

  /**
   * Accepts beam.* options only (Beam itself checks the pipeline options when the executor is
   * created).
   *
   * @throws IllegalArgumentException naming an option that is not beam.* and the valid ones
   */
  @Override
  public void checkOptions(Map<String, String> options) {
    BeamOptions.checkKeys(options);
  }
}
