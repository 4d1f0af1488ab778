package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import dev.cubed.plan.ChunkGrid;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The elementwise op on a chunk grid ({@link #op}), and its set-up when an input has an irregular
 * chunk grid ({@link #irregular}). The output takes, on each
 * axis, the block sizes of the first input spanning that axis; inputs whose blocks differ there
 * are moved to those sizes by {@link Regrid#to} (each of their output blocks reads the few input
 * blocks it overlaps), so every task then reads exactly one block of each input. Inputs with equal
 * grids (e.g. two slices {@code x[3:17]} and {@code y[3:17]} of equally chunked arrays) are read
 * as they are.
 */
final class ElemwiseOp {
  private ElemwiseOp() {}

  static ArrayNode irregular(String name, Core.BlocksFunction fn, DType out, long[] shape,
      ArrayNode... xs) {
    int nd = shape.length;
    long[][] sizes = new long[nd][];
    for (ArrayNode x : xs) {
      int off = nd - x.shape().length;
      for (int d = 0; d < x.shape().length; d++) {
        if (sizes[off + d] == null && x.shape()[d] == shape[off + d] && shape[off + d] != 1) {
          sizes[off + d] = x.chunkGrid().sizes(d);
        }
      }
    }
    for (int d = 0; d < nd; d++) {
      if (sizes[d] == null) {
        sizes[d] = shape[d] == 0 ? new long[0] : new long[] {shape[d]};
      }
    }
    ChunkGrid grid = ChunkGrid.of(shape, sizes);
    List<ArrayNode> ins = new ArrayList<>();
    long[][] inShapes = new long[xs.length][];
    for (int j = 0; j < xs.length; j++) {
      ArrayNode x = xs[j];
      inShapes[j] = x.shape();
      int off = nd - x.shape().length;
      long[][] want = new long[x.shape().length][];
      for (int d = 0; d < want.length; d++) {
        want[d] = x.shape()[d] == 1 && shape[off + d] != 1 ? new long[] {1} : sizes[off + d];
      }
      ChunkGrid w = ChunkGrid.of(x.shape(), want);
      ins.add(w.equals(x.chunkGrid()) ? x : Regrid.to(x, w));
    }
    return op(name, fn, out, grid, inShapes, ins);
  }

  /**
   * The elementwise op over inputs already on {@code grid} (size-1 axes broadcast): block k of the
   * output reads block k of each input (block 0 along its size-1 axes).
   */
  static ArrayNode op(String name, Core.BlocksFunction fn, DType out, ChunkGrid grid,
      long[][] inShapes, List<ArrayNode> ins) {
    int nd = grid.shape().length;
    KeyFunction keys = c -> {
      List<BlockKeys> l = new ArrayList<>();
      for (long[] s : inShapes) {
        int off = nd - s.length;
        long[] k = new long[s.length];
        for (int d = 0; d < s.length; d++) {
          k[d] = s[d] == 1 ? 0 : c[off + d];
        }
        l.add(BlockKeys.one(k));
      }
      return l;
    };
    BlockFunction bf = (args, c) -> {
      long[] bs = grid.blockShape(c);
      NDArray[] blocks = new NDArray[args.size()];
      for (int i = 0; i < blocks.length; i++) {
        NDArray b = (NDArray) args.get(i);
        blocks[i] = Arrays.equals(b.shape(), bs) ? b : b.broadcastTo(bs);
      }
      NDArray r = fn.apply(blocks);
      return r.dtype() == out ? r : r.astype(out);
    };
    int[] ones = new int[ins.size()];
    Arrays.fill(ones, 1);
    return new ArrayNode.Computed(new Blockwise(name, keys, bf, ones, ones.clone(), 0), ins, grid,
        out, null);
  }
}
