package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.ComputeOptions;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.s3.S3Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Runs a workload of {@link S3Workloads} on an executor and checks NumPy's checksums. */
final class WorkloadChecks {
  private WorkloadChecks() {}

  /** Where the stored inputs live (written once by {@link #prepare}). */
  static final String INPUTS = "s3://data/inputs";

  /** Writes the stored inputs of quadratic_means and rechunk (not timed). */
  static void prepare() {
    new S3Workloads(INPUTS, "s3://data/unused", ComputeOptions.defaults()).writeInputs();
  }

  /** The spec of a workload: intermediates under {@code s3://work/<name>}. */
  static Spec spec(String name) {
    return Spec.builder()
        .workDir("s3://work/" + name)
        .allowedMem("2GB")
        .reservedMem("100MB")
        .build();
  }

  /** Where the tasks of the last {@link #run} ran, and its wall time. */
  record Run(Set<String> workers, long tasks, double seconds) {}

  /** Runs {@code name} on {@code executor}, asserts NumPy's checksums (relative 1e-9). */
  static Run run(String name, Executor executor) {
    return run(name, executor, executor.name() + "-" + System.nanoTime());
  }

  private static Run run(String name, Executor executor, String tag) {
    Set<String> workers = ConcurrentHashMap.newKeySet();
    long[] tasks = new long[1];
    Callback cb =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            workers.add(e.worker() == null ? "?" : e.worker());
            synchronized (tasks) {
              tasks[0]++;
            }
          }
        };
    long t0 = System.nanoTime();
    Map<String, Object> got =
        new S3Workloads(
                INPUTS, "s3://data/" + tag, ComputeOptions.executor(executor).withCallback(cb))
            .run(name, spec(name));
    double secs = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> expected;
    try {
      expected = S3Workloads.numpyChecksums().get(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(got).as(name).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (k, v) -> {
          Object g = got.get(k);
          if (v instanceof Double d) {
            assertThat(((Number) g).doubleValue())
                .as(name + " " + k)
                .isCloseTo(d, within(1e-9 * Math.abs(d)));
          } else if (v instanceof Long l) {
            assertThat(((Number) g).longValue()).as(name + " " + k).isEqualTo(l);
          } else {
            assertThat(g).as(name + " " + k).isEqualTo(v);
          }
        });
    return new Run(workers, tasks[0], secs);
  }

  /**
   * Runs {@code name} on spark and prints its time; with {@code -Dcubed.spark.compare=true} runs it
   * on the threads executor (2 threads) first, in the same minute, and prints both times.
   */
  static Run compare(String name, Executor spark, String label) {
    if (!Boolean.getBoolean("cubed.spark.compare")) {
      Run s = run(name, spark);
      System.out.printf(
          "workload %-16s spark %s %6.2f s (%d tasks, %d executors)%n",
          name, label, s.seconds(), s.tasks(), s.workers().size());
      return s;
    }
    Run threads = run(name, new ThreadsExecutor(2, 3));
    Run s = run(name, spark);
    System.out.printf(
        "workload %-16s threads %6.2f s, spark %-22s %6.2f s (%+.2f s, %d tasks,"
            + " %d executors)%n",
        name,
        threads.seconds(),
        label,
        s.seconds(),
        s.seconds() - threads.seconds(),
        s.tasks(),
        s.workers().size());
    return s;
  }
}
