package dev.cubed.nd.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded checks of sort and argsort (through the radix paths) against a boxed stable sort with
 * NumPy's ordering: NaN last in both orders, -0.0 equal to 0.0, ties in input order. Sizes straddle
 * the switches of {@link RadixSort} (insertion / LSD / MSD / parallel buckets).
 */
class RadixSortTest {

  enum Kind {
    RANDOM,
    FEW_DISTINCT,
    SPECIALS,
    ALL_EQUAL,
    SORTED,
    REVERSED
  }

  static Stream<Arguments> cases() {
    int[] sizes = {0, 1, 2, 47, 48, 49, 4095, 4096, 4097, 70_000};
    List<Arguments> out = new ArrayList<>();
    long seed = 1;
    for (DType dt : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.INT64, DType.INT32}) {
      for (int n : sizes) {
        for (Kind k : Kind.values()) {
          for (Sorting.Order o : Sorting.Order.values()) {
            out.add(Arguments.of(dt, n, k, o, seed++));
          }
        }
      }
    }
    // the parallel bucket phase (>= 2^20 keys): a few cases only, they are slower
    int big = (1 << 20) + 3;
    out.add(Arguments.of(DType.FLOAT64, big, Kind.RANDOM, Sorting.Order.ASCENDING, 7L));
    out.add(Arguments.of(DType.FLOAT64, big, Kind.SPECIALS, Sorting.Order.DESCENDING, 8L));
    out.add(Arguments.of(DType.INT32, big, Kind.FEW_DISTINCT, Sorting.Order.ASCENDING, 9L));
    return out.stream();
  }

  @ParameterizedTest(name = "{0} n={1} {2} {3}")
  @MethodSource("cases")
  void sortAndArgsortMatchReference(DType dt, int n, Kind kind, Sorting.Order order, long seed) {
    double[] v = values(dt, n, kind, new Random(seed));
    NDArray x = array(dt, v);
    int[] ref = referenceArgsort(v, order);

    long[] got = (long[]) Sorting.argsort(x, -1, order).data();
    int[] gotI = new int[n];
    for (int i = 0; i < n; i++) {
      gotI[i] = (int) got[i];
    }
    assertThat(gotI).as("argsort").isEqualTo(ref);

    NDArray s = Sorting.sort(x, -1, order);
    for (int i = 0; i < n; i++) {
      double want = v[ref[i]];
      double have = s.getDouble(i);
      if (Double.doubleToRawLongBits(have) != Double.doubleToRawLongBits(want)
          && !(Double.isNaN(have) && Double.isNaN(want))) {
        throw new AssertionError(
            "sort " + dt + " n=" + n + " " + kind + " " + order + " at " + i + ": got " + have
                + ", want " + want);
      }
    }
  }

  private static int[] referenceArgsort(double[] v, Sorting.Order order) {
    boolean desc = order == Sorting.Order.DESCENDING;
    Comparator<Integer> cmp =
        (i, j) -> {
          double a = v[i];
          double b = v[j];
          boolean na = Double.isNaN(a);
          boolean nb = Double.isNaN(b);
          if (na || nb) {
            return Boolean.compare(na, nb); // NaN last in both orders
          }
          int c = a < b ? -1 : (a > b ? 1 : 0); // -0.0 == 0.0
          return desc ? -c : c;
        };
    Integer[] idx = new Integer[v.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, cmp); // stable (TimSort)
    return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
  }

  private static double[] values(DType dt, int n, Kind kind, Random r) {
    boolean fl = dt.isRealFloating();
    double[] v = new double[n];
    double[] specials =
        fl
            ? new double[] {
              Double.NaN,
              0.0,
              -0.0,
              Double.POSITIVE_INFINITY,
              Double.NEGATIVE_INFINITY,
              1.5,
              -1.5,
              Double.MIN_VALUE,
              -Double.MIN_VALUE
            }
            : (dt == DType.INT64
                ? new double[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1e15, -1e15}
                : new double[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 7, -7});
    for (int i = 0; i < n; i++) {
      v[i] =
          switch (kind) {
            case RANDOM ->
                fl
                    ? (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(12) - 6)
                    : (dt == DType.INT64 ? (double) (r.nextLong() >> 12) : r.nextInt());
            case FEW_DISTINCT -> r.nextInt(5) - 2;
            case SPECIALS ->
                r.nextInt(3) == 0 ? r.nextInt(100) - 50 : specials[r.nextInt(specials.length)];
            case ALL_EQUAL -> fl ? -0.0 : 3;
            case SORTED, REVERSED -> i - n / 2;
          };
    }
    if (kind == Kind.REVERSED) {
      for (int i = 0; i < n / 2; i++) {
        double t = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = t;
      }
    }
    if (dt == DType.FLOAT32) {
      for (int i = 0; i < n; i++) {
        v[i] = (float) v[i];
      }
    }
    return v;
  }

  private static NDArray array(DType dt, double[] v) {
    int n = v.length;
    return switch (dt) {
      case FLOAT64 -> NDArray.of(v.clone(), n);
      case FLOAT32 -> {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = (float) v[i];
        }
        yield NDArray.of(a, n);
      }
      case INT64 -> {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
          a[i] = (long) v[i];
        }
        yield NDArray.of(a, n);
      }
      default -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = (int) v[i];
        }
        yield NDArray.of(a, n);
      }
    };
  }
}
