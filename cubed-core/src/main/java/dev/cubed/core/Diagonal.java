package dev.cubed.core;

import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * {@code linalg.diagonal} on chunked arrays without gathering a matrix: output block k along the
 * diagonal covers diagonal positions {@code [k*c, (k+1)*c)} (c: x's largest row chunk) and reads,
 * one at a time, only the input blocks that stretch of the diagonal crosses (at most about {@code
 * 2c / min chunk} of them), cutting the square piece of each and taking its main diagonal. Memory
 * per task: one input block, the pieces and their concatenation (two output blocks).
 */
public final class Diagonal {
  private Diagonal() {}

  /**
   * The diagonal at {@code offset} (positive: above the main one) of each matrix of x (..., M, N):
   * shape (..., L), x's dtype, the batch axes chunked as x's.
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static ArrayNode diagonal(ArrayNode x, long offset) {
    long[] s = x.shape();
    int nd = s.length;
    if (nd < 2) {
      throw new IllegalArgumentException(
          "diagonal: x must have at least 2 dimensions (a stack of"
              + " matrices (..., M, N)), got "
              + nd);
    }
    long r0 = Math.max(-offset, 0);
    long c0 = Math.max(offset, 0);
    long len = Math.max(0, Math.min(s[nd - 2] - r0, s[nd - 1] - c0));
    ChunkGrid in = x.chunkGrid();
    long c = Math.max(1, in.maxChunks()[nd - 2]);
    int nOut = (int) ((len + c - 1) / c);
    long[] rowOff = in.offsets(nd - 2);
    long[] colOff = in.offsets(nd - 1);
    long[] rowSz = in.sizes(nd - 2);
    long[] colSz = in.sizes(nd - 1);
    // per output block: segments (row block, col block, first position, end position)
    long[][][] segs = new long[nOut][][];
    int maxReads = 1;
    for (int k = 0; k < nOut; k++) {
      List<long[]> l = new ArrayList<>();
      long i = k * c;
      long hi = Math.min(len, (k + 1) * c);
      while (i < hi) {
        long row = r0 + i;
        long col = c0 + i;
        int rb = (int) in.blockOf(nd - 2, row);
        int cb = (int) in.blockOf(nd - 1, col);
        long end = Math.min(hi, Math.min(rowOff[rb] + rowSz[rb] - r0, colOff[cb] + colSz[cb] - c0));
        l.add(new long[] {rb, cb, i, end});
        i = end;
      }
      segs[k] = l.toArray(new long[0][]);
      maxReads = Math.max(maxReads, segs[k].length);
    }
    long[] outShape = Arrays.copyOf(s, nd - 1);
    outShape[nd - 2] = len;
    long[][] sizes = new long[nd - 1][];
    for (int d = 0; d < nd - 2; d++) {
      sizes[d] = in.sizes(d);
    }
    sizes[nd - 2] = new long[nOut];
    for (int k = 0; k < nOut; k++) {
      sizes[nd - 2][k] = Math.min(c, len - k * c);
    }
    ChunkGrid grid = ChunkGrid.of(outShape, sizes);
    KeyFunction keys =
        co -> {
          List<long[]> l = new ArrayList<>();
          for (long[] seg : segs[(int) co[nd - 2]]) {
            long[] key = Arrays.copyOf(co, nd);
            key[nd - 2] = seg[0];
            key[nd - 1] = seg[1];
            l.add(key);
          }
          return List.of(BlockKeys.stream(l));
        };
    BlockwiseFunction bf =
        (args, co) -> {
          @SuppressWarnings("unchecked")
          Iterator<NDArray> blocks = (Iterator<NDArray>) args.get(0);
          long[][] mine = segs[(int) co[nd - 2]];
          NDArray[] pieces = new NDArray[mine.length];
          for (int p = 0; p < mine.length; p++) {
            long[] seg = mine[p];
            NDArray b = blocks.next();
            long n = seg[3] - seg[2];
            long[] start = new long[nd];
            long[] shape = b.shape().clone();
            start[nd - 2] = r0 + seg[2] - rowOff[(int) seg[0]];
            start[nd - 1] = c0 + seg[2] - colOff[(int) seg[1]];
            shape[nd - 2] = n;
            shape[nd - 1] = n;
            pieces[p] = Linalg.diagonal(b.getRegion(start, shape), 0);
          }
          return pieces.length == 1 ? pieces[0] : Manipulation.concat(pieces, nd - 2);
        };
    long outBlock = x.dtype().itemSize() * c;
    for (int d = 0; d < nd - 2; d++) {
      outBlock *= Math.max(1, in.maxChunks()[d]);
    }
    return new ArrayNode.Computed(
        new Blockwise("diagonal", keys, bf, new int[] {1}, new int[] {maxReads}, 2 * outBlock),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }
}
