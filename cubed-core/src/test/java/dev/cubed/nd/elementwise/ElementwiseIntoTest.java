package dev.cubed.nd.elementwise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Random;
import java.util.function.BinaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Elementwise}: the same values (bit for bit) as {@link Elementwise} for every operand dtype
 * pair, shape and scalar form; written into the buffer (and the buffer returned) exactly when it
 * fits, a new array otherwise, the buffer then untouched.
 */
class ElementwiseIntoTest {
  /** One function: without a buffer ({@link Elementwise}) and into one. */
  private record Op(BinaryOperator<NDArray> plain, Into into) {}

  private interface Into {
    NDArray apply(NDArray x, NDArray y, NDArray buf);
  }

  private static final String[] NAMES = {"add", "subtract", "multiply", "divide"};

  private static Op op(String name) {
    return switch (name) {
      case "add" -> new Op(Elementwise::add, Elementwise::add);
      case "subtract" -> new Op(Elementwise::subtract, Elementwise::subtract);
      case "multiply" -> new Op(Elementwise::multiply, Elementwise::multiply);
      default -> new Op(Elementwise::divide, Elementwise::divide);
    };
  }

  private static final DType[] DTYPES = {
    DType.FLOAT64,
    DType.FLOAT32,
    DType.INT32,
    DType.INT64,
    DType.UINT8,
    DType.INT16,
    DType.COMPLEX128,
    DType.BOOL
  };

  static Stream<Arguments> seeds() {
    return IntStream.range(0, 48).mapToObj(Arguments::of);
  }

  private static NDArray random(Random r, DType dt, long[] shape) {
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      switch (dt.kind()) {
        case BOOL -> a.setBoolean(i, r.nextBoolean());
        case COMPLEX -> a.setComplex(i, r.nextInt(20) - 10, 1 + r.nextInt(9));
        case FLOAT -> a.setDouble(i, r.nextInt(3) == 0 ? -0.0 : r.nextGaussian() * 100);
        // nonzero: integer divide by zero is not what this test is about
        default -> a.setLong(i, 1 + r.nextInt(90));
      }
    }
    return a;
  }

  /** A buffer of the result's dtype and shape holding garbage (NaN or a pattern). */
  private static NDArray dirty(DType dt, long[] shape, Random r) {
    NDArray b = NDArray.zeros(dt, shape);
    for (int i = 0; i < b.size(); i++) {
      if (dt.isFloating()) {
        b.setDouble(i, Double.NaN);
      } else if (dt != DType.BOOL) {
        b.setLong(i, 77);
      }
    }
    return b;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void intoEqualsElementwiseBitForBitAndUsesTheBufferExactlyWhenItFits(int seed) {
    Random r = new Random(seed);
    String name = NAMES[seed % NAMES.length];
    Op op = op(name);
    DType tx = DTYPES[r.nextInt(DTYPES.length)];
    DType ty = r.nextInt(3) == 0 ? DTYPES[r.nextInt(DTYPES.length)] : tx;
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] ys = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = 1 + r.nextInt(5);
      ys[d] = r.nextInt(3) == 0 ? 1 : shape[d];
    }
    NDArray x = random(r, tx, shape);
    NDArray y = random(r, ty, ys);
    NDArray want;
    try {
      want = op.plain().apply(x, y);
    } catch (IllegalArgumentException refused) {
      // a dtype the function refuses (e.g. divide of bools): refused the same way with a buffer
      String msg = refused.getMessage();
      NDArray buf = NDArray.zeros(DType.FLOAT64, shape);
      try {
        op.into().apply(x, y, buf);
        throw new AssertionError(
            name + " of " + tx + ", " + ty + ": refused without a buffer, " + "accepted with one");
      } catch (IllegalArgumentException e) {
        assertThat(e.getMessage()).isEqualTo(msg);
      }
      return;
    }
    // no buffer: a new array
    assertThat(op.into().apply(x, y, null)).isEqualTo(want);
    // a buffer of the result's dtype and shape: used when the operands already have that dtype
    // and a native loop exists, the values equal either way
    NDArray buf = dirty(want.dtype(), want.shape(), r);
    NDArray got = op.into().apply(x, y, buf);
    assertThat(got).isEqualTo(want);
    boolean native64 =
        want.dtype() == DType.FLOAT64
            || want.dtype() == DType.FLOAT32
            || want.dtype() == DType.INT32
            || want.dtype() == DType.INT64;
    boolean fits = native64 && tx == want.dtype() && ty == want.dtype();
    assertThat(got == buf)
        .as(name + " of " + tx + ", " + ty + " into " + want.dtype())
        .isEqualTo(fits);
    // a buffer of another shape or dtype: a new array, the buffer untouched
    NDArray wrongShape = dirty(want.dtype(), new long[] {want.size() + 1}, r);
    NDArray before = wrongShape.copy();
    NDArray g2 = op.into().apply(x, y, wrongShape);
    assertThat(g2).isEqualTo(want);
    assertThat(g2).isNotSameAs(wrongShape);
    assertThat(wrongShape).isEqualTo(before);
    DType other = want.dtype() == DType.FLOAT64 ? DType.FLOAT32 : DType.FLOAT64;
    NDArray wrongType = dirty(other, want.shape(), r);
    NDArray before2 = wrongType.copy();
    NDArray g3 = op.into().apply(x, y, wrongType);
    assertThat(g3).isEqualTo(want).isNotSameAs(wrongType);
    assertThat(wrongType).isEqualTo(before2);
  }

  @Test
  void everyNativeDtypeIsWrittenIntoTheBuffer() {
    Random r = new Random(11);
    for (String name : NAMES) {
      Op op = op(name);
      for (DType t : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.INT32, DType.INT64}) {
        if (name.equals("divide") && !t.isFloating()) {
          continue; // an integer quotient is float64: the operands are converted first
        }
        NDArray x = random(r, t, new long[] {3, 7});
        NDArray y = random(r, t, new long[] {3, 7});
        NDArray row = random(r, t, new long[] {7});
        for (NDArray b : new NDArray[] {y, row}) {
          NDArray want = op.plain().apply(x, b);
          NDArray buf = dirty(t, new long[] {3, 7}, r);
          NDArray got = op.into().apply(x, b, buf);
          assertThat(got).as(name + " " + t).isSameAs(buf).isEqualTo(want);
        }
      }
    }
  }

  @Test
  void scalarOperandsFollowTheSamePromotionAndFillTheBuffer() {
    NDArray x = NDArray.arange(0, 12, 1, DType.FLOAT64).reshape(new long[] {3, 4});
    NDArray buf = NDArray.full(DType.FLOAT64, Double.NaN, 3, 4);
    NDArray got = Elementwise.multiply(x, 0.5, buf);
    assertThat(got).isSameAs(buf).isEqualTo(Elementwise.multiply(x, 0.5));
    NDArray got2 = Elementwise.subtract(10.0, x, buf);
    assertThat(got2).isSameAs(buf).isEqualTo(Elementwise.subtract(10.0, x));
    // int32 array and a Java int: an int32 result, into an int32 buffer
    NDArray i = NDArray.arange(0, 6, 1, DType.INT32);
    NDArray ibuf = NDArray.zeros(DType.INT32, 6);
    assertThat(Elementwise.add(i, 3, ibuf)).isSameAs(ibuf).isEqualTo(Elementwise.add(i, 3));
    // int32 array divided by an int: a float64 result; an int32 buffer cannot take it
    NDArray q = Elementwise.divide(i, 4, ibuf);
    assertThat(q).isNotSameAs(ibuf).isEqualTo(Elementwise.divide(i, 4));
    assertThat(q.dtype()).isEqualTo(DType.FLOAT64);
  }

  @Test
  void theBufferMayBeAnOperand() {
    Random r = new Random(9);
    NDArray x = random(r, DType.FLOAT64, new long[] {4, 5});
    NDArray y = random(r, DType.FLOAT64, new long[] {5});
    NDArray want = Elementwise.multiply(x, y);
    NDArray xs = x.copy();
    assertThat(Elementwise.multiply(xs, y, xs)).isSameAs(xs).isEqualTo(want);
    NDArray z = random(r, DType.FLOAT64, new long[] {4, 5});
    NDArray want2 = Elementwise.subtract(x, z);
    NDArray zs = z.copy();
    assertThat(Elementwise.subtract(x, zs, zs)).isSameAs(zs).isEqualTo(want2);
  }
}
