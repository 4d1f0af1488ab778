package dev.cubed.core;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.GatherFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Moves an array to another chunk grid in one blockwise step: each output block reads the input
 * blocks it overlaps (all at once) and copies their overlapping parts. Used to make an irregular
 * grid regular before operations that need regular chunks, to rechunk to explicit block lists, and
 * to align an input's grid with another's. Its projected memory counts the largest number of input
 * blocks any output block overlaps, so the plan's memory check refuses a regrid that would not fit
 * (the multistage {@link Core#rechunk} is the bounded path between regular grids).
 */
public final class Regrid {
  private Regrid() {}

  /** {@code x} on regular chunks of its largest block sizes; {@code x} itself if regular. */
  public static ArrayNode regular(ArrayNode x) {
    return x.isRegular() ? x : to(x, ChunkGrid.regular(x.shape(), x.chunks()));
  }

  /**
   * {@code x} on {@code grid} (same shape); {@code x} itself if the grids are equal.
   *
   * @throws IllegalArgumentException if the grid's shape differs from x's
   */
  public static ArrayNode to(ArrayNode x, ChunkGrid grid) {
    if (!Arrays.equals(grid.shape(), x.shape())) {
      throw new IllegalArgumentException(
          "rechunk: chunk grid of shape "
              + Shapes.format(grid.shape())
              + " for an array of shape "
              + Shapes.format(x.shape()));
    }
    if (grid.equals(x.chunkGrid())) {
      return x;
    }
    ChunkGrid in = x.chunkGrid();
    int nd = x.shape().length;
    int held = maxOverlap(in, grid);
    KeyFunction keys = k -> List.of(BlockKeys.many(inputBlocks(k, grid, in)));
    boolean complex = x.dtype().isComplex();
    GatherFunction fn =
        (args, k) -> {
          long[] start = grid.blockOffset(k);
          long[] bs = grid.blockShape(k);
          @SuppressWarnings("unchecked")
          List<NDArray> blocks = (List<NDArray>) args.get(0);
          List<long[]> ks = inputBlocks(k, grid, in);
          if (ks.size() == 1 && Arrays.equals(blocks.get(0).shape(), bs)) {
            return blocks.get(0);
          }
          NDArray out = NDArray.zeros(x.dtype(), bs);
          for (int b = 0; b < ks.size(); b++) {
            NDArray blk = blocks.get(b);
            long[] bStart = in.blockOffset(ks.get(b));
            long[] src = new long[nd];
            long[] dst = new long[nd];
            long[] box = new long[nd];
            for (int i = 0; i < nd; i++) {
              long lo = Math.max(start[i], bStart[i]);
              long hi = Math.min(start[i] + bs[i], bStart[i] + blk.shape(i));
              src[i] = lo - bStart[i];
              dst[i] = lo - start[i];
              box[i] = hi - lo;
            }
            NDArray.copyBox(
                blk.data(), blk.shape(), src, out.data(), bs, dst, box, complex ? 2 : 1);
          }
          return out;
        };
    return new ArrayNode.Computed(
        new Blockwise("rechunk-blocks", keys, fn, new int[] {held}, new int[] {held}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  /**
   * {@code x} on {@code grid}, whose every block is a box of whole blocks of x ({@link
   * Core#joinsBlocks}): each task reads the blocks of its box one at a time (each block of x is
   * read by one task only) and copies each into place, holding the output block and one input
   * block. Named {@link Plan#JOIN_OP}: the plan fuses the ops computing x into it (nothing
   * recomputed, no intermediate copy of x), whatever the number of blocks a task reads, when they
   * are cheap copies or arithmetic; x is stored first when any of them is other work (e.g. a
   * factorization per block), which then stays one parallel task per block.
   */
  static ArrayNode join(ArrayNode x, ChunkGrid grid) {
    if (grid.equals(x.chunkGrid())) {
      return x;
    }
    ChunkGrid in = x.chunkGrid();
    int nd = x.shape().length;
    int reads = maxOverlap(in, grid);
    KeyFunction keys = k -> List.of(BlockKeys.stream(inputBlocks(k, grid, in)));
    boolean complex = x.dtype().isComplex();
    GatherFunction fn =
        (args, k) -> {
          long[] start = grid.blockOffset(k);
          long[] bs = grid.blockShape(k);
          @SuppressWarnings("unchecked")
          Iterator<NDArray> blocks = (Iterator<NDArray>) args.get(0);
          List<long[]> ks = inputBlocks(k, grid, in);
          NDArray out = NDArray.zeros(x.dtype(), bs);
          long[] zero = new long[nd];
          for (long[] key : ks) {
            NDArray blk = blocks.next();
            long[] dst = in.blockOffset(key);
            for (int i = 0; i < nd; i++) {
              dst[i] -= start[i];
            }
            NDArray.copyBox(
                blk.data(), blk.shape(), zero, out.data(), bs, dst, blk.shape(), complex ? 2 : 1);
          }
          return out;
        };
    return new ArrayNode.Computed(
        new Blockwise(Plan.JOIN_OP, keys, fn, new int[] {1}, new int[] {reads}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  /** The most blocks of {@code in} that one block of {@code out} overlaps (same shape). */
  static int maxOverlap(ChunkGrid in, ChunkGrid out) {
    long held = 1;
    for (int i = 0; i < in.shape().length; i++) {
      long[] o = out.offsets(i);
      long most = 1;
      for (int j = 0; j + 1 < o.length; j++) {
        if (o[j + 1] > o[j]) {
          most = Math.max(most, in.blockOf(i, o[j + 1] - 1) - in.blockOf(i, o[j]) + 1);
        }
      }
      held = Math.min(Integer.MAX_VALUE / 4, held * most);
    }
    return (int) held;
  }

  /** The blocks of {@code in} that block {@code k} of {@code out} overlaps, in C order. */
  private static List<long[]> inputBlocks(long[] k, ChunkGrid out, ChunkGrid in) {
    int nd = k.length;
    long[] start = out.blockOffset(k);
    long[] size = out.blockShape(k);
    long[] lo = new long[nd];
    long[] count = new long[nd];
    long total = 1;
    for (int i = 0; i < nd; i++) {
      lo[i] = in.blockOf(i, start[i]);
      count[i] = size[i] > 0 ? in.blockOf(i, start[i] + size[i] - 1) - lo[i] + 1 : 1;
      total *= count[i];
    }
    List<long[]> keys = new ArrayList<>();
    for (long f = 0; f < total; f++) {
      long[] rel = Shapes.unravel(count, f);
      long[] key = new long[nd];
      for (int i = 0; i < nd; i++) {
        key[i] = lo[i] + rel[i];
      }
      keys.add(key);
    }
    return keys;
  }
}
