package dev.cubed.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.ComputeOptions;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.s3.S3TestServer;
import dev.cubed.s3.S3Workloads;
import dev.cubed.testing.FromArrayCase;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The five workloads at the small size on the beam executor with 2 workers, on the runner a
 * subclass names ({@link #runnerOptions()}), chosen by name through the spec as a user would
 * ({@code executor("beam")} and {@code beam.*} executor options), with stored inputs, outputs and
 * intermediates on a real S3-compatible server (s3proxy on 127.0.0.1): each gives NumPy's checksums
 * within relative 1e-9, its tasks ran inside Beam (TaskEnd events relayed from Beam metrics), and
 * its intermediates were objects under the S3 work directory while it ran. A {@code
 * Cubed.fromArray} input combined with a stored array gives the threads executor's answer (the
 * client stores the array's blocks in the work directory once; the DoFns carry no array). One S3
 * server per test class.
 */
@Tag("beam")
abstract class BeamWorkloadsContract {
  static S3TestServer server;
  static Map<String, Map<String, Object>> numpy;

  @BeforeAll
  static void start() throws Exception {
    numpy = S3Workloads.numpyChecksums();
    server = S3TestServer.start().useAsDefault().createBucket("inputs").createBucket("work");
    new S3Workloads("s3://inputs/small", "s3://work/outputs", ComputeOptions.defaults())
        .writeInputs();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** The {@code beam.*} executor options that choose the runner under test (may be empty). */
  abstract Map<String, String> runnerOptions();

  /**
   * The pattern every task record's worker ({@code host/thread name}) matches when the task ran on
   * the runner under test: it tells the runners' worker threads apart.
   */
  abstract String workerPattern();

  Spec spec(String executor, String workDir) {
    Spec.Builder b =
        Spec.builder()
            .workDir(workDir)
            .allowedMem("2GB")
            .reservedMem("100MB")
            .executor(executor)
            .workers(2)
            .attempts(3);
    if (executor.equals("beam")) {
      runnerOptions().forEach(b::executorOption);
    }
    return b.build();
  }

  /** Counts tasks and records, at each op's end, whether the work directory held objects. */
  static final class Watch implements Callback {
    final AtomicLong tasks = new AtomicLong();
    final Set<String> workers = ConcurrentHashMap.newKeySet();
    final Set<String> workKeys = ConcurrentHashMap.newKeySet();
    final Store work;

    Watch(Store work) {
      this.work = work;
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      tasks.incrementAndGet();
      workers.add(e.worker());
    }

    @Override
    public void onOpEnd(Events.OpEnd e) {
      workKeys.addAll(work.list(""));
    }
  }

  static void assertNumpy(String name, Map<String, Object> got) {
    Map<String, Object> expected = numpy.get(name);
    assertThat(got).as(name).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (k, v) -> {
          if (v instanceof Double d) {
            assertThat(((Number) got.get(k)).doubleValue())
                .as(name + " " + k)
                .isCloseTo(d, within(1e-9 * Math.abs(d)));
          } else {
            assertThat(got.get(k)).as(name + " " + k).isEqualTo(v);
          }
        });
  }

  @Test
  void fromArrayDataWithAStoredArrayEqualsTheThreadsExecutor() {
    FromArrayCase.writeStored("s3://inputs/from-array.zarr");
    List<Events.TaskEnd> ends =
        FromArrayCase.checkAgainstThreads(
            ComputeOptions.defaults(),
            "beam",
            "s3://inputs/from-array.zarr",
            spec("beam", "s3://work/beam-from-array"));
    assertThat(ends)
        .extracting(Events.TaskEnd::worker)
        .allMatch(s -> s.matches(workerPattern()), "match " + workerPattern());
  }

  @ParameterizedTest
  @ValueSource(strings = {"quadratic_means", "add", "matmul", "rechunk", "reduce"})
  void smallWorkloadGivesNumpysChecksumsWithEverythingOnS3(String name) {
    String workDir = "s3://work/beam-" + name;
    Watch watch = new Watch(Stores.open(workDir));
    S3Workloads w =
        new S3Workloads(
            "s3://inputs/small",
            "s3://work/outputs/" + name,
            ComputeOptions.defaults().withCallback(watch));
    Map<String, Object> got = w.run(name, spec("beam", workDir));
    assertNumpy(name, got);
    assertThat(watch.tasks.get()).as("tasks relayed from Beam").isPositive();
    assertThat(watch.workers)
        .as("workers of " + name)
        .isNotEmpty()
        .allMatch(s -> s.matches(workerPattern()), "match " + workerPattern());
    if (!name.equals("matmul") && !name.equals("reduce") && !name.equals("add")) {
      return;
    }
    // multi-round reductions write intermediate arrays: they were objects in the S3 work dir
    assertThat(watch.workKeys)
        .as(name + " intermediates on S3")
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/.+"));
  }
}
