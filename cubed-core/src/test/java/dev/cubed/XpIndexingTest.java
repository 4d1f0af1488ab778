package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Integer-array indexing on chunked arrays against an element-by-element reference (the NumPy
 * rules: broadcast index arrays; their dimensions in place when the indexed axes are adjacent,
 * first otherwise), every dtype, partial edge and irregular chunks, at an allowedMem of 4 KB; and
 * on an input of 8x allowedMem x workers.
 */
class XpIndexingTest extends ChunkedVsKernel {

  /** x[idx...] on the axes, one element at a time. */
  static NDArray reference(NDArray x, int[] axes, NDArray[] idx) {
    int nd = x.ndim();
    int k = axes.length;
    long[][] shapes = new long[k][];
    int[] ax = new int[k];
    boolean[] indexed = new boolean[nd];
    for (int i = 0; i < k; i++) {
      shapes[i] = idx[i].shape();
      ax[i] = Shapes.normalizeAxis("ref", axes[i], nd);
      indexed[ax[i]] = true;
    }
    long[] b = Shapes.broadcast("ref", shapes);
    boolean adjacent = true;
    for (int i = 1; i < k; i++) {
      adjacent &= ax[i] == ax[i - 1] + 1;
    }
    int at = adjacent ? ax[0] : 0;
    List<Long> out = new ArrayList<>();
    List<Integer> rest = new ArrayList<>();
    for (int d = 0; d < nd; d++) {
      if (!indexed[d]) {
        rest.add(d);
      }
    }
    int restBefore = 0;
    for (int d : rest) {
      if (d < at) {
        restBefore++;
      }
    }
    for (int i = 0; i < restBefore; i++) {
      out.add(x.shape(rest.get(i)));
    }
    for (long v : b) {
      out.add(v);
    }
    for (int i = restBefore; i < rest.size(); i++) {
      out.add(x.shape(rest.get(i)));
    }
    long[] os = out.stream().mapToLong(Long::longValue).toArray();
    NDArray r = NDArray.zeros(x.dtype(), os);
    NDArray[] bi = new NDArray[k];
    for (int i = 0; i < k; i++) {
      bi[i] = idx[i].broadcastTo(b);
    }
    long[] xstr = Shapes.strides(x.shape());
    long[] ostr = Shapes.strides(os);
    long[] bstr = Shapes.strides(b);
    for (int e = 0; e < r.size(); e++) {
      long[] oc = new long[os.length];
      long rem = e;
      for (int d = 0; d < os.length; d++) {
        oc[d] = rem / ostr[d];
        rem %= ostr[d];
      }
      long bflat = 0;
      for (int d = 0; d < b.length; d++) {
        bflat += oc[restBefore + d] * bstr[d];
      }
      long src = 0;
      for (int i = 0; i < k; i++) {
        long v = bi[i].getLong((int) bflat);
        if (v < -x.shape(ax[i]) || v >= x.shape(ax[i])) {
          throw new IllegalArgumentException("index " + v + " out of range");
        }
        src += (v < 0 ? v + x.shape(ax[i]) : v) * xstr[ax[i]];
      }
      for (int j = 0; j < rest.size(); j++) {
        int od = j < restBefore ? j : j + b.length;
        src += oc[od] * xstr[rest.get(j)];
      }
      if (x.dtype().isComplex()) {
        r.setComplex(e, x.getDouble((int) src), x.getImag((int) src));
      } else {
        r.setObject(e, x.getObject((int) src));
      }
    }
    return r;
  }

  static NDArray indices(Random r, long n, long[] shape) {
    return indices(r, n, shape, true);
  }

  static NDArray indices(Random r, long n, long[] shape, boolean outOfRange) {
    NDArray a = NDArray.zeros(r.nextBoolean() ? DType.INT64 : DType.INT16, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(
          i,
          n == 0
              ? r.nextInt(2)
              : outOfRange && r.nextInt(15) == 0 ? n : r.nextInt((int) (2 * n)) - n);
    }
    return a;
  }

  @Test
  void integerArrayIndexingAgreesWithReference() {
    Random r = new Random(500);
    for (int round = 0; round < 3; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 1));
        int nd = x.k().ndim();
        int k = 1 + r.nextInt(nd);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < nd; i++) {
          all.add(i);
        }
        boolean leading = r.nextBoolean();
        if (!leading) {
          Collections.shuffle(all, r);
        }
        int[] axes = all.subList(0, k).stream().mapToInt(Integer::intValue).toArray();
        if (!leading && r.nextBoolean()) {
          int first = r.nextInt(nd - k + 1);
          for (int i = 0; i < k; i++) {
            axes[i] = first + i; // adjacent: the index dims stay in place
          }
        }
        long[] bshape = new long[r.nextInt(3)];
        for (int i = 0; i < bshape.length; i++) {
          bshape[i] = r.nextInt(4);
        }
        NDArray[] idx = new NDArray[k];
        for (int i = 0; i < k; i++) {
          long[] s = bshape.clone();
          if (s.length > 0 && r.nextInt(3) == 0) {
            s[r.nextInt(s.length)] = 1; // broadcast
          }
          idx[i] = indices(r, x.k().shape(axes[i]), s);
        }
        String d =
            t
                + Arrays.toString(x.k().shape())
                + " axes "
                + Arrays.toString(axes)
                + " index shape "
                + Arrays.toString(bshape)
                + " round "
                + round;
        int[] fa = axes;
        if (leading) {
          check(
              "x[idx] " + d,
              () -> reference(x.k(), fa, idx),
              () -> XpIndexing.getItem(x.c(), idx),
              false);
        } else {
          check(
              "x[idx on axes] " + d,
              () -> reference(x.k(), fa, idx),
              () -> XpIndexing.getItem(x.c(), fa, idx),
              false);
        }
      }
    }
    assertNoFailures();
  }

  @Test
  void oneIndexArrayOnAnInnerAxisIsOneTakeOnTheInputsGrid() {
    // xarray's isel(x=[3, 1, 4]) on t(time, x, y) chunked along time: before, the blocks were
    // permuted to put x first, taken, and permuted back (three block copies per task)
    NDArray a = EngineTestSupport.randomDoubles(9, 12 * 7 * 5).reshape(12, 7, 5);
    CubedArray c = Cubed.fromArray(a, new long[] {4, 7, 5}, spec());
    NDArray idx = NDArray.zeros(DType.INT64, 3);
    idx.setLong(0, 3);
    idx.setLong(1, -6);
    idx.setLong(2, 4);
    List<String> ops = Collections.synchronizedList(new ArrayList<>());
    dev.cubed.runtime.Callback cb =
        new dev.cubed.runtime.Callback() {
          @Override
          public void onTaskEnd(dev.cubed.runtime.Events.TaskEnd e) {
            ops.add(e.opName());
          }
        };
    NDArray got =
        Cubed.compute(
                ComputeOptions.executor(new dev.cubed.runtime.ThreadsExecutor(1, 1))
                    .withCallback(cb),
                XpIndexing.getItem(c, new int[] {1}, idx))
            .get(0);
    assertNull(
        DifferentialTest.compare(
            reference(a, new int[] {1}, new NDArray[] {idx}), got, false, 1, false));
    assertEquals(3, ops.size(), "one task per input block along the time axis: " + ops);
    assertTrue(
        ops.stream().allMatch(n -> n.startsWith("take")),
        "one take op, no permutation of the blocks: " + ops);
  }

  @Test
  void indexingAnInputLargerThanAllowedMemTimesWorkersAndErrors() {
    Random r = new Random(501);
    NDArray a = EngineTestSupport.randomDoubles(7, 200 * 40).reshape(200, 40); // 64 KB
    CubedArray c = Cubed.fromArray(a, new long[] {10, 5}, spec());
    NDArray i0 = indices(r, 200, new long[] {30, 1}, false);
    NDArray i1 = indices(r, 40, new long[] {1, 20}, false);
    NDArray got = XpIndexing.getItem(c, i0, i1).compute();
    assertNull(
        DifferentialTest.compare(
            reference(a, new int[] {0, 1}, new NDArray[] {i0, i1}), got, false, 1, false));
    NDArray rows = indices(r, 200, new long[] {300}, false);
    assertNull(
        DifferentialTest.compare(
            reference(a, new int[] {0}, new NDArray[] {rows}),
            XpIndexing.getItem(c, rows).compute(),
            false,
            1,
            false));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> XpIndexing.getItem(c, NDArray.full(DType.INT64, 200L, 2)));
    assertTrue(
        e.getMessage().contains("index 200 is out of bounds for axis 0 with size 200"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> XpIndexing.getItem(c, NDArray.zeros(DType.FLOAT64, 2)));
    assertTrue(e.getMessage().contains("integer dtype"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                XpIndexing.getItem(
                    c, NDArray.zeros(DType.INT64, 2), NDArray.zeros(DType.INT64, 3)));
    assertTrue(e.getMessage().contains("broadcast"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                XpIndexing.getItem(
                    c,
                    new int[] {1, 1},
                    NDArray.zeros(DType.INT64, 2),
                    NDArray.zeros(DType.INT64, 2)));
    assertTrue(e.getMessage().contains("indexed twice"), e.getMessage());
  }
}
