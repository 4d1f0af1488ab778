package dev.cubed.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import org.junit.jupiter.api.Test;

/** The chunk unification rule of elementwise ops on one axis. */
class UnifiedAxisTest {
  private static ArrayNode blocks(long... sizes) {
    long n = 0;
    for (long v : sizes) {
      n += v;
    }
    NDArray a = NDArray.zeros(DType.FLOAT64, n);
    return Core.fromArray(a, ChunkGrid.of(new long[] {n}, new long[][] {sizes}));
  }

  @Test
  void commonRefinementOfTwoGrids() {
    long[] shape = {12};
    assertThat(ElemwiseOp.unifiedAxis(shape, 0, blocks(5, 2, 5), blocks(4, 4, 4)))
        .containsExactly(4, 1, 2, 1, 4);
  }

  @Test
  void tooFineRefinementTakesTheFirstInputsBlocks() {
    long[] shape = {12};
    // three inputs of 3 blocks each whose boundaries never meet: 7 blocks > 2 x 3
    ArrayNode x = blocks(5, 2, 5);
    long[] got =
        ElemwiseOp.unifiedAxis(shape, 0, x, blocks(1, 3, 8), blocks(3, 3, 6), blocks(8, 2, 2));
    assertThat(got).containsExactly(5, 2, 5);
  }

  @Test
  void broadcastAxesKeepOneBlock() {
    long[] shape = {1};
    assertThat(ElemwiseOp.unifiedAxis(shape, 0, blocks(1))).containsExactly(1);
  }
}
