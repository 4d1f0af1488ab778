package dev.cubed.plan.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ChunkGrid;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The copies a task takes from an in-memory array without its block ({@link
 * HeldBlocks#copyBoxInto}, {@link HeldBlocks#copyRunInto}) equal the same box or run of the block
 * {@link HeldBlocks#generate} gives, for seeded random shapes, chunks, dtypes (complex too), boxes,
 * runs and windows (a held array cut at another origin).
 */
class HeldCopiesTest {
  private static final DType[] DTYPES = {
    DType.FLOAT64, DType.FLOAT32, DType.INT16, DType.BOOL, DType.COMPLEX128
  };

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void boxesAndRunsEqualThoseOfTheGeneratedBlock(int seed) {
    Random r = new Random(seed);
    DType t = DTYPES[seed % DTYPES.length];
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] chunks = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = 2 + r.nextInt(9);
      chunks[d] = 1 + r.nextInt((int) shape[d]);
    }
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(100) - 50);
    }
    HeldBlocks whole = new HeldBlocks(a, ChunkGrid.regular(shape, chunks));
    // a window: the box from `at` to the end, on its own grid
    long[] at = new long[nd];
    long[] wshape = new long[nd];
    for (int d = 0; d < nd; d++) {
      at[d] = r.nextInt((int) shape[d] - 1);
      wshape[d] = shape[d] - at[d];
    }
    long[] wchunks = new long[nd];
    for (int d = 0; d < nd; d++) {
      wchunks[d] = 1 + r.nextInt((int) wshape[d]);
    }
    HeldBlocks window = HeldBlocks.window(whole, "a", at, ChunkGrid.regular(wshape, wchunks));
    for (HeldBlocks h : new HeldBlocks[] {whole, window}) {
      ChunkGrid g =
          h == whole ? ChunkGrid.regular(shape, chunks) : ChunkGrid.regular(wshape, wchunks);
      long[] nb = g.numBlocks();
      for (long f = 0; f < Shapes.size(nb); f++) {
        long[] c = Shapes.unravel(nb, f);
        long[] bs = g.blockShape(c);
        NDArray block = h.generate(c.clone(), bs);
        // a random box of the block
        long[] bstart = new long[nd];
        long[] bshape = new long[nd];
        for (int d = 0; d < nd; d++) {
          bstart[d] = r.nextInt((int) bs[d]);
          bshape[d] = 1 + r.nextInt((int) (bs[d] - bstart[d]));
        }
        NDArray box = NDArray.zeros(t, bshape);
        h.copyBoxInto(c.clone(), bstart, bshape, box.data());
        assertEquals(block.getRegion(bstart, bshape), box, what(t, shape, chunks, c, "box"));
        // a random run of the block
        long n = Shapes.size(bs);
        long start = r.nextInt((int) n);
        int count = 1 + r.nextInt((int) (n - start));
        NDArray run = NDArray.zeros(t, new long[] {count});
        h.copyRunInto(c.clone(), bs, start, count, run.data());
        NDArray flat = block.reshape(new long[] {n});
        assertEquals(
            flat.getRegion(new long[] {start}, new long[] {count}),
            run,
            what(t, shape, chunks, c, "run " + start + "+" + count));
      }
    }
  }

  private static String what(DType t, long[] shape, long[] chunks, long[] c, String part) {
    return t
        + " "
        + Shapes.format(shape)
        + " chunks "
        + Shapes.format(chunks)
        + " block "
        + Arrays.toString(c)
        + " "
        + part;
  }
}
