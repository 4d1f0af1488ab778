package dev.cubed.nd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link NDArray#permuteDims} against the definition {@code out[i] = x[i permuted]}, element by
 * element, on seeded random shapes wider than the tiled transpose's 32-element tiles (and not
 * multiples of them), for every permutation of 2, 3 and 4 axes and the element types with a tiled
 * loop (float64, float32, int64, int32) and without one (int16, bool); floats carry NaNs and signed
 * zeros, compared by their bits.
 */
class PermuteDimsTiledTest {
  private static final DType[] TYPES = {
    DType.FLOAT64, DType.FLOAT32, DType.INT64, DType.INT32, DType.INT16, DType.BOOL
  };

  @Test
  void everyPermutationEqualsTheDefinition() {
    Random rnd = new Random(33);
    for (int nd = 2; nd <= 4; nd++) {
      for (int[] perm : permutations(nd)) {
        for (DType t : TYPES) {
          long[] shape = new long[nd];
          for (int k = 0; k < nd; k++) {
            shape[k] = 1 + rnd.nextInt(nd == 4 ? 12 : nd == 3 ? 45 : 75);
          }
          NDArray x = random(t, shape, rnd);
          check(x, perm);
        }
      }
    }
  }

  @Test
  void sizeOneAxesAndABroadcastSourceStayRight() {
    Random rnd = new Random(7);
    check(random(DType.FLOAT64, new long[] {1, 40, 1, 33}, rnd), new int[] {3, 2, 1, 0});
    check(random(DType.FLOAT64, new long[] {70, 1}, rnd), new int[] {1, 0});
    check(random(DType.FLOAT32, new long[] {33, 65}, rnd), new int[] {1, 0});
    // a broadcast (gathered with stride 0) then transposed
    NDArray row = random(DType.FLOAT64, new long[] {1, 45}, rnd);
    NDArray b = row.broadcastTo(40, 45);
    check(b, new int[] {1, 0});
  }

  private static void check(NDArray x, int[] perm) {
    NDArray y = x.permuteDims(perm);
    int nd = perm.length;
    long[] want = new long[nd];
    for (int k = 0; k < nd; k++) {
      want[k] = x.shape()[perm[k]];
    }
    assertArrayEquals(want, y.shape());
    assertEquals(x.dtype(), y.dtype());
    long[] outIdx = new long[nd];
    long[] inIdx = new long[nd];
    for (int i = 0; i < y.size(); i++) {
      long r = i;
      for (int k = nd - 1; k >= 0; k--) {
        outIdx[k] = r % want[k];
        r /= want[k];
      }
      for (int k = 0; k < nd; k++) {
        inIdx[perm[k]] = outIdx[k];
      }
      int j = x.flatIndex(inIdx);
      String at = x.dtype() + " perm " + java.util.Arrays.toString(perm) + " element " + i;
      if (x.dtype().isBool()) {
        assertEquals(x.getBoolean(j), y.getBoolean(i), at);
      } else if (x.dtype().isFloating()) {
        assertEquals(
            Double.doubleToRawLongBits(x.getDouble(j)),
            Double.doubleToRawLongBits(y.getDouble(i)),
            at);
      } else {
        assertEquals(x.getLong(j), y.getLong(i), at);
      }
    }
  }

  private static NDArray random(DType t, long[] shape, Random rnd) {
    NDArray x = NDArray.zeros(t, shape);
    for (int i = 0; i < x.size(); i++) {
      if (t.isBool()) {
        x.setBoolean(i, rnd.nextBoolean());
      } else if (t.isFloating()) {
        int c = rnd.nextInt(20);
        x.setDouble(i, c == 0 ? Double.NaN : c == 1 ? -0.0 : rnd.nextGaussian());
      } else {
        x.setLong(i, rnd.nextInt(60000) - 30000);
      }
    }
    return x;
  }

  private static List<int[]> permutations(int n) {
    List<int[]> out = new ArrayList<>();
    permute(new int[n], new boolean[n], 0, out);
    return out;
  }

  private static void permute(int[] cur, boolean[] used, int at, List<int[]> out) {
    if (at == cur.length) {
      out.add(cur.clone());
      return;
    }
    for (int v = 0; v < cur.length; v++) {
      if (!used[v]) {
        used[v] = true;
        cur[at] = v;
        permute(cur, used, at + 1, out);
        used[v] = false;
      }
    }
  }
}
