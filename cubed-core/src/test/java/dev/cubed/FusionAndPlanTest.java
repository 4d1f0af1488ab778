package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FusionAndPlanTest {
  @TempDir Path dir;

  private ZarrArray stored(MemoryStore store, String name, NDArray a, long... chunks) {
    ZarrArray z =
        ZarrArray.create(store, name).shape(a.shape()).chunks(chunks).dtype(a.dtype()).build();
    z.write(new long[a.ndim()], a);
    return z;
  }

  @Test
  void multipleInputFusionReadsSourcesDirectly() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomDoubles(1, 20, 6);
    NDArray b = EngineTestSupport.randomDoubles(2, 20, 6);
    CubedArray u = Cubed.fromZarr(stored(store, "u", a, 4, 6), spec);
    CubedArray v = Cubed.fromZarr(stored(store, "v", b, 4, 6), spec);
    CubedArray m = Xp.mean(Xp.multiply(u, v), 0);
    PlanSummary p = m.plan();
    assertThat(p.ops().get(0).fused())
        .anyMatch(n -> n.startsWith("multiply"))
        .anyMatch(n -> n.startsWith("mean-initial"));
    assertThat(p.ops()).hasSizeLessThanOrEqualTo(2);
    NDArray got = m.compute();
    for (int j = 0; j < 6; j++) {
      double s = 0;
      for (int i = 0; i < 20; i++) {
        s += a.getDouble(i * 6 + j) * b.getDouble(i * 6 + j);
      }
      assertThat(got.getDouble(j)).isCloseTo(s / 20, Offset.offset(1e-12));
    }
  }

  /**
   * A join of whole blocks fuses cheap work (pointwise arithmetic) whatever the blocks it reads,
   * but stores other per-block work first, so that work stays one parallel task per block instead
   * of running block after block in the join's single task.
   */
  @Test
  void joinFusesCheapUpstreamAndKeepsOtherWorkParallel() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(7, 16, 16);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    PlanSummary cheap = Xp.add(x, 1.0).rechunk(16, 16).plan();
    assertThat(cheap.ops()).hasSize(1);
    assertThat(cheap.ops().get(0).tasks()).isEqualTo(1);
    assertThat(cheap.ops().get(0).fused()).anyMatch(n -> n.startsWith("add"));
    // a block function the plan knows nothing about (not pointwise): 16 tasks, then the join
    CubedArray heavy = Xp.mapBlocks(b -> Elementwise.add(b[0], b[0]), DType.FLOAT64, x);
    PlanSummary p = heavy.rechunk(16, 16).plan();
    assertThat(p.ops()).hasSize(2);
    assertThat(p.ops().get(0).tasks()).isEqualTo(16);
    assertThat(p.ops().get(1).fused()).isEmpty();
    NDArray got = heavy.rechunk(16, 16).compute();
    NDAssert.assertExact(Elementwise.add(a, a), got, "join of mapBlocks");
  }

  @Test
  void sharedCheapInputIsRecomputedNotStored() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(3, 12, 12);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    CubedArray sq = Xp.multiply(x, x);
    List<NDArray> r = Cubed.compute(Xp.sum(sq), Xp.max(sq));
    PlanSummary p = Cubed.plan(List.of(Xp.sum(sq), Xp.max(sq))).summary();
    assertThat(p.ops()).noneMatch(o -> o.name().startsWith("multiply"));
    assertThat(p.ops())
        .filteredOn(o -> !o.fused().isEmpty())
        .anyMatch(o -> o.fused().stream().anyMatch(f -> f.startsWith("multiply")));
    double s = 0;
    double mx = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < a.size(); i++) {
      double v = a.getDouble(i) * a.getDouble(i);
      s += v;
      mx = Math.max(mx, v);
    }
    assertThat(r.get(0).getDouble(0)).isCloseTo(s, Offset.offset(1e-9));
    assertThat(r.get(1).getDouble(0)).isEqualTo(mx);
  }

  @Test
  void rechunkThatCannotFitIsRefusedNamingTheOp() {
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomDoubles(4, 100, 100);
    Spec spec = EngineTestSupport.tinySpec(dir, 50_000);
    CubedArray x = Cubed.fromZarr(stored(store, "big", a, 100, 100), spec);
    CubedArray r = Xp.rechunk(x, 10, 10);
    assertThatThrownBy(r::compute)
        .isInstanceOf(MemoryBudgetExceededException.class)
        .hasMessageContaining("rechunk")
        .hasMessageContaining("50000 B")
        .satisfies(
            e ->
                assertThat(((MemoryBudgetExceededException) e).projectedMem())
                    .isGreaterThan(50_000));
  }

  @Test
  void storeWritesToUserTargetAndKeepsIntermediatesOut() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomInts(5, DType.INT32, 9, 7);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, spec);
    ZarrArray z = Cubed.toZarr(Xp.add(x, x), store, "out");
    NDArray want = Elementwise.add(a, a);
    NDAssert.assertExact(want, z.read(), "toZarr");
    CubedArray back = Cubed.fromZarr(z, spec);
    assertThat(back.chunkShape()).containsExactly(4, 3);
    assertThat(back.chunks()[0]).containsExactly(4, 4, 1);
    assertThat(back.numBlocks()).containsExactly(3, 3);
  }

  @Test
  void userBlockwiseWithStreamedKeysSumsRowsOfBlocks() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(6, 6, 8);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec);
    // output block i = elementwise sum of the 4 blocks of block-row i (read one at a time)
    Blockwise op =
        new Blockwise(
            "row_sum",
            c ->
                List.of(
                    BlockKeys.stream(
                        List.of(
                            new long[] {c[0], 0},
                            new long[] {c[0], 1},
                            new long[] {c[0], 2},
                            new long[] {c[0], 3}))),
            (args, c) -> {
              @SuppressWarnings("unchecked")
              Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
              NDArray acc = it.next().copy();
              while (it.hasNext()) {
                acc = Elementwise.add(acc, it.next());
              }
              return acc;
            },
            new int[] {1},
            new int[] {4},
            0);
    NDArray got =
        Xp.blockwise(op, new long[] {6, 2}, new long[] {3, 2}, DType.FLOAT64, x).compute();
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 2; j++) {
        double s = 0;
        for (int b = 0; b < 4; b++) {
          s += a.getDouble(i * 8 + b * 2 + j);
        }
        assertThat(got.getDouble(i * 2 + j)).isCloseTo(s, Offset.offset(1e-12));
      }
    }
  }

  @Test
  void sharedTreeResultIsStored() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(3, 12, 12);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    CubedArray m = Xp.matmul(x, x);
    PlanSummary p = Cubed.plan(List.of(Xp.sum(m), Xp.max(m))).summary();
    assertThat(p.ops()).anyMatch(o -> o.name().startsWith("matmul"));
  }

  /**
   * The reduce workload of docs/benchmarks.md at a tenth of its small size: mean over axis 0 and
   * argmax over axis 1 of a generated A in one compute. A generated elementwise from virtual arrays
   * is no longer stored (it was: 8 * 350 * 350 B); only the small partial states are.
   */
  @Test
  void reduceWorkloadSharesTheGeneratedInput() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    long n = 350;
    CubedArray r = Cubed.random(new long[] {n, n}, new long[] {70, 70}, 42, spec);
    CubedArray a = Xp.add(Xp.multiply(r, r), r);
    CubedArray mean = Xp.mean(a, 0);
    CubedArray am = Xp.argmax(a, 1);
    PlanSummary p = Cubed.plan(List.of(mean, am)).summary();
    assertThat(p.intermediateBytesWritten()).isLessThan(8 * n * n / 10);
    List<NDArray> got = Cubed.compute(mean, am);
    NDArray av = a.compute();
    for (int j = 0; j < n; j += 37) {
      double s = 0;
      for (int i = 0; i < n; i++) {
        s += av.getDouble((int) (i * n + j));
      }
      assertThat(got.get(0).getDouble(j)).isCloseTo(s / n, Offset.offset(1e-12));
      int best = 0;
      for (int i = 1; i < n; i++) {
        if (av.getDouble((int) (j * n + i)) > av.getDouble((int) (j * n + best))) {
          best = i;
        }
      }
      assertThat(got.get(1).getLong(j)).isEqualTo(best);
    }
  }

  @Test
  void nestedSharingDoesNotCompoundRecomputation() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(5, 8, 8);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    // x1 = x*x is shared by two consumers; y = x1 + (x1 + x1) is shared again: y's chain holds the
    // multi-consumer x1, so y is stored rather than recomputed (no nesting of recomputation)
    CubedArray x1 = Xp.multiply(x, x);
    CubedArray y = Xp.add(x1, Xp.add(x1, x1));
    PlanSummary p = Cubed.plan(List.of(Xp.sum(y), Xp.max(y))).summary();
    assertThat(p.ops()).anyMatch(o -> o.name().startsWith("add"));
    List<NDArray> r = Cubed.compute(Xp.sum(y), Xp.max(y));
    double s = 0;
    double mx = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < a.size(); i++) {
      double v = 3 * a.getDouble(i) * a.getDouble(i);
      s += v;
      mx = Math.max(mx, v);
    }
    assertThat(r.get(0).getDouble(0)).isCloseTo(s, Offset.offset(1e-9));
    assertThat(r.get(1).getDouble(0)).isCloseTo(mx, Offset.offset(1e-12));
  }
}
