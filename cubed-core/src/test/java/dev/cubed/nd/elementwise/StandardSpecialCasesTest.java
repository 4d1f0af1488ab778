package dev.cubed.nd.elementwise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * floor_divide with infinite operands, complex expm1 with zero, infinite or NaN parts and complex
 * tanh with an infinite real part: the Array API standard's special cases (2025.12), where NumPy
 * 2.4 gives NaN, Python's -1 or another zero sign instead; finite values against NumPy 2.4's
 * outputs (golden, inline). {@link ElementwiseGoldenTest} skips exactly these positions of its
 * NumPy vectors.
 */
class StandardSpecialCasesTest {
  static final double INF = Double.POSITIVE_INFINITY;
  static final double NAN = Double.NaN;

  static Stream<Arguments> floorDivide() {
    return Stream.of(
        // the standard's special cases (NumPy: NaN for the first four, -1.0 for 2 // -inf)
        Arguments.of(INF, 2.0, INF),
        Arguments.of(INF, -2.0, -INF),
        Arguments.of(-INF, 2.0, -INF),
        Arguments.of(-INF, -2.0, INF),
        Arguments.of(2.0, INF, 0.0),
        Arguments.of(2.0, -INF, -0.0),
        Arguments.of(-2.0, INF, -0.0),
        Arguments.of(-2.0, -INF, 0.0),
        Arguments.of(0.0, INF, 0.0),
        Arguments.of(-0.0, INF, -0.0),
        Arguments.of(INF, INF, NAN),
        Arguments.of(-INF, INF, NAN),
        Arguments.of(NAN, INF, NAN),
        Arguments.of(INF, NAN, NAN),
        Arguments.of(2.0, 0.0, INF),
        Arguments.of(-2.0, 0.0, -INF),
        Arguments.of(2.0, -0.0, -INF),
        Arguments.of(0.0, 0.0, NAN),
        // finite operands: NumPy 2.4's values
        Arguments.of(7.5, 2.0, 3.0),
        Arguments.of(-7.5, 2.0, -4.0),
        Arguments.of(7.5, -2.0, -4.0),
        Arguments.of(-0.0, 5.0, -0.0),
        Arguments.of(5.0, 3.0, 1.0),
        Arguments.of(-5.0, 3.0, -2.0));
  }

  @ParameterizedTest(name = "{0} // {1} = {2}")
  @MethodSource("floorDivide")
  void floorDivideFollowsTheStandard(double a, double b, double want) {
    NDArray r64 =
        Elementwise.floorDivide(NDArray.of(new double[] {a}), NDArray.of(new double[] {b}));
    assertThat(r64.dtype()).isEqualTo(DType.FLOAT64);
    assertSame(want, r64.getDouble(0), a + " // " + b + " (float64)");
    NDArray r32 =
        Elementwise.floorDivide(
            NDArray.of(new float[] {(float) a}), NDArray.of(new float[] {(float) b}));
    assertThat(r32.dtype()).isEqualTo(DType.FLOAT32);
    assertSame(want, r32.getDouble(0), a + " // " + b + " (float32)");
  }

  static Stream<Arguments> expm1() {
    return Stream.of(
        // the standard's special cases (NumPy: -0 real part for -0+0j, NaN parts for the rest)
        Arguments.of(0.0, 0.0, 0.0, 0.0),
        Arguments.of(-0.0, 0.0, 0.0, 0.0),
        Arguments.of(INF, 0.0, INF, 0.0),
        Arguments.of(INF, -0.0, INF, -0.0),
        Arguments.of(-INF, 2.0, -1.0, 0.0 * Math.sin(2.0)),
        Arguments.of(INF, 2.0, INF * Math.cos(2.0), INF * Math.sin(2.0)),
        Arguments.of(-INF, INF, -1.0, 0.0),
        Arguments.of(-INF, NAN, -1.0, 0.0),
        Arguments.of(INF, INF, INF, NAN),
        Arguments.of(INF, NAN, INF, NAN),
        Arguments.of(NAN, 0.0, NAN, 0.0),
        Arguments.of(NAN, 1.0, NAN, NAN),
        Arguments.of(NAN, NAN, NAN, NAN),
        Arguments.of(1.0, INF, NAN, NAN),
        Arguments.of(1.0, NAN, NAN, NAN),
        // finite values: NumPy 2.4's outputs
        Arguments.of(0.5, 1.0, -0.10919209570687133, 1.3873511113297634),
        Arguments.of(-1e-10, 2e-10, -1.00000000015e-10, 1.9999999998e-10),
        Arguments.of(3.0, -2.0, -9.358532650935372, -18.263727040666765),
        Arguments.of(-20.0, 0.7, -0.9999999984235428, 1.3278316196889567e-09));
  }

  @ParameterizedTest(name = "expm1({0}, {1}) = ({2}, {3})")
  @MethodSource("expm1")
  void complexExpm1FollowsTheStandard(double re, double im, double wantRe, double wantIm) {
    NDArray x = NDArray.scalar(DType.COMPLEX128, Complex.of(re, im));
    Complex r = (Complex) Elementwise.expm1(x).item();
    String what = "expm1(" + re + (im < 0 ? "" : "+") + im + "j)";
    assertClose(wantRe, r.re(), what + " real part");
    assertClose(wantIm, r.im(), what + " imaginary part");
  }

  static Stream<Arguments> tanh() {
    // +-1 + 0j with the zero's sign from the imaginary part (NumPy: from sin(2y), -0 for y = 2)
    return Stream.of(
        Arguments.of(INF, 2.0, 1.0, 0.0),
        Arguments.of(INF, -2.0, 1.0, -0.0),
        Arguments.of(-INF, 2.0, -1.0, 0.0),
        Arguments.of(INF, 0.5, 1.0, 0.0),
        Arguments.of(INF, INF, 1.0, 0.0),
        Arguments.of(INF, NAN, 1.0, 0.0),
        // finite: NumPy 2.4
        Arguments.of(0.5, 1.0, 1.0428307283443607, 0.806877412163085));
  }

  @ParameterizedTest(name = "tanh({0}, {1}) = ({2}, {3})")
  @MethodSource("tanh")
  void complexTanhFollowsTheStandard(double re, double im, double wantRe, double wantIm) {
    Complex r =
        (Complex) Elementwise.tanh(NDArray.scalar(DType.COMPLEX128, Complex.of(re, im))).item();
    assertClose(wantRe, r.re(), "tanh real part");
    assertClose(wantIm, r.im(), "tanh imaginary part");
  }

  /** Equal as values, NaN equal to NaN, and the sign of a zero checked. */
  static void assertSame(double want, double got, String what) {
    if (Double.isNaN(want)) {
      assertThat(got).as(what).isNaN();
    } else {
      assertThat(got).as(what).isEqualTo(want);
      assertThat(Math.copySign(1.0, got)).as(what + ": sign").isEqualTo(Math.copySign(1.0, want));
    }
  }

  static void assertClose(double want, double got, String what) {
    if (Double.isNaN(want) || Double.isInfinite(want) || want == 0) {
      assertSame(want, got, what);
    } else {
      assertThat(got).as(what).isCloseTo(want, Offset.offset(4 * Math.ulp(want)));
    }
  }
}
