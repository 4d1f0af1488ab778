package dev.cubed.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.reduce.Statistics;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first-round sum and mean states of {@link ReduceKernel#initial} over float64 blocks equal,
 * bit for bit, the additions in C order of the reduced elements of each state element, for leading
 * reduced axes (the tiled path) and for other kept last axes; with the last axis reduced, the rows'
 * run sums (eight partial sums, as the kernel's) added in C order. Seeded shapes.
 */
class ReduceKernelSumTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void sumAndMeanStatesEqualTheOrderedAdditions(int seed) {
    Random r = new Random(seed);
    long[] shape = {1 + r.nextInt(6), 1 + r.nextInt(2), 1 + r.nextInt(5), 1 + r.nextInt(3000)};
    boolean[][] reds = {
      {true, false, false, false},
      {true, true, false, false},
      {false, true, false, false},
      {true, false, true, false},
      {false, false, false, true}
    };
    NDArray x = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < x.size(); i++) {
      x.setDouble(i, r.nextGaussian() * Math.pow(10, r.nextInt(6)));
    }
    for (boolean[] red : reds) {
      long[] ks = shape.clone();
      for (int d = 0; d < 4; d++) {
        ks[d] = red[d] ? 1 : shape[d];
      }
      int m = (int) Shapes.size(ks);
      double[] sum = new double[m];
      long[] count = new long[m];
      int len = (int) shape[3];
      for (int i = 0; i < x.size(); i += red[3] ? len : 1) {
        long[] idx = Shapes.unravel(shape, i);
        for (int d = 0; d < 4; d++) {
          idx[d] = red[d] ? 0 : idx[d];
        }
        int o = 0;
        for (int d = 0; d < 4; d++) {
          o = (int) (o * ks[d] + idx[d]);
        }
        if (red[3]) {
          // a reduced last axis: each row summed as a run, rows added in C order
          sum[o] += eightPartials((double[]) x.data(), i, len);
          count[o] += len;
        } else {
          sum[o] += x.getDouble(i);
          count[o]++;
        }
      }
      NDArray s = ReduceKernel.initial(ReduceKernel.Kind.SUM, x, red, 0, 0);
      NDArray mean = ReduceKernel.initial(ReduceKernel.Kind.MEAN, x, red, 0, 0);
      for (int o = 0; o < m; o++) {
        assertEquals(sum[o], s.getDouble(o), 0.0, "sum " + o);
        assertEquals((double) count[o], mean.getDouble(2 * o), 0.0, "count " + o);
        assertEquals(sum[o], mean.getDouble(2 * o + 1), 0.0, "mean's sum " + o);
      }
    }
  }

  /**
   * A sum over the last axis of a block (the chunked first round over an array with one chunk along
   * that axis) equals the kernel's sum over that axis bit for bit: both sum each row as a run
   * ({@link dev.cubed.nd.reduce.Statistics#sumRun}).
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void lastAxisSumsEqualTheKernelsBitForBit(int seed) {
    Random r = new Random(seed);
    long[] shape = {1 + r.nextInt(5), 1 + r.nextInt(4), 1 + r.nextInt(5000)};
    NDArray x = NDArray.zeros(DType.FLOAT64, shape);
    for (int i = 0; i < x.size(); i++) {
      x.setDouble(i, r.nextGaussian() * Math.pow(10, r.nextInt(12) - 6));
    }
    NDArray state =
        ReduceKernel.initial(ReduceKernel.Kind.SUM, x, new boolean[] {false, false, true}, 0, 0);
    NDArray want = Statistics.sum(x, Axes.of(2));
    assertEquals(want.size(), state.size());
    for (int o = 0; o < want.size(); o++) {
      assertEquals(
          Double.doubleToRawLongBits(want.getDouble(o)),
          Double.doubleToRawLongBits(state.getDouble(o)),
          "row " + o);
    }
  }

  /**
   * The run order of the kernel's float64 sums, written out: partial {@code k % 8} takes element
   * {@code k} of the first {@code n - n % 8}, the partials combine pairwise, the rest follow.
   */
  private static double eightPartials(double[] a, int from, int n) {
    double[] p = new double[8];
    int full = n - n % 8;
    for (int k = 0; k < full; k++) {
      p[k % 8] += a[from + k];
    }
    double s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
    for (int k = full; k < n; k++) {
      s += a[from + k];
    }
    return s;
  }

  /**
   * A mean of a real floating input is planned as a sum divided by the reduced count: the same
   * result, bit for bit, as the (count, total) mean state, for float64 and float32, and NaN for an
   * empty reduction.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void meanFromTheSumStateEqualsTheCountAndTotalState(int seed) {
    Random r = new Random(seed);
    long[] shape = {1 + r.nextInt(7), 1 + r.nextInt(4), 1 + r.nextInt(300)};
    boolean[] red = {true, r.nextBoolean(), false};
    for (DType dt : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      NDArray x = NDArray.zeros(dt, shape);
      for (int i = 0; i < x.size(); i++) {
        x.setDouble(i, r.nextGaussian() * Math.pow(10, r.nextInt(8)));
      }
      double count = shape[0] * (red[1] ? shape[1] : 1);
      NDArray want =
          ReduceKernel.finish(
              ReduceKernel.Kind.MEAN,
              ReduceKernel.initial(ReduceKernel.Kind.MEAN, x, red, 0, 0),
              dt,
              0,
              false);
      NDArray got =
          ReduceKernel.finishMean(
              ReduceKernel.initial(ReduceKernel.Kind.SUM, x, red, 0, 0), dt, count);
      assertEquals(want.dtype(), got.dtype());
      assertEquals(want.size(), got.size());
      for (int o = 0; o < want.size(); o++) {
        assertEquals(want.getDouble(o), got.getDouble(o), 0.0, dt + " mean " + o);
      }
    }
    NDArray empty =
        ReduceKernel.initial(
            ReduceKernel.Kind.SUM,
            NDArray.zeros(DType.FLOAT64, 0, 3),
            new boolean[] {true, false},
            0,
            0);
    NDArray nan = ReduceKernel.finishMean(empty, DType.FLOAT64, 0);
    for (int o = 0; o < 3; o++) {
      assertEquals(Double.NaN, nan.getDouble(o), 0.0);
    }
  }
}
