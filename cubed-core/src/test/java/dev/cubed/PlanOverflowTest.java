package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Absurd shapes are refused when the array is defined, before a plan is built: an array whose bytes
 * do not fit a long, and an operation with more than {@link PlanSummary#MAX_TASKS_PER_OP} tasks.
 * Before these checks such shapes made the plan's byte counts negative and then listed 10^12 task
 * keys (a hang); the timeouts catch a regression.
 */
class PlanOverflowTest {
  @TempDir Path dir;

  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("1GB").reservedMem(1000).build();
  }

  @Test
  @Timeout(120)
  void creationWhoseBytesOverflowALong() {
    long[] shape = {10_000_000_000L, 10_000_000_000L};
    assertThatThrownBy(() -> Xp.zeros(shape, DType.FLOAT64, new long[] {1000, 1000}, spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("array of shape (10000000000, 10000000000) float64")
        .hasMessageContaining("8.0e+20 bytes: more than 2^63-1");
    assertThatThrownBy(
            () ->
                Cubed.random(
                    new long[] {2_000_000_000L, 2_000_000_000L, 4},
                    new long[] {1000, 1000, 4},
                    1,
                    spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("random: array of shape (2000000000, 2000000000, 4) float64")
        .hasMessageContaining("more than 2^63-1");
  }

  @Test
  @Timeout(120)
  void operationWithTooManyTasks() {
    // 1e18 elements = 8e18 bytes: a valid (virtual) array, but 10^12 blocks to compute
    CubedArray x =
        Xp.zeros(
            new long[] {1_000_000_000L, 1_000_000_000L},
            DType.FLOAT64,
            new long[] {1000, 1000},
            spec());
    assertThatThrownBy(() -> Xp.add(x, x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shape (1000000000, 1000000000) in chunks (1000, 1000)")
        .hasMessageContaining("1000000000000 blocks")
        .hasMessageContaining("more than the 100000000 tasks per operation")
        .hasMessageContaining("use larger chunks");
    assertThatThrownBy(() -> x.rechunk(500, 500))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("100000000 tasks per operation");
    // a small slice of the huge virtual array computes: only its blocks become tasks
    CubedArray corner =
        Xp.getItem(x, new Index.Slice(0L, 3L, 1L), new Index.Slice(999_999_998L, null, 1L));
    assertThat(Xp.add(corner, corner).compute().shape()).containsExactly(3, 2);
  }

  @Test
  @Timeout(120)
  void storedArrayOf1e18ElementsIsRefusedAtTheFirstOperation() {
    ZarrArray z =
        ZarrArray.create(new MemoryStore(), "big")
            .shape(1_000_000_000L, 1_000_000_000L)
            .chunks(1000, 1000)
            .dtype(DType.FLOAT64)
            .build();
    CubedArray x = Cubed.fromZarr(z, spec());
    assertThat(x.shape()).containsExactly(1_000_000_000L, 1_000_000_000L);
    assertThat(Cubed.plan(List.of(x)).summary().totalTasks()).isZero();
    assertThatThrownBy(() -> Xp.multiply(x, x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1000000000000 blocks");
    assertThatThrownBy(() -> Xp.sum(x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tasks per operation");
  }

  @Test
  void summaryTotalsSaturateAndNegativeCountsAreRefused() {
    var big =
        new PlanSummary.OpInfo(
            "a", "blockwise", List.of(), 10, 100, 8_000_000_000_000_000_000L, true);
    PlanSummary s = new PlanSummary(List.of(big, big, big), 1000, 10);
    assertThat(s.totalBytesWritten()).isEqualTo(Long.MAX_VALUE);
    assertThat(s.intermediateBytesWritten()).isEqualTo(Long.MAX_VALUE);
    assertThat(s.toString()).contains("9.2 EB to write").doesNotContain("-");
    assertThatThrownBy(() -> new PlanSummary.OpInfo("b", "rechunk", List.of(), 5, 100, -8, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'b'")
        .hasMessageContaining("negative count");
    assertThatThrownBy(
            () ->
                new PlanSummary.OpInfo(
                    "c", "blockwise", List.of(), PlanSummary.MAX_TASKS_PER_OP + 1, 100, 8, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("100000001 tasks");
  }
}
