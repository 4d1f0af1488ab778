package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.GatherFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * {@code take} and {@code take_along_axis} with the indices in memory: for take each output block
 * is routed to the input blocks its indices fall in, which it reads one at a time.
 */
public final class Take {
  private Take() {}

  /**
   * Elements of x along {@code axis} at the 1-D in-memory {@code indices} (negative ones count from
   * the end). The output has x's chunks on the other axes and blocks of x's largest block size
   * along {@code axis}; output block k reads, one at a time, the input blocks holding the indices
   * {@code [k*c, (k+1)*c)} (at most c blocks, usually one or two for sorted indices), gathering
   * from each the elements it needs and putting them in order at the end (about two output blocks
   * of extra memory).
   *
   * @throws IllegalArgumentException naming take for non-integer or non-1-D indices, an axis out of
   *     range, or an index outside {@code [-n, n)}
   */
  public static ArrayNode take(ArrayNode x, NDArray indices, int axis) {
    long[] shape = x.shape();
    int ax = Shapes.normalizeAxis("take", axis, shape.length);
    long[] idx = resolve(indices, shape[ax], axis);
    long c = Math.max(1, x.chunkGrid().maxChunks()[ax]);
    int len = idx.length;
    int nOut = (int) ((len + c - 1) / c);
    long[] along = new long[nOut];
    for (int k = 0; k < nOut; k++) {
      along[k] = Math.min(c, len - k * c);
    }
    return take(x, idx, ax, along);
  }

  /**
   * {@code y} on the chunk grid {@code want} when y is a {@link #take} from a source that has one
   * block along the taken axis (a small table such as a climatology gathered onto the time steps)
   * and {@code want} has the source's blocks on the other axes: the same take with {@code want}'s
   * blocks along the axis, one blockwise op whose every task reads the source's block once (a
   * broadcast within each block, no rechunk of the gathered array). Otherwise null.
   */
  public static ArrayNode onGrid(ArrayNode y, ChunkGrid want) {
    Recipe r = SMALL.get(y);
    if (r == null || !Arrays.equals(want.shape(), y.shape())) {
      return null;
    }
    ChunkGrid in = r.x.chunkGrid();
    for (int d = 0; d < want.shape().length; d++) {
      if (d != r.ax && !Arrays.equals(want.sizes(d), in.sizes(d))) {
        return null;
      }
    }
    return take(r.x, r.idx, r.ax, want.sizes(r.ax));
  }

  /** What {@link #onGrid} needs to rebuild a take from a one-block source: its arguments. */
  private record Recipe(ArrayNode x, long[] idx, int ax) {}

  /** The takes from a source of one block along the axis (by identity; dropped with the node). */
  private static final Map<ArrayNode, Recipe> SMALL =
      Collections.synchronizedMap(new WeakHashMap<>());

  private static long[] resolve(NDArray indices, long n, int axis) {
    if (!indices.dtype().isInteger() || indices.ndim() != 1) {
      throw new IllegalArgumentException(
          "take: indices must be a 1-d integer array here, got "
              + indices.dtype()
              + " of shape "
              + Shapes.format(indices.shape()));
    }
    int len = indices.size();
    long[] idx = new long[len];
    for (int i = 0; i < len; i++) {
      long v = indices.getLong(i);
      if (indices.dtype().isUnsigned() && v < 0 || v < -n || v >= n) {
        throw new IllegalArgumentException(
            "take: index "
                + indices.getObject(i)
                + " is out of bounds for axis "
                + axis
                + " with size "
                + n);
      }
      idx[i] = v < 0 ? v + n : v;
    }
    return idx;
  }

  /** The take of the resolved indices {@code idx} with output blocks {@code along} on axis ax. */
  private static ArrayNode take(ArrayNode x, long[] idx, int ax, long[] along) {
    long[] shape = x.shape();
    int nd = shape.length;
    int len = idx.length;
    ChunkGrid in = x.chunkGrid();
    long[] starts = offsets(in.sizes(ax));
    int[] blockOf = new int[len];
    for (int i = 0; i < len; i++) {
      int b = Arrays.binarySearch(starts, idx[i]);
      blockOf[i] = b >= 0 ? b : -b - 2;
    }
    long[][] sizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      sizes[d] = in.sizes(d);
    }
    int nOut = along.length;
    sizes[ax] = along.clone();
    long[] outStarts = offsets(along);
    long c = 1;
    for (long a : along) {
      c = Math.max(c, a);
    }
    long[] outShape = shape.clone();
    outShape[ax] = len;
    ChunkGrid grid = ChunkGrid.of(outShape, sizes);
    ArrayNode now = gatheredNow(x, idx, ax, grid);
    if (now != null) {
      if (in.sizes(ax).length == 1) {
        SMALL.put(now, new Recipe(x, idx, ax));
      }
      return now;
    }
    int[][] needed = new int[nOut][];
    int maxReads = 1;
    for (int k = 0; k < nOut; k++) {
      TreeSet<Integer> s = new TreeSet<>();
      for (long i = outStarts[k]; i < outStarts[k] + along[k]; i++) {
        s.add(blockOf[(int) i]);
      }
      needed[k] = s.stream().mapToInt(Integer::intValue).toArray();
      maxReads = Math.max(maxReads, needed[k].length);
    }
    KeyFunction keys =
        co -> {
          List<long[]> l = new ArrayList<>();
          for (int b : needed[(int) co[ax]]) {
            long[] key = co.clone();
            key[ax] = b;
            l.add(key);
          }
          return List.of(BlockKeys.stream(l));
        };
    GatherFunction bf =
        (args, co) -> {
          @SuppressWarnings("unchecked")
          Iterator<NDArray> blocks = (Iterator<NDArray>) args.get(0);
          int k = (int) co[ax];
          int from = (int) outStarts[k];
          int to = (int) (from + along[k]);
          List<NDArray> pieces = new ArrayList<>();
          long[] order = new long[to - from];
          int placed = 0;
          for (int b : needed[k]) {
            NDArray block = blocks.next();
            List<Long> local = new ArrayList<>();
            for (int i = from; i < to; i++) {
              if (blockOf[i] == b) {
                local.add(idx[i] - starts[b]);
                order[i - from] = placed++;
              }
            }
            NDArray li = NDArray.empty(DType.INT64, local.size());
            for (int i = 0; i < local.size(); i++) {
              li.setLong(i, local.get(i));
            }
            pieces.add(Indexing.take(block, li, ax));
          }
          if (pieces.size() == 1) {
            // one source block: its indices were gathered in order
            return pieces.get(0);
          }
          NDArray all = Manipulation.concat(pieces.toArray(new NDArray[0]), ax);
          NDArray perm = NDArray.empty(DType.INT64, order.length);
          for (int i = 0; i < order.length; i++) {
            perm.setLong(i, order[i]);
          }
          return Indexing.take(all, perm, ax);
        };
    long outBlock = x.dtype().itemSize();
    for (int d = 0; d < nd; d++) {
      outBlock *= d == ax ? c : Math.max(1, in.maxChunks()[d]);
    }
    ArrayNode out =
        new ArrayNode.Computed(
            new Blockwise("take", keys, bf, new int[] {1}, new int[] {maxReads}, 2 * outBlock),
            List.of(x),
            grid,
            x.dtype(),
            null);
    if (in.sizes(ax).length == 1) {
      SMALL.put(out, new Recipe(x, idx, ax));
    }
    return out;
  }

  /**
   * {@code take_along_axis(x, indices, axis)} with the indices in memory (x's number of dimensions;
   * the other dimensions broadcast against x's). x is rechunked to one block along the axis (the
   * memory check refuses when a whole axis of x's blocks does not fit a task); the output has that
   * grid on the other axes (whole where x has size 1 and the indices do not) and one block of
   * {@code indices.shape[axis]} along the axis; each task reads one block of x and cuts its part of
   * the indices from the in-memory array.
   *
   * @throws IllegalArgumentException as the kernel: a dimension mismatch, non-integer indices,
   *     shapes that do not broadcast or an index out of range (checked when built)
   */
  public static ArrayNode takeAlongAxis(ArrayNode x0, NDArray indices, int axis) {
    String fn = "take_along_axis";
    long[] xs = x0.shape();
    int nd = xs.length;
    if (indices.ndim() != nd) {
      throw new IllegalArgumentException(
          fn
              + ": indices of shape "
              + Shapes.format(indices.shape())
              + " must have as many dimensions as x of shape "
              + Shapes.format(xs)
              + " ("
              + nd
              + ")");
    }
    int ax = Shapes.normalizeAxis(fn, axis, nd);
    long[] is = indices.shape();
    long[] out = Indexing.takeAlongAxisShape(fn, xs, is, ax);
    NDArray ib = indices.broadcastTo(out);
    // the kernel's dtype and bounds checks of the indices (nothing of x's size is allocated)
    Indexing.resolveIndices(fn, ib, xs[ax], ax);
    long[] want = new long[nd];
    for (int d = 0; d < nd; d++) {
      want[d] = d == ax ? -1 : x0.chunkGrid().maxChunks()[d];
    }
    ArrayNode x = Core.rechunk(x0, want);
    long[][] sizes = new long[nd][];
    for (int d = 0; d < nd; d++) {
      if (d == ax) {
        sizes[d] = out[d] == 0 ? new long[0] : new long[] {out[d]};
      } else if (xs[d] == out[d]) {
        sizes[d] = x.chunkGrid().sizes(d);
      } else {
        sizes[d] = out[d] == 0 ? new long[0] : new long[] {out[d]};
      }
    }
    ChunkGrid grid = ChunkGrid.of(out, sizes);
    KeyFunction keys =
        c -> {
          long[] k = c.clone();
          for (int d = 0; d < nd; d++) {
            if (d == ax || xs[d] != out[d]) {
              k[d] = 0;
            }
          }
          return List.of(BlockKeys.one(k));
        };
    NDArray held = ib;
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray b = (NDArray) args.get(0);
          NDArray part = held.getRegion(grid.blockOffset(c), grid.blockShape(c));
          return Indexing.takeAlongAxis(b, part, ax);
        };
    return new ArrayNode.Computed(
        new Blockwise(fn, keys, bf, new int[] {1}, new int[] {1}, ib.size() * 8L),
        List.of(x),
        grid,
        x0.dtype(),
        null);
  }

  /**
   * The take gathered when built, as an in-memory input on {@code grid} (a {@link HeldBlocks} of
   * the result), when x is itself an in-memory input ({@code Cubed.fromArray}) and the result takes
   * at most one of x's blocks: what its tasks would hold of x anyway, now cut from the array that
   * is in memory already, rather than every block of x read whole for a few of its elements (the
   * isel or sel of a few labels on an axis x has whole). Otherwise null.
   */
  private static ArrayNode gatheredNow(ArrayNode x, long[] idx, int ax, ChunkGrid grid) {
    if (idx.length == 0
        || !(x instanceof ArrayNode.Virtual v && v.generator() instanceof HeldBlocks h)) {
      return null;
    }
    long bytes = x.dtype().itemSize();
    for (long d : grid.shape()) {
      bytes = d == 0 || bytes <= Long.MAX_VALUE / d ? bytes * d : Long.MAX_VALUE;
    }
    if (bytes > x.chunkBytes()) {
      return null;
    }
    NDArray li = NDArray.empty(DType.INT64, idx.length);
    for (int i = 0; i < idx.length; i++) {
      li.setLong(i, idx[i]);
    }
    return Core.fromArray(Indexing.take(h.data(), li, ax), grid);
  }

  private static long[] offsets(long[] sizes) {
    long[] s = new long[sizes.length];
    long at = 0;
    for (int i = 0; i < sizes.length; i++) {
      s[i] = at;
      at += sizes[i];
    }
    return s;
  }
}
