package dev.cubed;

import static dev.cubed.testing.NDAssert.assertClose;
import static dev.cubed.testing.NDAssert.assertExact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Irregular chunk grids: produced by concat, step-1 slicing and explicit rechunks; consumed by
 * every op.
 */
class IrregularChunksTest {
  @TempDir Path dir;

  private Spec spec(long allowed, boolean fusion) {
    Spec.Builder b = EngineTestSupport.tinySpec(dir, allowed).toBuilder();
    return fusion ? b.build() : b.maxInputBlocks(0).build();
  }

  @Test
  void concatJoinsBlocksWithoutMovingData() {
    Spec s = spec(50_000, true);
    NDArray a = EngineTestSupport.randomDoubles(1, 10, 6);
    NDArray b = EngineTestSupport.randomDoubles(2, 10, 6);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, s);
    CubedArray y = Cubed.fromArray(b, new long[] {4, 3}, s);
    CubedArray c = Xp.concat(List.of(x, y), 0);
    assertThat(c.chunks()).isDeepEqualTo(new long[][] {{4, 4, 2, 4, 4, 2}, {3, 3}});
    assertThat(c.hasRegularChunks()).isFalse();
    assertThat(c.chunkShape()).containsExactly(4, 3);
    // each task reads exactly one block of one input
    ArrayNode.Computed n = (ArrayNode.Computed) c.node();
    for (long[] k : new long[][] {{0, 0}, {2, 1}, {3, 0}, {5, 1}}) {
      List<BlockKeys> keys = n.op().keys().keys(k);
      assertThat(keys.stream().mapToInt(BlockKeys::count).sum()).isEqualTo(1);
    }
    assertExact(Manipulation.concat(new NDArray[] {a, b}, 0), c.compute(), "concat");
  }

  @Test
  void sliceKeepsTheInputBlocks() {
    Spec s = spec(50_000, true);
    NDArray a = EngineTestSupport.randomDoubles(3, 20, 7);
    // a computed input (a slice of an in-memory one is a window of it: InMemoryWindowTest)
    CubedArray x = Xp.add(Cubed.fromArray(a, new long[] {5, 7}, s), 0.0);
    CubedArray v = Xp.getItem(x, new Index.Slice(3L, 17L, 1L), new Index.Slice(1L, null, 1L));
    assertThat(v.chunks()).isDeepEqualTo(new long[][] {{2, 5, 5, 2}, {6}});
    ArrayNode.Computed n = (ArrayNode.Computed) v.node();
    assertThat(n.op().keys().keys(new long[] {2, 0}).get(0).count()).isEqualTo(1);
    assertExact(a.getRegion(new long[] {3, 1}, new long[] {14, 6}), v.compute(), "slice");
    // an integer index and a step keep working on an irregular input
    CubedArray row = Xp.getItem(v, new Index.At(4), new Index.Slice(null, null, 2L));
    assertExact(stepped(a, 7, 1, 2), row.compute(), "row");
  }

  private static NDArray stepped(NDArray a, int row, int from, int step) {
    int n = (int) ((a.shape(1) - from + step - 1) / step);
    NDArray r = NDArray.zeros(DType.FLOAT64, n);
    for (int j = 0; j < n; j++) {
      r.setDouble(j, a.getDouble(row * (int) a.shape(1) + from + j * step));
    }
    return r;
  }

  @ParameterizedTest(name = "fusion={0}")
  @ValueSource(booleans = {true, false})
  void everyOpWorksOnIrregularInputsWithTinyMemory(boolean fusion) {
    // ~12 kB allowed: reductions take several rounds, stored intermediates are irregular
    Spec s = spec(14_000, fusion);
    NDArray a = EngineTestSupport.randomDoubles(4, 13, 9);
    NDArray b = EngineTestSupport.randomDoubles(5, 9, 5);
    CubedArray x = Cubed.fromArray(a, new long[][] {{2, 5, 1, 4, 1}, {4, 1, 4}}, s);
    assertThat(x.hasRegularChunks()).isFalse();
    CubedArray y = Cubed.fromArray(a, new long[] {3, 3}, s);
    // elementwise between different grids (aligned by regridding) and with itself
    assertExact(Elementwise.add(a, a), Xp.add(x, y).compute(), "add");
    assertExact(Elementwise.multiply(a, a), Xp.multiply(x, x).compute(), "x*x");
    // reductions over each axis and all, multi-round
    assertClose(Statistics.sum(a, Axes.of(0)), Xp.sum(x, 0).compute(), 1e-12, 4, "sum0");
    assertClose(Statistics.mean(a, Axes.of(1)), Xp.mean(x, 1).compute(), 1e-12, 4, "mean1");
    assertClose(Statistics.sum(a), Xp.sum(x).compute(), 1e-12, 4, "sum");
    assertExact(Searching.argmax(a, Axes.of(1)), Xp.argmax(x, 1).compute(), "argmax");
    assertClose(
        Statistics.cumulativeSum(a, 0, Statistics.Initial.EXCLUDE),
        Xp.cumulativeSum(x, 0).compute(),
        1e-12,
        4,
        "cumsum");
    // manipulation
    assertExact(a.permuteDims(1, 0), Xp.permuteDims(x, 1, 0).compute(), "permute");
    assertThat(Xp.permuteDims(x, 1, 0).chunks())
        .isDeepEqualTo(new long[][] {{4, 1, 4}, {2, 5, 1, 4, 1}});
    assertExact(a.reshape(9, 13), Xp.reshape(x, 9, 13).compute(), "reshape");
    assertExact(
        Manipulation.stack(new NDArray[] {a, a}, 0), Xp.stack(List.of(x, y), 0).compute(), "stack");
    // contraction
    CubedArray m = Cubed.fromArray(b, new long[] {3, 5}, s);
    assertClose(Linalg.matmul(a, b), Xp.matmul(x, m).compute(), 1e-12, 4, "matmul");
  }

  @Test
  void toZarrOfAnIrregularArrayWritesRegularChunks() throws Exception {
    Spec s = spec(50_000, true);
    NDArray a = EngineTestSupport.randomDoubles(6, 10, 4);
    NDArray b = EngineTestSupport.randomDoubles(7, 3, 4);
    CubedArray c =
        Xp.concat(
            List.of(
                Cubed.fromArray(a, new long[] {4, 4}, s), Cubed.fromArray(b, new long[] {4, 4}, s)),
            0);
    assertThat(c.chunks()).isDeepEqualTo(new long[][] {{4, 4, 2, 3}, {4}});
    ZarrArray z = Cubed.toZarr(c, new FileSystemStore(dir.resolve("out.zarr")), "");
    assertThat(z.chunks()).containsExactly(4, 4);
    assertExact(
        Manipulation.concat(new NDArray[] {a, b}, 0),
        ZarrArray.open(new FileSystemStore(dir.resolve("out.zarr")), "").read(),
        "toZarr");
  }

  @Test
  void rechunkToExplicitBlockSizes() {
    Spec s = spec(50_000, true);
    NDArray a = EngineTestSupport.randomDoubles(8, 12, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {5, 5}, s);
    CubedArray r = x.rechunk(new long[][] {{1, 7, 4}, {2, 3}});
    assertThat(r.chunks()).isDeepEqualTo(new long[][] {{1, 7, 4}, {2, 3}});
    assertExact(a, r.compute(), "explicit");
    // regular lists go through the multistage rechunk and report regular chunks
    CubedArray q = x.rechunk(new long[][] {{4, 4, 4}, {5}});
    assertThat(q.hasRegularChunks()).isTrue();
    assertThat(q.chunkShape()).containsExactly(4, 5);
    assertExact(a, q.compute(), "regular lists");
    // back to regular from irregular
    assertExact(a, r.rechunk(6, 2).compute(), "back to regular");
    assertThat(r.rechunk(6, 2).chunks()).isDeepEqualTo(new long[][] {{6, 6}, {2, 2, 1}});
  }

  @Test
  void explicitBlocksFromSmallChunksGoThroughARegularStageFirst() {
    Spec s = spec(6_000, true);
    NDArray a = EngineTestSupport.randomDoubles(10, 40, 3);
    CubedArray x = Cubed.fromArray(a, new long[] {1, 3}, s); // 40 row blocks of 24 bytes
    long[][] blocks = {{20, 15, 5}, {3}};
    CubedArray r = x.rechunk(blocks);
    assertThat(r.chunks()).isDeepEqualTo(blocks);
    // a direct step would hold 20 input blocks per task; instead the rows are first joined into
    // regular (20, 3) chunks (whole blocks, read one at a time), after which each target block
    // overlaps at most 2 of them
    assertThat(r.plan().ops()).anyMatch(o -> o.name().startsWith(Plan.JOIN_OP + "-"));
    // from chunks that are already large, the direct step is used
    CubedArray big = Cubed.fromArray(a, new long[] {20, 3}, s).rechunk(blocks);
    assertThat(big.plan().ops()).noneMatch(o -> o.kind().equals("rechunk"));
    assertExact(a, big.compute(), "direct");
    assertExact(a, r.compute(), "via a regular stage");
  }

  @Test
  void storedIrregularIntermediatesRoundTrip() {
    // fusion off: the slice and the concat are stored (padded layout) and read back
    Spec s = spec(50_000, false);
    NDArray a = EngineTestSupport.randomDoubles(9, 17, 6);
    CubedArray x = Cubed.fromArray(a, new long[] {5, 4}, s);
    CubedArray v = Xp.getItem(x, new Index.Slice(2L, 16L, 1L), new Index.Slice(1L, 6L, 1L));
    CubedArray w =
        Xp.add(
            Xp.concat(List.of(v, v), 0),
            Cubed.fromArray(NDArray.full(DType.FLOAT64, 1.0, 28, 5), new long[] {28, 5}, s));
    PlanSummary p = w.plan();
    assertThat(p.ops()).hasSizeGreaterThanOrEqualTo(2);
    NDArray sl = a.getRegion(new long[] {2, 1}, new long[] {14, 5});
    assertExact(
        Elementwise.add(
            Manipulation.concat(new NDArray[] {sl, sl}, 0),
            NDArray.full(DType.FLOAT64, 1.0, 28, 5)),
        w.compute(),
        "stored irregular");
  }

  @Test
  void badBlockListsAreRejectedClearly() {
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {10, 4}, new long[][] {{4, 4}, {4}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("axis 0")
        .hasMessageContaining("add up to 8")
        .hasMessageContaining("length 10");
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {3}, new long[][] {{3, 0}}))
        .hasMessageContaining("block sizes must be >= 1");
    assertThatThrownBy(() -> ChunkGrid.of(new long[] {3, 3}, new long[][] {{3}}))
        .hasMessageContaining("one list per axis");
    assertThat(ChunkGrid.of(new long[] {10}, new long[][] {{4, 4, 2}}).isRegular()).isTrue();
    assertThat(ChunkGrid.of(new long[] {10}, new long[][] {{2, 4, 4}}).toString())
        .isEqualTo("((2, 4, 4),)");
  }
}
