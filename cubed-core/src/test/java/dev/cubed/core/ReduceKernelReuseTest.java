package dev.cubed.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * First-round states written into a reused array ({@link ReduceKernel#initial} with a buffer) equal
 * new ones bit for bit for every kind, whatever the buffer held; a buffer of another shape or dtype
 * is left alone. In-place merges into a box ({@link SumRows#combineAt}) equal {@link
 * ReduceKernel#combine} on a copy of the box, and are refused (nothing changed) where the merge is
 * not one addition per entry or the box is not contiguous.
 */
class ReduceKernelReuseTest {
  private static NDArray random(DType t, long[] shape, Random r) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      switch (t.kind()) {
        case BOOL -> a.setBoolean(i, r.nextBoolean());
        case FLOAT -> a.setDouble(i, r.nextInt(7) == 0 ? Double.NaN : r.nextGaussian() * 1e3);
        case UNSIGNED -> a.setLong(i, r.nextInt(7));
        default -> a.setLong(i, r.nextInt(9) - 4);
      }
    }
    return a;
  }

  private static NDArray garbage(NDArray like) {
    NDArray g = NDArray.zeros(like.dtype(), like.shape());
    Object d = g.data();
    if (d instanceof double[] x) {
      Arrays.fill(x, -7.25);
    } else {
      Arrays.fill((long[]) d, -7L);
    }
    return g;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void statesIntoAReusedArrayEqualNewOnes(int seed) {
    Random r = new Random(seed);
    long[] shape = {1 + r.nextInt(4), 1 + r.nextInt(3), 1 + r.nextInt(40)};
    boolean[][] reds = {
      {true, false, false}, {false, false, true}, {true, true, false}, {false, true, false}
    };
    for (DType t : new DType[] {DType.FLOAT64, DType.INT64, DType.UINT8, DType.BOOL}) {
      NDArray x = random(t, shape, r);
      for (boolean[] red : reds) {
        for (ReduceKernel.Kind k : ReduceKernel.Kind.values()) {
          boolean numeric = t != DType.BOOL;
          if (!numeric && (k == ReduceKernel.Kind.MEAN || k == ReduceKernel.Kind.VAR)) {
            continue;
          }
          if (k.isNan() && !t.isRealFloating()) {
            continue; // the NaN-skipping kernel takes float32/float64 only
          }
          int argAxis = k.isArg() ? (red[2] ? 2 : red[0] ? 0 : 1) : 0;
          if (k.isArg() && countTrue(red) != 1) {
            continue;
          }
          NDArray want = ReduceKernel.initial(k, x, red, argAxis, 5);
          NDArray buf = garbage(want);
          NDArray got = ReduceKernel.initial(k, x, red, argAxis, 5, buf);
          String what = k + " of " + t + " red " + Arrays.toString(red);
          assertSame(buf, got, what);
          assertEquals(want, got, what);
          // a buffer of another shape: a new array, the buffer as it was
          NDArray wrong = garbage(NDArray.zeros(want.dtype(), want.size() + 1));
          NDArray before = wrong.copy();
          NDArray got2 = ReduceKernel.initial(k, x, red, argAxis, 5, wrong);
          assertNotSame(wrong, got2, what);
          assertEquals(want, got2, what);
          assertEquals(before, wrong, what);
        }
      }
    }
  }

  private static int countTrue(boolean[] b) {
    int n = 0;
    for (boolean v : b) {
      n += v ? 1 : 0;
    }
    return n;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void inPlaceMergesEqualMergesOfACopy(int seed) {
    Random r = new Random(seed);
    // a state (A, B, C, fields) and a box of it: rows of C (contiguous) or a column (not)
    long a0 = 2 + r.nextInt(3);
    long b0 = 2 + r.nextInt(4);
    long c0 = 1 + r.nextInt(30);
    for (ReduceKernel.Kind k :
        new ReduceKernel.Kind[] {
          ReduceKernel.Kind.SUM,
          ReduceKernel.Kind.MEAN,
          ReduceKernel.Kind.MAX,
          ReduceKernel.Kind.PROD
        }) {
      for (DType t : new DType[] {DType.FLOAT64, DType.INT64}) {
        DType st = k == ReduceKernel.Kind.MEAN ? DType.FLOAT64 : t;
        long f = k.fields();
        long[] full = {a0, b0, c0, f};
        NDArray into = random(st, full, r);
        long rows = 1 + r.nextInt((int) b0);
        long[] at = {r.nextInt((int) a0), r.nextInt((int) (b0 - rows + 1)), 0, 0};
        // contiguous: whole rows of C (and fields) from `at`
        long[] box = {1, rows, c0, f};
        NDArray state = random(st, box, r);
        NDArray want = into.copy();
        NDArray region = want.getRegion(at, box);
        ReduceKernel.combine(k, region, state);
        want.setRegion(at, region);
        boolean additive = k == ReduceKernel.Kind.SUM || k == ReduceKernel.Kind.MEAN;
        NDArray got = into.copy();
        String what = k + " " + st + " at " + Arrays.toString(at) + " box " + Arrays.toString(box);
        assertEquals(additive, SumRows.combineAt(k, got, at, state), what);
        assertEquals(additive ? want : into, got, what);
        // not contiguous (part of C on more than one row): refused, nothing changed
        if (c0 > 1 && rows > 1) {
          long[] part = {1, rows, c0 - 1, f};
          NDArray st2 = random(st, part, r);
          NDArray got2 = into.copy();
          assertFalse(SumRows.combineAt(k, got2, at, st2), what);
          assertEquals(into, got2, what);
        }
      }
    }
  }

  @Test
  void complexSumsAreNotMergedInPlace() {
    NDArray into = NDArray.zeros(DType.COMPLEX128, 2, 3, 1);
    NDArray st = NDArray.ones(DType.COMPLEX128, 1, 3, 1);
    assertFalse(SumRows.combineAt(ReduceKernel.Kind.SUM, into, new long[] {1, 0, 0}, st));
    assertEquals(NDArray.zeros(DType.COMPLEX128, 2, 3, 1), into);
    // a contiguous float64 sum at a row offset: merged
    NDArray f = NDArray.zeros(DType.FLOAT64, 2, 3, 1);
    assertTrue(
        SumRows.combineAt(
            ReduceKernel.Kind.SUM, f, new long[] {1, 0, 0}, NDArray.ones(DType.FLOAT64, 1, 3, 1)));
    assertEquals(3.0, f.getDouble(3) + f.getDouble(4) + f.getDouble(5));
    assertEquals(0.0, f.getDouble(0) + f.getDouble(1) + f.getDouble(2));
  }
}
