package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A take from an in-memory input (what xarray's isel or sel of a few labels makes of NumPy data)
 * whose result is at most one block of the input is gathered when built, as an in-memory input
 * itself: its compute reads no block of the input. A larger take stays an op of the plan.
 */
class TakeInMemoryTest {
  @TempDir Path tmp;

  private static NDArray indices(long... v) {
    NDArray i = NDArray.empty(DType.INT64, v.length);
    for (int k = 0; k < v.length; k++) {
      i.setLong(k, v[k]);
    }
    return i;
  }

  @Test
  void aTakeOfAtMostOneBlockIsGatheredWhenBuiltAndEqualsTheKernel() {
    Spec spec = EngineTestSupport.tinySpec(tmp, 100_000_000);
    NDArray a = EngineTestSupport.randomDoubles(3, 20, 30, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 30, 5}, spec);
    NDArray idx = indices(3, 1, 4, -1); // 20x4x5 elements: less than a block of 4x30x5
    CubedArray y = Xp.take(x, idx, 1);
    assertThat(y.node()).as("the result is in memory").isInstanceOf(ArrayNode.Virtual.class);
    assertThat(y.chunks()[0]).containsExactly(4, 4, 4, 4, 4);
    assertThat(y.compute()).isEqualTo(Indexing.take(a, idx, 1));
    // the plan built on it computes as any other
    CubedArray z = Xp.add(y, 1.0);
    NDArray want = Indexing.take(a, idx, 1);
    NDArray got = z.compute();
    for (int i = 0; i < want.size(); i++) {
      assertThat(got.getDouble(i)).isEqualTo(want.getDouble(i) + 1.0);
    }
  }

  @Test
  void aTakeLargerThanABlockStaysAnOpAndEqualsTheKernel() {
    Spec spec = EngineTestSupport.tinySpec(tmp, 100_000_000);
    NDArray a = EngineTestSupport.randomDoubles(4, 20, 6, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 6, 5}, spec);
    NDArray idx = indices(19, 0, 7, 7, 3, 12, 1, 18);
    CubedArray y = Xp.take(x, idx, 0);
    assertThat(y.node()).isInstanceOf(ArrayNode.Computed.class);
    assertThat(y.compute()).isEqualTo(Indexing.take(a, idx, 0));
  }
}
