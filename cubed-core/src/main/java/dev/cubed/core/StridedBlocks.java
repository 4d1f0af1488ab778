package dev.cubed.core;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * A strided selection whose output blocks follow the input's blocks: along each axis, the selected
 * positions falling in one input block make one output block, so each task reads exactly one input
 * block and every input block the selection touches is read once (e.g. {@code x[1000:9000:2]} of
 * chunks 2000 gives blocks (500, 1000, 1000, 1000, 500), read from blocks 0 to 4). Used for small
 * steps ({@link #applies}); larger steps keep the input's chunk sizes ({@link BasicIndexing}),
 * since their output blocks here would hold a few elements each.
 */
final class StridedBlocks {
  private StridedBlocks() {}

  /** Largest step (absolute) this layout is used for. */
  static final long MAX_STEP = 8;

  /** Most input blocks touched along one axis (the layout keeps per-block lists). */
  static final long MAX_BLOCKS_PER_AXIS = 1 << 16;

  /**
   * True if every axis's step is at most {@link #MAX_STEP} (absolute) and, unless 1, at most half
   * its largest chunk, every axis selects something, and no axis touches more than {@link
   * #MAX_BLOCKS_PER_AXIS} input blocks.
   */
  static boolean applies(ArrayNode x, long[] step, long[] len) {
    long[] cmax = x.chunkGrid().maxChunks();
    for (int i = 0; i < step.length; i++) {
      long s = Math.abs(step[i]);
      if (len[i] <= 0
          || s > MAX_STEP
          || (s > 1 && 2 * s > cmax[i])
          || x.chunkGrid().numBlocks()[i] > MAX_BLOCKS_PER_AXIS) {
        return false;
      }
    }
    return true;
  }

  /** {@code x[start : start + len * step : step]} on every axis (len > 0), blocks as above. */
  static ArrayNode select(ArrayNode x, long[] start, long[] step, long[] len) {
    int nd = start.length;
    ChunkGrid in = x.chunkGrid();
    long[][] sizes = new long[nd][];
    long[][] inBlock = new long[nd][];
    long[][] firstOut = new long[nd][];
    for (int i = 0; i < nd; i++) {
      List<long[]> groups = new ArrayList<>(); // (input block, first output position, count)
      long[] at = new long[nd];
      for (long o = 0; o < len[i]; ) {
        long p = start[i] + o * step[i];
        at[i] = in.blockOf(i, p);
        long from = in.blockOffset(at)[i];
        long to = from + in.blockShape(at)[i];
        long n = step[i] > 0 ? (to - 1 - p) / step[i] + 1 : (p - from) / -step[i] + 1;
        n = Math.min(n, len[i] - o);
        groups.add(new long[] {at[i], o, n});
        o += n;
      }
      sizes[i] = new long[groups.size()];
      inBlock[i] = new long[groups.size()];
      firstOut[i] = new long[groups.size()];
      for (int g = 0; g < groups.size(); g++) {
        inBlock[i][g] = groups.get(g)[0];
        firstOut[i][g] = groups.get(g)[1];
        sizes[i][g] = groups.get(g)[2];
      }
    }
    ChunkGrid grid = ChunkGrid.of(len.clone(), sizes);
    if (x instanceof ArrayNode.Stored st && st.array().readsBoxes() && positive(step)) {
      // read straight from the stored chunks: each task decodes its chunk up to its block's
      // last element and copies only the selected elements into its block (no chunk-sized array)
      return new ArrayNode.Virtual(
          "zarr-strided",
          grid,
          x.dtype(),
          RegionRead.strided(st.array(), x.digest(), start, step, grid));
    }
    KeyFunction keys = k -> List.of(BlockKeys.one(inKey(inBlock, k)));
    int mult = x.dtype().isComplex() ? 2 : 1;
    BlockwiseFunction fn =
        (args, k) -> {
          NDArray blk = (NDArray) args.get(0);
          long[] key = inKey(inBlock, k);
          long[] blockStart = in.blockOffset(key);
          long[] bs = grid.blockShape(k);
          NDArray out = NDArray.zeros(x.dtype(), bs);
          long[] os = Shapes.strides(bs);
          long[] is = Shapes.strides(blk.shape());
          long[][] outOff = new long[nd][];
          long[][] inOff = new long[nd][];
          for (int i = 0; i < nd; i++) {
            long p0 = start[i] + firstOut[i][(int) k[i]] * step[i] - blockStart[i];
            outOff[i] = new long[(int) bs[i]];
            inOff[i] = new long[(int) bs[i]];
            for (int j = 0; j < bs[i]; j++) {
              outOff[i][j] = j * os[i];
              inOff[i][j] = (p0 + j * step[i]) * is[i];
            }
          }
          BasicIndexing.copy(blk.data(), out.data(), outOff, inOff, 0, 0, 0, mult);
          return out;
        };
    return new ArrayNode.Computed(
        new Blockwise("getitem", keys, fn, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  private static boolean positive(long[] step) {
    for (long s : step) {
      if (s < 1) {
        return false;
      }
    }
    return true;
  }

  private static long[] inKey(long[][] inBlock, long[] k) {
    long[] key = new long[k.length];
    for (int i = 0; i < k.length; i++) {
      key[i] = inBlock[i][(int) k[i]];
    }
    return key;
  }
}
