package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.ThreadsExecutor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What persist keeps: a computed value named after its source, and its later computes. */
class PersistedTest {
  private static final Spec SPEC = Spec.builder().build();

  private static CubedArray source(double add) {
    NDArray a = NDArray.arange(0, 60, 1, DType.FLOAT64).reshape(6, 10);
    return Xp.add(Cubed.fromArray(a, new long[] {4, 10}, SPEC), add);
  }

  @Test
  void aPersistedValueIsNamedAfterItsSourceAndKeepsItsChunks() {
    CubedArray s = source(1.0);
    NDArray v = s.compute();
    CubedArray p = Cubed.persisted(v, s);
    assertThat(p.chunks()).isDeepEqualTo(s.chunks());
    assertThat(p.node().digest()).isEqualTo(Cubed.persisted(v, s).node().digest());
    // the same values as the value of another array are another array
    assertThat(Cubed.persisted(v, Xp.multiply(source(1.0), 1.0)).node().digest())
        .isNotEqualTo(p.node().digest());
    // data from the caller is still named by its hash
    assertThat(Cubed.fromArray(v, new long[] {4, 10}, SPEC).node().digest())
        .isNotEqualTo(p.node().digest());
    assertThat(Xp.add(p, 1.0).compute().getDouble(59)).isEqualTo(61.0);
  }

  @Test
  void aPersistedArrayComputedAloneIsCopiedOnceIntoTheCallersBuffer() {
    CubedArray s = source(0.5);
    CubedArray p = Cubed.persisted(s.compute(), s);
    ByteBuffer[] given = new ByteBuffer[1];
    List<NDArray> got =
        Cubed.computeInto(
            (i, dtype, shape) -> {
              assertThat(dtype).isEqualTo(DType.FLOAT64);
              assertThat(shape).containsExactly(6, 10);
              return given[0] = ByteBuffer.allocateDirect(60 * 8);
            },
            ComputeOptions.executor(new ThreadsExecutor(2, 1)),
            p);
    assertThat(got.get(0)).as("the value is in the buffer, not in an array").isNull();
    ByteBuffer b = given[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 60; i++) {
      assertThat(b.getDouble(8 * i)).isEqualTo(i + 0.5);
    }
    // without buffers it comes back as an array
    assertThat(Cubed.compute(p).get(0).getDouble(7)).isEqualTo(7.5);
  }

  @Test
  void refusesAValueOfAnotherShape() {
    CubedArray s = source(1.0);
    assertThatThrownBy(() -> Cubed.persisted(NDArray.zeros(DType.FLOAT64, 6, 9), s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shape");
  }
}
