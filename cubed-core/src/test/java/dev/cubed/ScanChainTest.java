package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scans planned as chains (one task per row of blocks walks the axis, reading the input once)
 * beside the tree scan: the plan figures, the choice between them, and results equal to a
 * sequential loop in NumPy's order.
 */
class ScanChainTest {
  @TempDir Path dir;

  private Spec spec(String allowed, int workers, int chainMax) {
    return Spec.builder()
        .workDir(dir)
        .allowedMem(allowed)
        .workers(workers)
        .scanChainMaxBlocks(chainMax)
        .build();
  }

  private static ZarrArray stored(long[] shape, long[] chunks) {
    return ZarrArray.create(new MemoryStore(), "r")
        .shape(shape)
        .chunks(chunks)
        .dtype(DType.FLOAT64)
        .build();
  }

  /** The workload of the user-path table: R (500, 600, 600) float64, one time step per chunk. */
  @Test
  void cumulativeSumOverOneStepBlocksReadsTheInputOnce() {
    long[] shape = {500, 600, 600};
    long input = 500L * 600 * 600 * 8;
    CubedArray r = Cubed.fromZarr(stored(shape, new long[] {1, 600, 600}), spec("500MB", 2, 0));
    PlanSummary s = Xp.cumulativeSum(r, 0).plan();
    assertThat(s.ops()).hasSizeLessThanOrEqualTo(3);
    assertThat(s.totalBytesRead()).isLessThanOrEqualTo(input + input / 10);
    assertThat(s.totalBytesRead()).isEqualTo(input);
    assertThat(s.totalBytesWritten()).isEqualTo(input);
    assertThat(s.intermediateBytesWritten()).isZero();
    // one row: one task walks the 500 blocks on two lanes (the two workers), so two threads read,
    // decode, encode and write its blocks at once while the carry advances in order
    PlanSummary.OpInfo op = s.ops().get(0);
    assertThat(op.tasks()).isEqualTo(1);
    assertThat(op.taskThreads()).isEqualTo(2);
    assertThat(op.tasks() * op.taskThreads()).isGreaterThanOrEqualTo(2);
    // it holds three blocks' inputs (the one it scans and two read ahead, each with its read
    // copy), three output blocks (the one it scans and two being written, each with its write
    // copy) and two carries
    long block = 600L * 600 * 8;
    assertThat(s.maxProjectedMem())
        .isEqualTo(100_000_000L + 3 * 2 * block + 3 * 2 * block + 2 * block);
    assertThat(s.maxProjectedMem()).isLessThanOrEqualTo(500_000_000L);

    // written to Zarr: the chain's task writes the target itself (no copy op)
    CubedArray w = Cubed.toZarrLazy(Xp.cumulativeSum(r, 0), new MemoryStore(), "out");
    PlanSummary ws = w.plan();
    assertThat(ws.ops()).hasSize(1);
    assertThat(ws.ops().get(0).taskThreads()).isEqualTo(2);
    assertThat(ws.totalBytesRead()).isEqualTo(input);
    assertThat(ws.intermediateBytesWritten()).isZero();
  }

  @Test
  void lanesFollowTheWorkersPerRunningRowAndShrinkToFitAllowedMem() {
    long[] shape = {40, 600, 600};
    long block = 600L * 600 * 8;
    // one row on 4 workers: 4 lanes (5 inputs and 5 outputs with their copies, 2 carries)
    CubedArray four = Cubed.fromZarr(stored(shape, new long[] {1, 600, 600}), spec("500MB", 4, 0));
    PlanSummary.OpInfo op = Xp.cumulativeSum(four, 0).plan().ops().get(0);
    assertThat(op.taskThreads()).isEqualTo(4);
    assertThat(op.projectedMem())
        .isEqualTo(100_000_000L + 5 * 2 * block + 5 * 2 * block + 2 * block);
    // two rows on 4 workers: both run at once, 2 lanes each
    CubedArray rows = Cubed.fromZarr(stored(shape, new long[] {1, 300, 600}), spec("500MB", 4, 0));
    op = Xp.cumulativeSum(rows, 0).plan().ops().get(0);
    assertThat(op.tasks()).isEqualTo(2);
    assertThat(op.taskThreads()).isEqualTo(2);
    // as many rows as workers: one lane each
    CubedArray many = Cubed.fromZarr(stored(shape, new long[] {1, 150, 600}), spec("500MB", 4, 0));
    op = Xp.cumulativeSum(many, 0).plan().ops().get(0);
    assertThat(op.tasks()).isEqualTo(4);
    assertThat(op.taskThreads()).isEqualTo(1);
    // 4 lanes would need 100 MB + 22 blocks (163 MB); at 155 MB three fit (100 MB + 18 blocks)
    CubedArray tight = Cubed.fromZarr(stored(shape, new long[] {1, 600, 600}), spec("155MB", 4, 0));
    op = Xp.cumulativeSum(tight, 0).plan().ops().get(0);
    assertThat(op.taskThreads()).isEqualTo(3);
    assertThat(op.projectedMem()).isEqualTo(100_000_000L + 18 * block);
    assertThat(op.projectedMem()).isLessThanOrEqualTo(155_000_000L);
  }

  @Test
  void treeWhereTheChainWouldLeaveMostWorkersIdle() {
    long[] shape = {64, 40};
    // one row of 64 blocks on 64 workers: at most 8 lanes, so the chain limit is 4 * 8 * ceil(64
    // / 64) = 32 blocks
    CubedArray one = Cubed.fromZarr(stored(shape, new long[] {1, 40}), spec("1GB", 64, 0));
    assertThat(Xp.cumulativeSum(one, 0).plan().ops().size()).isGreaterThan(1);
    // the same row on 16 workers: 8 lanes, limit 4 * 8 * 4 = 128 blocks, the chain
    CubedArray sixteen = Cubed.fromZarr(stored(shape, new long[] {1, 40}), spec("1GB", 16, 0));
    assertThat(Xp.cumulativeSum(sixteen, 0).plan().ops()).hasSize(1);
    assertThat(Xp.cumulativeSum(sixteen, 0).plan().ops().get(0).taskThreads()).isEqualTo(8);
    // four rows on 16 workers: four lanes each, every worker busy, the chain
    CubedArray four = Cubed.fromZarr(stored(shape, new long[] {1, 10}), spec("1GB", 16, 0));
    assertThat(Xp.cumulativeSum(four, 0).plan().ops()).hasSize(1);
    assertThat(Xp.cumulativeSum(four, 0).plan().ops().get(0).tasks()).isEqualTo(4);
    assertThat(Xp.cumulativeSum(four, 0).plan().ops().get(0).taskThreads()).isEqualTo(4);
    // the setting overrides the automatic limit both ways
    CubedArray forced = Cubed.fromZarr(stored(shape, new long[] {1, 40}), spec("1GB", 16, 64));
    assertThat(Xp.cumulativeSum(forced, 0).plan().ops()).hasSize(1);
    CubedArray tree = Cubed.fromZarr(stored(shape, new long[] {1, 10}), spec("1GB", 2, 63));
    assertThat(Xp.cumulativeSum(tree, 0).plan().ops().size()).isGreaterThan(1);
  }

  @Test
  void treeWhereAChainTaskWouldNotFitAllowedMem() {
    // blocks of 8 MB: a chain task needs 100 MB + 8 blocks and carries = 164 MB
    long[] shape = {10, 1000, 1000};
    CubedArray x = Cubed.fromZarr(stored(shape, new long[] {1, 1000, 1000}), spec("150MB", 2, 0));
    PlanSummary s = Xp.cumulativeSum(x, 0).plan();
    assertThat(s.ops().size()).isGreaterThan(1);
    CubedArray y = Cubed.fromZarr(stored(shape, new long[] {1, 1000, 1000}), spec("200MB", 2, 0));
    assertThat(Xp.cumulativeSum(y, 0).plan().ops()).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"BOOL", "INT8", "UINT8", "INT64", "UINT64", "FLOAT32", "FLOAT64", "COMPLEX128"})
  void chainEqualsASequentialLoopBitForBit(DType t) {
    NDArray a = randomOf(t, 23, 5, t.ordinal() + 40);
    Spec spec = spec("200MB", 2, 0);
    for (int axis = 0; axis < 2; axis++) {
      // uneven edge blocks along both axes, several rows
      CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec);
      for (boolean prod : new boolean[] {false, true}) {
        CubedArray c = prod ? Xp.cumulativeProd(x, axis) : Xp.cumulativeSum(x, axis);
        assertThat(c.plan().ops()).hasSize(1);
        NDArray got = c.compute();
        NDArray want = sequential(a, axis, prod, got.dtype());
        assertThat(got).as("%s axis %d prod %s", t, axis, prod).isEqualTo(want);
      }
    }
  }

  /** Random values of dtype t, shape (n0, n1): ints small enough not to overflow but int64's. */
  private static NDArray randomOf(DType t, long n0, long n1, int seed) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, n0, n1);
    for (int i = 0; i < a.size(); i++) {
      if (t.isBool()) {
        a.setBoolean(i, r.nextBoolean());
      } else if (t.isComplex()) {
        a.setComplex(i, 0.5 + r.nextDouble(), r.nextDouble() - 0.5);
      } else if (t.isFloating()) {
        a.setDouble(i, r.nextDouble() * 3 - 1);
      } else {
        // int64 sums and products wrap as NumPy's do
        a.setLong(i, t == DType.INT64 || t == DType.UINT64 ? r.nextLong() : r.nextInt(100));
      }
    }
    return a;
  }

  /**
   * The walk on several lanes, stored: one row of blocks (uneven last block) read, scanned and
   * written on the threads executor with blocks read ahead and written behind on other threads.
   */
  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"BOOL", "INT8", "UINT8", "INT64", "UINT64", "FLOAT32", "FLOAT64", "COMPLEX128"})
  void chainOnSeveralLanesWrittenToZarrEqualsASequentialLoop(DType t) throws Exception {
    NDArray a = randomOf(t, 61, 9, t.ordinal() + 70);
    for (int workers : new int[] {2, 5}) {
      for (boolean prod : new boolean[] {false, true}) {
        Spec spec = spec("200MB", workers, 0);
        CubedArray x = Cubed.fromArray(a, new long[] {4, 9}, spec);
        CubedArray c = prod ? Xp.cumulativeProd(x, 0) : Xp.cumulativeSum(x, 0);
        FileSystemStore store = new FileSystemStore(dir.resolve(t + "-" + workers + "-" + prod));
        CubedArray w = Cubed.toZarrLazy(c, store, "cs");
        PlanSummary.OpInfo op = w.plan().ops().get(0);
        assertThat(w.plan().ops()).hasSize(1);
        assertThat(op.tasks()).isEqualTo(1);
        assertThat(op.taskThreads()).isEqualTo(workers);
        Cubed.compute(w);
        NDArray got = ZarrArray.open(store, "cs").read();
        NDArray want = sequential(a, 0, prod, got.dtype());
        assertThat(got).as("%s on %d workers, prod %s", t, workers, prod).isEqualTo(want);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void nanPropagatesFromWhereItAppearsAndMatchesTheTree(boolean prod) {
    NDArray a = EngineTestSupport.randomDoubles(3, 17, 4);
    a.setDouble(5 * 4 + 1, Double.NaN);
    a.setDouble(9 * 4 + 2, Double.POSITIVE_INFINITY);
    Spec chainSpec = spec("200MB", 2, 0);
    Spec treeSpec = spec("200MB", 2, 1);
    CubedArray xc = Cubed.fromArray(a, new long[] {2, 4}, chainSpec);
    CubedArray xt = Cubed.fromArray(a, new long[] {2, 4}, treeSpec);
    CubedArray c = prod ? Xp.cumulativeProd(xc, 0) : Xp.cumulativeSum(xc, 0);
    CubedArray t = prod ? Xp.cumulativeProd(xt, 0) : Xp.cumulativeSum(xt, 0);
    assertThat(c.plan().ops()).hasSize(1);
    assertThat(t.plan().ops().size()).isGreaterThan(1);
    NDArray got = c.compute();
    NDArray tree = t.compute();
    assertThat(got).isEqualTo(sequential(a, 0, prod, DType.FLOAT64));
    for (int i = 0; i < got.size(); i++) {
      double g = got.getDouble(i);
      double w = tree.getDouble(i);
      if (Double.isNaN(w) || Double.isInfinite(w)) {
        assertThat(Double.compare(g, w)).as("element %d: %s vs %s", i, g, w).isZero();
      } else {
        assertThat(g).as("element %d", i).isCloseTo(w, Offset.offset(1e-6));
      }
    }
    assertThat(Double.isNaN(got.getDouble(5 * 4 + 1))).isTrue();
    assertThat(Double.isNaN(got.getDouble(16 * 4 + 1))).isTrue();
    assertThat(Double.isNaN(got.getDouble(4 * 4 + 1))).isFalse();
  }

  @Test
  void chainWrittenToZarrOnTheThreadsExecutorEqualsTheLoop() throws Exception {
    NDArray a = EngineTestSupport.randomDoubles(5, 30, 6, 7);
    Spec spec = spec("200MB", 2, 0);
    CubedArray x = Cubed.fromArray(a, new long[] {1, 3, 7}, spec);
    FileSystemStore store = new FileSystemStore(dir.resolve("out"));
    CubedArray w = Cubed.toZarrLazy(Xp.cumulativeSum(x, 0), store, "cs");
    assertThat(w.plan().ops()).hasSize(1);
    assertThat(w.plan().ops().get(0).tasks()).isEqualTo(2);
    Cubed.compute(w);
    NDArray got = ZarrArray.open(store, "cs").read();
    assertThat(got).isEqualTo(sequential(a, 0, false, DType.FLOAT64));
  }

  /**
   * One step per block: a block read from the store is scanned in place and is its own carry (no
   * array made per block), while a block of an array held in memory is copied first; the stored
   * input and the held array stay as they were, on one lane and on several.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5})
  void storedBlocksAreScannedInPlaceHeldOnesAreNot(int workers) throws Exception {
    NDArray a = EngineTestSupport.randomDoubles(11, 40, 6, 5);
    NDArray before = a.copy();
    long[] chunks = {1, 6, 5};
    FileSystemStore store = new FileSystemStore(dir.resolve("in-" + workers));
    ZarrArray z =
        ZarrArray.create(store, "r").shape(a.shape()).chunks(chunks).dtype(DType.FLOAT64).build();
    z.write(new long[3], a);
    NDArray want = sequential(a, 0, false, DType.FLOAT64);
    Spec spec = spec("200MB", workers, 0);
    for (boolean prod : new boolean[] {false, true}) {
      CubedArray stored = Cubed.fromZarr(ZarrArray.open(store, "r"), spec);
      CubedArray held = Cubed.fromArray(a, chunks, spec);
      for (CubedArray x : new CubedArray[] {stored, held}) {
        CubedArray c = prod ? Xp.cumulativeProd(x, 0) : Xp.cumulativeSum(x, 0);
        FileSystemStore out = new FileSystemStore(dir.resolve("out-" + workers + prod + x));
        Cubed.compute(Cubed.toZarrLazy(c, out, "cs"));
        assertThat(ZarrArray.open(out, "cs").read())
            .isEqualTo(prod ? sequential(a, 0, true, DType.FLOAT64) : want);
        assertThat(c.compute()).isEqualTo(prod ? sequential(a, 0, true, DType.FLOAT64) : want);
      }
      assertThat(a).as("the held array").isEqualTo(before);
      assertThat(ZarrArray.open(store, "r").read()).as("the stored input").isEqualTo(before);
    }
  }

  /** The inclusive scan along {@code axis} as NumPy computes it: one element after another. */
  private static NDArray sequential(NDArray a, int axis, boolean prod, DType out) {
    NDArray x = a.astype(out);
    long[] s = x.shape();
    int n = (int) s[axis];
    int inner = 1;
    for (int i = axis + 1; i < s.length; i++) {
      inner *= (int) s[i];
    }
    int outer = x.size() / (n * inner);
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        for (int j = 1; j < n; j++) {
          int p = (o * n + j - 1) * inner + i;
          int q = p + inner;
          if (out.isComplex()) {
            double pr = x.getDouble(p);
            double pi = x.getImag(p);
            double qr = x.getDouble(q);
            double qi = x.getImag(q);
            if (prod) {
              x.setComplex(q, pr * qr - pi * qi, pr * qi + pi * qr);
            } else {
              x.setComplex(q, pr + qr, pi + qi);
            }
          } else if (out.isFloating()) {
            x.setDouble(
                q, prod ? x.getDouble(p) * x.getDouble(q) : x.getDouble(p) + x.getDouble(q));
          } else {
            x.setLong(q, prod ? x.getLong(p) * x.getLong(q) : x.getLong(p) + x.getLong(q));
          }
        }
      }
    }
    return x;
  }
}
