package dev.cubed.nd.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sorts large enough to take the parallel radix path (>= 2^20 keys), against a stable reference
 * sort with NumPy's ordering (-0.0 and 0.0 equal and kept in input order, NaN last, also when
 * descending).
 */
class SortingLargeTest {
  private static double[] data(int n, long seed, String kind) {
    Random r = new Random(seed);
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] =
          switch (kind) {
            case "uniform" -> r.nextDouble();
            case "few" -> r.nextInt(7) - 3.0; // heavy duplicates
            case "special" ->
                switch (r.nextInt(8)) {
                  case 0 -> Double.NaN;
                  case 1 -> -0.0;
                  case 2 -> 0.0;
                  case 3 -> Double.NEGATIVE_INFINITY;
                  case 4 -> Double.POSITIVE_INFINITY;
                  default -> r.nextGaussian() * 1e300;
                };
            case "sorted" -> i * 0.5;
            default -> (n - i) * 0.25;
          };
    }
    return d;
  }

  /** NumPy's order on doubles: numeric, -0.0 == 0.0, NaN greater than everything. */
  private static int numpyCompare(double a, double b) {
    boolean na = Double.isNaN(a);
    boolean nb = Double.isNaN(b);
    if (na || nb) {
      return Boolean.compare(na, nb);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  @ParameterizedTest(name = "{0} n={1} {2}")
  @CsvSource({
    "uniform, 1048576, ASCENDING",
    "uniform, 1300001, DESCENDING",
    "few, 1100000, ASCENDING",
    "few, 1100000, DESCENDING",
    "special, 1200000, ASCENDING",
    "special, 1200000, DESCENDING",
    "sorted, 1048577, ASCENDING",
    "reversed, 1048600, ASCENDING"
  })
  void argsortIsStableAndSortMatches(String kind, int n, Sorting.Order order) {
    double[] d = data(n, n, kind);
    Comparator<Integer> cmp = (i, j) -> numpyCompare(d[i], d[j]);
    if (order == Sorting.Order.DESCENDING) {
      // descending stable sort (as the golden vectors define it): ties keep input order, NaN last
      cmp =
          (i, j) ->
              Double.isNaN(d[i]) || Double.isNaN(d[j])
                  ? numpyCompare(d[i], d[j])
                  : numpyCompare(d[j], d[i]);
    }
    Integer[] ref = IntStream.range(0, n).boxed().toArray(Integer[]::new);
    Arrays.sort(ref, cmp); // stable
    NDArray perm = Sorting.argsort(NDArray.of(d), -1, order);
    long[] p = (long[]) perm.data();
    for (int i = 0; i < n; i++) {
      if (p[i] != ref[i]) {
        throw new AssertionError(
            kind
                + " "
                + order
                + ": position "
                + i
                + " holds index "
                + p[i]
                + " ("
                + d[(int) p[i]]
                + "), expected "
                + ref[i]
                + " ("
                + d[ref[i]]
                + ")");
      }
    }
    double[] s = (double[]) Sorting.sort(NDArray.of(d), -1, order).data();
    for (int i = 0; i < n; i++) {
      double e = d[ref[i]];
      assertThat(
              Double.doubleToRawLongBits(s[i]) == Double.doubleToRawLongBits(e)
                  || (Double.isNaN(s[i]) && Double.isNaN(e)))
          .as("sort position %d", i)
          .isTrue();
    }
  }
}
