package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import org.junit.jupiter.api.Test;

/** A step-1 slice reads only the bounds of the blocks it selects, whatever the input's grid. */
class SliceOfHugeGridTest {

  @Test
  void aSmallSliceOfAnAxisOfABillionBlocksIsMadeAndComputed() {
    // 10^9 blocks along the first axis: listing their offsets would take 8 GB
    CubedArray x =
        Xp.full(
            new long[] {1_000_000_000L, 10}, 2.0, DType.FLOAT64, new long[] {1, 4}, Spec.fromEnv());
    CubedArray y =
        Xp.getItem(x, new Index.Slice(999_999_997L, null, 1), new Index.Slice(3L, 9L, 1));
    assertThat(y.shape()).containsExactly(3, 6);
    assertThat(y.chunks()[0]).containsExactly(1, 1, 1);
    assertThat(y.chunks()[1]).containsExactly(1, 4, 1);
    assertThat((double[]) y.compute().data()).hasSize(18).containsOnly(2.0);
  }
}
