package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import java.nio.file.Path;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Block scans, both plans: the recursive tree (many blocks along the axis, several levels) and the
 * chain; edge chunks, dtypes.
 */
class ScanBlocksTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"BOOL", "INT8", "INT64", "UINT64", "FLOAT32", "FLOAT64", "COMPLEX64", "COMPLEX128"})
  void scansMatchNaive(DType t) {
    long n0 = 37;
    long n1 = 3;
    Random r = new Random(t.ordinal());
    NDArray a = NDArray.zeros(t, n0, n1);
    for (int i = 0; i < a.size(); i++) {
      if (t.isBool()) {
        a.setBoolean(i, r.nextBoolean());
      } else if (t.isComplex()) {
        double ang = r.nextDouble() * 6;
        a.setComplex(i, 1.01 * Math.cos(ang), 0.99 * Math.sin(ang));
      } else if (t.isFloating()) {
        a.setDouble(i, 0.5 + r.nextDouble());
      } else {
        a.setLong(i, t == DType.INT64 ? (1L << 55) + r.nextInt(5) : r.nextInt(3) + 1);
      }
    }
    // chunk 2 along the axis: 19 blocks, totals of 10 then 5 then 3 then 2 blocks (4 levels)
    for (int chainMax : new int[] {1, 0}) {
      // 1: the tree (19 blocks along the axis exceed it); 0: automatic, the chain here
      Spec spec =
          Spec.builder()
              .workDir(dir)
              .allowedMem(200_000)
              .reservedMem(1000)
              .workers(2)
              .scanChainMaxBlocks(chainMax)
              .build();
      check(t, a, Cubed.fromArray(a, new long[] {2, 2}, spec), chainMax == 1);
    }
  }

  private static void check(DType t, NDArray a, CubedArray x, boolean tree) {
    long n0 = a.shape(0);
    long n1 = a.shape(1);
    for (boolean prod : new boolean[] {false, true}) {
      CubedArray c = prod ? Xp.cumulativeProd(x, 0) : Xp.cumulativeSum(x, 0);
      PlanSummary p = c.plan();
      long reads = p.totalTasks();
      assertThat(reads).isLessThan(19L * 19);
      if (tree) {
        assertThat(p.ops().size()).as("tree ops").isGreaterThan(3);
      } else {
        assertThat(p.ops()).as("chain ops").hasSize(1);
      }
      NDArray got = c.compute();
      double tol = t == DType.FLOAT32 || t == DType.COMPLEX64 ? 1e-4 : 1e-9;
      for (int j = 0; j < n1; j++) {
        double sr = prod ? 1 : 0;
        double si = 0;
        long sl = prod ? 1 : 0;
        for (int i = 0; i < n0; i++) {
          int f = (int) (i * n1 + j);
          if (t.isComplex() || t.isFloating()) {
            double xr = a.getDouble(f);
            double xi = a.getImag(f);
            if (prod) {
              double nr = sr * xr - si * xi;
              si = sr * xi + si * xr;
              sr = nr;
            } else {
              sr += xr;
              si += xi;
            }
            assertThat(got.getDouble(f)).isCloseTo(sr, Percentage.withPercentage(tol * 100));
            if (t.isComplex()) {
              assertThat(got.getImag(f))
                  .isCloseTo(si, Offset.offset(tol * Math.max(1, Math.abs(sr) + Math.abs(si))));
            }
          } else {
            long v = t.isBool() ? (a.getBoolean(f) ? 1 : 0) : a.getLong(f);
            sl = prod ? sl * v : sl + v;
            assertThat(got.getLong(f)).as("%s %s [%d,%d]", t, prod, i, j).isEqualTo(sl);
          }
        }
      }
    }
  }
}
