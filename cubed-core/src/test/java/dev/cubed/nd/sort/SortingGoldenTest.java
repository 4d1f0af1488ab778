package dev.cubed.nd.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.GoldenCases;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.testing.NDAssert;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** sort/argsort against NumPy golden vectors (scripts/golden/sorting.py); exact comparisons. */
class SortingGoldenTest {

  @ParameterizedTest
  @EnumSource(DType.class)
  void matchesNumpy(DType dt) throws Exception {
    Map<String, NDArray> g = GoldenCases.load("sorting", dt.standardName());
    int cases = 0;
    for (int i = 0; g.containsKey("c" + i + "_x"); i++, cases++) {
      NDArray x = g.get("c" + i + "_x");
      int axis = (int) g.get("c" + i + "_axis").getLong(0);
      Sorting.Order order =
          g.get("c" + i + "_desc").getBoolean(0)
              ? Sorting.Order.DESCENDING
              : Sorting.Order.ASCENDING;
      String what = dt + " case " + i + " shape " + Shapes.format(x.shape()) + " " + order;
      NDAssert.assertExact(
          g.get("c" + i + "_argsort"), Sorting.argsort(x, axis, order), "argsort " + what);
      // exact, and -0.0/0.0 keep their input sign because the sort is stable
      NDArray sorted = Sorting.sort(x, axis, order);
      NDAssert.assertExact(g.get("c" + i + "_sort"), sorted, "sort " + what);
      NDArray want = g.get("c" + i + "_sort");
      if (dt == DType.FLOAT64 || dt == DType.FLOAT32) {
        for (int k = 0; k < want.size(); k++) {
          assertThat(
                  Double.doubleToRawLongBits(sorted.getDouble(k)) < 0
                          == Double.doubleToRawLongBits(want.getDouble(k)) < 0
                      || Double.isNaN(want.getDouble(k)))
              .as("sign of zero at " + k + " " + what)
              .isTrue();
        }
      }
    }
    assertThat(cases).isGreaterThan(10);
  }

  @Test
  void zeroDimAndBadAxisAreErrors() {
    NDArray s = NDArray.scalar(DType.FLOAT64, 1.0);
    assertThatThrownBy(() -> Sorting.sort(s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sort: axis -1");
    NDArray a = NDArray.zeros(DType.INT32, 2, 3);
    assertThatThrownBy(() -> Sorting.argsort(a, 2, Sorting.Order.ASCENDING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("argsort: axis 2");
  }

  /** Large random lanes go through the radix path; compare with a stable reference. */
  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"INT8", "INT32", "INT64", "UINT64", "FLOAT32", "FLOAT64"})
  void largeRandomMatchesReference(DType dt) {
    Random r = new Random(42 + dt.ordinal());
    int n = 20_000;
    NDArray x = NDArray.zeros(dt, n);
    for (int i = 0; i < n; i++) {
      if (dt.isRealFloating()) {
        x.setDouble(i, r.nextInt(50) == 0 ? Double.NaN : r.nextGaussian() * 1e3);
      } else {
        x.setLong(i, r.nextLong() >> r.nextInt(64));
      }
    }
    for (Sorting.Order order : Sorting.Order.values()) {
      NDArray idx = Sorting.argsort(x, 0, order);
      NDArray sorted = Sorting.sort(x, 0, order);
      Integer[] ref = new Integer[n];
      for (int i = 0; i < n; i++) {
        ref[i] = i;
      }
      boolean desc = order == Sorting.Order.DESCENDING;
      Arrays.sort(ref, (a, b) -> compare(x, a, b, desc));
      for (int i = 0; i < n; i++) {
        assertThat(idx.getLong(i)).as("%s %s at %d", dt, order, i).isEqualTo((long) ref[i]);
        assertThat(sorted.getObject(i)).isEqualTo(x.getObject(ref[i]));
      }
    }
  }

  /**
   * Above 2^20 keys the top-level buckets sort in parallel: check order, stability, permutation.
   */
  @Test
  void millionsOfFloatsAreSortedStably() {
    Random r = new Random(7);
    int n = (1 << 20) + 77;
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = r.nextInt(100) == 0 ? Double.NaN : (r.nextInt(1000) - 500) * 0.25 * r.nextDouble();
    }
    NDArray x = NDArray.of(d, n);
    for (Sorting.Order order : Sorting.Order.values()) {
      long[] idx = (long[]) Sorting.argsort(x, 0, order).data();
      double[] s = (double[]) Sorting.sort(x, 0, order).data();
      boolean desc = order == Sorting.Order.DESCENDING;
      boolean[] seen = new boolean[n];
      for (int i = 0; i < n; i++) {
        int p = (int) idx[i];
        assertThat(seen[p]).isFalse();
        seen[p] = true;
        assertThat(Double.compare(s[i] + 0.0, d[p] + 0.0)).isZero();
        if (i > 0) {
          int q = (int) idx[i - 1];
          int c = compare(x, q, p, desc);
          assertThat(c).as("%s order at %d", order, i).isLessThanOrEqualTo(0);
          if (c == 0) {
            assertThat(q).as("%s stability at %d", order, i).isLessThan(p);
          }
        }
      }
    }
  }

  private static int compare(NDArray x, int a, int b, boolean desc) {
    if (x.dtype().isRealFloating()) {
      double u = x.getDouble(a);
      double v = x.getDouble(b);
      if (Double.isNaN(u) || Double.isNaN(v)) {
        return Boolean.compare(Double.isNaN(u), Double.isNaN(v));
      }
      int c = Double.compare(u + 0.0, v + 0.0);
      return desc ? -c : c;
    }
    long u = x.getLong(a);
    long v = x.getLong(b);
    int c = x.dtype().isUnsigned() ? Long.compareUnsigned(u, v) : Long.compare(u, v);
    return desc ? -c : c;
  }
}
