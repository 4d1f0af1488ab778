package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.sort.Sorting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chunked sort and argsort against the kernel. Small shapes of every real dtype and bool over
 * every axis take the one-task path at 4 KB allowedMem; 1-d and 2-d inputs of a few thousand
 * elements at 40 KB allowedMem (larger than allowedMem x workers) take the distributed sample sort
 * (checked in the plan), with NaNs, signed zeros, all-equal, sorted and reverse-sorted data,
 * regular (partial edge) and irregular chunks, both directions.
 */
class SortTest extends ChunkedVsKernel {
  static final DType[] REAL = {
    DType.BOOL,
    DType.INT8,
    DType.INT16,
    DType.INT32,
    DType.INT64,
    DType.UINT8,
    DType.UINT16,
    DType.UINT32,
    DType.UINT64,
    DType.FLOAT32,
    DType.FLOAT64
  };

  @Test
  void smallShapesEveryAxisAgreeWithKernel() {
    Random r = new Random(41);
    for (DType t : DiffData.DTYPES) {
      In x = input(r, t, shape(r, 1));
      check("sort default " + t, () -> Sorting.sort(x.k()), () -> Xp.sort(x.c()), false);
      for (int ax = 0; ax < x.k().ndim(); ax++) {
        boolean desc = r.nextBoolean();
        Sorting.Order o = desc ? Sorting.Order.DESCENDING : Sorting.Order.ASCENDING;
        String d = t + Arrays.toString(x.k().shape()) + " axis " + ax + " desc " + desc;
        List<NDArray> got =
            Cubed.compute(Xp.sort(x.c(), ax, desc, true), Xp.argsort(x.c(), ax, desc, false));
        assertBitsEqual("sort " + d, Sorting.sort(x.k(), ax, o), got.get(0));
        assertBitsEqual("argsort " + d, Sorting.argsort(x.k(), ax, o), got.get(1));
        compared += 2;
      }
    }
    assertNoFailures();
  }

  Spec bigSpec() {
    return Spec.builder().workDir(dir).allowedMem(40_000).reservedMem(1000).workers(2).build();
  }

  /** A distributed input: kind 0 random, 1 all equal, 2 sorted, 3 reverse sorted. */
  static NDArray data(Random r, DType t, int n, int kind) {
    NDArray a = DiffData.array(r, t, new long[] {n});
    if (kind == 1) {
      NDArray c = NDArray.zeros(t, n);
      for (int i = 0; i < n; i++) {
        c.setObject(i, a.getObject(0));
      }
      return c;
    }
    if (kind >= 2) {
      return Sorting.sort(a, 0, kind == 2 ? Sorting.Order.ASCENDING : Sorting.Order.DESCENDING);
    }
    return a;
  }

  CubedArray chunked(Random r, NDArray a) {
    long n = a.shape()[0];
    if (r.nextBoolean()) {
      return Cubed.fromArray(a, new long[] {100 + r.nextInt(300)}, bigSpec());
    }
    List<Long> sizes = new ArrayList<>();
    long left = n;
    while (left > 0) {
      long s = Math.min(left, 1 + r.nextInt(350));
      sizes.add(s);
      left -= s;
    }
    return Cubed.fromArray(
        a, new long[][] {sizes.stream().mapToLong(Long::longValue).toArray()}, bigSpec());
  }

  static void assertBitsEqual(String what, NDArray want, NDArray got) {
    assertEquals(want.dtype(), got.dtype(), what);
    assertTrue(Arrays.equals(want.shape(), got.shape()), what);
    for (int i = 0; i < want.size(); i++) {
      boolean ok;
      if (want.dtype().isRealFloating()) {
        double w = want.getDouble(i);
        double g = got.getDouble(i);
        ok =
            Double.isNaN(w)
                ? Double.isNaN(g)
                : Double.doubleToRawLongBits(w) == Double.doubleToRawLongBits(g);
      } else {
        ok = want.getObject(i).equals(got.getObject(i));
      }
      if (!ok) {
        throw new AssertionError(
            what + ": element " + i + " is " + got.getObject(i) + ", want " + want.getObject(i));
      }
    }
  }

  /** Kind k covers every 4th dtype from k (and float64), so each dtype runs in one kind. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void distributedSortAgreesWithKernel(int kind) {
    Random r = new Random(100 + kind);
    List<DType> types = new ArrayList<>();
    for (int i = kind; i < REAL.length; i += 4) {
      types.add(REAL[i]);
    }
    if (!types.contains(DType.FLOAT64)) {
      types.add(DType.FLOAT64);
    }
    for (DType t : types) {
      // float64 of kind 0: 12,000 values (96 KB), larger than allowedMem x workers (80 KB)
      int n = kind == 0 && t == DType.FLOAT64 ? 12_000 : 2500;
      NDArray a = data(r, t, n, kind);
      CubedArray c = chunked(r, a);
      boolean desc = r.nextBoolean();
      Sorting.Order o = desc ? Sorting.Order.DESCENDING : Sorting.Order.ASCENDING;
      String what = t + " kind " + kind + " desc " + desc;
      CubedArray s = Xp.sort(c, 0, desc, true);
      assertTrue(s.plan().toString().contains("sort_buckets"), what + ": " + s.plan());
      assertTrue(Arrays.deepEquals(c.chunks(), s.chunks()), what + ": input's chunks");
      CubedArray as = Xp.argsort(c, 0, desc, true);
      List<NDArray> got = Cubed.compute(s, as);
      assertBitsEqual("sort " + what, Sorting.sort(a, 0, o), got.get(0));
      assertBitsEqual("argsort " + what, Sorting.argsort(a, 0, o), got.get(1));
    }
  }

  @Test
  void distributedLanesOfTwoDimensionalArrays() {
    Random r = new Random(7);
    NDArray a = EngineTestSupport.randomDoubles(11, 3, 1500);
    for (int i = 0; i < a.size(); i += 97) {
      a.setDouble(i, i % 2 == 0 ? Double.NaN : -0.0);
    }
    CubedArray c = Cubed.fromArray(a, new long[] {2, 400}, bigSpec());
    CubedArray s = Xp.sort(c, 1, true, true);
    assertTrue(s.plan().toString().contains("sort_buckets"), "distributed");
    NDArray t = a.permuteDims(1, 0).copy();
    CubedArray ct = Cubed.fromArray(t, new long[] {300, 2}, bigSpec());
    List<NDArray> got = Cubed.compute(s, Xp.argsort(ct, 0), Xp.sort(ct, -2));
    assertBitsEqual(
        "sort axis 1 descending", Sorting.sort(a, 1, Sorting.Order.DESCENDING), got.get(0));
    assertBitsEqual("argsort axis 0", Sorting.argsort(t, 0, Sorting.Order.ASCENDING), got.get(1));
    assertBitsEqual("sort axis -2", Sorting.sort(t, 0, Sorting.Order.ASCENDING), got.get(2));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Xp.sort(
                    Cubed.fromArray(
                        NDArray.zeros(DType.COMPLEX128, 3000), new long[] {300}, bigSpec())));
    assertTrue(e.getMessage().contains("complex"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Xp.sort(Xp.sum(c)));
  }
}
