package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.CountingStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link XpGroupby#groupbyReduce}: values against a direct loop (NaNs, skipna on and off, a group
 * no element belongs to, labels of no group), and the plan of a groupby mean over a stored array:
 * each stored chunk read once (counted at the store and in the plan's figures), a bounded number of
 * ops.
 */
class XpGroupbyTest {
  @TempDir Path dir;

  static final int T = 40;
  static final int C = 8;
  static final int X = 6;
  static final int G = 4; // group 3 has no element

  private Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("200MB").workers(2).build();
  }

  private static double[] values() {
    double[] v = new double[T * X];
    for (int i = 0; i < v.length; i++) {
      v[i] = i % 7 == 3 ? Double.NaN : Math.sin(0.41 * i) * 10;
    }
    // a (row 0, column 1) cell of group 0 whose every element is NaN
    for (int t = 0; t < T; t++) {
      if (label(t) == 0) {
        v[t * X + 1] = Double.NaN;
      }
    }
    return v;
  }

  private static long label(int t) {
    return t % 9 == 4 ? -1 : (t * 7 / 3) % 3;
  }

  private static NDArray codes() {
    long[] c = new long[T];
    for (int t = 0; t < T; t++) {
      c[t] = label(t);
    }
    return NDArray.of(c, T);
  }

  /** The reduction of group g at column j by a direct loop. */
  private static double expected(double[] v, String func, boolean skipna, int g, int j) {
    double sum = 0;
    double min = Double.NaN;
    double max = Double.NaN;
    long n = 0;
    boolean sawNan = false;
    for (int t = 0; t < T; t++) {
      if (label(t) != g) {
        continue;
      }
      double e = v[t * X + j];
      if (Double.isNaN(e)) {
        sawNan = true;
        if (skipna) {
          continue;
        }
      }
      n++;
      sum += e;
      min = Double.isNaN(min) || e < min ? e : min;
      max = Double.isNaN(max) || e > max ? e : max;
    }
    boolean nan = sawNan && !skipna;
    return switch (func) {
      case "sum" -> sum;
      case "count" -> n;
      case "mean" -> nan ? Double.NaN : sum / n;
      case "min" ->
          nan ? Double.NaN : n == 0 ? (skipna ? Double.NaN : Double.POSITIVE_INFINITY) : min;
      default -> nan ? Double.NaN : n == 0 ? (skipna ? Double.NaN : Double.NEGATIVE_INFINITY) : max;
    };
  }

  @Test
  void everyFunctionMatchesADirectLoopWithNaNs() {
    double[] v = values();
    CubedArray x = Cubed.fromArray(NDArray.of(v, T, X), new long[] {C, 4}, spec());
    for (String func : List.of("sum", "count", "mean", "min", "max")) {
      for (boolean skipna : List.of(true, false)) {
        NDArray r = XpGroupby.groupbyReduce(x, codes(), 0, G, func, skipna).compute();
        assertThat(r.shape()).containsExactly(G, X);
        assertThat(r.dtype()).isEqualTo(func.equals("count") ? DType.INT64 : DType.FLOAT64);
        for (int g = 0; g < G; g++) {
          for (int j = 0; j < X; j++) {
            double want =
                func.equals("count") && !skipna
                    ? expected(v, func, true, g, j) // count never counts NaN
                    : expected(v, func, skipna, g, j);
            double got = r.getDouble(g * X + j);
            String at = func + " skipna=" + skipna + " group " + g + " column " + j;
            if (Double.isNaN(want)) {
              assertThat(got).as(at).isNaN();
            } else {
              assertThat(got).as(at).isCloseTo(want, org.assertj.core.data.Offset.offset(1e-9));
            }
          }
        }
      }
    }
  }

  @Test
  void varAndStdMatchATwoPassLoop() {
    double[] v = values();
    CubedArray x = Cubed.fromArray(NDArray.of(v, T, X), new long[] {C, 4}, spec());
    for (int ddof : new int[] {0, 1}) {
      for (boolean skipna : List.of(true, false)) {
        NDArray var = XpGroupby.groupbyReduce(x, codes(), 0, G, "var", skipna, ddof).compute();
        NDArray std = XpGroupby.groupbyReduce(x, codes(), 0, G, "std", skipna, ddof).compute();
        for (int g = 0; g < G; g++) {
          for (int j = 0; j < X; j++) {
            double mean = expected(v, "mean", skipna, g, j);
            double n = expected(v, "count", true, g, j);
            double ss = 0;
            boolean nan = Double.isNaN(mean);
            for (int t = 0; t < T && !nan; t++) {
              double e = v[t * X + j];
              if (label(t) == g && !Double.isNaN(e)) {
                ss += (e - mean) * (e - mean);
              }
            }
            double want = nan || n - ddof <= 0 ? Double.NaN : ss / (n - ddof);
            String at = "var ddof=" + ddof + " skipna=" + skipna + " group " + g + " col " + j;
            if (Double.isNaN(want)) {
              assertThat(var.getDouble(g * X + j)).as(at).isNaN();
            } else {
              assertThat(var.getDouble(g * X + j))
                  .as(at)
                  .isCloseTo(want, org.assertj.core.data.Offset.offset(1e-9 * (1 + want)));
              assertThat(std.getDouble(g * X + j))
                  .as(at)
                  .isCloseTo(Math.sqrt(want), org.assertj.core.data.Offset.offset(1e-9));
            }
          }
        }
      }
    }
  }

  @Test
  void sortedCodesGiveTheMapReduceResultsInTwoOps() {
    // sorted labels: groups of 1 to 19 elements (one spans three blocks of 8), an empty group 4,
    // two elements of no group, trailing empty groups 9 and 10
    long[] lab = new long[T];
    int[] len = {3, 19, 1, 5, 0, 4, 2, 2, 4};
    int t = 0;
    for (int q = 0; q < len.length; q++) {
      for (int i = 0; i < len[q]; i++) {
        lab[t++] = q;
      }
    }
    lab[5] = -1;
    lab[30] = -1;
    NDArray codes = NDArray.of(lab, T);
    double[] v = values();
    CubedArray x = Cubed.fromArray(NDArray.of(v, T, X), new long[] {C, 4}, spec());
    for (String func : List.of("sum", "count", "mean", "min", "max", "var", "std")) {
      for (boolean skipna : List.of(true, false)) {
        NDArray want = XpGroupby.groupbyReduce(x, codes, 0, 11, func, skipna, 1).compute();
        CubedArray s = XpGroupby.groupbyReduceSorted(x, codes, 0, 11, func, skipna, 1);
        assertThat(Cubed.plan(List.of(s)).summary().ops()).as(func).hasSizeLessThanOrEqualTo(2);
        NDArray got = s.compute();
        assertThat(got.dtype()).isEqualTo(want.dtype());
        assertThat(got.shape()).containsExactly(11, X);
        for (int i = 0; i < 11 * X; i++) {
          String at = func + " skipna=" + skipna + " element " + i;
          if (Double.isNaN(want.getDouble(i))) {
            assertThat(got.getDouble(i)).as(at).isNaN();
          } else {
            assertThat(got.getDouble(i))
                .as(at)
                .isCloseTo(
                    want.getDouble(i),
                    org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.abs(want.getDouble(i)))));
          }
        }
      }
    }
    assertThat(XpGroupby.sortedCodes(codes)).isTrue();
    assertThat(XpGroupby.sortedCodes(codes())).isFalse();
    assertThatThrownBy(() -> XpGroupby.groupbyReduceSorted(x, codes(), 0, G, "mean", true, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not sorted");
  }

  @Test
  void integersKeepTheirDtypeForSumMinMax() {
    long[] v = new long[T * X];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i * 37L) % 101 - 50;
    }
    CubedArray x = Cubed.fromArray(NDArray.of(v, T, X), new long[] {C, X}, spec());
    NDArray s = XpGroupby.groupbyReduce(x, codes(), 0, G, "sum", true).compute();
    NDArray mn = XpGroupby.groupbyReduce(x, codes(), 0, G, "min", true).compute();
    NDArray mean = XpGroupby.groupbyReduce(x, codes(), 0, G, "mean", true).compute();
    assertThat(s.dtype()).isEqualTo(DType.INT64);
    assertThat(mn.dtype()).isEqualTo(DType.INT64);
    assertThat(mean.dtype()).isEqualTo(DType.FLOAT64);
    for (int j = 0; j < X; j++) {
      long sum = 0;
      long min = Long.MAX_VALUE;
      int n = 0;
      for (int t = 0; t < T; t++) {
        if (label(t) == 1) {
          sum += v[t * X + j];
          min = Math.min(min, v[t * X + j]);
          n++;
        }
      }
      assertThat(s.getLong(X + j)).isEqualTo(sum);
      assertThat(mn.getLong(X + j)).isEqualTo(min);
      assertThat(mean.getDouble(X + j))
          .isCloseTo((double) sum / n, org.assertj.core.data.Offset.offset(1e-12));
      assertThat(mn.getLong(3 * X + j)).isEqualTo(Long.MAX_VALUE); // no element: the identity
    }
  }

  @Test
  void meanOverAStoredArrayReadsEachChunkOnceInAFewOps() {
    CountingStore store = new CountingStore();
    ZarrArray z =
        ZarrArray.create(store, "t").shape(T, X).chunks(T / 4, X).dtype(DType.FLOAT64).build();
    double[] v = values();
    z.write(new long[] {0, 0}, NDArray.of(v, T, X));
    CubedArray x = Cubed.fromZarr(z, spec());
    CubedArray m = XpGroupby.groupbyReduce(x, codes(), 0, G, "mean", true);
    PlanSummary s = Cubed.plan(List.of(m)).summary();
    long inputBytes = 8L * T * X;
    // one op of per-block states (the sum and the count together) fused with the merge of the
    // blocks' states, and the finish: at most 2 ops, reading the input's bytes once (the figure
    // counts a merging task's most blocks: 4 blocks, merged 4 per task, make it exact)
    assertThat(s.ops()).hasSizeLessThanOrEqualTo(2);
    assertThat(s.totalBytesRead()).isLessThanOrEqualTo(inputBytes);
    store.reads.clear();
    NDArray r = m.compute();
    Map<String, Integer> reads =
        store.reads.entrySet().stream()
            .filter(e -> e.getKey().startsWith("t/"))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    assertThat(reads).hasSize(4).allSatisfy((k, n) -> assertThat(n).as(k).isOne());
    assertThat(r.getDouble(2 * X + 3))
        .isCloseTo(expected(v, "mean", true, 2, 3), org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void refusesAnUnknownFunction() {
    CubedArray x = Cubed.fromArray(NDArray.of(values(), T, X), new long[] {C, X}, spec());
    assertThatThrownBy(() -> XpGroupby.groupbyReduce(x, codes(), 0, G, "median", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not one of sum, count, mean, min, max, var, std");
  }
}
