package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Data-dependent selections on 1-D arrays whose blocks are contiguous in C order (a reshape to 1-D
 * gives such blocks): the per-block counting op ({@link #counts}), then ops whose output block j
 * holds the selected elements of input block {@code map[j]} (blocks selecting nothing are dropped),
 * on the irregular chunking the counts give.
 */
public final class Selection {
  private Selection() {}

  /**
   * One int64 per block of the 1-D {@code flat}: the number of its non-zero (true) elements. One
   * block per task; the result is tiny (one element per block).
   */
  public static ArrayNode counts(ArrayNode flat) {
    check(flat);
    long nb = flat.numBlocks()[0];
    KeyFunction keys = c -> List.of(BlockKeys.one(c));
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray b = (NDArray) args.get(0);
          long n = 0;
          for (int i = 0; i < b.size(); i++) {
            if (b.getBoolean(i)) {
              n++;
            }
          }
          return NDArray.full(DType.INT64, n, 1);
        };
    return new ArrayNode.Computed(
        new Blockwise("count_blocks", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(flat),
        new long[] {nb},
        new long[] {1},
        DType.INT64,
        null);
  }

  /**
   * Coordinate {@code dim} (of an array of {@code shape}, flattened to {@code flat}) of each
   * non-zero element, in C order, int64, chunked by the per-block {@code counts}. Output block j
   * reads flat block {@code map[j]} only.
   */
  public static ArrayNode nonzeroCoordinate(ArrayNode flat, long[] counts, long[] shape, int dim) {
    Plan p = plan(flat, counts);
    long[] strides = Shapes.strides(shape);
    long extent = shape[dim];
    long[] starts = p.inStarts;
    int[] map = p.map;
    KeyFunction keys = c -> List.of(BlockKeys.one(map[(int) c[0]]));
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray b = (NDArray) args.get(0);
          long off = starts[map[(int) c[0]]];
          List<Long> out = new ArrayList<>();
          for (int i = 0; i < b.size(); i++) {
            if (b.getBoolean(i)) {
              out.add(((off + i) / strides[dim]) % extent);
            }
          }
          NDArray r = NDArray.empty(DType.INT64, out.size());
          for (int i = 0; i < out.size(); i++) {
            r.setLong(i, out.get(i));
          }
          return r;
        };
    return new ArrayNode.Computed(
        new Blockwise("nonzero", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(flat),
        p.grid,
        DType.INT64,
        null);
  }

  /**
   * The elements of the 1-D {@code flatX} where the 1-D {@code flatMask} (same chunk grid) is true,
   * in order, chunked by the mask's per-block {@code counts}. Output block j reads block {@code
   * map[j]} of each.
   */
  public static ArrayNode masked(ArrayNode flatX, ArrayNode flatMask, long[] counts) {
    if (!flatX.chunkGrid().equals(flatMask.chunkGrid())) {
      throw new IllegalArgumentException(
          "mask indexing: x and mask blocks differ ("
              + flatX.chunkGrid()
              + " and "
              + flatMask.chunkGrid()
              + ")");
    }
    Plan p = plan(flatMask, counts);
    int[] map = p.map;
    KeyFunction keys = c -> List.of(BlockKeys.one(map[(int) c[0]]), BlockKeys.one(map[(int) c[0]]));
    BlockwiseFunction bf =
        (args, c) -> Indexing.getMask((NDArray) args.get(0), (NDArray) args.get(1));
    return new ArrayNode.Computed(
        new Blockwise("mask_select", keys, bf, new int[] {1, 1}, new int[] {1, 1}, 0),
        List.of(flatX, flatMask),
        p.grid,
        flatX.dtype(),
        null);
  }

  /**
   * The rows of the 2-d {@code x2} (axis 0 blocked as the 1-d {@code flatMask}) where the mask is
   * true, in order: a mask over x's leading dimensions after both are flattened. Axis 0 is chunked
   * by the mask's per-block {@code counts}; axis 1 keeps x2's blocks. Output block {@code (j, m)}
   * reads block {@code (map[j], m)} of x2 and block {@code map[j]} of the mask.
   */
  public static ArrayNode maskedRows(ArrayNode x2, ArrayNode flatMask, long[] counts) {
    if (x2.shape().length != 2
        || !Arrays.equals(x2.chunkGrid().sizes(0), flatMask.chunkGrid().sizes(0))) {
      throw new IllegalArgumentException(
          "mask indexing: x's rows "
              + x2.chunkGrid()
              + " and the mask's blocks "
              + flatMask.chunkGrid()
              + " differ");
    }
    Plan p = plan(flatMask, counts);
    int[] map = p.map;
    long total = p.grid.shape()[0];
    ChunkGrid grid =
        ChunkGrid.of(
            new long[] {total, x2.shape()[1]},
            new long[][] {p.grid.sizes(0), x2.chunkGrid().sizes(1)});
    KeyFunction keys =
        c -> List.of(BlockKeys.one(map[(int) c[0]], c[1]), BlockKeys.one(map[(int) c[0]]));
    BlockwiseFunction bf =
        (args, c) -> Indexing.getMask((NDArray) args.get(0), (NDArray) args.get(1));
    return new ArrayNode.Computed(
        new Blockwise("mask_select_rows", keys, bf, new int[] {1, 1}, new int[] {1, 1}, 0),
        List.of(x2, flatMask),
        grid,
        x2.dtype(),
        null);
  }

  private record Plan(ChunkGrid grid, int[] map, long[] inStarts) {}

  private static Plan plan(ArrayNode flat, long[] counts) {
    check(flat);
    long[] sizes = flat.chunkGrid().sizes(0);
    if (counts.length != sizes.length) {
      throw new IllegalArgumentException(
          "selection: " + counts.length + " counts for " + sizes.length + " blocks");
    }
    long[] starts = new long[sizes.length];
    long at = 0;
    List<Long> out = new ArrayList<>();
    List<Integer> map = new ArrayList<>();
    for (int b = 0; b < sizes.length; b++) {
      starts[b] = at;
      at += sizes[b];
      if (counts[b] > 0) {
        out.add(counts[b]);
        map.add(b);
      }
    }
    long total = out.stream().mapToLong(Long::longValue).sum();
    ChunkGrid grid =
        ChunkGrid.of(
            new long[] {total}, new long[][] {out.stream().mapToLong(Long::longValue).toArray()});
    return new Plan(grid, map.stream().mapToInt(Integer::intValue).toArray(), starts);
  }

  private static void check(ArrayNode flat) {
    if (flat.shape().length != 1) {
      throw new IllegalArgumentException(
          "selection: expected a 1-d array, got shape " + Shapes.format(flat.shape()));
    }
  }
}
