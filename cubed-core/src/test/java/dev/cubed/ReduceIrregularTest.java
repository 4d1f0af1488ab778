package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reductions of arrays with irregular blocks (a concat's): no rechunk when the blocks are regular
 * along every axis the reduction keeps; a rechunk to the regular grid otherwise and for arg
 * reductions. Values against the in-memory array.
 */
class ReduceIrregularTest {
  @TempDir Path dir;

  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("100MB").reservedMem(1000).build();
  }

  /**
   * concat of a (25, 30) and a (25, 30) array of chunks 10: blocks (10,10,5,10,10,5) x (10,10,10).
   */
  CubedArray concat(double[] all) {
    for (int i = 0; i < all.length; i++) {
      all[i] = (i * 37 % 101) - 50.5;
    }
    NDArray whole = NDArray.of(all, 50, 30);
    CubedArray a =
        Cubed.fromArray(
            whole.getRegion(new long[] {0, 0}, new long[] {25, 30}), new long[] {10, 10}, spec());
    CubedArray b =
        Cubed.fromArray(
            whole.getRegion(new long[] {25, 0}, new long[] {25, 30}), new long[] {10, 10}, spec());
    return Xp.concat(List.of(a, b), 0);
  }

  static boolean rechunks(PlanSummary s) {
    return s.ops().stream()
        .anyMatch(
            o ->
                o.name().startsWith("rechunk")
                    || o.fused().stream().anyMatch(f -> f.startsWith("rechunk")));
  }

  @Test
  void reducingTheIrregularAxisNeedsNoRechunk() {
    double[] all = new double[50 * 30];
    CubedArray c = concat(all);
    assertThat(c.hasRegularChunks()).isFalse();
    CubedArray total = Xp.sum(c);
    CubedArray cols = Xp.sum(c, 0);
    assertThat(rechunks(total.plan())).isFalse();
    assertThat(rechunks(cols.plan())).isFalse();
    double want = 0;
    double[] wantCols = new double[30];
    for (int i = 0; i < all.length; i++) {
      want += all[i];
      wantCols[i % 30] += all[i];
    }
    assertThat(total.compute().getDouble(0)).isCloseTo(want, Offset.offset(1e-9));
    NDArray got = cols.compute();
    for (int j = 0; j < 30; j++) {
      assertThat(got.getDouble(j)).isCloseTo(wantCols[j], Offset.offset(1e-9));
    }
  }

  @Test
  void keepingTheIrregularAxisOrArgRechunks() {
    double[] all = new double[50 * 30];
    CubedArray c = concat(all);
    CubedArray rows = Xp.sum(c, 1);
    assertThat(rechunks(rows.plan())).isTrue();
    assertThat(rechunks(Xp.argmax(c, 0).plan())).isTrue();
    NDArray got = rows.compute();
    for (int i = 0; i < 50; i++) {
      double w = 0;
      for (int j = 0; j < 30; j++) {
        w += all[i * 30 + j];
      }
      assertThat(got.getDouble(i)).isCloseTo(w, Offset.offset(1e-9));
    }
  }
}
