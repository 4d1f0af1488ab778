package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A weighted mean as xarray builds it ({@code weighted(w).mean("x")}: two einsums over a {@code
 * notnull} mask of the data, one of the data filled with 0, one of the mask, then their ratio where
 * the sum of weights is not 0) plans as one op that stores nothing and computes each block of the
 * shared upstream arrays once per task.
 */
class SharedBlocksPlanTest {
  @TempDir Path dir;

  /** Calls of the counting block function, over all tasks of a compute. */
  private static final AtomicInteger CALLS = new AtomicInteger();

  @Test
  void weightedMeanIsOneOpComputingEachSharedBlockOnce() {
    Spec spec = EngineTestSupport.tinySpec(dir, 100_000_000);
    int nt = 12;
    int nx = 5;
    int ny = 7;
    NDArray a = EngineTestSupport.randomDoubles(3, nt, nx, ny);
    for (int i = 0; i < a.size(); i += 11) {
      a.setDouble(i, Double.NaN);
    }
    double[] wv = {1.0, 1.25, 1.5, 1.75, 2.0};
    NDArray w = new NDArray(DType.FLOAT64, new long[] {nx}, wv.clone());
    CubedArray x0 = Cubed.fromArray(a, new long[] {4, nx, ny}, spec);
    // x's blocks are made by a function that counts its calls: fused into the op's tasks, each
    // block is made once if the task keeps it for its several consumers
    CubedArray x =
        Xp.mapBlocks(
            b -> {
              CALLS.incrementAndGet();
              return b[0];
            },
            DType.FLOAT64,
            x0);
    CubedArray wc = Cubed.fromArray(w, new long[] {nx}, spec);
    CubedArray mask = Xp.bitwiseInvert(Xp.isnan(x));
    CubedArray filled = Xp.where(mask, x, 0.0);
    CubedArray sum = Xp.einsum("...abc,...b->...ac", filled, wc);
    CubedArray weights = Xp.einsum("...abc,...b->...ac", mask, wc);
    CubedArray mean = Xp.divide(sum, Xp.where(Xp.notEqual(weights, 0.0), weights, Double.NaN));

    PlanSummary p = mean.plan();
    assertThat(p.ops()).hasSize(1);
    assertThat(p.intermediateBytesWritten()).isZero();
    assertThat(p.totalTasks()).isEqualTo(3);

    CALLS.set(0);
    NDArray got = mean.compute();
    assertThat(CALLS.get()).as("blocks of x made (3 blocks)").isEqualTo(3);
    for (int t = 0; t < nt; t++) {
      for (int y = 0; y < ny; y++) {
        double s = 0;
        double sw = 0;
        for (int k = 0; k < nx; k++) {
          double v = a.getDouble((t * nx + k) * ny + y);
          if (!Double.isNaN(v)) {
            s += v * wv[k];
            sw += wv[k];
          }
        }
        double want = sw == 0 ? Double.NaN : s / sw;
        assertThat(got.getDouble(t * ny + y)).isCloseTo(want, Offset.offset(1e-12));
      }
    }
  }
}
