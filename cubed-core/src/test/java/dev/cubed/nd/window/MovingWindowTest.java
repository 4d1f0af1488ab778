package dev.cubed.nd.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.window.MovingWindow.Op;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The moving-window kernel against a brute-force reduction of each window (NumPy's semantics: NaN
 * propagation, nan-skipping, infinities, ddof), on every axis of a 3-d array with NaN, +-inf, runs
 * of NaN longer than the window, and more lanes than one tile.
 */
class MovingWindowTest {
  private static final long[] SHAPE = {5, 37, 3};

  private static NDArray data(DType t, long seed) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, SHAPE);
    for (int i = 0; i < a.size(); i++) {
      int k = r.nextInt(12);
      double v =
          k == 0
              ? Double.NaN
              : k == 1 && t.isRealFloating()
                  ? (r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY)
                  : r.nextInt(19) - 9 + (t.isRealFloating() ? r.nextInt(4) * 0.25 : 0);
      a.setDouble(i, t.isRealFloating() ? v : Double.isNaN(v) ? 3 : v);
    }
    if (t.isRealFloating()) {
      for (int j = 10; j < 20; j++) { // a run of NaN longer than most windows
        a.setDouble((2 * 37 + j) * 3 + 1, Double.NaN);
      }
    }
    return a;
  }

  /** NumPy's reduction of one window's values. */
  private static double brute(Op op, double[] v, int ddof) {
    boolean anyNan = Arrays.stream(v).anyMatch(Double::isNaN);
    double[] ok = Arrays.stream(v).filter(d -> !Double.isNaN(d)).toArray();
    switch (op) {
      case SUM:
        return anyNan ? Double.NaN : Arrays.stream(v).sum();
      case NANSUM:
        return Arrays.stream(ok).sum();
      case MEAN:
        return anyNan ? Double.NaN : Arrays.stream(v).sum() / v.length;
      case NANMEAN:
        return ok.length == 0 ? Double.NaN : Arrays.stream(ok).sum() / ok.length;
      case VAR:
      case STD:
      case NANVAR:
      case NANSTD:
        {
          boolean nan = op == Op.VAR || op == Op.STD;
          double[] u = nan ? v : ok;
          if ((nan && anyNan) || u.length - ddof <= 0) {
            return Double.NaN;
          }
          double m = Arrays.stream(u).sum() / u.length;
          double ss = Arrays.stream(u).map(d -> (d - m) * (d - m)).sum();
          double var = ss / (u.length - ddof);
          return op == Op.STD || op == Op.NANSTD ? Math.sqrt(var) : var;
        }
      case MIN:
        return anyNan ? Double.NaN : Arrays.stream(v).min().getAsDouble();
      case MAX:
        return anyNan ? Double.NaN : Arrays.stream(v).max().getAsDouble();
      case NANMIN:
        return ok.length == 0 ? Double.NaN : Arrays.stream(ok).min().getAsDouble();
      default:
        return ok.length == 0 ? Double.NaN : Arrays.stream(ok).max().getAsDouble();
    }
  }

  private static void check(NDArray x, int axis, int w, Op op, int ddof) {
    NDArray r = MovingWindow.reduce(x, axis, w, op, ddof);
    long[] shape = x.shape().clone();
    shape[axis] -= w - 1;
    assertThat(r.shape()).isEqualTo(shape);
    assertThat(r.dtype()).isEqualTo(MovingWindow.resultType(op, x.dtype()));
    long[] idx = new long[3];
    for (int f = 0; f < r.size(); f++) {
      idx[0] = f / (shape[1] * shape[2]);
      idx[1] = f / shape[2] % shape[1];
      idx[2] = f % shape[2];
      double[] v = new double[w];
      for (int k = 0; k < w; k++) {
        long[] at = idx.clone();
        at[axis] += k;
        v[k] = x.getDouble(x.flatIndex(at));
      }
      double want = brute(op, v, ddof);
      double got = r.getDouble(f);
      String where = op + " axis " + axis + " w " + w + " at " + Arrays.toString(idx);
      if (Double.isNaN(want)) {
        assertThat(Double.isNaN(got)).as(where + " got " + got).isTrue();
      } else if (Double.isInfinite(want)) {
        assertThat(got).as(where).isEqualTo(want);
      } else {
        double tol = x.dtype() == DType.FLOAT32 && !r.dtype().isInteger() ? 1e-5 : 1e-9;
        assertThat(got)
            .as(where)
            .isCloseTo(
                want, org.assertj.core.data.Offset.offset(tol * Math.max(1, Math.abs(want))));
      }
    }
  }

  @Test
  void everyOpOnEveryAxisMatchesTheWindowsReducedOneByOne() {
    for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      NDArray x = data(t, 7);
      for (Op op : Op.values()) {
        for (int axis = 0; axis < 3; axis++) {
          for (int w : new int[] {1, 2, 3, 5}) {
            if (w <= SHAPE[axis]) {
              check(x, axis, w, op, op.name().contains("VAR") || op.name().contains("STD") ? 1 : 0);
            }
          }
        }
      }
    }
  }

  @Test
  void integersSumExactlyAndKeepTheirDtypeForMinAndMax() {
    for (DType t : new DType[] {DType.INT32, DType.INT64, DType.UINT8, DType.INT16}) {
      NDArray x = data(t, 11);
      for (Op op : Op.values()) {
        check(x, 1, 4, op, 0);
      }
    }
    NDArray big = NDArray.of(new long[] {Long.MAX_VALUE - 2, 1, 1, -5, Long.MIN_VALUE}, 5);
    NDArray s = MovingWindow.reduce(big, 0, 2, Op.SUM, 0);
    assertThat((long[]) s.data())
        .containsExactly(Long.MAX_VALUE - 1, 2, -4, Long.MIN_VALUE - 5); // wraps as NumPy
    NDArray b = NDArray.of(new boolean[] {true, false, true, true}, 4);
    assertThat(MovingWindow.reduce(b, 0, 2, Op.SUM, 0).dtype()).isEqualTo(DType.INT64);
    assertThat((boolean[]) MovingWindow.reduce(b, 0, 2, Op.MIN, 0).data())
        .containsExactly(false, false, true);
  }

  @Test
  void longSeriesOfLargeValuesKeepTheirPrecision() {
    // values around 1e8 with unit-scale variation: running sums of squares would lose the
    // variance to cancellation; Welford's update keeps it
    int n = 200_000;
    double[] v = new double[n];
    Random r = new Random(3);
    for (int i = 0; i < n; i++) {
      v[i] = 1e8 + r.nextGaussian();
    }
    v[1000] = 1e15; // a huge value that leaves the window again
    NDArray x = NDArray.of(v, n);
    int w = 30;
    NDArray var = MovingWindow.reduce(x, 0, w, Op.VAR, 0);
    NDArray sum = MovingWindow.reduce(x, 0, w, Op.SUM, 0);
    for (int j : new int[] {0, 5000, n / 2, n - w}) {
      double[] win = Arrays.copyOfRange(v, j, j + w);
      assertThat(var.getDouble(j))
          .isCloseTo(brute(Op.VAR, win, 0), org.assertj.core.data.Offset.offset(1e-6));
      assertThat(sum.getDouble(j))
          .isCloseTo(brute(Op.SUM, win, 0), org.assertj.core.data.Offset.offset(1e-5));
    }
  }

  @Test
  void badArgumentsAreRefusedWithTheReason() {
    NDArray x = NDArray.of(new double[] {1, 2, 3}, 3);
    assertThatThrownBy(() -> MovingWindow.reduce(x, 0, 4, Op.SUM, 0))
        .hasMessageContaining("window 4 must be between 1 and the axis' length 3");
    assertThatThrownBy(() -> MovingWindow.reduce(x, 1, 1, Op.SUM, 0))
        .hasMessageContaining("axis 1 is out of range");
    assertThatThrownBy(() -> Op.of("median")).hasMessageContaining("'median' is not one of");
    assertThatThrownBy(() -> MovingWindow.resultType(Op.SUM, DType.COMPLEX128))
        .hasMessageContaining("complex");
  }

  @Test
  void minCountGivesNaNForWindowsOfFewerValues() {
    NDArray x = data(DType.FLOAT64, 7);
    for (Op op : new Op[] {Op.NANSUM, Op.NANMEAN, Op.NANVAR, Op.NANSTD}) {
      for (int minCount : new int[] {1, 3, 5}) {
        NDArray plain = MovingWindow.reduce(x, 1, 5, op, 0);
        NDArray counted = MovingWindow.reduce(x, 1, 5, op, 0, minCount);
        for (int o = 0; o < 5; o++) {
          for (int j = 0; j < 33; j++) {
            for (int l = 0; l < 3; l++) {
              int valid = 0;
              for (int u = j; u < j + 5; u++) {
                valid += Double.isNaN(x.getDouble((o * 37 + u) * 3 + l)) ? 0 : 1;
              }
              int at = (o * 33 + j) * 3 + l;
              String where = op + " minCount " + minCount + " at " + at + " (" + valid + " valid)";
              if (valid < minCount) {
                assertThat(counted.getDouble(at)).as(where).isNaN();
              } else {
                assertThat(counted.getDouble(at))
                    .as(where)
                    .isEqualTo(plain.getDouble(at), org.assertj.core.data.Offset.offset(0.0));
              }
            }
          }
        }
      }
    }
    assertThatThrownBy(() -> MovingWindow.reduce(x, 1, 5, Op.MAX, 0, 2))
        .hasMessageContaining("minimum count");
  }
}
