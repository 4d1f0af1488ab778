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
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Chunked reshape in C order. Input and output use "flat" chunkings (leading axes chunk 1, one axis
 * partly, trailing axes whole) so every block is one contiguous range of the flattened array; the
 * input is rechunked to such a chunking when needed, and each output block streams the input blocks
 * overlapping its range, copying the overlaps.
 */
public final class Reshape {
  private Reshape() {}

  /** A flat chunking of {@code shape} with about {@code elems} elements per chunk. */
  static long[] flatChunks(long[] shape, long elems) {
    int nd = shape.length;
    long[] c = new long[nd];
    long inner = 1;
    int k = nd - 1;
    while (k >= 0 && inner * Math.max(1, shape[k]) <= elems) {
      inner *= Math.max(1, shape[k]);
      c[k] = Math.max(1, shape[k]);
      k--;
    }
    if (k >= 0) {
      c[k] = Math.max(1, Math.min(shape[k], elems / inner));
      for (int i = 0; i < k; i++) {
        c[i] = 1;
      }
    }
    return c;
  }

  /**
   * Reshapes {@code x} to {@code shape} (one entry may be -1).
   *
   * @throws IllegalArgumentException if the sizes differ
   */
  public static ArrayNode reshape(ArrayNode x0, long[] shape) {
    ArrayNode x = Regrid.regular(x0);
    long[] s = shape.clone();
    long known = 1;
    int unknown = -1;
    for (int i = 0; i < s.length; i++) {
      if (s[i] == -1) {
        if (unknown >= 0) {
          throw new IllegalArgumentException(
              "reshape: only one dimension may be -1, got " + Shapes.format(shape));
        }
        unknown = i;
      } else {
        known *= s[i];
      }
    }
    long size = Shapes.size(x.shape());
    if (unknown >= 0) {
      // as the kernel (and NumPy): -1 is ambiguous next to a 0 and must divide the size evenly
      if (known == 0 || size % known != 0) {
        throw new IllegalArgumentException(
            "reshape: cannot reshape an array of shape "
                + Shapes.format(x.shape())
                + " (size "
                + size
                + ") into shape "
                + Shapes.format(shape)
                + (known == 0
                    ? ": -1 cannot be inferred when another dimension is 0; give every size"
                    : ": the size is not a multiple of " + known));
      }
      s[unknown] = size / known;
    }
    if (Shapes.size(s) != size) {
      throw new IllegalArgumentException(
          "reshape: cannot reshape an array of shape "
              + Shapes.format(x.shape())
              + " (size "
              + size
              + ") into shape "
              + Shapes.format(shape));
    }
    ArrayNode split = splitAxis(x0, s);
    if (split != null) {
      return split;
    }
    long elems = Shapes.size(x.chunks());
    long[] inChunks = flatChunks(x.shape(), elems);
    ArrayNode in = Arrays.equals(inChunks, x.chunks()) ? x : Core.rechunk(x, inChunks);
    long[] outChunks = flatChunks(s, elems);
    long[] inShape = x.shape();
    KeyFunction keys =
        k -> List.of(BlockKeys.stream(overlapping(range(s, outChunks, k), inShape, inChunks)));
    int mult = x.dtype().isComplex() ? 2 : 1;
    BlockwiseFunction fn =
        (args, k) -> {
          long[] r = range(s, outChunks, k);
          long[] bs = new long[s.length];
          for (int i = 0; i < s.length; i++) {
            bs[i] = Math.min(outChunks[i], s[i] - k[i] * outChunks[i]);
          }
          NDArray out = NDArray.zeros(x.dtype(), bs);
          @SuppressWarnings("unchecked")
          Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
          for (long[] key : overlapping(r, inShape, inChunks)) {
            NDArray blk = it.next();
            long[] ir = range(inShape, inChunks, key);
            long from = Math.max(r[0], ir[0]);
            long to = Math.min(r[1], ir[1]);
            System.arraycopy(
                blk.data(),
                (int) (from - ir[0]) * mult,
                out.data(),
                (int) (from - r[0]) * mult,
                (int) (to - from) * mult);
          }
          return out;
        };
    return new ArrayNode.Computed(
        new Blockwise("reshape", keys, fn, new int[] {1}, new int[] {Integer.MAX_VALUE / 4}, 0),
        List.of(in),
        s,
        outChunks,
        x.dtype(),
        null);
  }

  /**
   * The reshape as a one-block-to-one-block op when it only splits one axis {@code a} of x into
   * {@code (n / f, f)} and every block of x along {@code a} holds whole groups of {@code f} (what
   * xarray's {@code coarsen} asks for): output block k is input block k with the axis split, so the
   * op fuses with what follows (a reduction over the new axis) and nothing is copied; null
   * otherwise.
   */
  private static ArrayNode splitAxis(ArrayNode x, long[] s) {
    long[] in = x.shape();
    int nd = in.length;
    if (nd == 0 || s.length != nd + 1 || Shapes.size(in) == 0) {
      return null;
    }
    int a = 0;
    while (a < nd && s[a] == in[a]) {
      a++;
    }
    if (a == nd) {
      a = nd - 1; // shape (..., n) to (..., n, 1)
    }
    for (int i = a + 1; i < nd; i++) {
      if (s[i + 1] != in[i]) {
        return null;
      }
    }
    long f = s[a + 1];
    if (f < 1 || s[a] * f != in[a]) {
      return null;
    }
    long[] sizes = x.chunkGrid().sizes(a);
    long[] outSizes = new long[sizes.length];
    for (int b = 0; b < sizes.length; b++) {
      if (sizes[b] % f != 0) {
        return null;
      }
      outSizes[b] = sizes[b] / f;
    }
    long[][] grid = new long[nd + 1][];
    for (int i = 0; i <= nd; i++) {
      grid[i] =
          i < a
              ? x.chunkGrid().sizes(i)
              : i == a ? outSizes : i == a + 1 ? new long[] {f} : x.chunkGrid().sizes(i - 1);
    }
    int ax = a;
    KeyFunction keys =
        k -> {
          long[] key = new long[nd];
          for (int i = 0; i < nd; i++) {
            key[i] = k[i < ax + 1 ? i : i + 1];
          }
          return List.of(BlockKeys.one(key));
        };
    BlockwiseFunction fn =
        (args, k) -> {
          NDArray b = (NDArray) args.get(0);
          long[] bs = new long[nd + 1];
          for (int i = 0; i <= nd; i++) {
            bs[i] =
                i < ax ? b.shape(i) : i == ax ? b.shape(ax) / f : i == ax + 1 ? f : b.shape(i - 1);
          }
          return b.reshape(bs);
        };
    return new ArrayNode.Computed(
        new Blockwise("reshape", keys, fn, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        ChunkGrid.of(s, grid),
        x.dtype(),
        null);
  }

  /** Flat range [start, end) of block {@code k} of a flat chunking. */
  static long[] range(long[] shape, long[] chunks, long[] k) {
    long[] start = new long[shape.length];
    long n = 1;
    for (int i = 0; i < shape.length; i++) {
      start[i] = k[i] * chunks[i];
      n *= Math.min(chunks[i], shape[i] - start[i]);
    }
    long off = shape.length == 0 ? 0 : Shapes.offset(shape, start);
    return new long[] {off, off + n};
  }

  /** Input blocks (flat chunking) overlapping the flat range r, in order. */
  static List<long[]> overlapping(long[] r, long[] shape, long[] chunks) {
    List<long[]> keys = new ArrayList<>();
    long p = r[0];
    while (p < r[1]) {
      long[] idx = Shapes.unravel(shape, p);
      long[] key = new long[shape.length];
      for (int i = 0; i < key.length; i++) {
        key[i] = idx[i] / chunks[i];
      }
      keys.add(key);
      p = range(shape, chunks, key)[1];
    }
    return keys;
  }
}
