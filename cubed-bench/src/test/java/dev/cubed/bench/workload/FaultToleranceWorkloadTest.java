package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.runtime.Faults;
import dev.cubed.runtime.ThreadsExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The five workloads of docs/benchmarks.md at the small size, each on a threads executor where 10%
 * of task attempts fail at random (seeded {@link Faults#failing}: half before the task runs, half
 * after it has written its output), still give NumPy's checksums (those of docs/perf/workloads.md,
 * from {@code scripts/perf/workloads_numpy.py WORKLOAD --size small}) within relative 1e-9, and
 * faults were really injected.
 *
 * <p>With 6 attempts a task fails for good only if all 6 of its attempts fail: probability 0.1^6 =
 * 1e-6 per task; the five workloads run about 110 tasks, so a compute fails with probability about
 * 1.1e-4 (and, the decisions being seeded, the same way on every run of the same plan).
 */
class FaultToleranceWorkloadTest {
  static final double FAIL_RATE = 0.10;
  static final int ATTEMPTS = 6;

  @TempDir Path dir;

  static final Map<String, Map<String, Object>> NUMPY =
      Map.of(
          "quadratic_means",
              Map.of(
                  "sum_uu",
                  44459.952431602345,
                  "sum_vv",
                  44459.94364437888,
                  "sum_uv",
                  29782.59454779417),
          "add", Map.of("sum", 6249999.991371165),
          "matmul", Map.of("sum", 3906249989.307884),
          "rechunk",
              Map.of(
                  "sum",
                  6249991.822526063,
                  "weighted_sum",
                  18749973.136350363,
                  "chunks",
                  List.of(200L, 50L, 50L)),
          "reduce",
              Map.of(
                  "mean_sum",
                  1750.000017051746,
                  "mean_sumsq",
                  875.0002355951227,
                  "argmax_sum",
                  6126789L,
                  "argmax_weighted",
                  2837471628L));

  /** Seeds tried per workload until the fault layer has failed at least one of its attempts. */
  static final int MAX_SEEDS = 200;

  /**
   * Each workload is run with seeds 2026, 2027, ... until a run had at least one injected failure
   * (a workload of few tasks, e.g. the single-task small rechunk, may see none at 10% with one
   * seed); every run, with or without faults, must give NumPy's checksums. A fault decision depends
   * on the seed and the op's name, and names include the stored inputs' paths (a temporary
   * directory), so which seed first injects a fault varies between runs; a workload of one task
   * gets no fault in 200 seeds with probability 0.9^200, about 7e-10.
   */
  @Test
  void everySmallWorkloadGivesNumpysChecksumsDespiteTenPercentFailedAttempts() throws Exception {
    BenchContext ctx = new BenchContext("threads", 2, BenchContext.DEFAULT_ALLOWED_MEM, dir);
    for (String name : Workloads.names()) {
      long injected = 0;
      int runs = 0;
      for (long seed = 2026; seed < 2026 + MAX_SEEDS && injected == 0; seed++) {
        Faults faults = Faults.failing(FAIL_RATE, seed);
        ThreadsExecutor ex =
            ThreadsExecutor.builder().workers(2).attempts(ATTEMPTS).faults(faults).build();
        BenchResult r = Engine.withExecutor(ex, () -> Workloads.run(name, "small", ctx));
        runs++;
        checkChecksums(name + " (seed " + seed + ")", r);
        assertThat(faults.attemptsSeen())
            .as(name + ": attempts went through the fault layer")
            .isGreaterThanOrEqualTo(r.tasks());
        System.out.printf(
            "fault tolerance: %s seed %d: %d tasks, %d attempts, %d injected" + " failures%n",
            name, seed, r.tasks(), faults.attemptsSeen(), faults.injectedFailures());
        injected = faults.injectedFailures();
      }
      assertThat(injected)
          .as(name + ": a run with injected failures within " + runs + " seeds")
          .isGreaterThan(0);
    }
  }

  private static void checkChecksums(String what, BenchResult r) {
    String name = what.substring(0, what.indexOf(' '));
    Map<String, Object> expected = NUMPY.get(name);
    assertThat(r.checksums()).as(what).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (k, v) -> {
          Object got = r.checksums().get(k);
          if (v instanceof Double d) {
            assertThat(((Number) got).doubleValue())
                .as(what + " " + k)
                .isCloseTo(d, within(1e-9 * Math.abs(d)));
          } else if (v instanceof Long l) {
            assertThat(((Number) got).longValue()).as(what + " " + k).isEqualTo(l);
          } else {
            assertThat(got).as(what + " " + k).isEqualTo(v);
          }
        });
  }
}
