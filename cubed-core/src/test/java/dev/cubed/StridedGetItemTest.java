package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.util.Arrays;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Strided basic indexing (steps other than 1, negative steps, integers mixed in) on chunked arrays
 * of every dtype against the kernel's {@code Indexing.get}: random shapes, regular (partial edge)
 * and irregular chunks, at an allowedMem of 4 KB. The chunked op copies the last axis's selected
 * elements with a typed loop for double, float, long and int data and one element at a time for the
 * others.
 */
class StridedGetItemTest extends ChunkedVsKernel {
  static final DType[] TYPES = {
    DType.FLOAT64,
    DType.FLOAT32,
    DType.INT64,
    DType.INT32,
    DType.INT16,
    DType.UINT8,
    DType.BOOL,
    DType.COMPLEX128,
    DType.COMPLEX64
  };

  static Index randomIndex(Random r, long n, boolean allowAt) {
    if (allowAt && r.nextInt(5) == 0) {
      return Index.at(r.nextInt((int) n));
    }
    long step = (1 + r.nextInt(4)) * (r.nextBoolean() ? 1 : -1);
    Long start = r.nextBoolean() ? null : (long) r.nextInt((int) n);
    Long stop = r.nextBoolean() ? null : (long) r.nextInt((int) n + 1);
    return Index.slice(start, stop, step);
  }

  @Test
  void stridedSlicesAgreeWithTheKernelForEveryDtype() {
    Random r = new Random(25);
    for (DType t : TYPES) {
      for (int trial = 0; trial < 12; trial++) {
        long[] shape = shape(r, 1);
        In in = input(r, t, shape);
        Index[] idx = new Index[shape.length];
        for (int d = 0; d < shape.length; d++) {
          idx[d] = randomIndex(r, Math.max(1, shape[d]), shape[d] > 0 && d < shape.length - 1);
        }
        check(
            t + " " + Arrays.toString(shape) + " " + Arrays.toString(idx),
            () -> Indexing.get(in.k(), idx),
            () -> Xp.getItem(in.c(), idx),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void smallStepsReadEachTouchedInputBlockOnceInItsOwnTask() {
    ZarrArray z =
        ZarrArray.create(new MemoryStore(), "a")
            .shape(new long[] {120, 120})
            .chunks(new long[] {20, 20})
            .dtype(DType.FLOAT64)
            .build();
    Spec spec = Spec.builder().workDir(dir).allowedMem("1GB").reservedMem(1000).build();
    CubedArray a = Cubed.fromZarr(z, spec);
    CubedArray s = Xp.getItem(a, Index.slice(10L, 90L, 2), Index.slice(null, null, 3));
    // rows 10, 12, ..., 88 lie in row blocks 0..4 (5, 10, 10, 10, 5 of them); columns 0, 3, ...,
    // 117 in all 6 column blocks (7, 7, 6, 7, 7, 6)
    Assertions.assertThat(s.chunks()[0]).containsExactly(5, 10, 10, 10, 5);
    Assertions.assertThat(s.chunks()[1]).containsExactly(7, 7, 6, 7, 7, 6);
    PlanSummary p = Xp.sum(s).plan();
    Assertions.assertThat(p.ops().get(0).tasks()).isEqualTo(30);
    Assertions.assertThat(p.ops().get(0).bytesRead()).isEqualTo(30L * 20 * 20 * 8);
    // the sum reduces the irregular blocks as they are: nothing rechunked or stored between
    Assertions.assertThat(p.intermediateBytesWritten()).isLessThan(1000);
  }
}
