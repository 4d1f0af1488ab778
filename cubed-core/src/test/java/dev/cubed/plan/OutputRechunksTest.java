package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-memory rechunk ({@link OutputRechunks}): an output rechunk of a computed array that fits
 * one task's memory is one op of the input's blocks storing nothing; a larger one, or one another
 * op reads, keeps its stored stages.
 */
class OutputRechunksTest {
  @TempDir Path dir;

  private static final long[] SHAPE = {120, 30, 40};

  /** 1,152,000 bytes of float64 in blocks of (10, 30, 40), 96 kB each. */
  private static NDArray data() {
    NDArray a = NDArray.zeros(DType.FLOAT64, SHAPE);
    double[] d = (double[]) a.data();
    Random r = new Random(7);
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble();
    }
    return a;
  }

  private Spec spec(long allowedMem) {
    return Spec.builder().workDir(dir).allowedMem(allowedMem).reservedMem(1000).build();
  }

  @Test
  void anOutputRechunkThatFitsIsOneOpOfTheInputBlocksStoringNothing() {
    NDArray a = data();
    CubedArray x = Cubed.fromArray(a, new long[] {10, 30, 40}, spec(50_000_000));
    CubedArray r = x.rechunk(12, 10, 40);
    assertThat(r.chunkShape()).containsExactly(12, 10, 40);
    Plan plan = Cubed.plan(List.of(r));
    assertThat(plan.outputs.get(0)).isNotInstanceOf(ArrayNode.Rechunked.class);
    PlanSummary p = plan.summary();
    assertThat(p.ops()).as(p.toString()).hasSize(1);
    assertThat(p.ops()).as(p.toString()).noneMatch(o -> o.kind().equals("rechunk"));
    assertThat(p.totalTasks()).as("one task per input block").isEqualTo(12);
    assertThat(p.intermediateBytesWritten()).as("nothing stored").isZero();
    assertThat(p.maxProjectedMem()).isLessThan(1_000_000);
    assertThat(r.compute().data()).isEqualTo(a.data());
    // the same values as the stored path gives (the rechunk read by an op)
    assertThat(Cubed.compute(r.add(0.0)).get(0).data()).isEqualTo(a.data());
  }

  @Test
  void aRechunkLargerThanAllowedMemKeepsItsStoredStages() {
    NDArray a = data();
    // 1.15 MB of data, 1 MB allowed: not held whole; copied through stored stages
    CubedArray x = Cubed.fromArray(a, new long[] {10, 30, 40}, spec(1_000_000));
    CubedArray r = x.rechunk(120, 5, 5);
    Plan plan = Cubed.plan(List.of(r));
    assertThat(plan.outputs.get(0)).isInstanceOf(ArrayNode.Rechunked.class);
    PlanSummary p = plan.summary();
    assertThat(p.ops()).as(p.toString()).anyMatch(o -> o.kind().equals("rechunk"));
    assertThat(p.intermediateBytesWritten()).as(p.toString()).isPositive();
    assertThat(p.maxProjectedMem()).isLessThanOrEqualTo(1_000_000);
    assertThat(r.compute().data()).isEqualTo(a.data());
  }

  @Test
  void aRechunkAnotherOpReadsKeepsItsStoredStages() {
    NDArray a = data();
    CubedArray x = Cubed.fromArray(a, new long[] {10, 30, 40}, spec(50_000_000));
    CubedArray r = x.rechunk(12, 10, 40);
    PlanSummary p = Cubed.plan(List.of(r.add(1.0))).summary();
    assertThat(p.ops()).as(p.toString()).anyMatch(o -> o.kind().equals("rechunk"));
    // computed with it, the output rechunk is still its stored array (read by the other op)
    List<NDArray> both = Cubed.compute(r, r.add(1.0));
    assertThat(both.get(0).data()).isEqualTo(a.data());
    assertThat(((double[]) both.get(1).data())[5]).isEqualTo(((double[]) a.data())[5] + 1.0);
  }
}
