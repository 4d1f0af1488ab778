package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.testing.NDAssert;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ElementwiseOpsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {
        "BOOL",
        "INT8",
        "INT32",
        "INT64",
        "UINT16",
        "FLOAT32",
        "FLOAT64",
        "COMPLEX64",
        "COMPLEX128"
      })
  void chunkedElementwiseEqualsKernel(DType t) {
    Spec spec = EngineTestSupport.tinySpec(dir, 150_000);
    NDArray a = EngineTestSupport.randomInts(1, DType.INT32, 7, 5).astype(t);
    NDArray b = EngineTestSupport.randomInts(2, DType.INT32, 5).astype(t);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec);
    CubedArray y = Cubed.fromArray(b, new long[] {2}, spec);
    NDAssert.assertExact(Elementwise.equal(a, b), Xp.equal(x, y).compute(), "equal " + t);
    if (t == DType.BOOL) {
      NDAssert.assertExact(Elementwise.logicalAnd(a, b), Xp.logicalAnd(x, y).compute(), "and");
      Assertions.assertThatThrownBy(() -> Xp.add(x, y))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("add");
    } else {
      NDAssert.assertExact(Elementwise.add(a, b), Xp.add(x, y).compute(), "add " + t);
      NDAssert.assertExact(Elementwise.multiply(a, b), Xp.multiply(x, y).compute(), "mul " + t);
      NDAssert.assertExact(Elementwise.subtract(a, b), Xp.subtract(x, y).compute(), "sub " + t);
      NDAssert.assertExact(Elementwise.negative(a), Xp.negative(x).compute(), "neg " + t);
      NDAssert.assertExact(Elementwise.sin(a), Xp.sin(x).compute(), "sin " + t);
    }
  }
}
