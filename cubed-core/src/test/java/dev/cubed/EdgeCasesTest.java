package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EdgeCasesTest {
  @TempDir Path dir;

  @Test
  void emptyArraysComputeToEmptyResults() {
    Spec spec = EngineTestSupport.tinySpec(dir, 1_000_000);
    CubedArray x = Cubed.fromArray(NDArray.zeros(DType.FLOAT64, 0, 3), new long[] {2, 2}, spec);
    NDArray y = Xp.add(x, x).compute();
    assertThat(y.shape()).containsExactly(0, 3);
    NDArray s = Xp.sum(x, 0).compute();
    assertThat(s.shape()).containsExactly(3);
    assertThat(s.getDouble(0)).isEqualTo(0.0);
  }

  @Test
  void zeroDimensionalArrays() {
    Spec spec = EngineTestSupport.tinySpec(dir, 1_000_000);
    CubedArray x = Cubed.asarray(NDArray.scalar(DType.FLOAT64, 2.5), spec);
    NDArray y = Xp.multiply(x, x).compute();
    assertThat(y.ndim()).isZero();
    assertThat(y.getDouble(0)).isEqualTo(6.25);
  }
}
