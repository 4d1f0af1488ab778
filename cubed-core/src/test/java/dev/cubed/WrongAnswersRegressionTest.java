package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One focused test per class of wrong answer found by the differential test of issue 11 (chunked
 * result compared with the in-memory kernel on the same data).
 */
class WrongAnswersRegressionTest {
  @TempDir Path dir;

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 100_000);
  }

  private static NDArray arange(DType t, long... shape) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, i + 1);
    }
    return a;
  }

  @Test
  void reshapeAddingAnAxisMatchesTheKernelFromZeroToThreeDimensions() {
    // a reshape that only splits one axis is done per block; a 0-d array has no axis to split
    for (long[] shape : new long[][] {{}, {1}, {6}, {4, 6}, {2, 4, 6}}) {
      NDArray a = arange(DType.INT64, shape);
      long[] chunks = new long[shape.length];
      Arrays.fill(chunks, 2);
      CubedArray c = Cubed.fromArray(a, chunks, spec());
      long[] out = new long[shape.length + 1];
      System.arraycopy(shape, 0, out, 0, shape.length);
      out[shape.length] = 1;
      if (shape.length > 0 && shape[shape.length - 1] % 2 == 0) {
        out[shape.length - 1] = shape[shape.length - 1] / 2;
        out[shape.length] = 2;
      }
      NDAssert.assertExact(
          Manipulation.reshape(a, out),
          Cubed.compute(Xp.reshape(c, out)).get(0),
          "reshape " + Arrays.toString(shape) + " -> " + Arrays.toString(out));
    }
  }

  @Test
  void concatOfAComputedInputWithAZeroLengthAxisKeepsTheOtherInputs() {
    NDArray e = NDArray.zeros(DType.FLOAT64, 0, 3);
    NDArray o = arange(DType.FLOAT64, 4, 3);
    CubedArray ce =
        Xp.add(
            Cubed.fromArray(e, new long[] {1, 2}, spec()),
            Cubed.fromArray(e, new long[] {1, 2}, spec()));
    CubedArray co = Xp.negative(Cubed.fromArray(o, new long[] {3, 2}, spec()));
    for (List<CubedArray> in : List.of(List.of(ce, co), List.of(co, ce), List.of(co, ce, co))) {
      CubedArray c = Xp.concat(in, 0);
      NDArray want =
          Manipulation.concat(
              in.stream().map(x -> x == ce ? e : Elementwise.negative(o)).toArray(NDArray[]::new),
              0);
      NDAssert.assertExact(want, Cubed.compute(c).get(0), "concat " + in.size());
    }
  }

  @Test
  void outputsSharingAZeroSizeIntermediateAreEachRight() {
    NDArray e = NDArray.zeros(DType.FLOAT64, 3, 0);
    NDArray o = arange(DType.FLOAT64, 3, 4);
    CubedArray z =
        Xp.multiply(
            Cubed.fromArray(e, new long[] {2, 1}, spec()),
            Cubed.fromArray(e, new long[] {2, 1}, spec()));
    CubedArray s = Xp.sum(z, 1);
    CubedArray m = Xp.mean(z, 1);
    CubedArray c = Xp.concat(List.of(z, Cubed.fromArray(o, new long[] {2, 3}, spec())), 1);
    List<NDArray> got = Cubed.compute(s, m, c);
    NDAssert.assertExact(Statistics.sum(e, Axes.of(1)), got.get(0), "sum");
    NDAssert.assertExact(Statistics.mean(e, Axes.of(1)), got.get(1), "mean");
    NDAssert.assertExact(o, got.get(2), "concat");
  }

  @Test
  void aStoredZeroSizeIntermediateSharedByOutputsAndConcat() {
    // a matmul result has several consumers and is not shareable, so the plan stores it
    NDArray a = NDArray.zeros(DType.FLOAT64, 0, 2);
    NDArray b = arange(DType.FLOAT64, 2, 3);
    NDArray o = arange(DType.FLOAT64, 2, 3);
    CubedArray p =
        Xp.matmul(
            Cubed.fromArray(a, new long[] {1, 1}, spec()),
            Cubed.fromArray(b, new long[] {1, 2}, spec()));
    CubedArray other =
        Xp.multiply(
            Cubed.fromArray(o, new long[] {1, 2}, spec()),
            Cubed.fromArray(o, new long[] {2, 3}, spec()));
    CubedArray cat = Xp.concat(List.of(p, other, p), 0);
    CubedArray sum = Xp.sum(p, 0);
    CubedArray prod = Xp.prod(p, 0);
    List<NDArray> got = Cubed.compute(cat, sum, p, prod);
    NDArray sq = Elementwise.multiply(o, o);
    NDAssert.assertExact(sq, got.get(0), "concat");
    NDAssert.assertExact(NDArray.zeros(DType.FLOAT64, 3), got.get(1), "sum");
    assertThat(got.get(2).shape()).containsExactly(0, 3);
    NDAssert.assertExact(NDArray.ones(DType.FLOAT64, 3), got.get(3), "prod");
    NDAssert.assertExact(sq, Cubed.compute(cat).get(0), "concat alone");
  }

  @Test
  void negativeZeroChunksKeepTheirSignInIntermediatesOutputsAndTargets() {
    NDArray a = NDArray.full(DType.FLOAT64, -0.0, 4, 4);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 2}, spec());
    CubedArray neg = Xp.negative(Xp.negative(x)); // computed: stored chunks of -0.0
    CubedArray t = Xp.permuteDims(Xp.rechunk(neg, 4, 1), 1, 0);
    List<NDArray> got = Cubed.compute(neg, t);
    for (NDArray g : got) {
      for (int i = 0; i < g.size(); i++) {
        assertThat(Double.doubleToRawLongBits(g.getDouble(i)))
            .as("element %d", i)
            .isEqualTo(Double.doubleToRawLongBits(-0.0));
      }
    }
    // a user target written with the default "skip empty chunks" policy (fill value 0.0)
    MemoryStore store = new MemoryStore();
    ZarrArray z = Cubed.toZarr(neg, store, "out");
    NDArray back = z.read();
    assertThat(z.chunkExists(0, 0)).as("a chunk of -0.0 is not the fill value 0.0").isTrue();
    assertThat(Double.doubleToRawLongBits(back.getDouble(5)))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void varAndStdWithACorrectionAtOrAboveTheCountGiveNaNOrInfinityLikeTheKernel() {
    NDArray same = NDArray.full(DType.FLOAT64, 2.5, 3);
    NDArray spread = NDArray.of(new double[] {1, 2, 4}, 3);
    for (NDArray a : List.of(same, spread)) {
      for (int corr : new int[] {3, 5}) {
        CubedArray x = Cubed.fromArray(a, new long[] {2}, spec());
        List<NDArray> got =
            Cubed.compute(Xp.var(x, Axes.all(), corr, 2), Xp.std(x, Axes.all(), corr, 2));
        NDAssert.assertExact(Statistics.var(a, Axes.all(), corr), got.get(0), "var " + corr);
        NDAssert.assertExact(Statistics.std(a, Axes.all(), corr), got.get(1), "std " + corr);
      }
    }
    CubedArray x = Cubed.fromArray(same, new long[] {2}, spec());
    assertThat(Cubed.compute(Xp.var(x, Axes.all(), 4, 2)).get(0).getDouble(0)).isNaN();
  }

  @Test
  void concatAndStackPromoteMixedDtypes() {
    NDArray i8 = arange(DType.INT8, 2, 2);
    NDArray u8 = arange(DType.UINT8, 1, 2);
    NDArray f4 = NDArray.full(DType.FLOAT32, -1.5, 2, 2);
    CubedArray a = Cubed.fromArray(i8, new long[] {1, 1}, spec());
    CubedArray b = Cubed.fromArray(u8, new long[] {1, 2}, spec());
    CubedArray c = Cubed.fromArray(f4, new long[] {2, 1}, spec());
    CubedArray cat = Xp.concat(List.of(a, b), 0);
    CubedArray st = Xp.stack(List.of(a, c), 1);
    assertThat(cat.dtype()).isEqualTo(DType.INT16);
    assertThat(st.dtype()).isEqualTo(DType.FLOAT32);
    List<NDArray> got = Cubed.compute(cat, st);
    NDAssert.assertExact(Manipulation.concat(new NDArray[] {i8, u8}, 0), got.get(0), "concat");
    NDAssert.assertExact(Manipulation.stack(new NDArray[] {i8, f4}, 1), got.get(1), "stack");
  }

  @Test
  void emptyAxisErrorsAreRaisedWhenTheOpIsBuiltAsByTheKernel() {
    CubedArray e = Cubed.fromArray(NDArray.zeros(DType.FLOAT64, 3, 0), new long[] {2, 1}, spec());
    assertThatThrownBy(() -> Xp.argmax(e, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attempt to get argmax of an empty sequence")
        .hasMessageContaining("(3, 0)");
    assertThatThrownBy(() -> Xp.argmin(Xp.negative(e), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attempt to get argmin of an empty sequence");
    assertThatThrownBy(() -> Xp.max(e, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zero-size reduction")
        .hasMessageContaining("no identity");
    assertThatThrownBy(() -> Xp.min(e))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zero-size reduction");
    // an empty result of an empty reduction is fine (as the kernel)
    assertThat(Cubed.compute(Xp.max(e, 0)).get(0).shape()).containsExactly(0);
    assertThat(Cubed.compute(Xp.argmax(e, 0)).get(0).shape()).containsExactly(0);
    assertThatThrownBy(() -> Xp.reshape(e, 0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1 cannot be inferred");
    assertThatThrownBy(() -> Manipulation.reshape(NDArray.zeros(DType.FLOAT64, 3, 0), 0, -1))
        .isInstanceOf(IllegalArgumentException.class);
    CubedArray flags = Cubed.fromArray(NDArray.ones(DType.BOOL, 4), new long[] {2}, spec());
    for (var f : List.<Function<CubedArray, CubedArray>>of(Xp::mean, Xp::var, Xp::std)) {
      assertThatThrownBy(() -> f.apply(flags))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("dtype bool is not supported");
    }
    assertThatThrownBy(() -> Statistics.mean(NDArray.ones(DType.BOOL, 4)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void complexMeanWithANonFinitePartMatchesTheKernel() {
    NDArray a = NDArray.zeros(DType.COMPLEX128, 3);
    a.setComplex(0, -6.25, -6.5);
    a.setComplex(1, 0.75, -7.75);
    a.setComplex(2, Double.NEGATIVE_INFINITY, -1.75);
    CubedArray x = Cubed.fromArray(a, new long[] {1}, spec());
    NDAssert.assertExact(Statistics.mean(a), Cubed.compute(Xp.mean(x)).get(0), "mean");
    assertThat(Cubed.compute(Xp.mean(x)).get(0).getImag(0)).isNaN();
  }

  @Test
  void complexInfinitiesInChunkedMatmulAndTensordotMatchNumPy() throws Exception {
    Map<String, NDArray> g;
    try (var in = getClass().getResourceAsStream("/golden/linear_algebra/complex_infinities.npz")) {
      g = Npy.readNpz(in, "complex_infinities.npz");
    }
    for (int i = 0; i < 3; i++) {
      NDArray a = g.get("matmul" + i + "_a");
      NDArray b = g.get("matmul" + i + "_b");
      CubedArray ca = Cubed.fromArray(a, new long[] {1, 1}, spec());
      CubedArray cb = Cubed.fromArray(b, new long[] {1, 1}, spec());
      NDAssert.assertExact(
          g.get("matmul" + i + "_out"), Cubed.compute(Xp.matmul(ca, cb)).get(0), "matmul " + i);
      NDArray c = g.get("tensordot" + i + "_a");
      NDArray d = g.get("tensordot" + i + "_b");
      CubedArray cc = Cubed.fromArray(c, new long[] {1, 2, 1}, spec());
      CubedArray cd = Cubed.fromArray(d, new long[] {2, 1}, spec());
      NDAssert.assertExact(
          g.get("tensordot" + i + "_out"),
          Cubed.compute(Xp.tensordot(cc, cd, new int[] {1, 2}, new int[] {0, 1})).get(0),
          "tensordot " + i);
      NDAssert.assertExact(Linalg.matmul(a, b), g.get("matmul" + i + "_out"), "kernel");
    }
  }

  /**
   * moveaxis with source axes not in increasing order: the chunked layer once sorted them
   * (Shapes.normalizeAxes sorts) and moved the wrong axes; it now shares the kernel's permutation.
   */
  @Test
  void moveaxisWithUnsortedSourceAxesMatchesTheKernel() {
    NDArray a = arange(DType.FLOAT64, 2, 3, 4);
    int[][][] cases = {
      {{2, 0}, {0, 1}}, {{0, 2}, {1, 0}}, {{-1, 1}, {0, 2}}, {{1, 2, 0}, {0, 1, 2}}
    };
    for (int[][] c : cases) {
      NDArray want = Manipulation.moveaxis(a, c[0], c[1]);
      NDArray got =
          Xp.moveaxis(Cubed.fromArray(a, new long[] {1, 2, 3}, spec()), c[0], c[1]).compute();
      NDAssert.assertExact(want, got, "moveaxis " + Arrays.deepToString(c));
    }
  }
}
