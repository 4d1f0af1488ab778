package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.reduce.Utility;
import dev.cubed.nd.sort.Sets;
import dev.cubed.nd.sort.Sorting;
import dev.cubed.plan.MemoryBudgetExceededException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * tile, repeat, meshgrid, tril/triu, diff and isin on chunked arrays against the kernel: every
 * dtype, zero-length and size-1 axes, regular chunks with partial edges and irregular chunks, at an
 * allowedMem of 4 KB.
 */
class XpShapeFunctionsTest extends ChunkedVsKernel {
  @Test
  void shapeFunctionsAgreeWithKernel() {
    Random r = new Random(21);
    for (int round = 0; round < 2; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 1));
        int nd = x.k().ndim();
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        long[] reps = new long[r.nextInt(nd + 2)];
        for (int i = 0; i < reps.length; i++) {
          reps[i] = r.nextInt(4);
        }
        check(
            "tile " + Arrays.toString(reps) + " " + d,
            () -> Manipulation.tile(x.k(), reps),
            () -> Xp.tile(x.c(), reps),
            false);
        int ax = r.nextInt(nd);
        long rep = r.nextInt(4);
        check(
            "repeat " + rep + " axis " + ax + " " + d,
            () -> Manipulation.repeat(x.k(), new long[] {rep}, ax),
            () -> Xp.repeat(x.c(), rep, ax),
            false);
        long[] each = new long[(int) x.k().shape(ax)];
        for (int i = 0; i < each.length; i++) {
          each[i] = r.nextInt(3);
        }
        check(
            "repeat " + Arrays.toString(each) + " axis " + ax + " " + d,
            () -> Manipulation.repeat(x.k(), each, ax),
            () -> Xp.repeat(x.c(), each, ax),
            false);
        check(
            "repeat flat " + rep + " " + d,
            () -> Manipulation.repeat(x.k(), new long[] {rep}),
            () -> Xp.repeat(x.c(), rep),
            false);
        long k = r.nextInt(7) - 3;
        check("tril " + k + " " + d, () -> Creation.tril(x.k(), k), () -> Xp.tril(x.c(), k), false);
        check("triu " + k + " " + d, () -> Creation.triu(x.k(), k), () -> Xp.triu(x.c(), k), false);
        int n = r.nextInt(3);
        boolean pre = r.nextBoolean();
        long[] ps = x.k().shape().clone();
        ps[ax] = 1 + r.nextInt(2);
        In p = input(r, t, ps);
        check(
            "diff n=" + n + " axis " + ax + (pre ? " prepend" : " append") + " " + d,
            () -> Utility.diff(x.k(), n, ax, pre ? p.k() : null, pre ? null : p.k()),
            () -> Xp.diff(x.c(), n, ax, pre ? p.c() : null, pre ? null : p.c()),
            false);
        check("diff " + d, () -> Utility.diff(x.k()), () -> Xp.diff(x.c()), false);
        In set = input(r, DiffData.dtype(r), shape(r, 0));
        check(
            "isin " + d + " in " + set.k().dtype() + Arrays.toString(set.k().shape()),
            () -> Sets.isin(x.k(), set.k()),
            () -> Xp.isin(x.c(), set.c()),
            false);
        check(
            "isin not " + d,
            () -> Sets.isin(x.k(), x.k(), Sets.Membership.NOT_IN),
            () -> Xp.isin(x.c(), x.c(), true),
            false);
      }
    }
    In b1 = input(r, DType.INT16, new long[] {3, 1});
    In b2 = input(r, DType.FLOAT32, new long[] {4});
    List<CubedArray> bc = Xp.broadcastArrays(b1.c(), b2.c());
    NDArray[] bk = Manipulation.broadcastArrays(b1.k(), b2.k());
    for (int i = 0; i < 2; i++) {
      int ii = i;
      check("broadcast_arrays " + i, () -> bk[ii], () -> bc.get(ii), false);
    }
    for (Creation.MeshIndexing ix : Creation.MeshIndexing.values()) {
      for (int n = 1; n <= 3; n++) {
        In[] ins = new In[n];
        for (int i = 0; i < n; i++) {
          ins[i] = input(r, DiffData.dtype(r), new long[] {DiffData.dim(r)});
        }
        NDArray[] ks = Arrays.stream(ins).map(In::k).toArray(NDArray[]::new);
        CubedArray[] cs = Arrays.stream(ins).map(In::c).toArray(CubedArray[]::new);
        NDArray[] want = Creation.meshgrid(ix, ks);
        List<CubedArray> got = Xp.meshgrid(ix, cs);
        for (int i = 0; i < n; i++) {
          int ii = i;
          check(
              "meshgrid " + ix + " " + n + " output " + i,
              () -> want[ii],
              () -> got.get(ii),
              false);
        }
      }
    }
    assertNoFailures();
  }

  @Test
  void repeatChunksAndItsMemoryBound() {
    NDArray a = Creation.arange(0, 10, 1, DType.INT32).reshape(10);
    CubedArray c = Cubed.fromArray(a, new long[] {4}, spec());
    CubedArray r = Xp.repeat(c, new long[] {1, 0, 0, 0, 0, 0, 0, 0, 2, 2}, 0);
    // block 1 (elements 4..7) repeats to nothing and is dropped
    assertEquals(List.of(1L, 4L), Arrays.stream(r.chunks()[0]).boxed().toList());
    assertEquals("[0, 8, 8, 9, 9]", Arrays.toString((int[]) r.compute().data()));
    assertEquals(
        List.of(4L, 4L, 2L, 4L, 4L, 2L), Arrays.stream(Xp.tile(c, 2).chunks()[0]).boxed().toList());
    // an output block 1000 times its input block does not fit 4 KB: refused before running
    assertThrows(MemoryBudgetExceededException.class, () -> Xp.repeat(c, 1000, 0).compute());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Xp.repeat(c, new long[] {1, 2}, 0));
    assertTrue(
        e.getMessage().startsWith("repeat: 2 repeats for axis 0 of length 10"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Xp.tril(c, 0));
    assertThrows(IllegalArgumentException.class, () -> Xp.diff(c, -1, 0, null, null));
  }

  @Test
  void takeAndUnstackAgreeWithKernel() {
    Random r = new Random(22);
    for (int round = 0; round < 2; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 1));
        int nd = x.k().ndim();
        int ax = r.nextInt(nd);
        long n = x.k().shape(ax);
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        int len = r.nextInt(9);
        boolean twoD = r.nextInt(4) == 0 && len % 2 == 0;
        NDArray idx = NDArray.zeros(r.nextBoolean() ? DType.INT64 : DType.INT16, len);
        for (int i = 0; i < len; i++) {
          long v =
              n == 0
                  ? r.nextInt(2)
                  : r.nextInt(10) == 0 ? n + r.nextInt(2) : r.nextInt((int) (2 * n)) - n;
          idx.setLong(i, v);
        }
        NDArray ix = twoD ? idx.reshape(2, len / 2) : idx;
        check(
            "take " + ix + " axis " + ax + " " + d,
            () -> Indexing.take(x.k(), ix, ax),
            () -> Xp.take(x.c(), ix, ax),
            false);
        check(
            "unstack " + ax + " " + d,
            () ->
                nd == 1 || n == 0 ? x.k() : Manipulation.stack(Manipulation.unstack(x.k(), ax), ax),
            () -> nd == 1 || n == 0 ? x.c() : Xp.stack(Xp.unstack(x.c(), ax), ax),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void takeAlongAxisAgreesWithKernel() {
    Random r = new Random(25);
    for (int round = 0; round < 4; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 1));
        int nd = x.k().ndim();
        int ax = r.nextInt(nd);
        long n = x.k().shape(ax);
        long[] is = x.k().shape().clone();
        for (int d = 0; d < nd; d++) {
          is[d] =
              d == ax
                  ? r.nextInt(5)
                  : r.nextInt(4) == 0 ? 1 : is[d] == 1 ? 1 + r.nextInt(3) : is[d];
        }
        NDArray idx = NDArray.zeros(DType.INT32, is);
        for (int i = 0; i < idx.size(); i++) {
          idx.setLong(i, n == 0 ? 0 : r.nextInt(12) == 0 ? n : r.nextInt((int) (2 * n)) - n);
        }
        String d =
            t
                + Arrays.toString(x.k().shape())
                + " indices "
                + Arrays.toString(is)
                + " axis "
                + ax
                + " round "
                + round;
        check(
            "take_along_axis " + d,
            () -> Indexing.takeAlongAxis(x.k(), idx, ax),
            () -> Xp.takeAlongAxis(x.c(), idx, ax),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void takeOnAnInputLargerThanAllowedMemTimesWorkers() {
    Random r = new Random(23);
    NDArray a = EngineTestSupport.randomDoubles(5, 20_000);
    CubedArray c = Cubed.fromArray(a, new long[] {50}, spec()); // 160 KB input, 4 KB allowedMem
    NDArray idx = NDArray.zeros(DType.INT64, 3000);
    for (int i = 0; i < 3000; i++) {
      idx.setLong(i, r.nextInt(40_000) - 20_000);
    }
    NDArray got = Xp.take(c, idx).compute();
    assertEquals(null, DifferentialTest.compare(Indexing.take(a, idx), got, false, 1, false));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Xp.take(c, NDArray.full(DType.INT64, 20_000L, 1)));
    assertTrue(
        e.getMessage()
            .contains("take: index 20000 is out of bounds for axis 0 with size " + "20000"),
        e.getMessage());
  }

  @Test
  void searchsortedAgreesWithKernel() {
    Random r = new Random(24);
    for (int round = 0; round < 2; round++) {
      for (DType t : DiffData.DTYPES) {
        In raw = input(r, t, new long[] {DiffData.dim(r) * 2});
        NDArray sorted = Sorting.sort(raw.k(), 0, Sorting.Order.ASCENDING);
        CubedArray s = Cubed.fromArray(sorted, DiffData.blocks(r, sorted.shape()), spec());
        In v = input(r, r.nextBoolean() ? t : DiffData.dtype(r), shape(r, 0));
        for (Searching.Side side : Searching.Side.values()) {
          check(
              "searchsorted "
                  + side
                  + " "
                  + t
                  + Arrays.toString(sorted.shape())
                  + " values "
                  + v.k().dtype()
                  + Arrays.toString(v.k().shape()),
              () -> Searching.searchsorted(sorted, v.k(), side, null),
              () -> Xp.searchsorted(s, v.c(), side),
              false);
        }
        check(
            "searchsorted 2-d x1 " + t,
            () -> Searching.searchsorted(raw.k().reshape(1, raw.k().size()), v.k()),
            () -> Xp.searchsorted(Xp.reshape(raw.c(), 1, raw.k().size()), v.c()),
            false);
      }
    }
    assertNoFailures();
  }
}
