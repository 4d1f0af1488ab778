package dev.cubed.nd.elementwise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.testing.NDAssert;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The broadcasting loop against a reference that materializes both operands with {@link
 * NDArray#broadcastTo} and combines them element by element; seeded random shapes of up to 5 axes
 * with length-1 axes in both operands, for a fast-path dtype (float64, int32), a generic one
 * (uint8) and complex128. Also the result dtypes of scalar operands and of functions promoting
 * integers.
 */
class ElementwiseBroadcastTest {

  static Stream<Arguments> seeds() {
    return IntStream.range(0, 40).mapToObj(Arguments::of);
  }

  static NDArray random(Random r, DType dt, long[] shape) {
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      if (dt.isComplex()) {
        a.setComplex(i, r.nextInt(20) - 10, r.nextInt(20) - 10);
      } else {
        a.setLong(i, r.nextInt(200) - 100);
      }
    }
    return a;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void subtractMatchesMaterializedBroadcast(int seed) {
    Random r = new Random(seed);
    int nd = r.nextInt(6);
    long[] out = new long[nd];
    long[] xs = new long[nd];
    long[] ys = new long[nd];
    for (int i = 0; i < nd; i++) {
      out[i] = 1 + r.nextInt(4);
      xs[i] = r.nextInt(3) == 0 ? 1 : out[i];
      ys[i] = r.nextInt(3) == 0 ? 1 : out[i];
    }
    int drop = nd == 0 ? 0 : r.nextInt(nd + 1);
    long[] yShort = Arrays.copyOfRange(ys, drop, nd);
    for (DType dt : new DType[] {DType.FLOAT64, DType.INT32, DType.UINT8, DType.COMPLEX128}) {
      NDArray x = random(r, dt, xs);
      NDArray y = random(r, dt, yShort);
      long[] shape = Shapes.broadcast("t", xs, yShort);
      NDArray bx = x.broadcastTo(shape);
      NDArray by = y.broadcastTo(shape);
      NDArray expected = NDArray.zeros(dt, shape);
      for (int i = 0; i < expected.size(); i++) {
        if (dt.isComplex()) {
          expected.setComplex(i, bx.getDouble(i) - by.getDouble(i), bx.getImag(i) - by.getImag(i));
        } else {
          expected.setLong(i, bx.getLong(i) - by.getLong(i));
        }
      }
      NDAssert.assertExact(expected, Elementwise.subtract(x, y), dt + " seed " + seed);
      NDArray lt = Elementwise.notEqual(x, y);
      for (int i = 0; i < lt.size(); i++) {
        boolean ne = bx.getDouble(i) != by.getDouble(i) || bx.getImag(i) != by.getImag(i);
        assertThat(lt.getBoolean(i)).isEqualTo(ne);
      }
    }
  }

  @Test
  void scalarOperandsTakeTheArrayDtype() {
    NDArray i8 = NDArray.of(new byte[] {1, 2});
    assertThat(Elementwise.add(i8, 1).dtype()).isEqualTo(DType.INT8);
    assertThat(Elementwise.add(2.5, i8).dtype()).isEqualTo(DType.FLOAT64);
    NDArray f32 = NDArray.of(new float[] {1, 2});
    assertThat(Elementwise.multiply(f32, 2.5).dtype()).isEqualTo(DType.FLOAT32);
    assertThat(Elementwise.multiply(f32, Complex.of(0, 1)).dtype()).isEqualTo(DType.COMPLEX64);
    NDArray b = NDArray.of(new boolean[] {true, false});
    assertThat(Elementwise.add(b, 1).dtype()).isEqualTo(DType.INT64);
    assertThat(Elementwise.logicalAnd(b, true).dtype()).isEqualTo(DType.BOOL);
    assertThat(Elementwise.less(i8, 2).dtype()).isEqualTo(DType.BOOL);
    assertThat(Elementwise.abs(NDArray.zeros(DType.COMPLEX64, 2)).dtype()).isEqualTo(DType.FLOAT32);
  }

  @Test
  void floatingFunctionsPromoteIntegersToFloat64() {
    NDArray i = NDArray.of(new int[] {0, 1, 4});
    NDArray f = i.astype(DType.FLOAT64);
    NDAssert.assertExact(Elementwise.sin(f), Elementwise.sin(i), "sin int32");
    NDAssert.assertExact(Elementwise.sqrt(f), Elementwise.sqrt(i), "sqrt int32");
    NDAssert.assertExact(Elementwise.divide(f, f), Elementwise.divide(i, i), "divide int32");
    assertThat(Elementwise.exp(NDArray.of(new boolean[] {true})).dtype()).isEqualTo(DType.FLOAT64);
  }

  @Test
  void extensionsBeyondTheStandard() {
    NDArray f = NDArray.of(new float[] {1.5f, -2f});
    NDArray im = Elementwise.imag(f);
    assertThat(im.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(im.data()).isEqualTo(new float[] {0f, 0f});
    NDArray b = NDArray.of(new boolean[] {true, false});
    assertThat(Elementwise.isnan(b).data()).isEqualTo(new boolean[] {false, false});
    assertThat(Elementwise.isfinite(b).data()).isEqualTo(new boolean[] {true, true});
    assertThat(Elementwise.isinf(NDArray.of(new int[] {1})).data())
        .isEqualTo(new boolean[] {false});
  }

  @Test
  void clipKeepsTheDtypeOfX() {
    NDArray x = NDArray.of(new int[] {-5, 0, 5, 9});
    NDArray c = Elementwise.clip(x, 0, 6);
    assertThat(c.dtype()).isEqualTo(DType.INT32);
    assertThat(c.data()).isEqualTo(new int[] {0, 0, 5, 6});
    NDArray none = Elementwise.clip(x, null, null);
    assertThat(none.data()).isEqualTo(x.data());
  }

  @Test
  void float64ClipBetweenScalarsIsMaximumThenMinimum() {
    double nan = Double.NaN;
    double[] xs = {-1.0, 0.2, 0.5, 0.8, 3.0, nan, -0.0, 0.0, Double.NEGATIVE_INFINITY};
    NDArray x = NDArray.of(xs);
    Object[][] bounds = {
      {0.2, 0.8},
      {0.8, 0.2},
      {null, 0.5},
      {0.5, null},
      {nan, 0.5},
      {0.1, nan},
      {0.0, -0.0},
      {-0.0, 0.0}
    };
    for (Object[] lh : bounds) {
      NDArray r = x;
      if (lh[0] != null) {
        r = Elementwise.maximum(r, NDArray.scalar(DType.FLOAT64, lh[0]));
      }
      if (lh[1] != null) {
        r = Elementwise.minimum(r, NDArray.scalar(DType.FLOAT64, lh[1]));
      }
      NDArray c = Elementwise.clip(x, lh[0], lh[1]);
      assertThat(c.dtype()).isEqualTo(DType.FLOAT64);
      for (int i = 0; i < xs.length; i++) {
        assertThat(Double.doubleToLongBits(c.getDouble(i)))
            .as("clip(%s, %s, %s)", xs[i], lh[0], lh[1])
            .isEqualTo(Double.doubleToLongBits(r.getDouble(i)));
      }
    }
  }

  @Test
  void sameShapeFloat64AddIsExact() {
    double[] a = new double[1000];
    double[] b = new double[1000];
    Random r = new Random(7);
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextGaussian();
      b[i] = r.nextGaussian();
    }
    double[] c = (double[]) Elementwise.add(NDArray.of(a), NDArray.of(b)).data();
    for (int i = 0; i < a.length; i++) {
      assertThat(c[i]).isEqualTo(a[i] + b[i]);
    }
  }
}
