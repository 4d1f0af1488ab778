package dev.cubed.core;

import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.HeldBlocks;
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
import java.util.TreeSet;

/**
 * Basic indexing (integers, slices with any step, newaxis, ellipsis) as an orthogonal chunk
 * indexer. Unit steps give views of the input's blocks; small steps ({@link StridedBlocks}) give
 * output blocks that follow the input's, one input block read per task; larger steps keep the
 * input's chunk sizes, each output block streaming the input blocks holding its selected elements,
 * one at a time, copying the selected elements.
 */
public final class BasicIndexing {
  private BasicIndexing() {}

  /**
   * {@code x[index...]}.
   *
   * @throws IllegalArgumentException for out-of-range integers, too many indices or two ellipses
   */
  public static ArrayNode getItem(ArrayNode x, Index... index) {
    int nd = x.shape().length;
    List<Index> idx = new ArrayList<>();
    int ell = -1;
    int consumed = 0;
    for (Index i : index) {
      if (i instanceof Index.Ellipsis) {
        if (ell >= 0) {
          throw new IllegalArgumentException("getitem: at most one ellipsis is allowed");
        }
        ell = idx.size();
      } else {
        idx.add(i);
        if (!(i instanceof Index.NewAxis)) {
          consumed++;
        }
      }
    }
    if (consumed > nd) {
      throw new IllegalArgumentException(
          "getitem: " + consumed + " indices for an array of shape " + Shapes.format(x.shape()));
    }
    int fill = nd - consumed;
    int at = ell >= 0 ? ell : idx.size();
    for (int i = 0; i < fill; i++) {
      idx.add(at, new Index.Slice(null, null, 1));
    }
    long[] start = new long[nd];
    long[] step = new long[nd];
    long[] len = new long[nd];
    boolean[] dropAxis = new boolean[nd];
    List<Integer> newAxes = new ArrayList<>();
    int d = 0;
    int outPos = 0;
    for (Index i : idx) {
      if (i instanceof Index.NewAxis) {
        newAxes.add(outPos++);
        continue;
      }
      long n = x.shape()[d];
      if (i instanceof Index.At a) {
        long p = a.index() < 0 ? a.index() + n : a.index();
        if (p < 0 || p >= n) {
          throw new IllegalArgumentException(
              "getitem: index "
                  + a.index()
                  + " is out of bounds "
                  + "for axis "
                  + d
                  + " with size "
                  + n);
        }
        start[d] = p;
        step[d] = 1;
        len[d] = 1;
        dropAxis[d] = true;
      } else {
        long[] r = ((Index.Slice) i).resolve(n);
        start[d] = r[0];
        step[d] = r[1];
        len[d] = r[2];
        outPos++;
      }
      d++;
    }
    ArrayNode sel = select(x, start, step, len);
    int[] drops = new int[count(dropAxis)];
    for (int i = 0, j = 0; i < nd; i++) {
      if (dropAxis[i]) {
        drops[j++] = i;
      }
    }
    ArrayNode r = drops.length > 0 ? ChunkedManipulation.squeeze(sel, drops) : sel;
    for (int a : newAxes) {
      r = ChunkedManipulation.expandDims(r, a);
    }
    return r;
  }

  private static int count(boolean[] b) {
    int n = 0;
    for (boolean v : b) {
      n += v ? 1 : 0;
    }
    return n;
  }

  /** Input block indices (sorted) holding output positions [lo, hi) along one axis. */
  private static long[] blocks(long lo, long hi, long start, long step, long cin) {
    TreeSet<Long> s = new TreeSet<>();
    for (long i = lo; i < hi; i++) {
      s.add((start + i * step) / cin);
    }
    return s.stream().mapToLong(Long::longValue).toArray();
  }

  static ArrayNode select(ArrayNode x0, long[] start, long[] step, long[] len) {
    int nd = start.length;
    boolean unit = true;
    for (int i = 0; i < nd; i++) {
      unit &= step[i] == 1 && len[i] > 0;
    }
    if (unit) {
      return selectBlocks(x0, start, len);
    }
    if (StridedBlocks.applies(x0, step, len)) {
      return StridedBlocks.select(x0, start, step, len);
    }
    ArrayNode x = Regrid.regular(x0);
    long[] cin = x.chunks();
    long[] chunks = new long[nd];
    for (int i = 0; i < nd; i++) {
      chunks[i] = Math.max(1, Math.min(cin[i], Math.max(1, len[i])));
    }
    KeyFunction keys = k -> List.of(BlockKeys.stream(blockKeys(k, chunks, len, start, step, cin)));
    int mult = x.dtype().isComplex() ? 2 : 1;
    BlockwiseFunction fn =
        (args, k) -> {
          long[] bs = new long[nd];
          for (int i = 0; i < nd; i++) {
            bs[i] = Math.min(chunks[i], len[i] - k[i] * chunks[i]);
          }
          NDArray out = NDArray.zeros(x.dtype(), bs);
          long[] os = Shapes.strides(bs);
          @SuppressWarnings("unchecked")
          Iterator<NDArray> it = (Iterator<NDArray>) args.get(0);
          for (long[] key : blockKeys(k, chunks, len, start, step, cin)) {
            NDArray blk = it.next();
            long[] is = Shapes.strides(blk.shape());
            // per axis: (output offset, input offset) pairs falling in this block
            long[][] outOff = new long[nd][];
            long[][] inOff = new long[nd][];
            for (int i = 0; i < nd; i++) {
              List<long[]> pairs = new ArrayList<>();
              for (long o = 0; o < bs[i]; o++) {
                long p = start[i] + (k[i] * chunks[i] + o) * step[i];
                if (p / cin[i] == key[i]) {
                  pairs.add(new long[] {o, p - key[i] * cin[i]});
                }
              }
              outOff[i] = new long[pairs.size()];
              inOff[i] = new long[pairs.size()];
              for (int j = 0; j < pairs.size(); j++) {
                outOff[i][j] = pairs.get(j)[0] * os[i];
                inOff[i][j] = pairs.get(j)[1] * is[i];
              }
            }
            copy(blk.data(), out.data(), outOff, inOff, 0, 0, 0, mult);
          }
          return out;
        };
    long[] shape = len.clone();
    return new ArrayNode.Computed(
        new Blockwise("getitem", keys, fn, new int[] {1}, new int[] {Integer.MAX_VALUE / 4}, 0),
        List.of(x),
        shape,
        chunks,
        x.dtype(),
        null);
  }

  /**
   * {@code x[start : start + len]} with step 1 on every axis, without moving data: the output's
   * blocks are the parts of the input's blocks inside the selection (e.g. {@code x[3:17]} of chunks
   * 5 gives blocks (2, 5, 5, 2)), so each task reads exactly one input block.
   */
  private static ArrayNode selectBlocks(ArrayNode x, long[] start, long[] len) {
    int nd = start.length;
    if (Arrays.equals(start, new long[nd]) && Arrays.equals(len, x.shape())) {
      return x;
    }
    ChunkGrid in = x.chunkGrid();
    long[] firstBlock = new long[nd];
    long[][] sizes = new long[nd][];
    double touched = 1; // elements of the input blocks the selection touches
    for (int i = 0; i < nd; i++) {
      long lo = start[i];
      long hi = start[i] + len[i];
      long b0 = in.blockOf(i, lo);
      long b1 = in.blockOf(i, hi - 1);
      firstBlock[i] = b0;
      sizes[i] = new long[(int) (b1 - b0 + 1)];
      long[] at = new long[nd]; // only the selected blocks' bounds: an axis may have 10^9 blocks
      for (long b = b0; b <= b1; b++) {
        at[i] = b;
        long from = in.blockOffset(at)[i];
        long to = from + in.blockShape(at)[i];
        sizes[i][(int) (b - b0)] = Math.min(hi, to) - Math.max(lo, from);
        if (b == b1) {
          at[i] = b0;
          touched *= to - in.blockOffset(at)[i];
        }
      }
    }
    ChunkGrid grid = ChunkGrid.of(len.clone(), sizes);
    if (x instanceof ArrayNode.Virtual v && v.generator() instanceof HeldBlocks h) {
      // a slice of an in-memory input is a window of it: its tasks copy only their blocks'
      // elements from the held array, not each a whole input block to slice it
      return Shifted.slice(
          new ArrayNode.Virtual(
              "from_array", grid, x.dtype(), HeldBlocks.window(h, x.digest(), start, grid)),
          x,
          start);
    }
    if (x instanceof ArrayNode.Stored st
        && st.array().readsBoxes()
        && 2 * (double) Shapes.size(len) <= touched) {
      // a slice of at most half the stored blocks it touches is a window of the stored array:
      // each task decodes its block's box straight from the chunk file, up to the box's last
      // byte, not the whole chunk to cut the block from it (B[0, :] reads each chunk's first
      // row). A larger slice keeps reading whole blocks: a task then shares a block with other
      // uses of the array (x[1:] - x[:-1] reads each chunk once per task)
      return Shifted.slice(
          new ArrayNode.Virtual(
              "zarr-window",
              grid,
              x.dtype(),
              RegionRead.window(st.array(), x.digest(), start, grid)),
          x,
          start);
    }
    KeyFunction keys = k -> List.of(BlockKeys.one(inKey(firstBlock, k)));
    BlockwiseFunction fn =
        (args, k) -> {
          NDArray blk = (NDArray) args.get(0);
          long[] bs = grid.blockShape(k);
          long[] blockStart = in.blockOffset(inKey(firstBlock, k));
          long[] from = new long[nd];
          for (int i = 0; i < nd; i++) {
            from[i] = Math.max(start[i], blockStart[i]) - blockStart[i];
          }
          return Arrays.equals(bs, blk.shape()) ? blk : blk.getRegion(from, bs);
        };
    return Shifted.slice(
        new ArrayNode.Computed(
            new Blockwise("getitem", keys, fn, new int[] {1}, new int[] {1}, 0),
            List.of(x),
            grid,
            x.dtype(),
            null),
        x,
        start);
  }

  private static long[] inKey(long[] firstBlock, long[] k) {
    long[] key = new long[k.length];
    for (int i = 0; i < k.length; i++) {
      key[i] = firstBlock[i] + k[i];
    }
    return key;
  }

  static void copy(
      Object src,
      Object dst,
      long[][] outOff,
      long[][] inOff,
      int axis,
      long o,
      long in,
      int mult) {
    if (axis == outOff.length) {
      System.arraycopy(src, (int) in * mult, dst, (int) o * mult, mult);
      return;
    }
    if (axis == outOff.length - 1
        && mult == 1
        && lastAxis(src, dst, outOff[axis], inOff[axis], (int) o, (int) in)) {
      return;
    }
    for (int j = 0; j < outOff[axis].length; j++) {
      copy(src, dst, outOff, inOff, axis + 1, o + outOff[axis][j], in + inOff[axis][j], mult);
    }
  }

  /**
   * The last axis's selected elements copied by a typed loop (not one {@code System.arraycopy} per
   * element); false for an element type it does not cover (then the caller copies them).
   */
  private static boolean lastAxis(
      Object src, Object dst, long[] outOff, long[] inOff, int o, int in) {
    int n = outOff.length;
    if (src instanceof double[] s && dst instanceof double[] d) {
      for (int j = 0; j < n; j++) {
        d[o + (int) outOff[j]] = s[in + (int) inOff[j]];
      }
    } else if (src instanceof float[] s && dst instanceof float[] d) {
      for (int j = 0; j < n; j++) {
        d[o + (int) outOff[j]] = s[in + (int) inOff[j]];
      }
    } else if (src instanceof long[] s && dst instanceof long[] d) {
      for (int j = 0; j < n; j++) {
        d[o + (int) outOff[j]] = s[in + (int) inOff[j]];
      }
    } else if (src instanceof int[] s && dst instanceof int[] d) {
      for (int j = 0; j < n; j++) {
        d[o + (int) outOff[j]] = s[in + (int) inOff[j]];
      }
    } else {
      return false;
    }
    return true;
  }

  private static List<long[]> blockKeys(
      long[] k, long[] chunks, long[] len, long[] start, long[] step, long[] cin) {
    int nd = k.length;
    long[][] per = new long[nd][];
    long[] counts = new long[nd];
    for (int i = 0; i < nd; i++) {
      long lo = k[i] * chunks[i];
      long hi = Math.min(len[i], lo + chunks[i]);
      per[i] = blocks(lo, hi, start[i], step[i], cin[i]);
      counts[i] = per[i].length;
    }
    List<long[]> keys = new ArrayList<>();
    long total = Shapes.size(counts);
    for (long f = 0; f < total; f++) {
      long[] rel = Shapes.unravel(counts, f);
      long[] key = new long[nd];
      for (int i = 0; i < nd; i++) {
        key[i] = per[i][(int) rel[i]];
      }
      keys.add(key);
    }
    return keys;
  }
}
