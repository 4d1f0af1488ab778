package dev.cubed.nd.elementwise;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import org.junit.jupiter.api.Test;

/**
 * The exceptions of {@link Elementwise}: they name the function, the dtypes or shapes, and the
 * rule.
 */
class ElementwiseErrorsTest {

  static NDArray f64(long... shape) {
    return NDArray.zeros(DType.FLOAT64, shape);
  }

  @Test
  void bitwiseOnFloatNamesFunctionDtypeAndRule() {
    assertThatThrownBy(() -> Elementwise.bitwiseAnd(f64(3), f64(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bitwise_and")
        .hasMessageContaining("float64 and float64")
        .hasMessageContaining("integer or bool dtypes");
  }

  @Test
  void twoJavaScalarsNameTheFunctionAndWhatToDo() {
    assertThatThrownBy(() -> Elementwise.add(1, 2.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "add: at least one operand must be an NDArray, got Integer and Double")
        .hasMessageContaining("NDArray.scalar");
    assertThatThrownBy(() -> Elementwise.multiply(null, 2, f64(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiply: at least one operand must be an NDArray, got null and");
  }

  @Test
  void mixedDtypesNamePromotion() {
    NDArray i8 = NDArray.zeros(DType.INT8, 2);
    assertThatThrownBy(() -> Elementwise.bitwiseOr(i8, f64(2)))
        .hasMessageContaining("bitwise_or: dtype int8 and float64 (promoted to float64)");
  }

  @Test
  void floorOnComplex() {
    assertThatThrownBy(() -> Elementwise.floor(NDArray.zeros(DType.COMPLEX128, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("floor: dtype complex128")
        .hasMessageContaining("real numeric dtypes");
  }

  @Test
  void shiftOnBoolAndLogicalOnInts() {
    NDArray b = NDArray.zeros(DType.BOOL, 2);
    assertThatThrownBy(() -> Elementwise.bitwiseLeftShift(b, b))
        .hasMessageContaining("bitwise_left_shift: dtype bool and bool")
        .hasMessageContaining("integer dtypes");
    NDArray i = NDArray.zeros(DType.INT32, 2);
    assertThatThrownBy(() -> Elementwise.logicalNot(i))
        .hasMessageContaining("logical_not: dtype int32")
        .hasMessageContaining("bool");
  }

  @Test
  void realFloatingOnlyFunctionsRejectComplex() {
    NDArray c = NDArray.zeros(DType.COMPLEX64, 2);
    assertThatThrownBy(() -> Elementwise.atan2(c, c))
        .hasMessageContaining("atan2: dtype complex64");
    assertThatThrownBy(() -> Elementwise.signbit(c))
        .hasMessageContaining("signbit: dtype complex64");
    assertThatThrownBy(() -> Elementwise.less(c, c)).hasMessageContaining("less: dtype complex64");
    assertThatThrownBy(() -> Elementwise.maximum(c, 1.0)).hasMessageContaining("maximum");
    assertThatThrownBy(() -> Elementwise.clip(c, 0.0, 1.0)).hasMessageContaining("clip");
  }

  @Test
  void arithmeticOnBoolIsRejected() {
    NDArray b = NDArray.zeros(DType.BOOL, 2);
    assertThatThrownBy(() -> Elementwise.add(b, b))
        .hasMessageContaining("add: dtype bool and bool")
        .hasMessageContaining("numeric");
  }

  @Test
  void shapesThatDoNotBroadcastNameBothShapes() {
    assertThatThrownBy(() -> Elementwise.add(f64(2, 3), f64(4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("add")
        .hasMessageContaining("(2, 3)")
        .hasMessageContaining("(4,)")
        .hasMessageContaining("broadcast");
    assertThatThrownBy(() -> Elementwise.less(f64(5, 1), f64(2, 4)))
        .hasMessageContaining("less")
        .hasMessageContaining("(5, 1)")
        .hasMessageContaining("(2, 4)");
  }

  @Test
  void integerScalarOutOfRange() {
    NDArray i8 = NDArray.zeros(DType.INT8, 2);
    assertThatThrownBy(() -> Elementwise.add(i8, 1000))
        .hasMessageContaining("add: scalar 1000 is out of range for dtype int8 (-128 to 127)");
    NDArray u8 = NDArray.zeros(DType.UINT8, 2);
    assertThatThrownBy(() -> Elementwise.multiply(-1, u8))
        .hasMessageContaining("multiply: scalar -1 is out of range for dtype uint8");
  }

  @Test
  void unsupportedScalarType() {
    assertThatThrownBy(() -> Elementwise.add(f64(2), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported scalar");
  }

  @Test
  void integerPowerWithNegativeExponent() {
    NDArray i = NDArray.of(new int[] {2, 3});
    assertThatThrownBy(() -> Elementwise.pow(i, NDArray.of(new int[] {1, -1})))
        .hasMessageContaining("pow")
        .hasMessageContaining("negative integer exponent (-1)");
  }
}
