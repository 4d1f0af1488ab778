package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every workload at a tiny size on the engine, against checksums computed here by plain loops over
 * the index arithmetic of docs/benchmarks.md (written out again, independent of {@link Inputs}).
 * Sizes give several blocks per axis (quadratic_means 12 blocks over time, reduce 7 and 8 per
 * axis), so the reduction trees have several rounds.
 */
class WorkloadChecksumTest {
  static final double G = 0.6180339887498949;
  static final double S = 0.41421356237309515;

  @TempDir Path dir;

  BenchContext ctx() {
    return new BenchContext("threads", 2, 200_000_000L, dir);
  }

  static double a(long i, long j) {
    return 0.5 + 0.5 * Math.sin(G * (double) i + (double) j);
  }

  static double b(long i, long j) {
    return 0.5 + 0.5 * Math.cos(G * (double) i - (double) j);
  }

  static double u(long t, long y, long x) {
    return 0.5 + 0.5 * Math.sin(G * (double) t + S * (double) y + (double) x);
  }

  static double v(long t, long y, long x) {
    return 0.5 + 0.5 * Math.cos(G * (double) t - S * (double) y + (double) x);
  }

  static void close(Map<String, Object> sums, String key, double expected) {
    double got = ((Number) sums.get(key)).doubleValue();
    assertThat(got).as(key).isCloseTo(expected, within(1e-9 * Math.max(1, Math.abs(expected))));
  }

  @Test
  void quadraticMeans() throws Exception {
    int T = 23;
    int Y = 5;
    int X = 6;
    BenchResult r =
        Workloads.run(
            new QuadraticMeans(),
            "tiny",
            Workloads.params("T", T, "Y", Y, "X", X, "tchunk", 2),
            ctx());
    double uu = 0;
    double vv = 0;
    double uv = 0;
    for (int y = 0; y < Y; y++) {
      for (int x = 0; x < X; x++) {
        double su = 0;
        double sv = 0;
        double suv = 0;
        for (int t = 0; t < T; t++) {
          su += u(t, y, x) * u(t, y, x);
          sv += v(t, y, x) * v(t, y, x);
          suv += u(t, y, x) * v(t, y, x);
        }
        uu += su / T;
        vv += sv / T;
        uv += suv / T;
      }
    }
    assertThat(r.checksums()).containsOnlyKeys("sum_uu", "sum_vv", "sum_uv");
    close(r.checksums(), "sum_uu", uu);
    close(r.checksums(), "sum_vv", vv);
    close(r.checksums(), "sum_uv", uv);
    assertThat(r.tasks()).as("several tasks per mean").isGreaterThan(3);
    assertThat(Files.exists(dir.resolve("inputs"))).isTrue();
  }

  @Test
  void add() throws Exception {
    int n = 7;
    int m = 9;
    BenchResult r =
        Workloads.run(new Add(), "tiny", Workloads.params("n", n, "m", m, "c", 3), ctx());
    double s = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        s += a(i, j) + b(i, j);
      }
    }
    close(r.checksums(), "sum", s);
  }

  @Test
  void matmul() throws Exception {
    int n = 8;
    BenchResult r = Workloads.run(new Matmul(), "tiny", Workloads.params("n", n, "c", 3), ctx());
    double s = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double d = 0;
        for (int k = 0; k < n; k++) {
          d += a(i, k) * b(k, j);
        }
        s += d;
      }
    }
    close(r.checksums(), "sum", s);
  }

  @Test
  void rechunk() throws Exception {
    int T = 6;
    int Y = 5;
    int X = 7;
    BenchResult r =
        Workloads.run(
            new Rechunk(),
            "tiny",
            Workloads.params("T", T, "Y", Y, "X", X, "yc", 2, "xc", 3),
            ctx());
    double s = 0;
    double w = 0;
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        for (int x = 0; x < X; x++) {
          s += u(t, y, x);
          w += u(t, y, x) * ((t + 2 * y + 3 * x) % 7);
        }
      }
    }
    close(r.checksums(), "sum", s);
    close(r.checksums(), "weighted_sum", w);
    assertThat(r.checksums().get("chunks")).isEqualTo(List.of(6L, 2L, 3L));
  }

  @Test
  void reduce() throws Exception {
    int n = 20;
    int m = 23;
    BenchResult r =
        Workloads.run(new Reduce(), "tiny", Workloads.params("n", n, "m", m, "c", 3), ctx());
    double meanSum = 0;
    double meanSq = 0;
    for (int j = 0; j < m; j++) {
      double col = 0;
      for (int i = 0; i < n; i++) {
        col += a(i, j);
      }
      meanSum += col / n;
      meanSq += (col / n) * (col / n);
    }
    long amSum = 0;
    long amW = 0;
    for (int i = 0; i < n; i++) {
      int best = 0;
      for (int j = 1; j < m; j++) {
        if (a(i, j) > a(i, best)) {
          best = j;
        }
      }
      amSum += best;
      amW += (long) best * (i % 1000);
    }
    close(r.checksums(), "mean_sum", meanSum);
    close(r.checksums(), "mean_sumsq", meanSq);
    assertThat(r.checksums().get("argmax_sum")).isEqualTo(amSum);
    assertThat(r.checksums().get("argmax_weighted")).isEqualTo(amW);
  }

  @Test
  void fusionOffWritesIntermediatesAndKeepsChecksums() throws Exception {
    Map<String, Long> p = Workloads.params("T", 8, "Y", 5, "X", 6, "tchunk", 2);
    BenchResult on = Workloads.run(new QuadraticMeans(), "tiny", p, ctx());
    BenchResult off =
        Workloads.run(
            new QuadraticMeans(),
            "tiny",
            p,
            new BenchContext("threads", 2, 200_000_000L, dir, BenchContext.Fusion.OFF));
    assertThat(off.executor()).isEqualTo("threads+nofusion");
    assertThat(off.intermediateBytes()).isGreaterThan(on.intermediateBytes());
    assertThat(off.tasks()).isGreaterThan(on.tasks());
    for (String k : List.of("sum_uu", "sum_vv", "sum_uv")) {
      close(off.checksums(), k, ((Number) on.checksums().get(k)).doubleValue());
    }
  }
}
