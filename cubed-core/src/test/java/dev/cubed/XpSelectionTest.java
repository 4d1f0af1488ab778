package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Searching;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * nonzero and boolean-mask indexing (a counting pass, then an irregular chunking of the result)
 * against the kernel: every dtype, zero-length and size-1 axes, partial edge and irregular chunks,
 * 4 KB allowedMem, and an input larger than allowedMem x workers (240 KB at 16 KB x 2).
 */
class XpSelectionTest extends ChunkedVsKernel {
  @Test
  void nonzeroAndMaskIndexingAgreeWithKernel() {
    Random r = new Random(31);
    for (int round = 0; round < 2; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 0));
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        int nd = x.k().ndim();
        for (int dim = 0; dim < Math.max(1, nd); dim++) {
          int dd = dim;
          check(
              "nonzero dim " + dim + " " + d,
              () -> Searching.nonzero(x.k())[dd],
              () -> Xp.nonzero(x.c()).get(dd),
              false);
        }
        In mask = input(r, DType.BOOL, x.k().shape());
        check(
            "x[mask] " + d,
            () -> Indexing.getMask(x.k(), mask.k()),
            () -> Xp.getMask(x.c(), mask.c()),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void selectionOnAnInputLargerThanAllowedMemTimesWorkers() {
    NDArray a = EngineTestSupport.randomDoubles(7, 300, 100); // 240 KB, allowedMem 16 KB
    Spec spec = Spec.builder().workDir(dir).allowedMem(16_000).reservedMem(1000).workers(2).build();
    CubedArray c = Cubed.fromArray(a, new long[] {7, 40}, spec);
    CubedArray mask = Xp.greater(c, 3.0);
    NDArray m = Elementwise.greater(a, 3.0);
    CubedArray sel = Xp.getMask(c, mask);
    assertNull(DifferentialTest.compare(Indexing.getMask(a, m), sel.compute(), false, 1, false));
    assertTrue(
        !sel.hasRegularChunks(), "chunked by the counts: " + Arrays.toString(sel.chunks()[0]));
    List<CubedArray> nz = Xp.nonzero(mask);
    NDArray[] want = Searching.nonzero(m);
    List<NDArray> got = Cubed.compute(nz.toArray(new CubedArray[0]));
    for (int i = 0; i < 2; i++) {
      assertNull(DifferentialTest.compare(want[i], got.get(i), false, 1, false));
    }
    assertEquals(want[0].size(), Arrays.stream(nz.get(0).chunks()[0]).sum());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Xp.getMask(c, c));
    assertTrue(e.getMessage().contains("mask must be bool"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Xp.nonzero(Xp.sum(c)));
  }
}
