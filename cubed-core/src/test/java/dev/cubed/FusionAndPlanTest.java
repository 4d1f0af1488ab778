package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.PlanSummary;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.MemoryStore;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FusionAndPlanTest {
  @TempDir Path dir;

  private ZarrArray stored(MemoryStore store, String name, NDArray a, long... chunks) {
    ZarrArray z = ZarrArray.create(store, name).shape(a.shape()).chunks(chunks)
        .dtype(a.dtype()).build();
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
    assertThat(p.ops().get(0).fused()).anyMatch(n -> n.startsWith("multiply"))
        .anyMatch(n -> n.startsWith("mean-initial"));
    assertThat(p.ops()).hasSizeLessThanOrEqualTo(2);
    NDArray got = m.compute();
    for (int j = 0; j < 6; j++) {
      double s = 0;
      for (int i = 0; i < 20; i++) {
        s += a.getDouble(i * 6 + j) * b.getDouble(i * 6 + j);
      }
      assertThat(got.getDouble(j)).isCloseTo(s / 20, org.assertj.core.data.Offset.offset(1e-12));
    }
  }

  @Test
  void sharedInputIsComputedOnceAndStored() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    NDArray a = EngineTestSupport.randomDoubles(3, 12, 12);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 4}, spec);
    CubedArray sq = Xp.multiply(x, x);
    List<NDArray> r = Cubed.compute(Xp.sum(sq), Xp.max(sq));
    PlanSummary p = Cubed.plan(List.of(Xp.sum(sq), Xp.max(sq))).summary();
    assertThat(p.ops()).anyMatch(o -> o.name().startsWith("multiply"));
    double s = 0;
    double mx = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < a.size(); i++) {
      double v = a.getDouble(i) * a.getDouble(i);
      s += v;
      mx = Math.max(mx, v);
    }
    assertThat(r.get(0).getDouble(0)).isCloseTo(s, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.get(1).getDouble(0)).isEqualTo(mx);
  }

  @Test
  void rechunkThatCannotFitIsRefusedNamingTheOp() {
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomDoubles(4, 100, 100);
    Spec spec = EngineTestSupport.tinySpec(dir, 50_000);
    CubedArray x = Cubed.fromZarr(stored(store, "big", a, 100, 100), spec);
    CubedArray r = Xp.rechunk(x, 10, 10);
    assertThatThrownBy(r::compute).isInstanceOf(MemoryBudgetExceededException.class)
        .hasMessageContaining("rechunk").hasMessageContaining("50000 B")
        .satisfies(e -> assertThat(((MemoryBudgetExceededException) e).projectedMem())
            .isGreaterThan(50_000));
  }

  @Test
  void storeWritesToUserTargetAndKeepsIntermediatesOut() {
    Spec spec = EngineTestSupport.tinySpec(dir, 10_000_000);
    MemoryStore store = new MemoryStore();
    NDArray a = EngineTestSupport.randomInts(5, DType.INT32, 9, 7);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, spec);
    ZarrArray z = Cubed.toZarr(Xp.add(x, x), store, "out");
    NDArray want = dev.cubed.nd.Elementwise.add(a, a);
    NDAssert.assertExact(want, z.read(), "toZarr");
    CubedArray back = Cubed.fromZarr(z, spec);
    assertThat(back.chunkShape()).containsExactly(4, 3);
    assertThat(back.chunks()[0]).containsExactly(4, 4, 1);
    assertThat(back.numBlocks()).containsExactly(3, 3);
  }
}
