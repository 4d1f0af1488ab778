package dev.cubed.nd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RunBoxes}: the boxes of a run cover it exactly, in order, within the bound. */
class RunBoxesTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
  void boxesCoverTheRunInOrder(int seed) {
    Random r = new Random(seed);
    int nd = r.nextInt(5);
    long[] block = new long[nd];
    for (int d = 0; d < nd; d++) {
      block[d] = 1 + r.nextInt(7);
    }
    long total = Shapes.size(block);
    for (int k = 0; k < 30; k++) {
      long start = r.nextInt((int) total);
      long count = 1 + r.nextInt((int) (total - start));
      long at = start;
      List<RunBoxes.Box> boxes = RunBoxes.of(block, start, count);
      assertTrue(boxes.size() <= Math.max(1, 2 * nd - 1), boxes.size() + " boxes");
      for (RunBoxes.Box b : boxes) {
        assertEquals(at, b.flat(), "boxes in order, none missing");
        // the box is inside the block and its elements are consecutive from b.flat()
        long n = Shapes.size(b.shape());
        for (long e = 0; e < n; e++) {
          long[] rel = Shapes.unravel(b.shape(), e);
          long[] idx = new long[nd];
          for (int d = 0; d < nd; d++) {
            idx[d] = b.start()[d] + rel[d];
            assertTrue(idx[d] < block[d]);
          }
          assertEquals(at + e, nd == 0 ? 0 : Shapes.offset(block, idx));
        }
        at += n;
      }
      assertEquals(start + count, at, "the run covered exactly");
    }
  }

  @Test
  void aRunOutsideTheBlockIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RunBoxes.of(new long[] {2, 3}, 4, 3));
    assertTrue(e.getMessage().contains("(2, 3)"), e.getMessage());
    assertEquals(3, RunBoxes.of(new long[] {4, 5}, 3, 9).size()); // partial, whole, partial
  }
}
