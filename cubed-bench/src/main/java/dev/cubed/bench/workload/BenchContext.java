package dev.cubed.bench.workload;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * How a workload runs: the executor's name, its number of workers, allowedMem and the work
 * directory (intermediate arrays under {@code workDir/compute-*}, cached stored inputs under {@code
 * workDir/inputs}, the outputs written by add and rechunk under {@code workDir/outputs}).
 *
 * @param executor executor name ("threads" or another registered executor)
 * @param workers worker threads or processes, >= 1
 * @param allowedMem memory a task may use, bytes
 * @param workDir the work directory
 * @param fusion whether the plan fuses ops ({@link Fusion#OFF} writes every intermediate array)
 * @param attempts attempts per task (1 = no retry), >= 1
 * @param executorOptions options of an engine executor chosen by name (e.g. {@code spark.master};
 *     see {@code Spec.executorOption}); empty for none
 * @param inputSet where the workload's inputs come from ({@link InputSet#ENGINE}: the bench's own)
 */
public record BenchContext(
    String executor,
    int workers,
    long allowedMem,
    Path workDir,
    Fusion fusion,
    int attempts,
    Map<String, String> executorOptions,
    InputSet inputSet) {
  /** Whether the engine fuses ops. */
  public enum Fusion {
    /** The engine's default fusion. */
    ON,
    /**
     * No fusion of computed arrays into their consumers (fusion limit of 0 input blocks), so every
     * intermediate array is written; generated (virtual) inputs are still made inside tasks.
     */
    OFF
  }

  /** Default allowedMem of docs/benchmarks.md: 2 GB. */
  public static final long DEFAULT_ALLOWED_MEM = 2_000_000_000L;

  /**
   * Validates the values.
   *
   * @throws IllegalArgumentException if workers is below 1 or allowedMem is not positive
   */
  public BenchContext {
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(fusion, "fusion");
    if (workers < 1) {
      throw new IllegalArgumentException("bench: --workers must be >= 1, got " + workers);
    }
    if (allowedMem <= 0) {
      throw new IllegalArgumentException(
          "bench: --allowed-mem must be positive, got " + allowedMem);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException("bench: --attempts must be >= 1, got " + attempts);
    }
    executorOptions = Map.copyOf(Objects.requireNonNull(executorOptions, "executorOptions"));
    Objects.requireNonNull(inputSet, "inputSet");
  }

  /** A context with the engine's own inputs. */
  public BenchContext(
      String executor,
      int workers,
      long allowedMem,
      Path workDir,
      Fusion fusion,
      int attempts,
      Map<String, String> executorOptions) {
    this(
        executor, workers, allowedMem, workDir, fusion, attempts, executorOptions, InputSet.ENGINE);
  }

  /** This context with the inputs of {@code set}. */
  public BenchContext withInputSet(InputSet set) {
    return new BenchContext(
        executor, workers, allowedMem, workDir, fusion, attempts, executorOptions, set);
  }

  /** A context without executor options. */
  public BenchContext(
      String executor, int workers, long allowedMem, Path workDir, Fusion fusion, int attempts) {
    this(executor, workers, allowedMem, workDir, fusion, attempts, Map.of());
  }

  /** A context with the default 3 attempts per task. */
  public BenchContext(String executor, int workers, long allowedMem, Path workDir, Fusion fusion) {
    this(executor, workers, allowedMem, workDir, fusion, 3);
  }

  /** A context with fusion on. */
  public BenchContext(String executor, int workers, long allowedMem, Path workDir) {
    this(executor, workers, allowedMem, workDir, Fusion.ON);
  }

  /**
   * The executor as reported in the JSON line: its name, with {@code +nofusion} appended when
   * fusion is off.
   */
  public String executorLabel() {
    return fusion == Fusion.OFF ? executor + "+nofusion" : executor;
  }

  /** Threads executor, 2 workers, 2 GB, work dir {@code java.io.tmpdir/cubed-bench}. */
  public static BenchContext defaults() {
    return new BenchContext(
        "threads",
        2,
        DEFAULT_ALLOWED_MEM,
        Path.of(System.getProperty("java.io.tmpdir"), "cubed-bench"));
  }

  /** Directory of cached stored inputs. */
  public Path inputsDir() {
    return workDir.resolve("inputs");
  }

  /** Directory of the arrays a workload writes as its result (add, rechunk). */
  public Path outputsDir() {
    return workDir.resolve("outputs");
  }
}
