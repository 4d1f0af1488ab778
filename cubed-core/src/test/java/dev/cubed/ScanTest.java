package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScanTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void cumulativeSumAndProdMatchNaive(int axis) {
    Spec spec = EngineTestSupport.tinySpec(dir, 200_000);
    NDArray a = EngineTestSupport.randomDoubles(7, 11, 6);
    NDArray ints = EngineTestSupport.randomInts(8, DType.INT32, 11, 6);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 4}, spec);
    CubedArray y = Cubed.fromArray(ints, new long[] {4, 4}, spec);
    NDArray cs = Xp.cumulativeSum(x, axis).compute();
    NDArray cp = Xp.cumulativeProd(x, axis).compute();
    NDArray ci = Xp.cumulativeSum(y, axis).compute();
    assertThat(ci.dtype()).isEqualTo(DType.INT64);
    for (int i = 0; i < 11; i++) {
      for (int j = 0; j < 6; j++) {
        double s = 0;
        double p = 1;
        long si = 0;
        int n = axis == 0 ? i : j;
        for (int t = 0; t <= n; t++) {
          int f = axis == 0 ? t * 6 + j : i * 6 + t;
          s += a.getDouble(f);
          p *= a.getDouble(f);
          si += ints.getLong(f);
        }
        assertThat(cs.getDouble(i * 6 + j)).isCloseTo(s, Offset.offset(1e-9));
        assertThat(cp.getDouble(i * 6 + j)).isCloseTo(p, Offset.offset(1e-9 * (1 + Math.abs(p))));
        assertThat(ci.getLong(i * 6 + j)).isEqualTo(si);
      }
    }
  }
}
