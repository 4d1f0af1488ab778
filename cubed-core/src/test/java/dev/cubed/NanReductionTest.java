package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The nan-functions ({@code Xp.nansum}, {@code nanmean}, ...) chunked, against a NumPy-like
 * reference computed here element by element: NaN in random positions, slices of NaNs only along
 * every reduced axis set, several chunkings (partial edge blocks, one-element blocks, one block)
 * and multi-round trees (splitEvery 2).
 */
class NanReductionTest {
  @TempDir Path dir;

  private static final long[] SHAPE = {7, 9, 5};

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 200_000);
  }

  /**
   * Random values with about a third NaN, and lanes of NaNs only: x[:, 2, 3] (axis 0), x[1, :, 0]
   * (axis 1), x[:, 4, :] (axes 0 and 2), x[3, 6, :] (axis 2).
   */
  static NDArray data(DType t, long seed) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, SHAPE);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(3) == 0 ? Double.NaN : r.nextInt(9) - 4 + r.nextInt(4) * 0.25);
    }
    for (int i = 0; i < 7; i++) {
      a.setDouble(at(i, 2, 3), Double.NaN);
      for (int k = 0; k < 5; k++) {
        a.setDouble(at(i, 4, k), Double.NaN);
      }
    }
    for (int j = 0; j < 9; j++) {
      a.setDouble(at(1, j, 0), Double.NaN);
    }
    for (int k = 0; k < 5; k++) {
      a.setDouble(at(3, 6, k), Double.NaN);
    }
    return a;
  }

  private static int at(int i, int j, int k) {
    return (i * 9 + j) * 5 + k;
  }

  /** Per result element (C order over the kept axes), the non-NaN values of its slice in order. */
  static List<List<Double>> lanes(NDArray a, int[] axes) {
    long[] shape = a.shape();
    boolean[] red = new boolean[shape.length];
    for (int ax : axes) {
      red[ax] = true;
    }
    long[] kept = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      kept[d] = red[d] ? 1 : shape[d];
    }
    List<List<Double>> out = new ArrayList<>();
    for (long o = 0; o < Shapes.size(kept); o++) {
      out.add(new ArrayList<>());
    }
    for (int i = 0; i < a.size(); i++) {
      long[] idx = Shapes.unravel(shape, i);
      long o = 0;
      for (int d = 0; d < shape.length; d++) {
        o = o * kept[d] + (red[d] ? 0 : idx[d]);
      }
      double v = a.getDouble(i);
      if (!Double.isNaN(v)) {
        out.get((int) o).add(v);
      }
    }
    return out;
  }

  static double refVar(List<Double> l, int correction) {
    double dof = l.size() - correction;
    if (dof <= 0) {
      return Double.NaN;
    }
    double mean = l.stream().mapToDouble(Double::doubleValue).sum() / l.size();
    return l.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / dof;
  }

  static Stream<Arguments> cases() {
    long[][] chunkings = {{7, 9, 5}, {2, 3, 2}, {3, 4, 5}, {1, 9, 1}};
    int[][] axesSets = {{0}, {1}, {2}, {0, 2}, {0, 1, 2}};
    List<Arguments> out = new ArrayList<>();
    long seed = 11;
    for (long[] c : chunkings) {
      for (int[] ax : axesSets) {
        out.add(Arguments.of(seed++, c, ax));
      }
    }
    return out.stream();
  }

  private void check(
      NDArray got,
      List<List<Double>> lanes,
      Function<List<Double>, Double> ref,
      double tol,
      String what) {
    assertThat(got.size()).as(what).isEqualTo(lanes.size());
    for (int o = 0; o < lanes.size(); o++) {
      double want = ref.apply(lanes.get(o));
      double g = got.getDouble(o);
      if (Double.isNaN(want)) {
        assertThat(g).as(what + " element " + o + " of lanes " + lanes.get(o)).isNaN();
      } else {
        assertThat(g)
            .as(what + " element " + o + " of lanes " + lanes.get(o))
            .isCloseTo(want, Offset.offset(tol * (1 + Math.abs(want))));
      }
    }
  }

  @ParameterizedTest(name = "seed {0} chunks {1} axes {2}")
  @MethodSource("cases")
  void reductionsSkipNanAsNumPy(long seed, long[] chunks, int[] axes) {
    NDArray a = data(DType.FLOAT64, seed);
    CubedArray x = Cubed.fromArray(a, chunks, spec());
    List<List<Double>> lanes = lanes(a, axes);
    Axes ax = Axes.of(axes);
    List<NDArray> got =
        Cubed.compute(
            Xp.nansum(x, axes),
            Xp.nanmean(x, ax, 2),
            Xp.nanmin(x, axes),
            Xp.nanmax(x, ax, 2),
            Xp.nanvar(x, axes),
            Xp.nanstd(x, ax, 1, 2),
            Xp.nanvar(x, ax, 3, 3),
            Xp.nanprod(x, axes));
    check(
        got.get(0), lanes, l -> l.stream().mapToDouble(Double::doubleValue).sum(), 1e-12, "nansum");
    check(
        got.get(1),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).sum() / l.size(),
        1e-12,
        "nanmean");
    check(
        got.get(2),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
        0,
        "nanmin");
    check(
        got.get(3),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
        0,
        "nanmax");
    check(got.get(4), lanes, l -> refVar(l, 0), 1e-12, "nanvar");
    check(got.get(5), lanes, l -> Math.sqrt(refVar(l, 1)), 1e-12, "nanstd ddof 1");
    check(got.get(6), lanes, l -> refVar(l, 3), 1e-12, "nanvar ddof 3");
    check(
        got.get(7),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).reduce(1, (p, v) -> p * v),
        1e-12,
        "nanprod");
    // the all-NaN lanes are among the results: NaN, 0 for nansum, 1 for nanprod
    if (Arrays.equals(axes, new int[] {0})) {
      assertThat(got.get(1).getDouble(2 * 5 + 3)).isNaN();
      assertThat(got.get(2).getDouble(2 * 5 + 3)).isNaN();
      assertThat(got.get(0).getDouble(2 * 5 + 3)).isEqualTo(0.0);
      assertThat(got.get(7).getDouble(2 * 5 + 3)).isEqualTo(1.0);
    }
  }

  @ParameterizedTest(name = "seed {0} chunks {1} axes {2}")
  @MethodSource("cases")
  void keepDimsKeepsReducedAxesAsOne(long seed, long[] chunks, int[] axes) {
    NDArray a = data(DType.FLOAT64, seed);
    CubedArray x = Cubed.fromArray(a, chunks, spec());
    CubedArray m = Xp.nanmean(x, Axes.of(axes).keepDims(), XpReduce.AUTO_SPLIT);
    long[] want = SHAPE.clone();
    for (int d : axes) {
      want[d] = 1;
    }
    assertThat(m.shape()).isEqualTo(want);
    NDArray flat = Xp.nanmean(x, axes).compute();
    assertThat((double[]) m.compute().data())
        .usingElementComparator(NanReductionTest::same)
        .containsExactly(box((double[]) flat.data()));
  }

  private static int same(Double p, Double q) {
    return Double.compare(p, q) == 0 ? 0 : 1;
  }

  private static Double[] box(double[] d) {
    return Arrays.stream(d).boxed().toArray(Double[]::new);
  }

  static Stream<Arguments> chunkings() {
    return Stream.of(
        Arguments.of(21L, new long[] {7, 9, 5}),
        Arguments.of(22L, new long[] {2, 3, 2}),
        Arguments.of(23L, new long[] {3, 4, 1}),
        Arguments.of(24L, new long[] {1, 9, 3}));
  }

  @ParameterizedTest(name = "seed {0} chunks {1}")
  @MethodSource("chunkings")
  void argReductionsSkipNanAndRefuseNaNOnlySlices(long seed, long[] chunks) {
    NDArray nanLanes = data(DType.FLOAT64, seed);
    // no lane along axis 2 of NaNs only (x[3, 6, :], each x[i, 4, :], random ones): one value each
    NDArray a = nanLanes.copy();
    for (int i = 0; i < 7; i++) {
      for (int j = 0; j < 9; j++) {
        if (lanes(a, new int[] {2}).get(i * 9 + j).isEmpty()) {
          a.setDouble(at(i, j, (i + j) % 5), i - j);
        }
      }
    }
    CubedArray x = Cubed.fromArray(a, chunks, spec());
    List<NDArray> got = Cubed.compute(Xp.nanargmax(x, 2), Xp.nanargmin(x, Axes.of(2), 2));
    for (int i = 0; i < 7; i++) {
      for (int j = 0; j < 9; j++) {
        int bestMax = -1;
        int bestMin = -1;
        for (int k = 0; k < 5; k++) {
          double v = a.getDouble(at(i, j, k));
          if (Double.isNaN(v)) {
            continue;
          }
          if (bestMax < 0 || v > a.getDouble(at(i, j, bestMax))) {
            bestMax = k;
          }
          if (bestMin < 0 || v < a.getDouble(at(i, j, bestMin))) {
            bestMin = k;
          }
        }
        assertThat(got.get(0).getLong(i * 9 + j)).as("nanargmax [%d, %d]", i, j).isEqualTo(bestMax);
        assertThat(got.get(1).getLong(i * 9 + j)).as("nanargmin [%d, %d]", i, j).isEqualTo(bestMin);
      }
    }
    // the axis-2 lanes x[i, 4, :] hold NaN only: NumPy raises ValueError, the compute fails
    CubedArray bad = Xp.nanargmax(Cubed.fromArray(nanLanes, chunks, spec()), 2);
    assertThatThrownBy(bad::compute)
        .hasRootCauseInstanceOf(IllegalArgumentException.class)
        .rootCause()
        .hasMessageContaining("nanargmax: All-NaN slice encountered");
  }

  /**
   * A pointwise chain feeding the reduction is evaluated tile by tile (tiles of 16 bytes: two
   * elements, so states of tiles holding NaN only are merged; 256 bytes), with the same results.
   */
  @ParameterizedTest(name = "tileBytes {0}")
  @org.junit.jupiter.params.provider.ValueSource(longs = {16, 256, 0})
  void tiledPointwiseChainsGiveTheSameResults(long tileBytes) {
    NDArray a = data(DType.FLOAT64, 31);
    a.setDouble(at(3, 6, 4), -7.5);
    for (int i = 0; i < 7; i++) {
      for (int j = 0; j < 9; j++) {
        if (lanes(a, new int[] {2}).get(i * 9 + j).isEmpty()) {
          a.setDouble(at(i, j, (i + j) % 5), i - j);
        }
      }
    }
    {
      Spec tiled = spec().toBuilder().tileBytes(tileBytes).build();
      CubedArray x = Xp.multiply(Cubed.fromArray(a, new long[] {3, 4, 5}, tiled), 2.0);
      List<NDArray> got =
          Cubed.compute(
              Xp.nanmean(x, 0, 2),
              Xp.nanvar(x, Axes.of(1), 1, 2),
              Xp.nanmax(x, 0),
              Xp.nanargmin(x, 2));
      NDArray a2 = a.copy();
      for (int i = 0; i < a2.size(); i++) {
        a2.setDouble(i, a.getDouble(i) * 2);
      }
      check(
          got.get(0),
          lanes(a2, new int[] {0, 2}),
          l -> l.stream().mapToDouble(Double::doubleValue).sum() / l.size(),
          1e-12,
          "nanmean tiled");
      check(got.get(1), lanes(a2, new int[] {1}), l -> refVar(l, 1), 1e-12, "nanvar tiled");
      check(
          got.get(2),
          lanes(a2, new int[] {0}),
          l -> l.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
          0,
          "nanmax tiled");
      List<List<Double>> rows = lanes(a2, new int[] {2});
      for (int o = 0; o < rows.size(); o++) {
        double min = rows.get(o).stream().mapToDouble(Double::doubleValue).min().getAsDouble();
        int k = 0;
        while (!(a2.getDouble(o * 5 + k) == min)) {
          k++;
        }
        assertThat(got.get(3).getLong(o)).as("nanargmin tiled %d", o).isEqualTo(k);
      }
    }
  }

  /** An array 3.6 times allowedMem: every task's projected memory fits, and the results match. */
  @Test
  void anArrayLargerThanAllowedMemIsReducedInBoundedTasks() {
    long allowed = 200_000;
    Random r = new Random(9);
    NDArray a = NDArray.zeros(DType.FLOAT64, 300, 300);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(4) == 0 ? Double.NaN : r.nextGaussian());
    }
    assertThat(a.size() * 8L).isGreaterThan(3 * allowed);
    CubedArray x = Cubed.fromArray(a, new long[] {30, 30}, spec());
    CubedArray[] outs = {Xp.nanmean(x, 0), Xp.nanstd(x, 1), Xp.nanmin(x), Xp.nanargmax(x, 0)};
    for (CubedArray o : outs) {
      assertThat(o.plan().maxProjectedMem()).as(o.toString()).isLessThanOrEqualTo(allowed);
    }
    List<NDArray> got = Cubed.compute(outs);
    check(
        got.get(0),
        lanes(a, new int[] {0}),
        l -> l.stream().mapToDouble(Double::doubleValue).sum() / l.size(),
        1e-12,
        "nanmean large");
    check(got.get(1), lanes(a, new int[] {1}), l -> Math.sqrt(refVar(l, 0)), 1e-12, "nanstd large");
    check(
        got.get(2),
        lanes(a, new int[] {0, 1}),
        l -> l.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
        0,
        "nanmin large");
  }

  @Test
  void instanceFormsAreTheXpFunctions() {
    NDArray a = data(DType.FLOAT64, 41);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 4, 2}, spec());
    List<NDArray> got = Cubed.compute(x.nanmean(0), x.nansum(1, 2), x.nanmax(), x.nanmin(2));
    check(
        got.get(0),
        lanes(a, new int[] {0}),
        l -> l.stream().mapToDouble(Double::doubleValue).sum() / l.size(),
        1e-12,
        "x.nanmean(0)");
    check(
        got.get(1),
        lanes(a, new int[] {1, 2}),
        l -> l.stream().mapToDouble(Double::doubleValue).sum(),
        1e-12,
        "x.nansum(1, 2)");
    check(
        got.get(2),
        lanes(a, new int[] {0, 1, 2}),
        l -> l.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
        0,
        "x.nanmax()");
    check(
        got.get(3),
        lanes(a, new int[] {2}),
        l -> l.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
        0,
        "x.nanmin(2)");
  }

  @Test
  void argReductionsTakeTheFirstOfTiesAcrossBlocks() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 10);
    double[] v = {Double.NaN, 1, Double.NaN, 3, Double.NaN, 3, -2, Double.NaN, -2, Double.NaN};
    for (int i = 0; i < v.length; i++) {
      a.setDouble(i, v[i]);
    }
    CubedArray x = Cubed.fromArray(a, new long[] {2}, spec());
    assertThat(Xp.nanargmax(x).compute().getLong(0)).isEqualTo(3);
    assertThat(Xp.nanargmin(x).compute().getLong(0)).isEqualTo(6);
    CubedArray twoD = Cubed.fromArray(a.reshape(2, 5), new long[] {1, 2}, spec());
    assertThat(Xp.nanargmax(twoD).compute().getLong(0)).isEqualTo(3);
  }

  @Test
  void aSliceOfNaNsOnlyGivesNaNZeroAndOne() {
    NDArray a = NDArray.full(DType.FLOAT32, Double.NaN, 6, 4);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3}, spec());
    List<NDArray> got =
        Cubed.compute(
            Xp.nanmean(x), Xp.nanmax(x, 0), Xp.nanvar(x, 1), Xp.nansum(x), Xp.nanprod(x, 0));
    assertThat(got.get(0).getDouble(0)).isNaN();
    assertThat(got.get(1).dtype()).isEqualTo(DType.FLOAT32);
    assertThat(got.get(1).getDouble(3)).isNaN();
    assertThat(got.get(2).getDouble(5)).isNaN();
    assertThat(got.get(3).getDouble(0)).isEqualTo(0.0);
    assertThat(got.get(4).getDouble(2)).isEqualTo(1.0);
    assertThatThrownBy(() -> Xp.nanargmin(x).compute())
        .hasRootCauseInstanceOf(IllegalArgumentException.class)
        .rootCause()
        .hasMessageContaining("All-NaN slice encountered");
  }

  @Test
  void float32KeepsItsDtype() {
    NDArray a = data(DType.FLOAT32, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 4, 2}, spec());
    List<List<Double>> lanes = lanes(a, new int[] {0});
    List<NDArray> got =
        Cubed.compute(Xp.nanmean(x, 0), Xp.nanmax(x, 0), Xp.nanstd(x, 0), Xp.nansum(x, 0));
    for (NDArray g : got) {
      assertThat(g.dtype()).isEqualTo(DType.FLOAT32);
    }
    check(
        got.get(0),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).sum() / l.size(),
        1e-6,
        "nanmean float32");
    check(
        got.get(1),
        lanes,
        l -> l.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
        0,
        "nanmax float32");
    check(got.get(2), lanes, l -> Math.sqrt(refVar(l, 0)), 1e-6, "nanstd float32");
  }

  @Test
  void integerInputsAreThePlainReductions() {
    NDArray a = EngineTestSupport.randomInts(3, DType.INT32, 6, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 2}, spec());
    List<NDArray> nan =
        Cubed.compute(
            Xp.nanmean(x, 0),
            Xp.nansum(x, 1),
            Xp.nanmax(x),
            Xp.nanargmin(x, 1),
            Xp.nanvar(x, Axes.of(0), 1, 2),
            Xp.nancumsum(x, 0));
    List<NDArray> plain =
        Cubed.compute(
            Xp.mean(x, 0),
            Xp.sum(x, 1),
            Xp.max(x),
            Xp.argmin(x, 1),
            Xp.var(x, Axes.of(0), 1, 2),
            Xp.cumulativeSum(x, 0));
    for (int i = 0; i < nan.size(); i++) {
      assertThat(nan.get(i).dtype()).as("result %d", i).isEqualTo(plain.get(i).dtype());
      assertThat(nan.get(i).shape()).as("result %d", i).isEqualTo(plain.get(i).shape());
      for (int j = 0; j < nan.get(i).size(); j++) {
        assertThat(nan.get(i).getDouble(j))
            .as("result %d element %d", i, j)
            .isEqualTo(plain.get(i).getDouble(j));
      }
    }
  }

  @ParameterizedTest(name = "seed {0} chunks {1}")
  @MethodSource("cases")
  void cumulativeFunctionsCountNaNAsZeroOrOne(long seed, long[] chunks, int[] axes) {
    NDArray a = data(DType.FLOAT64, seed);
    CubedArray x = Cubed.fromArray(a, chunks, spec());
    int axis = axes[0];
    List<NDArray> got = Cubed.compute(Xp.nancumsum(x, axis), Xp.nancumprod(x, axis));
    long stride = axis == 0 ? 45 : axis == 1 ? 5 : 1;
    for (int i = 0; i < a.size(); i++) {
      long pos = Shapes.unravel(SHAPE, i)[axis];
      double s = 0;
      double p = 1;
      for (long q = 0; q <= pos; q++) {
        double v = a.getDouble((int) (i - (pos - q) * stride));
        s += Double.isNaN(v) ? 0 : v;
        p *= Double.isNaN(v) ? 1 : v;
      }
      assertThat(got.get(0).getDouble(i)).as("nancumsum %d", i).isCloseTo(s, Offset.offset(1e-9));
      assertThat(got.get(1).getDouble(i))
          .as("nancumprod %d", i)
          .isCloseTo(p, Offset.offset(1e-9 * (1 + Math.abs(p))));
    }
  }

  @Test
  void complexInputsCountAnElementWithANaNPartAsNaN() {
    NDArray a = NDArray.zeros(DType.COMPLEX128, 4, 3);
    double[][] vals = {
      {1, 2},
      {Double.NaN, 1},
      {3, -1},
      {2, Double.NaN},
      {5, 5},
      {-1, 0},
      {Double.NaN, Double.NaN},
      {0, 4},
      {2, 2},
      {1, 1},
      {Double.NaN, 0},
      {4, -2}
    };
    for (int i = 0; i < vals.length; i++) {
      a.setComplex(i, vals[i][0], vals[i][1]);
    }
    CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec());
    List<NDArray> got = Cubed.compute(Xp.nansum(x, 0), Xp.nanmean(x, 0), Xp.nanvar(x, 0));
    // column 0: (1,2), (2,NaN)x, (NaN,NaN)x, (1,1) -> (1,2), (1,1)
    assertThat(got.get(0).getDouble(0)).isEqualTo(2.0);
    assertThat(got.get(0).getImag(0)).isEqualTo(3.0);
    assertThat(got.get(1).dtype()).isEqualTo(DType.COMPLEX128);
    assertThat(got.get(1).getDouble(0)).isEqualTo(1.0);
    assertThat(got.get(1).getImag(0)).isEqualTo(1.5);
    // var = var(re) + var(im) = 0 + 0.25
    assertThat(got.get(2).dtype()).isEqualTo(DType.FLOAT64);
    assertThat(got.get(2).getDouble(0)).isEqualTo(0.25);
    assertThatThrownBy(() -> Xp.nanmax(x, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("complex");
  }

  @Test
  void nanArgOverAnEmptyAxisIsRefusedWhenBuilt() {
    CubedArray x = Cubed.fromArray(NDArray.zeros(DType.FLOAT64, 3, 0), new long[] {2, 1}, spec());
    assertThatThrownBy(() -> Xp.nanargmax(x, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nanargmax: attempt to get nanargmax of an empty sequence");
    assertThatThrownBy(() -> Xp.nanmin(x, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zero-size reduction");
  }
}
