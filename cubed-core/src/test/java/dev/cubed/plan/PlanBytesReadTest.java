package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan summary's bytes read: stored blocks read by every task (whole chunks), generated inputs
 * nothing, fused chains counted through to what they read, rechunk stages the source chunks their
 * copy regions overlap. Inputs are metadata-only Zarr arrays (no chunk written).
 */
class PlanBytesReadTest {
  @TempDir Path dir;

  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("1GB").reservedMem(1000).build();
  }

  static ZarrArray stored(long[] shape, long[] chunks) {
    return ZarrArray.create(new MemoryStore(), "a")
        .shape(shape)
        .chunks(chunks)
        .dtype(DType.FLOAT64)
        .build();
  }

  @Test
  void elementwiseReadsEachStoredBlockOnceAndGeneratedInputsNothing() {
    CubedArray x = Cubed.fromZarr(stored(new long[] {100, 60}, new long[] {30, 20}), spec());
    CubedArray y =
        Xp.add(
            Xp.multiply(x, x),
            Xp.ones(new long[] {100, 60}, DType.FLOAT64, new long[] {30, 20}, spec()));
    PlanSummary s = y.plan();
    assertThat(s.ops()).hasSize(1);
    // x is read twice per task (both operands of multiply), whole chunks of 30x20 float64
    assertThat(s.ops().get(0).tasks()).isEqualTo(4 * 3);
    assertThat(s.totalBytesRead()).isEqualTo(12L * 2 * 30 * 20 * 8);
    assertThat(s.toString()).contains("to read").contains("reads");
  }

  @Test
  void treeReductionReadsEveryLevelOnce() {
    CubedArray x = Cubed.fromZarr(stored(new long[] {64, 10}, new long[] {4, 10}), spec());
    PlanSummary s = Xp.sum(x, Axes.of(0), 4).plan();
    // the first round reads all 16 blocks of x; later rounds read the partial sums they merge
    PlanSummary.OpInfo first = s.ops().get(0);
    assertThat(first.bytesRead()).isEqualTo(64L * 10 * 8);
    for (int i = 1; i < s.ops().size(); i++) {
      assertThat(s.ops().get(i).bytesRead()).isEqualTo(s.ops().get(i - 1).bytesWritten());
    }
  }

  /** Shape, source chunk and copy region along one axis, aligned and misaligned; seeded. */
  static Stream<Arguments> regions() {
    Random r = new Random(12);
    Stream<Arguments> fixed =
        Stream.of(
            Arguments.of(100, 10, 20),
            Arguments.of(100, 10, 15),
            Arguments.of(100, 30, 7),
            Arguments.of(7, 10, 3));
    Stream<Arguments> random =
        Stream.generate(
                () -> Arguments.of(1 + r.nextInt(500), 1 + r.nextInt(60), 1 + r.nextInt(60)))
            .limit(20);
    return Stream.concat(fixed, random);
  }

  @ParameterizedTest
  @MethodSource("regions")
  void regionReadsCountOverlappedChunks(long shape, long from, long region) {
    long want = 0;
    for (long start = 0; start < shape; start += region) {
      long end = Math.min(start + region, shape);
      for (long c = start / from; c * from < end; c++) {
        want += Math.min((c + 1) * from, shape) - c * from;
      }
    }
    assertThat(
            ByteCounts.regionReadBytes(
                new long[] {shape, 3}, new long[] {from, 3}, new long[] {region, 3}, 8))
        .isEqualTo(want * 3 * 8);
  }

  @Test
  void regionReadsForKnownCases() {
    assertThat(ByteCounts.regionReadBytes(new long[] {100}, new long[] {10}, new long[] {20}, 1))
        .isEqualTo(100);
    assertThat(ByteCounts.regionReadBytes(new long[] {100}, new long[] {10}, new long[] {15}, 1))
        .isEqualTo(130); // 6 regions over two chunks each, the last over one
    assertThat(ByteCounts.satMul(Long.MAX_VALUE / 2, 3)).isEqualTo(Long.MAX_VALUE);
    assertThat(ByteCounts.satAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void rechunkStagesReadTheirSourceAndSumOverStages() {
    CubedArray x = Cubed.fromZarr(stored(new long[] {200, 200}, new long[] {1, 200}), spec());
    PlanSummary s = Xp.rechunk(x, 200, 1).plan();
    assertThat(s.ops()).isNotEmpty();
    for (PlanSummary.OpInfo o : s.ops()) {
      assertThat(o.kind()).isEqualTo("rechunk");
      // each stage reads at least the whole array, never more than one chunk row per region
      assertThat(o.bytesRead()).isGreaterThanOrEqualTo(200L * 200 * 8);
    }
    assertThat(s.totalBytesRead())
        .isEqualTo(s.ops().stream().mapToLong(PlanSummary.OpInfo::bytesRead).sum());
  }
}
