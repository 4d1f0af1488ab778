package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.CountingStore;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fold groups ({@link MultiOutput#findFolds}): the first tree rounds of the three means of
 * quadratic_means over stored U and V become one op that reads each U and V chunk once, writes what
 * the ungrouped plan writes, and gives the kernel's results. Seeded shapes with partial edge chunks
 * on every axis.
 */
class FoldGroupTest {
  @TempDir Path dir;

  private PlanConfig cfg(long allowed) {
    return PlanConfig.builder(dir).memory(allowed, 1000).copies(1, 1).build();
  }

  private static ZarrArray stored(
      Store store, String name, long[] shape, long[] chunks, long seed) {
    ZarrArray z =
        ZarrArray.create(store, name).shape(shape).chunks(chunks).dtype(DType.FLOAT64).build();
    Random r = new Random(seed);
    NDArray all = NDArray.zeros(DType.FLOAT64, shape);
    for (int k = 0; k < all.size(); k++) {
      all.setDouble(k, r.nextDouble());
    }
    z.write(new long[shape.length], all);
    return z;
  }

  private static ArrayNode meanOfProduct(ArrayNode a, ArrayNode b, int splitEvery) {
    ArrayNode prod =
        Core.elemwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, a, b);
    return Reductions.reduce(prod, Reductions.Op.MEAN, new int[] {0}, false, splitEvery, 0);
  }

  private static PlanSummary.OpInfo groupOp(Plan p) {
    return p.summary().ops().stream()
        .filter(o -> o.name().contains("+"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no multi-output op: " + p.summary().ops()));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void threeMeansFoldTheirFirstRoundsReadingEachChunkOnce(int seed) throws Exception {
    Random r = new Random(seed);
    int tc = 2 + r.nextInt(2);
    int t = tc * (10 + r.nextInt(4)) + 1 + r.nextInt(tc - 1); // a partial last time chunk
    int y = 5 + r.nextInt(3);
    int x = 6 + r.nextInt(3);
    long[] shape = {t, 1, y, x};
    long[] chunks = {tc, 1, 3, 4}; // partial edge chunks along y and x too
    int split = 3;
    CountingStore store = new CountingStore();
    ZarrArray uz = stored(store, "U", shape, chunks, 10L * seed);
    ZarrArray vz = stored(store, "V", shape, chunks, 10L * seed + 1);
    ArrayNode u = new ArrayNode.Stored(uz);
    ArrayNode v = new ArrayNode.Stored(vz);
    List<ArrayNode> outs =
        List.of(meanOfProduct(u, u, split), meanOfProduct(v, v, split), meanOfProduct(u, v, split));
    Plan p = Plan.of(outs, cfg(100_000_000L));
    PlanSummary.OpInfo g = groupOp(p);
    assertTrue(g.name().startsWith("mean-partial-") && g.name().endsWith("+2"), g.name());
    assertEquals(6, g.fused().size(), "three initial rounds and three products: " + g.fused());
    assertEquals(3, g.fused().stream().filter(f -> f.startsWith("mean-initial-")).count());
    long tb = (t + tc - 1) / tc;
    long spatial = ((y + 2) / 3) * ((x + 3) / 4);
    long groupTasks = ((tb + split - 1) / split) * spatial;
    assertEquals(groupTasks, g.tasks());
    long block = (long) tc * 3 * 4 * 8;
    long state = 3 * 4 * 8L; // a mean of floats carries one float64 total per element
    // reservedMem + per member its product, state, accumulator and output + the larger of: U and
    // V chunks with one read copy (reads run one at a time), one written chunk (writes follow the
    // last step)
    assertEquals(
        1000 + 3 * (block + 3 * state) + Math.max(3 * block, state),
        g.projectedMem(),
        g.toString());
    // the members' first-round states are what it writes: one state per member and task
    long written = 3 * ((tb + split - 1) / split) * y * x * 8;
    assertEquals(written, g.bytesWritten());
    p.checkMemory();

    store.reads.clear();
    List<NDArray> got = p.execute(new ThreadsExecutor(2, 1), List.of());
    long chunksPerArray = tb * spatial;
    assertEquals(2 * chunksPerArray, store.reads.size(), "every U and V chunk read");
    assertTrue(
        store.reads.values().stream().allMatch(n -> n == 1),
        "each chunk read once: " + store.reads);

    NDArray ua = uz.read();
    NDArray va = vz.read();
    NDArray[][] pairs = {{ua, ua}, {va, va}, {ua, va}};
    for (int k = 0; k < 3; k++) {
      NDArray want = Statistics.mean(Elementwise.multiply(pairs[k][0], pairs[k][1]), Axes.of(0));
      assertEquals(want.size(), got.get(k).size());
      for (int i = 0; i < want.size(); i++) {
        assertEquals(
            want.getDouble(i),
            got.get(k).getDouble(i),
            1e-14 * Math.abs(want.getDouble(i)),
            "mean " + k + " element " + i);
      }
    }

    // an allowedMem one byte below the fold's projection: the ungrouped plan, which writes the
    // same intermediate bytes in two more ops of the same tasks each, reads every chunk twice and
    // gives the same results
    Plan q = Plan.of(outs, cfg(g.projectedMem() - 1));
    assertFalse(
        q.summary().ops().stream().anyMatch(o -> o.name().contains("+")),
        q.summary().ops().toString());
    assertEquals(p.summary().intermediateBytesWritten(), q.summary().intermediateBytesWritten());
    assertEquals(p.summary().totalTasks() + 2 * groupTasks, q.summary().totalTasks());
    assertEquals(p.summary().ops().size() + 2, q.summary().ops().size());
    store.reads.clear();
    List<NDArray> again = q.execute(new ThreadsExecutor(2, 1), List.of());
    assertEquals(2 * chunksPerArray, store.reads.size());
    assertTrue(
        store.reads.values().stream().allMatch(n -> n == 2),
        "ungrouped: each chunk read by two of the three means: " + store.reads);
    for (int k = 0; k < 3; k++) {
      assertEquals(got.get(k), again.get(k), "fold and plain rounds combine in the same order");
    }
  }

  @Test
  void reductionsStreamingOtherBlocksAreNotFolded() {
    // splitEvery 3 and 4 stream different time blocks per task: no fold group
    long[] shape = {40, 1, 4, 5};
    long[] chunks = {2, 1, 4, 5};
    ArrayNode u = new ArrayNode.Stored(stored(new MemoryStore(), "U", shape, chunks, 7));
    ArrayNode v = new ArrayNode.Stored(stored(new MemoryStore(), "V", shape, chunks, 8));
    Plan p = Plan.of(List.of(meanOfProduct(u, u, 3), meanOfProduct(u, v, 4)), cfg(100_000_000L));
    assertFalse(
        p.summary().ops().stream().anyMatch(o -> o.name().contains("+")),
        p.summary().ops().toString());
    // the same split: folded
    Plan q = Plan.of(List.of(meanOfProduct(u, u, 3), meanOfProduct(u, v, 3)), cfg(100_000_000L));
    assertTrue(groupOp(q).name().endsWith("+1"), q.summary().ops().toString());
  }

  @Test
  void streamFoldApplyEqualsStartThenAdd() throws Exception {
    StreamFold sum =
        new StreamFold() {
          @Override
          public NDArray start(NDArray first) {
            return first.copy();
          }

          @Override
          public void add(NDArray acc, NDArray next) {
            for (int i = 0; i < acc.size(); i++) {
              acc.setDouble(i, acc.getDouble(i) + next.getDouble(i));
            }
          }
        };
    NDArray a = NDArray.zeros(DType.FLOAT64, new long[] {3});
    NDArray b = NDArray.zeros(DType.FLOAT64, new long[] {3});
    for (int i = 0; i < 3; i++) {
      a.setDouble(i, i);
      b.setDouble(i, 10 * i);
    }
    NDArray out = sum.apply(List.of(List.of(a, b).iterator()), new long[] {0});
    assertEquals(22.0, out.getDouble(2));
    assertEquals(2.0, a.getDouble(2), "the first block is not modified");
  }

  /** A mean over time of a product the plan knows is pointwise (so it is tiled). */
  private static ArrayNode meanOfPointwiseProduct(ArrayNode a, ArrayNode b) {
    ArrayNode prod =
        Core.pointwise("multiply", bl -> Elementwise.multiply(bl[0], bl[1]), DType.FLOAT64, a, b);
    return Reductions.reduce(prod, Reductions.Op.MEAN, new int[] {0}, false, 3, 0);
  }

  /**
   * Chunks large enough that reading a few codec blocks at a time holds less than a chunk: the
   * tiled fold reads U and V by regions from their files (the projection counts the decoded blocks
   * a reader keeps, not the chunks), and its results are bit-identical to the same tiled fold over
   * whole chunks (the same arrays in memory, which cannot be read by regions).
   */
  @Test
  void tiledFoldReadsLargeChunksByRegionsWithTheSameResults() throws Exception {
    // 11 time blocks (more than a fused task reads: the tree's first round is a fold group) of
    // 3 MiB chunks: 12 codec blocks each
    long[] shape = {44, 1, 96, 1024};
    long[] chunks = {4, 1, 96, 1024};
    FileSystemStore fs = new FileSystemStore(dir.resolve("files"));
    MemoryStore mem = new MemoryStore();
    ZarrArray uf = stored(fs, "U", shape, chunks, 7);
    ZarrArray vf = stored(fs, "V", shape, chunks, 8);
    ZarrArray um = stored(mem, "U", shape, chunks, 7);
    ZarrArray vm = stored(mem, "V", shape, chunks, 8);
    {
      List<List<NDArray>> results = new ArrayList<>();
      long[] proj = new long[2];
      int i = 0;
      for (ZarrArray[] uv : new ZarrArray[][] {{uf, vf}, {um, vm}}) {
        ArrayNode u = new ArrayNode.Stored(uv[0]);
        ArrayNode v = new ArrayNode.Stored(uv[1]);
        List<ArrayNode> outs =
            List.of(
                meanOfPointwiseProduct(u, u),
                meanOfPointwiseProduct(v, v),
                meanOfPointwiseProduct(u, v));
        Plan p = Plan.of(outs, cfg(1L << 30).toBuilder().tileBytes(8192).build());
        proj[i++] = groupOp(p).projectedMem();
        results.add(p.execute(new ThreadsExecutor(2, 1), List.of()));
      }
      for (int k = 0; k < 3; k++) {
        assertEquals(results.get(1).get(k), results.get(0).get(k), "mean " + k);
      }
      long chunk = 4L * 96 * 1024 * 8;
      // whole chunks: U and V with a read copy; by regions: (cache + 1) blocks of 256 KiB each,
      // the cache two blocks per row of a (4, 1, 1, 256) tile and two more
      long region = (2 * 4 + 2 + 1) * (256L << 10);
      assertEquals(
          2 * chunk + chunk - 2 * region,
          proj[1] - proj[0],
          "projections " + proj[0] + " (regions) and " + proj[1] + " (whole)");
    }
  }
}
