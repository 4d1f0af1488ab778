package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.Complex;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.sort.Sets;
import dev.cubed.nd.sort.Sorting;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard forms that were wrong or missing (issue 26): cumulative dtype=, searchsorted sorter=,
 * complex unique_*, isin with a scalar, expand_dims out of range, 0-d boolean masks, linspace
 * endpoint=False (NumPy's bits), complex QR of huge entries, chunk size 0 on a zero-length axis,
 * keepdims for prod/min/max/all/any/argmax/argmin. Small chunks with partial edge blocks, 4 KB
 * allowedMem.
 */
class StandardFormsTest {
  @TempDir Path dir;

  private Spec spec() {
    return Spec.builder().workDir(dir).allowedMem(4096).reservedMem(1000).workers(2).build();
  }

  private CubedArray chunked(NDArray a, long... chunks) {
    return Cubed.fromArray(a, chunks, spec());
  }

  private static long[] longs(NDArray a) {
    long[] r = new long[a.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = a.getLong(i);
    }
    return r;
  }

  @Test
  void cumulativeSumAndProdAccumulateInTheRequestedDtype() {
    CubedArray x = chunked(NDArray.of(new short[] {100, 100, 100, 3, 7}, 5), 2);
    CubedArray s8 = Xp.cumulativeSum(x, 0, DType.INT8);
    assertThat(s8.dtype()).isEqualTo(DType.INT8);
    // NumPy: np.cumsum(a, dtype=np.int8) -> [100, -56, 44, 47, 54]
    assertThat(longs(s8.compute())).containsExactly(100, -56, 44, 47, 54);
    CubedArray p16 =
        Xp.cumulativeProd(chunked(NDArray.of(new short[] {200, 200, 2}, 3), 2), 0, DType.INT16);
    assertThat(p16.dtype()).isEqualTo(DType.INT16);
    // np.cumprod([200, 200, 2], dtype=np.int16) -> [200, -25536, 14464]
    assertThat(longs(p16.compute())).containsExactly(200, -25536, 14464);
    CubedArray f =
        Xp.cumulativeSum(
            chunked(NDArray.of(new boolean[] {true, true, false}, 3), 2), 0, DType.FLOAT32);
    assertThat(f.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(f.compute().getDouble(2)).isEqualTo(2.0);
    // a null dtype is the default form (int64 for int16)
    assertThat(Xp.cumulativeSum(x, 0, null).dtype()).isEqualTo(DType.INT64);
  }

  @Test
  void searchsortedWithASorterSearchesTheSortedOrder() {
    double[] v = {5, 1, 9, 3, 3, 7, 0, 8, 2};
    NDArray a = NDArray.of(v, v.length);
    NDArray order = Sorting.argsort(a);
    NDArray needles = NDArray.of(new double[] {-1, 0, 3, 3.5, 9, 10}, 6);
    for (Searching.Side side : Searching.Side.values()) {
      CubedArray got = Xp.searchsorted(chunked(a, 4), chunked(needles, 4), side, chunked(order, 2));
      NDArray want = Searching.searchsorted(a, needles, side, order);
      assertThat(longs(got.compute())).as(side.name()).containsExactly(longs(want));
    }
    CubedArray x1 = chunked(a, 4);
    CubedArray viaArgsort =
        Xp.searchsorted(x1, chunked(needles, 4), Searching.Side.LEFT, Xp.argsort(x1));
    assertThat(longs(viaArgsort.compute())).containsExactly(0, 0, 3, 5, 8, 9);
    assertThatThrownBy(
            () ->
                Xp.searchsorted(
                    x1,
                    chunked(needles, 4),
                    Searching.Side.LEFT,
                    chunked(NDArray.of(new long[] {0, 1}, 2), 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sorter");
  }

  @Test
  void uniqueFunctionsGroupComplexValuesAsTheKernel() {
    double nan = Double.NaN;
    double[] reIm = {2, -1, 1, 1, 0, 0, -0.0, 0, 1, 1, nan, 0, 1, nan, 1, -1, nan, 0, 2, -1, 1, 1};
    for (DType t : new DType[] {DType.COMPLEX128, DType.COMPLEX64}) {
      NDArray a = new NDArray(DType.COMPLEX128, new long[] {11}, reIm.clone()).astype(t);
      CubedArray x = chunked(a, 3);
      Sets.UniqueAll want = Sets.uniqueAll(a);
      Uniques.All got = Xp.uniqueAll(x);
      assertThat(got.values().compute()).as(t + " values").isEqualTo(want.values());
      assertThat(longs(got.indices().compute())).containsExactly(longs(want.indices()));
      assertThat(longs(got.inverseIndices().compute()))
          .containsExactly(longs(want.inverseIndices()));
      assertThat(longs(got.counts().compute())).containsExactly(longs(want.counts()));
      // as np.unique_all: values 0, 1-1j, 1+1j, 2-1j, 1+nanj, nan, nan (each NaN distinct)
      assertThat(longs(got.counts().compute())).containsExactly(2, 1, 3, 2, 1, 1, 1);
      assertThat(Xp.uniqueValues(x).compute()).isEqualTo(want.values());
    }
  }

  @Test
  void isinTakesAScalarOnEitherSide() {
    CubedArray x = chunked(NDArray.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3), 1, 2);
    CubedArray r = Xp.isin(2, x);
    assertThat(r.shape()).isEmpty();
    assertThat(r.dtype()).isEqualTo(DType.BOOL);
    assertThat(r.compute().getBoolean(0)).isTrue();
    assertThat(Xp.isin(7L, x).compute().getBoolean(0)).isFalse();
    assertThat(Xp.isin(2.5, x).compute().getBoolean(0)).isFalse();
    assertThat(Xp.isin(2, x, true).compute().getBoolean(0)).isFalse();
    NDArray m = Xp.isin(x, 5).compute();
    assertThat(m.shape()).containsExactly(2, 3);
    for (int i = 0; i < 6; i++) {
      assertThat(m.getBoolean(i)).isEqualTo(i == 4);
    }
    assertThat(Xp.isin(x, (Object) 5, true).compute().getBoolean(4)).isFalse();
    assertThatThrownBy(() -> Xp.isin("2", x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("isin");
  }

  @Test
  void expandDimsOutOfRangeIsAnIndexError() {
    CubedArray x = chunked(NDArray.zeros(DType.FLOAT64, 2, 3), 1, 2);
    for (int axis : new int[] {3, -4, 17}) {
      assertThatThrownBy(() -> Xp.expandDims(x, axis))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessageContaining("expand_dims: axis " + axis);
    }
    assertThat(Xp.expandDims(x, -3).shape()).containsExactly(1, 2, 3);
    assertThat(Xp.expandDims(x, 2).shape()).containsExactly(2, 3, 1);
  }

  @Test
  void zeroDimensionalBooleanMaskAddsALeadingAxis() {
    NDArray a = NDArray.of(new long[] {0, 1, 2, 3, 4, 5}, 2, 3);
    CubedArray x = chunked(a, 1, 2);
    CubedArray t =
        Xp.getMask(
            x, Cubed.asarray(new NDArray(DType.BOOL, new long[0], new boolean[] {true}), spec()));
    CubedArray f =
        Xp.getMask(
            x, Cubed.asarray(new NDArray(DType.BOOL, new long[0], new boolean[] {false}), spec()));
    assertThat(t.shape()).containsExactly(1, 2, 3);
    assertThat(f.shape()).containsExactly(0, 2, 3);
    assertThat(longs(t.compute())).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(f.compute().size()).isZero();
  }

  @Test
  void maskOfAnotherShapeIsAnIndexError() {
    // the standard (and array-api-tests' test_getitem_masking): IndexError, which the bridge
    // raises for IndexOutOfBoundsException
    CubedArray x0 = Cubed.asarray(NDArray.of(new float[] {1f}), spec());
    CubedArray m3 = chunked(NDArray.of(new boolean[] {true, false, true}, 3), 2);
    assertThatThrownBy(() -> Xp.getMask(x0, m3))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("mask shape (3,) is neither x's ()");
    CubedArray x23 = chunked(NDArray.of(new long[] {0, 1, 2, 3, 4, 5}, 2, 3), 1, 2);
    CubedArray m32 = chunked(NDArray.of(new boolean[6], 3, 2), 1, 2);
    assertThatThrownBy(() -> Xp.getMask(x23, m32)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void outerKeepsTheSignOfZeroProducts() {
    // -0.0 * 5.0 is -0.0 (NumPy's outer and the product x1[i] * x2[j]); a matmul adds it to +0.0
    NDArray a = NDArray.of(new double[] {-0.0, 2.0, 0.0}, 3);
    NDArray b = NDArray.of(new double[] {5.0, -1.0}, 2);
    NDArray c = XpLinalg.outer(chunked(a, 2), chunked(b, 1)).compute();
    NDArray k = Linalg.outer(a, b);
    double[] expected = {-0.0, 0.0, 10.0, -2.0, 0.0, -0.0};
    for (int i = 0; i < expected.length; i++) {
      assertThat(Double.doubleToRawLongBits(c.getDouble(i)))
          .as("chunked outer element %d", i)
          .isEqualTo(Double.doubleToRawLongBits(expected[i]));
      assertThat(Double.doubleToRawLongBits(k.getDouble(i)))
          .as("kernel outer element %d", i)
          .isEqualTo(Double.doubleToRawLongBits(expected[i]));
    }
  }

  @Test
  void linspaceMatchesNumpyBitForBit() {
    // np.linspace(0.1, 1.7, 7, endpoint=False) and np.linspace(-3.3, 2.9, 11, endpoint=False)
    String[] a = {
      "0x1.999999999999ap-4",
      "0x1.5075075075075p-2",
      "0x1.1d41d41d41d42p-1",
      "0x1.9249249249249p-1",
      "0x1.03a83a83a83a8p+0",
      "0x1.3e2be2be2be2cp+0",
      "0x1.78af8af8af8b0p+0"
    };
    String[] b = {
      "-0x1.a666666666666p+1",
      "-0x1.5e4129e4129e4p+1",
      "-0x1.161bed61bed62p+1",
      "-0x1.9bed61bed61bep+0",
      "-0x1.0ba2e8ba2e8bap+0",
      "-0x1.ed61bed61bed8p-2",
      "0x1.4f2094f209500p-4",
      "0x1.4a7904a7904a8p-1",
      "0x1.3586fb586fb58p+0",
      "0x1.c5d1745d1745cp+0",
      "0x1.2b0df6b0df6b0p+1"
    };
    assertBits(Xp.linspace(0.1, 1.7, 7, null, Creation.Endpoint.EXCLUDE, 3, spec()), a);
    assertBits(Xp.linspace(-3.3, 2.9, 11, DType.FLOAT64, Creation.Endpoint.EXCLUDE, 4, spec()), b);
    // with the endpoint, and complex bounds: the kernel's values element for element
    for (Creation.Endpoint e : Creation.Endpoint.values()) {
      NDArray want = Creation.linspace(new Complex(1, 2), new Complex(3, -1), 6, null, e);
      assertThat(
              Xp.linspace(new Complex(1, 2), new Complex(3, -1), 6, null, e, 4, spec()).compute())
          .isEqualTo(want);
      assertThat(Xp.linspace(0.0, 1.0, 7, DType.FLOAT32, e, 2, spec()).compute())
          .isEqualTo(Creation.linspace(0.0, 1.0, 7, DType.FLOAT32, e));
    }
    assertThatThrownBy(
            () -> Xp.linspace(0, 1, 3, DType.INT64, Creation.Endpoint.INCLUDE, 2, spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("linspace");
  }

  private static void assertBits(CubedArray x, String[] hex) {
    NDArray got = x.compute();
    assertThat(got.size()).isEqualTo(hex.length);
    for (int i = 0; i < hex.length; i++) {
      assertThat(Double.doubleToRawLongBits(got.getDouble(i)))
          .as("element " + i)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(hex[i])));
    }
  }

  @Test
  void complexQrOfHugeEntriesStaysFinite() {
    NDArray a = new NDArray(DType.COMPLEX128, new long[] {1, 1}, new double[] {1e308, 1e308});
    Linalg.QrResult k = Linalg.qr(a);
    XpLinalg.Qr c = XpLinalg.qr(chunked(a, 1, 1));
    for (NDArray[] qr : new NDArray[][] {{k.Q(), k.R()}, {c.Q().compute(), c.R().compute()}}) {
      NDArray q = qr[0];
      NDArray r = qr[1];
      assertThat(Math.hypot(q.getDouble(0), q.getImag(0))).isCloseTo(1.0, Offset.offset(1e-15));
      // Q R = A, and |R| = |A| (1.414e308, finite)
      double qrRe = q.getDouble(0) * r.getDouble(0) - q.getImag(0) * r.getImag(0);
      double qrIm = q.getDouble(0) * r.getImag(0) + q.getImag(0) * r.getDouble(0);
      assertThat(qrRe / 1e308).isCloseTo(1.0, Offset.offset(1e-15));
      assertThat(qrIm / 1e308).isCloseTo(1.0, Offset.offset(1e-15));
    }
    // a taller one with a huge first column: orthonormal Q, finite R
    NDArray b =
        new NDArray(
            DType.COMPLEX128,
            new long[] {3, 2},
            new double[] {1e308, 1e308, 1, 0, 0, 1e307, 2, 0, 3e307, 0, 0, -1});
    Linalg.QrResult kb = Linalg.qr(b);
    for (int i = 0; i < kb.R().size(); i++) {
      assertThat(Double.isFinite(kb.R().getDouble(i)) && Double.isFinite(kb.R().getImag(i)))
          .as("R element " + i)
          .isTrue();
    }
    for (int i = 0; i < kb.Q().size(); i++) {
      assertThat(Math.hypot(kb.Q().getDouble(i), kb.Q().getImag(i)))
          .isLessThanOrEqualTo(1.0 + 1e-15);
    }
  }

  @Test
  void zeroLengthAxisTakesChunkSizeZero() {
    CubedArray x = Xp.ones(new long[] {0, 2}, DType.FLOAT64, new long[] {0, 2}, spec());
    assertThat(x.shape()).containsExactly(0, 2);
    assertThat(x.compute().shape()).containsExactly(0, 2);
    CubedArray z = Xp.zeros(new long[] {3, 0}, DType.INT32, new long[] {2, 0}, spec());
    assertThat(z.compute().shape()).containsExactly(3, 0);
    assertThat(Xp.eye(0, 0, 0, DType.FLOAT64, new long[] {0, 0}, spec()).compute().size()).isZero();
    assertThatThrownBy(() -> Xp.ones(new long[] {4, 2}, DType.FLOAT64, new long[] {0, 2}, spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(">= 1");
  }

  @Test
  void keepdimsFormsOfTheOtherReductions() {
    NDArray a = EngineTestSupport.randomDoubles(3, 4, 5, 3);
    CubedArray x = chunked(a, 3, 2, 2);
    CubedArray b = Xp.greater(x, 0.0);
    List<BiFunction<CubedArray, Axes, CubedArray>> xpForms =
        List.of(
            (v, ax) -> Xp.prod(v, ax, XpReduce.AUTO_SPLIT),
            (v, ax) -> Xp.min(v, ax, XpReduce.AUTO_SPLIT),
            (v, ax) -> Xp.max(v, ax, XpReduce.AUTO_SPLIT),
            (v, ax) -> Xp.sum(v, ax, XpReduce.AUTO_SPLIT),
            (v, ax) -> Xp.mean(v, ax, XpReduce.AUTO_SPLIT),
            CubedArray::prod,
            CubedArray::min,
            CubedArray::max,
            CubedArray::sum,
            CubedArray::mean);
    List<Function<CubedArray, CubedArray>> plain =
        List.of(
            v -> Xp.prod(v, 0, 2),
            v -> Xp.min(v, 0, 2),
            v -> Xp.max(v, 0, 2),
            v -> Xp.sum(v, 0, 2),
            v -> Xp.mean(v, 0, 2));
    for (int i = 0; i < xpForms.size(); i++) {
      CubedArray k = xpForms.get(i).apply(x, Axes.of(0, 2).keepDims());
      assertThat(k.shape()).as("form " + i).containsExactly(1, 5, 1);
      assertThat(k.compute().reshape(5))
          .as("form " + i)
          .isEqualTo(plain.get(i % plain.size()).apply(x).compute());
    }
    for (CubedArray k :
        new CubedArray[] {
          Xp.all(b, Axes.of(1).keepDims(), XpReduce.AUTO_SPLIT), b.all(Axes.of(1).keepDims())
        }) {
      assertThat(k.shape()).containsExactly(4, 1, 3);
      assertThat(k.compute().reshape(4, 3)).isEqualTo(Xp.all(b, 1).compute());
    }
    for (CubedArray k :
        new CubedArray[] {
          Xp.any(b, Axes.all().keepDims(), XpReduce.AUTO_SPLIT), b.any(Axes.all().keepDims())
        }) {
      assertThat(k.shape()).containsExactly(1, 1, 1);
      assertThat(k.compute().getBoolean(0)).isEqualTo(Xp.any(b).compute().getBoolean(0));
    }
    CubedArray am = Xp.argmax(x, Axes.of(1).keepDims());
    assertThat(am.shape()).containsExactly(4, 1, 3);
    assertThat(am.compute().reshape(4, 3)).isEqualTo(Xp.argmax(x, 1).compute());
    CubedArray an = x.argmin(Axes.all().keepDims());
    assertThat(an.shape()).containsExactly(1, 1, 1);
    assertThat(an.compute().getLong(0)).isEqualTo(Xp.argmin(x).compute().getLong(0));
    assertThat(x.argmax(Axes.of(-1)).shape()).containsExactly(4, 5);
    assertThat(Xp.argmin(x, Axes.all()).shape()).isEmpty();
    assertThatThrownBy(() -> Xp.argmax(x, Axes.of(0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("argmax");
  }
}
