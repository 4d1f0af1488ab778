package dev.cubed.beam;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.s3.S3Workloads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link BeamWorkloadsContract} on the DirectRunner (the default runner: no runner option), and the
 * timing of the workloads on threads against beam.
 */
class BeamWorkloadsS3Test extends BeamWorkloadsContract {
  @Override
  Map<String, String> runnerOptions() {
    return Map.of();
  }

  @Override
  String workerPattern() {
    return "[^/]+/direct-runner-worker.*";
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
  record PhaseSum(Executor inner, long[] sum) implements Executor {
    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public RunReport execute(String id, List<Operation> ops, List<Callback> cbs) {
      RunReport r = inner.execute(id, ops, cbs);
      for (int i = 0; i < BeamExecutor.PHASES.size(); i++) {
        sum[i] += r.phaseMillis().getOrDefault(BeamExecutor.PHASES.get(i), 0L);
      }
      return r;
    }
  }

  /**
   * Not run in CI (tag "slow"): the time of each workload on threads and on beam, both with
   * everything on S3, interleaved so both see the same machine load; prints a table.
   */
  @Test
  @Tag("slow")
  void timeThreadsAgainstBeam() {
    StringBuilder table =
        new StringBuilder(
            "| workload | computes | ops | tasks | threads s"
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
          Executor executor = Cubed.executor(spec);
          Gaps g = new Gaps();
          S3Workloads w =
              new S3Workloads(
                  "s3://inputs/small",
                  "s3://work/t-" + ex + rep + name,
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
      table.append(
          String.format(
              "| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %d | %d | %d" + " | %d |%n",
              name,
              gaps.computes,
              gaps.ops,
              gaps.tasks,
              best[0],
              best[1],
              best[1] - best[0],
              best[1] / best[0],
              phases[0] / 2,
              phases[1] / 2,
              phases[2] / 2,
              gaps.gapMillis));
    }
    System.out.println(table);
  }
}
