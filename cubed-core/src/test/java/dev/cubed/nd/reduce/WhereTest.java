package dev.cubed.nd.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import org.junit.jupiter.api.Test;

/**
 * {@link Searching#where}: every operand shape (full, one element, broadcast along an axis), each
 * dtype path, and the inputs left as they were (operands of the result's shape are read in place).
 */
class WhereTest {
  private static final NDArray COND =
      NDArray.of(new boolean[] {true, false, false, true, true, false}, 2, 3);

  @Test
  void fullOperandsPickPerElementAndLeaveTheInputsAlone() {
    NDArray a = NDArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
    NDArray b = NDArray.of(new double[] {-1, -2, -3, -4, -5, -6}, 2, 3);
    NDArray r = Searching.where(COND, a, b);
    assertThat((double[]) r.data()).containsExactly(1, -2, -3, 4, 5, -6);
    assertThat((double[]) b.data()).containsExactly(-1, -2, -3, -4, -5, -6);
    assertThat((double[]) a.data()).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(r.shape()).containsExactly(2, 3);
  }

  @Test
  void aScalarOperandOnEitherSide() {
    NDArray a = NDArray.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    NDArray r = Searching.where(COND, a, Float.NaN);
    assertThat(r.dtype()).isEqualTo(DType.FLOAT32);
    assertThat((float[]) r.data()).containsExactly(1, Float.NaN, Float.NaN, 4, 5, Float.NaN);
    NDArray l = NDArray.of(new long[] {1, 2, 3, 4, 5, 6}, 2, 3);
    NDArray s = Searching.where(COND, 0L, l);
    assertThat((long[]) s.data()).containsExactly(0, 2, 3, 0, 0, 6);
  }

  @Test
  void broadcastOperandsAndCondition() {
    NDArray row = NDArray.of(new double[] {10, 20, 30}, 3);
    NDArray col = NDArray.of(new double[] {-1, -2}, 2, 1);
    NDArray r = Searching.where(COND, row, col);
    assertThat((double[]) r.data()).containsExactly(10, -1, -1, 10, 20, -2);
    NDArray c1 = NDArray.of(new boolean[] {false, true, false}, 3);
    NDArray m = NDArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
    NDArray q = Searching.where(c1, m, 0.0);
    assertThat((double[]) q.data()).containsExactly(0, 2, 0, 0, 5, 0);
  }

  @Test
  void otherDtypesAndEmptyResults() {
    NDArray a = NDArray.of(new boolean[] {true, true, true, true, true, true}, 2, 3);
    NDArray b = NDArray.of(new boolean[] {false, false, false, false, false, false}, 2, 3);
    assertThat((boolean[]) Searching.where(COND, a, b).data())
        .containsExactly(true, false, false, true, true, false);
    NDArray i = NDArray.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3);
    NDArray j = NDArray.of(new int[] {7, 8, 9, 10, 11, 12}, 2, 3);
    assertThat((int[]) Searching.where(COND, i, j).data()).containsExactly(1, 8, 9, 4, 5, 12);
    NDArray e = NDArray.of(new double[0], 0, 3);
    assertThat(Searching.where(NDArray.of(new boolean[0], 0, 3), e, 1.0).shape())
        .containsExactly(0, 3);
    // mixed dtypes promote: int32 and float64 give float64
    NDArray f = NDArray.of(new double[] {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 2, 3);
    assertThat((double[]) Searching.where(COND, i, f).data())
        .containsExactly(1, 0.5, 0.5, 4, 5, 0.5);
  }
}
