package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManipOpsTest {
  @TempDir Path dir;

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 200_000);
  }

  @Test
  void permuteExpandSqueezeBroadcastMatchKernel() {
    NDArray a = EngineTestSupport.randomDoubles(1, 5, 7, 3);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3, 2}, spec());
    NDAssert.assertExact(a.permuteDims(2, 0, 1), Xp.permuteDims(x, 2, 0, 1).compute(), "permute");
    NDArray e = Xp.expandDims(x, 1).compute();
    NDAssert.assertExact(a.reshape(5, 1, 7, 3), e, "expand");
    NDAssert.assertExact(a, Xp.squeeze(Xp.expandDims(x, 3), 3).compute(), "squeeze");
    NDAssert.assertExact(
        a.broadcastTo(4, 5, 7, 3), Xp.broadcastTo(x, 4, 5, 7, 3).compute(), "broadcast");
    NDAssert.assertExact(a.reshape(1, 5, 7, 3), Xp.reshape(x, 1, 5, 7, 3).compute(), "reshape");
    NDAssert.assertExact(a.reshape(35, 3), Xp.reshape(x, 35, 3).compute(), "reshape 2");
    NDAssert.assertExact(a.reshape(3, 35), Xp.reshape(x, 3, -1).compute(), "reshape 3");
    NDAssert.assertExact(a.reshape(105), Xp.reshape(x, 105).compute(), "reshape flat");
    NDAssert.assertExact(a, Xp.reshape(Xp.reshape(x, 15, 7), 5, 7, 3).compute(), "round trip");
    assertThatThrownBy(() -> Xp.reshape(x, 34, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reshape");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, -1, -3})
  void slicingAnyStepMatchesNaive(int step) {
    NDArray a = EngineTestSupport.randomDoubles(2, 13, 11);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, spec());
    Index.Slice s0 = new Index.Slice(step > 0 ? 1L : 11L, null, step);
    NDArray got = Xp.getItem(x, s0, new Index.At(-2)).compute();
    long[] r = s0.resolve(13);
    assertThat(got.shape()).containsExactly(r[2]);
    for (int i = 0; i < r[2]; i++) {
      assertThat(got.getDouble(i)).isEqualTo(a.getDouble((int) ((r[0] + i * r[1]) * 11 + 9)));
    }
    NDArray g2 =
        Xp.getItem(x, new Index.Ellipsis(), new Index.Slice(null, null, -step), new Index.NewAxis())
            .compute();
    long[] r2 = new Index.Slice(null, null, -step).resolve(11);
    assertThat(g2.shape()).containsExactly(13, r2[2], 1);
    for (int i = 0; i < 13; i++) {
      for (int j = 0; j < r2[2]; j++) {
        assertThat(g2.getDouble((int) (i * r2[2] + j)))
            .isEqualTo(a.getDouble((int) (i * 11 + r2[0] + j * r2[1])));
      }
    }
  }

  @Test
  void concatAndStackMatchNaive() {
    NDArray a = EngineTestSupport.randomDoubles(3, 5, 4);
    NDArray b = EngineTestSupport.randomDoubles(4, 7, 4);
    CubedArray x = Cubed.fromArray(a, new long[] {2, 3}, spec());
    CubedArray y = Cubed.fromArray(b, new long[] {3, 2}, spec());
    NDArray c = Xp.concat(List.of(x, y), 0).compute();
    assertThat(c.shape()).containsExactly(12, 4);
    for (int i = 0; i < 12; i++) {
      for (int j = 0; j < 4; j++) {
        double want = i < 5 ? a.getDouble(i * 4 + j) : b.getDouble((i - 5) * 4 + j);
        assertThat(c.getDouble(i * 4 + j)).isEqualTo(want);
      }
    }
    NDArray s = Xp.stack(List.of(x, x), 1).compute();
    assertThat(s.shape()).containsExactly(5, 2, 4);
    for (int i = 0; i < 5; i++) {
      for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 4; j++) {
          assertThat(s.getDouble(i * 8 + k * 4 + j)).isEqualTo(a.getDouble(i * 4 + j));
        }
      }
    }
  }

  @Test
  void matmulAndTensordotMatchNaive() {
    NDArray a = EngineTestSupport.randomDoubles(5, 9, 7);
    NDArray b = EngineTestSupport.randomDoubles(6, 7, 5);
    CubedArray x = Cubed.fromArray(a, new long[] {4, 3}, spec());
    CubedArray y = Cubed.fromArray(b, new long[] {2, 2}, spec());
    NDArray m = Xp.matmul(x, y).compute();
    NDArray t = Xp.tensordot(x, y, new int[] {1}, new int[] {0}).compute();
    for (int i = 0; i < 9; i++) {
      for (int j = 0; j < 5; j++) {
        double s = 0;
        for (int k = 0; k < 7; k++) {
          s += a.getDouble(i * 7 + k) * b.getDouble(k * 5 + j);
        }
        assertThat(m.getDouble(i * 5 + j)).isCloseTo(s, Offset.offset(1e-12));
        assertThat(t.getDouble(i * 5 + j)).isCloseTo(s, Offset.offset(1e-12));
      }
    }
    assertThatThrownBy(() -> Xp.matmul(x, x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not aligned");
    NDArray total = Xp.sum(Xp.matmul(x, y)).compute();
    double s = 0;
    for (int i = 0; i < m.size(); i++) {
      s += m.getDouble(i);
    }
    assertThat(total.getDouble(0)).isCloseTo(s, Offset.offset(1e-9));
    assertThat(m.dtype()).isEqualTo(DType.FLOAT64);
  }
}
