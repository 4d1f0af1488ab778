package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one-pass NaN-skipping count and sum ({@code Xp.nancount}, {@code Xp.nansum} of real floating
 * arrays: NANCOUNT and NANSUM states) against the reference of {@link NanReductionTest} (the
 * non-NaN values of each slice), on float64 and float32 with slices of NaNs only, several
 * chunkings, axis sets, multi-round trees and keepdims; integer and bool arrays count every
 * element; complex elements count when neither part is NaN.
 */
class NanCountSumTest {
  @TempDir Path dir;

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 200_000);
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
    return NanReductionTest.cases();
  }

  @ParameterizedTest(name = "seed {0} chunks {1} axes {2}")
  @MethodSource("cases")
  void countAndSumTakeTheNonNaNElements(long seed, long[] chunks, int[] axes) {
    for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      NDArray a = NanReductionTest.data(t, seed);
      CubedArray x = Cubed.fromArray(a, chunks, spec());
      List<List<Double>> lanes = NanReductionTest.lanes(a, axes);
      List<NDArray> got =
          Cubed.compute(
              Xp.nancount(x, axes),
              Xp.nancount(x, Axes.of(axes).keepDims()),
              Xp.nansum(x, Axes.of(axes), 2),
              Xp.nansum(x, axes));
      String what = t + " chunks " + java.util.Arrays.toString(chunks);
      assertThat(got.get(0).dtype()).as(what).isEqualTo(DType.INT64);
      assertThat(got.get(2).dtype()).as(what).isEqualTo(t);
      assertThat(got.get(0).size()).as(what).isEqualTo(lanes.size());
      long[] kept = a.shape().clone();
      for (int ax : axes) {
        kept[ax] = 1;
      }
      assertThat(got.get(1).shape()).as(what).isEqualTo(kept);
      double tol = t == DType.FLOAT32 ? 1e-5 : 1e-12;
      for (int o = 0; o < lanes.size(); o++) {
        List<Double> l = lanes.get(o);
        double sum = l.stream().mapToDouble(Double::doubleValue).sum();
        assertThat(got.get(0).getLong(o)).as(what + " count " + o).isEqualTo(l.size());
        assertThat(got.get(1).getLong(o)).as(what + " count keepdims " + o).isEqualTo(l.size());
        for (int k : new int[] {2, 3}) {
          assertThat(got.get(k).getDouble(o))
              .as(what + " sum " + o + " of " + l)
              .isCloseTo(sum, Offset.offset(tol * (1 + Math.abs(sum))));
        }
      }
    }
  }

  @Test
  void slicesOfNaNsOnlyCountZeroAndSumToZero() {
    NDArray a = NDArray.full(DType.FLOAT32, Double.NaN, 6, 4);
    a.setDouble(5, 1.5);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, spec());
    List<NDArray> got = Cubed.compute(Xp.nancount(x, 0), Xp.nansum(x, 0), Xp.nancount(x));
    assertThat(got.get(0).getLong(0)).isZero();
    assertThat(got.get(0).getLong(1)).isEqualTo(1);
    assertThat(got.get(1).getDouble(0)).isEqualTo(0.0);
    assertThat(got.get(1).getDouble(1)).isEqualTo(1.5);
    assertThat(got.get(2).getLong(0)).isEqualTo(1);
  }

  @Test
  void integerAndBoolElementsAllCount() {
    NDArray ints = EngineTestSupport.randomInts(3, DType.INT32, 6, 5);
    NDArray bools = NDArray.zeros(DType.BOOL, 6, 5);
    bools.setBoolean(3, true);
    List<NDArray> got =
        Cubed.compute(
            Xp.nancount(Cubed.fromArray(ints, new long[] {4, 2}, spec()), 0),
            Xp.nancount(Cubed.fromArray(bools, new long[] {4, 2}, spec()), 1),
            Xp.nancount(Cubed.fromArray(ints, new long[] {4, 2}, spec())));
    assertThat(got.get(0).shape()).containsExactly(5);
    for (int i = 0; i < 5; i++) {
      assertThat(got.get(0).getLong(i)).isEqualTo(6);
    }
    for (int i = 0; i < 6; i++) {
      assertThat(got.get(1).getLong(i)).isEqualTo(5);
    }
    assertThat(got.get(2).getLong(0)).isEqualTo(30);
  }

  @Test
  void aComplexElementCountsWhenNeitherPartIsNaN() {
    NDArray c = NDArray.zeros(DType.COMPLEX128, 4);
    double[] d = (double[]) c.data();
    d[0] = Double.NaN; // element 0: NaN real part
    d[3] = Double.NaN; // element 1: NaN imaginary part
    d[4] = 1;
    NDArray got = Xp.nancount(Cubed.fromArray(c, new long[] {3}, spec())).compute();
    assertThat(got.dtype()).isEqualTo(DType.INT64);
    assertThat(got.getLong(0)).isEqualTo(2);
  }
}
