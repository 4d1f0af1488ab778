package dev.cubed.core;

import dev.cubed.nd.Manipulation;
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
 * Ops that move whole blocks to other positions of the block grid (no values cross a block
 * boundary): {@link #flip}, {@link #tile}, {@link #repeat}.
 */
public final class Rearrange {
  private Rearrange() {}

  /**
   * Reverses the given axes (every axis when {@code axes} is null, as the kernel). The output's
   * block sizes along a flipped axis are the input's in reverse order (a partial last block becomes
   * the first one, so regular chunks with a partial edge become irregular); output block k along it
   * is input block {@code n-1-k} reversed. One input block per task.
   *
   * @throws IllegalArgumentException naming flip if an axis is out of range or repeated
   */
  public static ArrayNode flip(ArrayNode x, int[] axes) {
    long[] shape = x.shape();
    int nd = shape.length;
    int[] ax;
    if (axes == null) {
      ax = new int[nd];
      for (int i = 0; i < nd; i++) {
        ax[i] = i;
      }
    } else {
      ax = Shapes.normalizeAxes("flip", axes, nd);
    }
    boolean[] flipped = new boolean[nd];
    for (int a : ax) {
      flipped[a] = true;
    }
    ChunkGrid in = x.chunkGrid();
    long[][] sizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      long[] s = in.sizes(d);
      sizes[d] = s.clone();
      if (flipped[d]) {
        for (int i = 0; i < s.length; i++) {
          sizes[d][i] = s[s.length - 1 - i];
        }
      }
    }
    ChunkGrid grid = ChunkGrid.of(shape, sizes);
    long[] nb = in.numBlocks();
    int[] fax = ax.clone();
    KeyFunction keys =
        c -> {
          long[] k = c.clone();
          for (int d = 0; d < nd; d++) {
            if (flipped[d]) {
              k[d] = nb[d] - 1 - c[d];
            }
          }
          return List.of(BlockKeys.one(k));
        };
    BlockwiseFunction bf = (args, c) -> Manipulation.flip((NDArray) args.get(0), fax);
    return new ArrayNode.Computed(
        new Blockwise("flip", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  /**
   * Tiles {@code x} {@code reps[d]} times along each axis ({@code reps} has one entry per axis of
   * x; leading axes are added by the caller). The output's block sizes along an axis are the
   * input's repeated {@code reps[d]} times; output block k reads input block {@code k mod n}, as it
   * is. One input block per task.
   *
   * @throws IllegalArgumentException naming tile for a negative repetition or a wrong count
   */
  public static ArrayNode tile(ArrayNode x, long[] reps) {
    long[] shape = x.shape();
    int nd = shape.length;
    if (reps.length != nd) {
      throw new IllegalArgumentException(
          "tile: "
              + reps.length
              + " repetitions for an array of "
              + "shape "
              + Shapes.format(shape)
              + "; give one per axis");
    }
    ChunkGrid in = x.chunkGrid();
    long[] out = new long[nd];
    long[][] sizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      if (reps[d] < 0) {
        throw new IllegalArgumentException(
            "tile: repetitions must be >= 0, got " + Arrays.toString(reps));
      }
      long[] s = in.sizes(d);
      out[d] = Math.multiplyExact(shape[d], reps[d]);
      sizes[d] = new long[Math.toIntExact(Math.multiplyExact(s.length, reps[d]))];
      for (int i = 0; i < sizes[d].length; i++) {
        sizes[d][i] = s[i % s.length];
      }
    }
    ChunkGrid grid = ChunkGrid.of(out, sizes);
    long[] nb = in.numBlocks();
    KeyFunction keys =
        c -> {
          long[] k = new long[nd];
          for (int d = 0; d < nd; d++) {
            k[d] = c[d] % nb[d];
          }
          return List.of(BlockKeys.one(k));
        };
    BlockwiseFunction bf = (args, c) -> (NDArray) args.get(0);
    return new ArrayNode.Computed(
        new Blockwise("tile", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }

  /**
   * Repeats each element along {@code axis}: {@code repeats} holds one count for all elements or
   * one per element of the axis. Output block k holds the repeats of one input block (blocks whose
   * elements all repeat 0 times are dropped), so an output block is up to {@code max(repeats)}
   * times its input block: the memory check refuses when that does not fit (rechunk the input
   * smaller first). One input block per task.
   *
   * @throws IllegalArgumentException naming repeat for a negative count or a length mismatch
   */
  public static ArrayNode repeat(ArrayNode x, long[] repeats, int axis) {
    long[] shape = x.shape();
    int ax = Shapes.normalizeAxis("repeat", axis, shape.length);
    long n = shape[ax];
    if (repeats.length != 1 && repeats.length != n) {
      throw new IllegalArgumentException(
          "repeat: "
              + repeats.length
              + " repeats for axis "
              + axis
              + " of length "
              + n
              + " (shape "
              + Shapes.format(shape)
              + "); give one repeat or one "
              + "per element");
    }
    for (long r : repeats) {
      if (r < 0) {
        throw new IllegalArgumentException("repeat: repeats must be >= 0, got " + r);
      }
    }
    ChunkGrid in = x.chunkGrid();
    long[] s = in.sizes(ax);
    List<Long> outSizes = new ArrayList<>();
    List<long[]> slices = new ArrayList<>(); // per output block: input block, first element
    long at = 0;
    for (int b = 0; b < s.length; b++) {
      long total = 0;
      for (long i = at; i < at + s[b]; i++) {
        total = Math.addExact(total, repeats[repeats.length == 1 ? 0 : (int) i]);
      }
      if (total > 0) {
        outSizes.add(total);
        slices.add(new long[] {b, at});
      }
      at += s[b];
    }
    long[][] sizes = new long[shape.length][];
    long[] out = shape.clone();
    for (int d = 0; d < shape.length; d++) {
      sizes[d] = in.sizes(d);
    }
    sizes[ax] = outSizes.stream().mapToLong(Long::longValue).toArray();
    out[ax] = Arrays.stream(sizes[ax]).sum();
    ChunkGrid grid = ChunkGrid.of(out, sizes);
    long[][] map = slices.toArray(new long[0][]);
    long[] reps = repeats.clone();
    KeyFunction keys =
        c -> {
          long[] k = c.clone();
          k[ax] = map[(int) c[ax]][0];
          return List.of(BlockKeys.one(k));
        };
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray b = (NDArray) args.get(0);
          long[] r = reps;
          if (reps.length != 1) {
            long first = map[(int) c[ax]][1];
            r = Arrays.copyOfRange(reps, (int) first, (int) first + (int) b.shape(ax));
          }
          return Manipulation.repeat(b, r, ax);
        };
    return new ArrayNode.Computed(
        new Blockwise("repeat", keys, bf, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        grid,
        x.dtype(),
        null);
  }
}
