package dev.cubed.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.ComputeOptions;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.s3.S3TestServer;
import dev.cubed.s3.S3Workloads;
import dev.cubed.zarr.Store;
import dev.cubed.zarr.Stores;
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
 * The five workloads at the small size on the beam executor (DirectRunner, 2 workers), chosen by
 * name through the spec as a user would ({@code executor("beam")}), with stored inputs, outputs
 * and intermediates on a real S3-compatible server (s3proxy on 127.0.0.1): each gives NumPy's
 * checksums within relative 1e-9, its tasks ran inside Beam (TaskEnd events relayed from Beam
 * metrics), and its intermediates were objects under the S3 work directory while it ran.
 */
@Tag("beam")
class BeamWorkloadsS3Test {
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

  static Spec spec(String executor, String workDir) {
    return Spec.builder().workDir(workDir).allowedMem("2GB").reservedMem("100MB")
        .executor(executor).workers(2).attempts(3).build();
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
    expected.forEach((k, v) -> {
      if (v instanceof Double d) {
        assertThat(((Number) got.get(k)).doubleValue()).as(name + " " + k)
            .isCloseTo(d, within(1e-9 * Math.abs(d)));
      } else {
        assertThat(got.get(k)).as(name + " " + k).isEqualTo(v);
      }
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"quadratic_means", "add", "matmul", "rechunk", "reduce"})
  void smallWorkloadGivesNumpysChecksumsOnBeamWithEverythingOnS3(String name) {
    String workDir = "s3://work/beam-" + name;
    Watch watch = new Watch(Stores.open(workDir));
    S3Workloads w = new S3Workloads("s3://inputs/small", "s3://work/outputs/" + name,
        ComputeOptions.defaults().withCallback(watch));
    Map<String, Object> got = w.run(name, spec("beam", workDir));
    assertNumpy(name, got);
    assertThat(watch.tasks.get()).as("tasks relayed from Beam").isPositive();
    assertThat(watch.workers).allMatch(s -> s.contains("/"));
    if (!name.equals("matmul") && !name.equals("reduce") && !name.equals("add")) {
      return;
    }
    // multi-round reductions write intermediate arrays: they were objects in the S3 work dir
    assertThat(watch.workKeys).as(name + " intermediates on S3")
        .anyMatch(k -> k.matches("compute-[0-9a-f]{16}/.+"));
  }

  /** Computes, ops and tasks of a workload, and the idle time between an op and the next. */
  static final class Gaps implements Callback {
    int computes;
    int ops;
    long tasks;
    long gapMillis;
    long lastEnd = -1;

    @Override
    public synchronized void onComputeStart(Events.ComputeStart e) {
      computes++;
      lastEnd = -1;
    }

    @Override
    public synchronized void onOpStart(Events.OpStart e) {
      ops++;
      if (lastEnd >= 0) {
        gapMillis += Math.max(0, e.startMillis() - lastEnd);
      }
    }

    @Override
    public synchronized void onOpEnd(Events.OpEnd e) {
      lastEnd = Math.max(lastEnd, e.endMillis());
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      synchronized (this) {
        tasks++;
      }
    }
  }

  /** Adds the beam executor's phases of every compute to a sum. */
  record PhaseSum(dev.cubed.runtime.Executor inner, long[] sum)
      implements dev.cubed.runtime.Executor {
    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public void execute(String id, List<dev.cubed.runtime.Operation> ops, List<Callback> cbs) {
      inner.execute(id, ops, cbs);
      BeamExecutor.Phases p = ((BeamExecutor) inner).lastPhases();
      sum[0] += p.checkMillis();
      sum[1] += p.buildMillis();
      sum[2] += p.launchMillis();
      sum[3] += p.runMillis();
    }
  }

  /**
   * Not run in CI (tag "slow"): the time of each workload on threads and on beam, both with
   * everything on S3, interleaved so both see the same machine load; prints a table.
   */
  @Test
  @Tag("slow")
  void timeThreadsAgainstBeam() {
    StringBuilder table = new StringBuilder("| workload | computes | ops | tasks | threads s"
        + " | beam s | beam - threads s | beam / threads | check ms | build ms | launch ms"
        + " | stage gaps ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (String name : S3Workloads.NAMES) {
      double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
      long[] phases = new long[4];
      Gaps gaps = null;
      for (int rep = 0; rep < 2; rep++) {
        for (int e = 0; e < 2; e++) {
          String ex = e == 0 ? "threads" : "beam";
          Spec spec = spec(ex, "s3://work/t-" + ex);
          dev.cubed.runtime.Executor executor = dev.cubed.Cubed.executor(spec);
          Gaps g = new Gaps();
          S3Workloads w = new S3Workloads("s3://inputs/small", "s3://work/t-" + ex + rep + name,
              ComputeOptions.executor(e == 0 ? executor : new PhaseSum(executor, phases))
                  .withCallback(g));
          long t0 = System.nanoTime();
          Map<String, Object> got = w.run(name, spec);
          double s = (System.nanoTime() - t0) / 1e9;
          assertNumpy(name, got);
          if (s < best[e] && e == 1) {
            gaps = g;
          }
          best[e] = Math.min(best[e], s);
        }
      }
      table.append(String.format("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %d | %d | %d"
          + " | %d |%n", name, gaps.computes, gaps.ops, gaps.tasks, best[0], best[1],
          best[1] - best[0], best[1] / best[0], phases[0] / 2, phases[1] / 2, phases[2] / 2,
          gaps.gapMillis));
    }
    System.out.println(table);
  }
}
