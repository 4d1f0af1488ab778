package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.sort.Sets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * unique_values/counts/inverse/all and masks over leading dimensions against the kernel: small
 * shapes of every real dtype and bool at 4 KB allowedMem (one-task sort), and 1-d inputs of a few
 * thousand elements at 40 KB allowedMem (larger than allowedMem x workers) that take the
 * distributed sample sort, with NaNs (each distinct), signed zeros, few distinct values and all
 * equal values.
 */
class UniqueAndMaskTest extends ChunkedVsKernel {
  @Test
  void smallUniqueAgreesWithKernel() {
    Random r = new Random(51);
    for (DType t : SortTest.REAL) {
      In x = input(r, t, shape(r, 0));
      String d = t + Arrays.toString(x.k().shape());
      assertUniqueAll(d, Sets.uniqueAll(x.k()), Xp.uniqueAll(x.c()));
      switch (t.ordinal() % 3) {
        case 0 ->
            check(
                "unique_values " + d,
                () -> Sets.uniqueValues(x.k()),
                () -> Xp.uniqueValues(x.c()),
                false);
        case 1 ->
            check(
                "unique_counts " + d,
                () -> Sets.uniqueCounts(x.k()).counts(),
                () -> Xp.uniqueCounts(x.c()).counts(),
                false);
        default ->
            check(
                "unique_inverse " + d,
                () -> Sets.uniqueInverse(x.k()).inverseIndices(),
                () -> Xp.uniqueInverse(x.c()).inverseIndices(),
                false);
      }
      compared += 4;
    }
    assertNoFailures();
  }

  @Test
  void distributedUniqueAgreesWithKernel() {
    Random r = new Random(52);
    Spec spec = Spec.builder().workDir(dir).allowedMem(40_000).reservedMem(1000).workers(2).build();
    DType[] types = {DType.FLOAT64, DType.INT16, DType.BOOL};
    for (int k = 0; k < types.length; k++) {
      DType t = types[k];
      // float64: 10,500 values (84 KB), larger than allowedMem x workers (80 KB)
      NDArray a = NDArray.zeros(t, k == 0 ? 10_500 : 3000);
      for (int i = 0; i < a.size(); i++) {
        if (t.isBool()) {
          a.setBoolean(i, k == 2 || r.nextBoolean());
        } else if (t.isRealFloating() && r.nextInt(50) == 0) {
          a.setDouble(i, Double.NaN);
        } else if (t.isRealFloating() && r.nextInt(20) == 0) {
          a.setDouble(i, r.nextBoolean() ? -0.0 : 0.0);
        } else {
          a.setLong(i, r.nextInt(k == 0 ? 2000 : 40) - 10);
        }
      }
      CubedArray c = Cubed.fromArray(a, new long[] {150 + 50 * k}, spec);
      Uniques.All all = Xp.uniqueAll(c);
      assertTrue(all.values().plan().toString().contains("sort_buckets"), t + ": distributed");
      Sets.UniqueAll want = Sets.uniqueAll(a);
      assertUniqueAll(t.toString(), want, all);
      if (k == 1) {
        Uniques.Inverse ui = Xp.uniqueInverse(Xp.reshape(c, 30, 100));
        SortTest.assertBitsEqual(
            "unique_inverse 2-d " + t,
            want.inverseIndices().reshape(30, 100),
            ui.inverseIndices().compute());
      }
    }
    // complex: grouped when the sort fits one task (StandardFormsTest); the distributed sort
    // orders real values only, so a larger complex array is refused when built
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Xp.uniqueValues(
                    Cubed.fromArray(
                        NDArray.zeros(DType.COMPLEX128, 10_500), new long[] {150}, spec)));
    assertTrue(e.getMessage().contains("allowedMem"), e.getMessage());
  }

  @Test
  void leadingMasksAgreeWithKernel() {
    Random r = new Random(53);
    int done = 0;
    for (int round = 0; round < 3; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 2));
        long[] s = x.k().shape();
        int k = 1 + r.nextInt(s.length - 1);
        In mask = input(r, DType.BOOL, Arrays.copyOf(s, k));
        check(
            "x[mask] " + t + Arrays.toString(s) + " k " + k,
            () -> Indexing.getMask(x.k(), mask.k()),
            () -> Xp.getMask(x.c(), mask.c()),
            false);
        done++;
      }
    }
    assertTrue(done > 30);
    assertNoFailures();
    // larger than allowedMem x workers, several blocks per axis
    NDArray a = EngineTestSupport.randomDoubles(9, 60, 50, 20); // 480 KB at 40 KB x 2
    Spec spec = Spec.builder().workDir(dir).allowedMem(40_000).reservedMem(1000).workers(2).build();
    CubedArray c = Cubed.fromArray(a, new long[] {3, 10, 20}, spec);
    NDArray m = Elementwise.greater(EngineTestSupport.randomDoubles(10, 60, 50), 0.5);
    CubedArray cm = Cubed.fromArray(m, new long[] {13, 9}, spec);
    CubedArray sel = Xp.getMask(c, cm);
    NDArray want = Indexing.getMask(a, m);
    assertEquals(2, sel.ndim());
    SortTest.assertBitsEqual("x[mask] leading", want, sel.compute());
    IndexOutOfBoundsException e =
        assertThrows(
            IndexOutOfBoundsException.class,
            () ->
                Xp.getMask(
                    c, Cubed.fromArray(NDArray.zeros(DType.BOOL, 50), new long[] {5}, spec)));
    assertTrue(e.getMessage().contains("prefix"), e.getMessage());
  }

  /** The four results of unique_all computed together, each bit-equal to the kernel's. */
  static void assertUniqueAll(String what, Sets.UniqueAll want, Uniques.All all) {
    List<NDArray> got =
        Cubed.compute(all.values(), all.indices(), all.inverseIndices(), all.counts());
    SortTest.assertBitsEqual("values " + what, want.values(), got.get(0));
    SortTest.assertBitsEqual("indices " + what, want.indices(), got.get(1));
    SortTest.assertBitsEqual("inverse " + what, want.inverseIndices(), got.get(2));
    SortTest.assertBitsEqual("counts " + what, want.counts(), got.get(3));
  }
}
