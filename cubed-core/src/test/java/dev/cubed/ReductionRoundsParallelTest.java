package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reduction round whose tasks fold several large blocks each stays a parallel op of its own when
 * the next round has fewer tasks than the executor runs at once (the plan's parallelism, from the
 * spec's workers): fused, one task would read every block in turn.
 */
class ReductionRoundsParallelTest {
  @TempDir Path dir;

  /** 100 x 160 x 160 float64 (20.5 MB) in ten blocks of 2 MB along axis 0. */
  private static final long[] SHAPE = {100, 160, 160};

  private CubedArray stored(Spec spec, NDArray a, long... chunks) {
    MemoryStore store = new MemoryStore();
    ZarrArray z =
        ZarrArray.create(store, "x").shape(a.shape()).chunks(chunks).dtype(a.dtype()).build();
    z.write(new long[a.ndim()], a);
    return Cubed.fromZarr(z, spec);
  }

  private Spec spec(int workers) {
    return Spec.builder()
        .workDir(dir)
        .allowedMem(500_000_000)
        .reservedMem(1000)
        .workers(workers)
        .build();
  }

  /** The plan of {@code x} under its spec, with the parallelism replaced. */
  private static PlanSummary plan(CubedArray x, int parallelism) {
    return Plan.of(
            List.of(x.node()), Cubed.config(x.spec()).toBuilder().parallelism(parallelism).build())
        .summary();
  }

  private static double sum(NDArray a) {
    double s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getDouble(i);
    }
    return s;
  }

  /**
   * Ten blocks on two workers (split 5): the rounds of 5 + 5 blocks are two parallel tasks, then
   * one task adds their two sums. With a parallelism of 1 the same graph is one task of ten blocks.
   */
  @Test
  void tenBlocksOnTwoWorkersAreReadByTwoParallelTasks() {
    NDArray a = EngineTestSupport.randomDoubles(3, SHAPE);
    CubedArray s = Xp.sum(Xp.multiply(stored(spec(2), a, 10, 160, 160), 2.0));
    PlanSummary p = s.plan();
    assertThat(p.ops()).as(p.ops().toString()).hasSize(2);
    PlanSummary.OpInfo first = p.ops().get(0);
    assertThat(first.tasks()).isEqualTo(2);
    assertThat(first.bytesRead()).isEqualTo(a.size() * 8L);
    assertThat(first.fused()).anyMatch(n -> n.startsWith("multiply"));
    assertThat(p.ops().get(1).tasks()).isEqualTo(1);
    assertThat(p.ops().get(1).bytesRead()).isLessThan(1024);

    PlanSummary serial = plan(s, 1);
    assertThat(serial.ops()).as(serial.ops().toString()).hasSize(1);
    assertThat(serial.ops().get(0).tasks()).isEqualTo(1);

    assertThat(s.compute().getDouble(0)).isCloseTo(2 * sum(a), Offset.offset(1e-8));
  }

  /**
   * Small blocks stay fused: two tasks would save less than starting another op costs (a sum of ten
   * 8 KB blocks is one task on any number of workers).
   */
  @Test
  void smallRoundsStayFused() {
    NDArray a = EngineTestSupport.randomDoubles(4, 100, 8, 16);
    CubedArray s = Xp.sum(stored(spec(2), a, 10, 8, 16));
    PlanSummary p = s.plan();
    assertThat(p.ops()).as(p.ops().toString()).hasSize(1);
    assertThat(p.ops().get(0).tasks()).isEqualTo(1);
    assertThat(s.compute().getDouble(0)).isCloseTo(sum(a), Offset.offset(1e-9));
  }

  /**
   * Only folding rounds are stored for parallelism, never the full-size elementwise input of a
   * first round: the mean over axis 0 of x * x writes only the rounds' small results on any
   * parallelism.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3, 8, 64})
  void elementwiseInputsAreNeverStoredForParallelism(int parallelism) {
    NDArray a = EngineTestSupport.randomDoubles(5, SHAPE);
    CubedArray x = stored(spec(2), a, 10, 160, 160);
    CubedArray m = Xp.mean(Xp.multiply(x, x), 0);
    long full = a.size() * 8L;
    PlanSummary p = plan(m, parallelism);
    for (PlanSummary.OpInfo o : p.ops()) {
      assertThat(o.bytesWritten()).as(o.name()).isLessThan(full / 8);
    }
    NDArray got = m.compute();
    NDArray want = Elementwise.multiply(a, a);
    int plane = 160 * 160;
    for (int j = 0; j < plane; j += 97) {
      double s = 0;
      for (int i = 0; i < 100; i++) {
        s += want.getDouble(i * plane + j);
      }
      assertThat(got.getDouble(j)).isCloseTo(s / 100, Offset.offset(1e-12));
    }
  }

  /**
   * Enough output blocks already give the executor enough tasks: a mean over axis 0 with two blocks
   * of the other axes keeps the same plan on two workers as on one.
   */
  @Test
  void enoughTasksKeepThePlan() {
    NDArray a = EngineTestSupport.randomDoubles(6, SHAPE);
    CubedArray m = Xp.mean(stored(spec(2), a, 10, 80, 160), 0);
    PlanSummary two = plan(m, 2);
    PlanSummary one = plan(m, 1);
    assertThat(two.ops()).as(two.ops().toString()).hasSameSizeAs(one.ops());
    for (int i = 0; i < one.ops().size(); i++) {
      assertThat(two.ops().get(i).tasks()).isEqualTo(one.ops().get(i).tasks());
    }
  }
}
