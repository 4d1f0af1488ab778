package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComplexReductionTest {
  @TempDir Path dir;

  @Test
  void complexSumMeanVarAny() {
    Spec spec = EngineTestSupport.tinySpec(dir, 200_000);
    NDArray re = EngineTestSupport.randomDoubles(1, 9, 4);
    NDArray im = EngineTestSupport.randomDoubles(2, 9, 4);
    NDArray a = NDArray.zeros(DType.COMPLEX128, 9, 4);
    for (int i = 0; i < 36; i++) {
      a.setComplex(i, re.getDouble(i), im.getDouble(i));
    }
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3}, spec);
    NDArray s = Xp.sum(x, 0).compute();
    NDArray m = Xp.mean(x, 0).compute();
    NDArray v = Xp.var(x, 0).compute();
    assertThat(s.dtype()).isEqualTo(DType.COMPLEX128);
    assertThat(v.dtype()).isEqualTo(DType.FLOAT64);
    for (int j = 0; j < 4; j++) {
      double sr = 0;
      double si = 0;
      for (int i = 0; i < 9; i++) {
        sr += re.getDouble(i * 4 + j);
        si += im.getDouble(i * 4 + j);
      }
      double mr = sr / 9;
      double mi = si / 9;
      double var = 0;
      for (int i = 0; i < 9; i++) {
        double dr = re.getDouble(i * 4 + j) - mr;
        double di = im.getDouble(i * 4 + j) - mi;
        var += dr * dr + di * di;
      }
      assertThat(s.getDouble(j)).isCloseTo(sr, Offset.offset(1e-12));
      assertThat(s.getImag(j)).isCloseTo(si, Offset.offset(1e-12));
      assertThat(m.getImag(j)).isCloseTo(mi, Offset.offset(1e-12));
      assertThat(v.getDouble(j)).isCloseTo(var / 9, Offset.offset(1e-12));
    }
    assertThat(Xp.any(x).compute().getBoolean(0)).isTrue();
    assertThatThrownBy(() -> Xp.max(x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max: not defined for complex");
  }
}
