package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Axes;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReductionOptionsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 5})
  void multiAxisKeepDimsCorrectionAndArgmin(int splitEvery) {
    Spec spec = EngineTestSupport.tinySpec(dir, 100_000);
    NDArray a = EngineTestSupport.randomDoubles(splitEvery, 9, 4, 11);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3, 2}, spec);
    NDArray m = Xp.mean(x, Axes.of(0, 2).keepDims(), splitEvery).compute();
    NDArray sd = Xp.std(x, Axes.of(0, 2), 1, splitEvery).compute();
    NDArray am = Xp.argmin(x, 2).compute();
    assertThat(m.shape()).containsExactly(1, 4, 1);
    for (int j = 0; j < 4; j++) {
      double s = 0;
      for (int i = 0; i < 9; i++) {
        for (int k = 0; k < 11; k++) {
          s += a.getDouble(i * 44 + j * 11 + k);
        }
      }
      double mean = s / 99;
      double ss = 0;
      for (int i = 0; i < 9; i++) {
        for (int k = 0; k < 11; k++) {
          double d = a.getDouble(i * 44 + j * 11 + k) - mean;
          ss += d * d;
        }
      }
      assertThat(m.getDouble(j)).isCloseTo(mean, Offset.offset(1e-12));
      assertThat(sd.getDouble(j)).isCloseTo(Math.sqrt(ss / 98), Offset.offset(1e-12));
    }
    for (int i = 0; i < 9; i++) {
      for (int j = 0; j < 4; j++) {
        int best = 0;
        for (int k = 1; k < 11; k++) {
          if (a.getDouble(i * 44 + j * 11 + k) < a.getDouble(i * 44 + j * 11 + best)) {
            best = k;
          }
        }
        assertThat(am.getLong(i * 4 + j)).isEqualTo(best);
      }
    }
  }
}
