package dev.cubed.nd;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CreationMiscTest {

  @ParameterizedTest
  @EnumSource(DType.class)
  void likeFunctionsKeepShapeAndDtype(DType dt) {
    NDArray x = NDArray.ones(dt, 2, 0, 3);
    assertThat(Creation.emptyLike(x, null).dtype()).isEqualTo(dt);
    assertThat(Creation.emptyLike(x, null).shape()).containsExactly(2, 0, 3);
    assertThat(Creation.zerosLike(NDArray.ones(dt), DType.INT16))
        .isEqualTo(NDArray.zeros(DType.INT16));
    assertThat(Creation.fullLike(NDArray.zeros(dt, 2), true, null)).isEqualTo(NDArray.ones(dt, 2));
    assertThat(Creation.asarray(x, dt)).isSameAs(x);
    assertThat(Creation.asarray(NDArray.of(new long[] {1, 0}), dt))
        .isEqualTo(NDArray.of(new long[] {1, 0}).astype(dt));
  }

  @Test
  void asarrayFromJavaAndScalars() {
    assertThat(Creation.asarray(new int[][] {{1, 2}, {3, 4}}))
        .isEqualTo(NDArray.of(new int[] {1, 2, 3, 4}, 2, 2));
    assertThat(Creation.asarray(new double[] {1.5}, DType.FLOAT32))
        .isEqualTo(NDArray.of(new float[] {1.5f}, 1));
    assertThat(Creation.asarray(7L).dtype()).isEqualTo(DType.INT64);
    assertThat(Creation.asarray(2.5).shape()).isEmpty();
    assertThat(Creation.asarray(Complex.of(1, 2)).dtype()).isEqualTo(DType.COMPLEX128);
    assertThat(Creation.asarray(true, DType.UINT8).item()).isEqualTo((short) 1);
  }

  @Test
  void asarrayCopyPolicy() {
    NDArray x = NDArray.of(new long[] {1, 2});
    assertThat(Creation.asarray(x, null, Manipulation.Copy.NEVER)).isSameAs(x);
    assertThat(Creation.asarray(x, DType.INT64, Manipulation.Copy.ALWAYS))
        .isNotSameAs(x)
        .isEqualTo(x);
    assertThat(Creation.asarray(x, DType.INT8, Manipulation.Copy.IF_NEEDED))
        .isEqualTo(NDArray.of(new byte[] {1, 2}));
    Assertions.assertThatThrownBy(() -> Creation.asarray(x, DType.INT8, Manipulation.Copy.NEVER))
        .hasMessageContaining("asarray: copy=False, but converting a int64 array to int8");
    Assertions.assertThatThrownBy(
            () -> Creation.asarray(new int[] {1}, null, Manipulation.Copy.NEVER))
        .hasMessageContaining("needs a copy");
  }

  @Test
  void defaultDtypes() {
    assertThat(Creation.zeros(new long[] {2}, null).dtype()).isEqualTo(DType.FLOAT64);
    assertThat(Creation.empty(new long[] {2}, null).dtype()).isEqualTo(DType.FLOAT64);
    assertThat(Creation.full(new long[] {2}, 3, null).dtype()).isEqualTo(DType.INT64);
    assertThat(Creation.full(new long[] {2}, false, null).dtype()).isEqualTo(DType.BOOL);
    assertThat(Creation.eye(3))
        .isEqualTo(NDArray.of(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, 3, 3));
    assertThat(Creation.linspace(0, 1, 5).dtype()).isEqualTo(DType.FLOAT64);
    assertThat(Creation.arange(0.0, 3.0, 1.0, null).dtype()).isEqualTo(DType.FLOAT64);
  }

  @Test
  void meshgridEdgeCases() {
    NDArray a = NDArray.of(new long[] {1, 2, 3});
    NDArray[] one = Creation.meshgrid(Creation.MeshIndexing.XY, a);
    assertThat(one).hasSize(1);
    assertThat(one[0]).isEqualTo(a);
    assertThat(Creation.meshgrid(Creation.MeshIndexing.IJ)).isEmpty();
  }

  @Test
  void repeatWithArrayRepeats() {
    NDArray x = NDArray.of(new long[] {5, 6});
    assertThat(Manipulation.repeat(x, NDArray.of(new int[] {2, 1}, 2), 0))
        .isEqualTo(NDArray.of(new long[] {5, 5, 6}));
    assertThat(Manipulation.repeat(x, NDArray.scalar(DType.UINT8, 2)))
        .isEqualTo(NDArray.of(new long[] {5, 5, 6, 6}));
  }
}
