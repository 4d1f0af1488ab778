package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.CountingStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * xarray's {@code diff} ({@code x[1:] - x[:-1]}, slices whose blocks do not align) and {@code
 * shift} ({@code pad(x[:-k], (k, 0))} with NaN) over a stored array: one op on x's grid that reads
 * each block and the neighbouring block's edge, storing nothing but the output, with the values of
 * a direct loop (a second difference stores the first once).
 */
class ShiftedTest {
  @TempDir Path dir;

  static final int T = 40;
  static final int C = 8;
  static final int X = 3;

  private Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("200MB").workers(2).build();
  }

  private static double[] values() {
    double[] v = new double[T * X];
    for (int i = 0; i < v.length; i++) {
      v[i] = i % 11 == 5 ? Double.NaN : i * i * 0.5;
    }
    return v;
  }

  private CubedArray stored(CountingStore store) {
    ZarrArray z =
        ZarrArray.create(store, "t").shape(T, X).chunks(C, X).dtype(DType.FLOAT64).build();
    z.write(new long[] {0, 0}, NDArray.of(values(), T, X));
    return Cubed.fromZarr(z, spec());
  }

  private static void assertSame(double got, double want, String at) {
    if (Double.isNaN(want)) {
      assertThat(got).as(at).isNaN();
    } else {
      assertThat(got).as(at).isEqualTo(want);
    }
  }

  /**
   * The plan is one op storing only its output. Its bytes-read figure is an upper bound counting
   * each fused path's reads (x's block b by both operands of a diff, and b + 1 by the halo): at
   * most 3 blocks per task; the store counts below show what is really read.
   */
  private static void onlyTheOutputStored(CubedArray r, long outBytes) {
    PlanSummary s = Cubed.plan(List.of(r)).summary();
    assertThat(s.ops()).hasSize(1);
    assertThat(s.intermediateBytesWritten()).isZero();
    assertThat(s.totalBytesWritten()).isEqualTo(outBytes);
    assertThat(s.totalBytesRead()).isLessThanOrEqualTo(3L * 8 * T * X);
  }

  @Test
  void diffIsOneOpOnTheInputsGrid() {
    CountingStore store = new CountingStore();
    CubedArray x = stored(store);
    CubedArray d =
        Xp.subtract(
            Xp.getItem(x, Index.slice(1L, null), Index.all()),
            Xp.getItem(x, Index.slice(null, (long) T - 1), Index.all()));
    onlyTheOutputStored(d, 8L * (T - 1) * X);
    assertThat(d.node().chunkGrid().sizes(0)).containsExactly(8, 8, 8, 8, 7);
    NDArray r = d.compute();
    double[] v = values();
    for (int t = 0; t < T - 1; t++) {
      for (int j = 0; j < X; j++) {
        assertSame(r.getDouble(t * X + j), v[(t + 1) * X + j] - v[t * X + j], t + "," + j);
      }
    }
    // each chunk read by its own task and by the task before it (the halo), no more
    assertThat(store.reads.entrySet().stream().filter(e -> e.getKey().startsWith("t/")))
        .hasSize(T / C)
        .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isBetween(1, 2));
  }

  @Test
  void secondOrderDiffOfAComputedArrayStoresNothingElse() {
    CubedArray x = Xp.multiply(stored(new CountingStore()), 2.0);
    CubedArray d = Xp.diff(x, 2, 0, null, null);
    // the first difference, read with a halo by the second, is stored once (its own size); no
    // regridded copies of the slices
    PlanSummary s = Cubed.plan(List.of(d)).summary();
    assertThat(s.ops()).hasSizeLessThanOrEqualTo(2);
    assertThat(s.intermediateBytesWritten()).isLessThanOrEqualTo(8L * (T - 1) * X);
    assertThat(s.totalBytesWritten()).isLessThanOrEqualTo(8L * (T - 1) * X + 8L * (T - 2) * X);
    NDArray r = d.compute();
    double[] v = values();
    for (int t = 0; t < T - 2; t++) {
      for (int j = 0; j < X; j++) {
        double want = 2 * (v[(t + 2) * X + j] - 2 * v[(t + 1) * X + j] + v[t * X + j]);
        double got = r.getDouble(t * X + j);
        if (Double.isNaN(want)) {
          assertThat(got).isNaN();
        } else {
          assertThat(got)
              .isCloseTo(want, org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.abs(want))));
        }
      }
    }
  }

  @Test
  void shiftIsOneOpOnTheInputsGrid() {
    CubedArray x = stored(new CountingStore());
    for (int k : new int[] {2, -3, 9}) {
      CubedArray kept =
          k > 0
              ? Xp.getItem(x, Index.slice(null, (long) T - k), Index.all())
              : Xp.getItem(x, Index.slice((long) -k, null), Index.all());
      long[][] widths = {k > 0 ? new long[] {k, 0} : new long[] {0, -k}, {0, 0}};
      CubedArray s = Xp.pad(kept, widths, "constant", Double.NaN);
      onlyTheOutputStored(s, 8L * T * X);
      assertThat(s.node().chunkGrid()).isEqualTo(x.node().chunkGrid());
      NDArray r = s.compute();
      double[] v = values();
      for (int t = 0; t < T; t++) {
        for (int j = 0; j < X; j++) {
          int from = t - k;
          double want = from >= 0 && from < T ? v[from * X + j] : Double.NaN;
          assertSame(r.getDouble(t * X + j), want, "shift " + k + " at " + t + "," + j);
        }
      }
    }
  }
}
