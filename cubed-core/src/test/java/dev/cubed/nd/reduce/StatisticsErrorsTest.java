package dev.cubed.nd.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Bad input to Statistics, Searching and Utility: each message names function, shapes/dtypes, rule.
 */
class StatisticsErrorsTest {
  private final NDArray x = NDArray.arange(0, 12, 1, DType.FLOAT64).reshape(3, 4);

  @Test
  void axisOutOfRange() {
    assertThatThrownBy(() -> Statistics.sum(x, Axes.of(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sum")
        .hasMessageContaining("axis 2")
        .hasMessageContaining("2 dimension");
    assertThatThrownBy(() -> Statistics.mean(x, Axes.of(0, 0)))
        .hasMessageContaining("mean")
        .hasMessageContaining("repeated");
  }

  @Test
  void emptyMinMaxAndArg() {
    NDArray e = NDArray.zeros(DType.FLOAT64, 0, 3);
    assertThatThrownBy(() -> Statistics.min(e, Axes.of(0)))
        .hasMessageContaining("min")
        .hasMessageContaining("(0, 3)")
        .hasMessageContaining("no identity");
    assertThat(Statistics.max(e, Axes.of(1)).shape()).containsExactly(0);
    assertThatThrownBy(() -> Searching.argmax(e))
        .hasMessageContaining("argmax")
        .hasMessageContaining("empty");
  }

  @Test
  void complexHasNoOrder() {
    NDArray c = NDArray.zeros(DType.COMPLEX128, 3);
    assertThatThrownBy(() -> Statistics.max(c))
        .hasMessageContaining("max")
        .hasMessageContaining("complex128")
        .hasMessageContaining("no order");
    assertThatThrownBy(() -> Searching.argmin(c))
        .hasMessageContaining("argmin")
        .hasMessageContaining("complex128");
  }

  @Test
  void wrongDtypesAndShapes() {
    NDArray b = NDArray.zeros(DType.BOOL, 3);
    assertThatThrownBy(() -> Statistics.mean(b))
        .hasMessageContaining("mean")
        .hasMessageContaining("bool")
        .hasMessageContaining("numeric");
    assertThatThrownBy(() -> Searching.where(x, x, x))
        .hasMessageContaining("where")
        .hasMessageContaining("bool");
    assertThatThrownBy(() -> Searching.where(NDArray.zeros(DType.BOOL, 2), x, x))
        .hasMessageContaining("where")
        .hasMessageContaining("(2,)")
        .hasMessageContaining("(3, 4)")
        .hasMessageContaining("broadcast");
    assertThatThrownBy(() -> Searching.searchsorted(x, x))
        .hasMessageContaining("searchsorted")
        .hasMessageContaining("1-d")
        .hasMessageContaining("(3, 4)");
    assertThatThrownBy(() -> Searching.nonzero(NDArray.scalar(1.0)))
        .hasMessageContaining("nonzero")
        .hasMessageContaining("0-d");
    assertThatThrownBy(() -> Statistics.cumulativeSum(x))
        .hasMessageContaining("cumulative_sum")
        .hasMessageContaining("(3, 4)")
        .hasMessageContaining("axis");
  }

  @Test
  void fastPathsAgreeWithGenericLayout() {
    // a 2-d float64 array large enough for the unrolled paths: axis 0 (row accumulation), axis 1
    // (eight accumulators), both (flattened) and a permuted layout (axes 0 and 2 of 3-d)
    SplittableRandom r = new SplittableRandom(7);
    NDArray a = NDArray.zeros(DType.FLOAT64, 37, 53);
    double[] d = (double[]) a.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextDouble() - 0.5;
    }
    NDArray s0 = Statistics.sum(a, Axes.of(0));
    NDArray s1 = Statistics.sum(a, Axes.of(1));
    for (int j = 0; j < 53; j++) {
      double e = 0;
      for (int i = 0; i < 37; i++) {
        e += d[i * 53 + j];
      }
      assertThat(s0.getDouble(j)).isCloseTo(e, Offset.offset(1e-12));
    }
    for (int i = 0; i < 37; i++) {
      double e = 0;
      for (int j = 0; j < 53; j++) {
        e += d[i * 53 + j];
      }
      assertThat(s1.getDouble(i)).isCloseTo(e, Offset.offset(1e-12));
    }
    NDArray t = a.reshape(37, 1, 53);
    assertThat(Statistics.sum(t, Axes.of(0, 2)).getDouble(0))
        .isCloseTo(Statistics.sum(a).getDouble(0), Offset.offset(1e-10));
  }
}
