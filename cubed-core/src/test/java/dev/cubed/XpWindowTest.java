package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.window.MovingWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link XpWindow#movingReduce} chunked (a halo from the following blocks, windows longer than a
 * block, irregular blocks) equals the kernel on the whole array, and its plan writes no window
 * axis: its intermediates are at most the size of its input.
 */
class XpWindowTest {
  @TempDir Path dir;

  private static NDArray data(long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(DType.FLOAT32, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(10) == 0 ? Double.NaN : r.nextGaussian() * 10);
    }
    return a;
  }

  @Test
  void chunkedEqualsTheKernelOnTheWholeArray() {
    NDArray a = data(5, 41, 6, 5);
    Spec spec = EngineTestSupport.tinySpec(dir, 50_000_000);
    for (long[] chunks : new long[][] {{7, 4, 5}, {1, 6, 5}, {41, 3, 2}, {10, 6, 5}}) {
      CubedArray x = Cubed.fromArray(a, chunks, spec);
      String[] fs = {"sum", "nansum", "nanmean", "nanstd", "max", "nanmin"};
      int[] ws = {1, 3, 8, 15, 41};
      CubedArray[] outs = new CubedArray[fs.length * ws.length];
      for (int i = 0; i < outs.length; i++) {
        outs[i] = XpWindow.movingReduce(x, 0, ws[i % ws.length], fs[i / ws.length], 0);
      }
      List<NDArray> got = Cubed.compute(outs);
      for (int i = 0; i < outs.length; i++) {
        String f = fs[i / ws.length];
        int w = ws[i % ws.length];
        NDArray want = MovingWindow.reduce(a, 0, w, MovingWindow.Op.of(f), 0);
        assertThat(got.get(i).shape()).isEqualTo(want.shape());
        assertThat(got.get(i).dtype()).isEqualTo(DType.FLOAT32);
        assertClose(
            got.get(i), want, f + " w " + w + " chunks " + java.util.Arrays.toString(chunks));
      }
    }
    // along the last axis, and an irregular grid from a concatenation
    CubedArray x = Cubed.fromArray(a, new long[] {7, 4, 2}, spec);
    NDArray want = MovingWindow.reduce(a, 2, 3, MovingWindow.Op.NANMEAN, 0);
    assertThat((float[]) XpWindow.movingReduce(x, -1, 3, "nanmean", 0).compute().data())
        .containsExactly((float[]) want.data());
    CubedArray irr =
        Xp.concat(
            List.of(
                Cubed.fromArray(
                    a.getRegion(new long[3], new long[] {3, 6, 5}), new long[] {3, 6, 5}, spec),
                Cubed.fromArray(
                    a.getRegion(new long[] {3, 0, 0}, new long[] {38, 6, 5}),
                    new long[] {4, 6, 5},
                    spec)),
            0);
    want = MovingWindow.reduce(a, 0, 9, MovingWindow.Op.SUM, 0);
    assertThat((float[]) XpWindow.movingReduce(irr, 0, 9, "sum", 0).compute().data())
        .containsExactly((float[]) want.data());
  }

  /** Equal within float32 rounding (sums and moments depend on where a block's pass starts). */
  private static void assertClose(NDArray got, NDArray want, String what) {
    for (int i = 0; i < want.size(); i++) {
      double a = got.getDouble(i);
      double b = want.getDouble(i);
      if (Double.isNaN(b)) {
        assertThat(Double.isNaN(a)).as(what + " at " + i + ": " + a).isTrue();
      } else {
        assertThat(a).as(what + " at " + i).isCloseTo(b, within(1e-5 * Math.max(1, Math.abs(b))));
      }
    }
  }

  @Test
  void thePlanWritesNoWindowAxis() {
    Spec spec = EngineTestSupport.tinySpec(dir, 50_000_000);
    CubedArray x = Cubed.fromArray(data(1, 400, 9, 8), new long[] {100, 9, 8}, spec);
    CubedArray r = XpWindow.movingReduce(Xp.multiply(x, 2.0f), 0, 30, "nanmean", 0);
    PlanFigures s = Cubed.summary(List.of(r));
    long inputBytes = 400L * 9 * 8 * 4;
    assertThat(s.intermediateBytes()).isLessThanOrEqualTo(inputBytes);
  }

  @Test
  void badArgumentsAreRefused() {
    Spec spec = EngineTestSupport.tinySpec(dir, 50_000_000);
    CubedArray x = Cubed.fromArray(data(1, 10, 3), new long[] {4, 3}, spec);
    assertThatThrownBy(() -> XpWindow.movingReduce(x, 0, 11, "sum", 0))
        .hasMessageContaining("window 11 must be between 1 and the length 10 of axis 0");
    assertThatThrownBy(() -> XpWindow.movingReduce(x, 0, 3, "median", 0))
        .hasMessageContaining("'median' is not one of");
    assertThatThrownBy(() -> XpWindow.movingReduce(x, 0, 3, "var", -1))
        .hasMessageContaining("ddof must be 0 or more");
  }
}
