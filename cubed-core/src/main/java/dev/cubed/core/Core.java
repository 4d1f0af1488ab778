package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.eval.PointwiseFunction;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.IndexFunction;
import dev.cubed.primitive.KeyFunction;
import dev.cubed.zarr.ZarrArray;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Core chunked operations on plan nodes: elementwise with broadcasting, mapBlocks, rechunk, store,
 * creation. Reductions are in {@link Reductions}. Every function returns a new lazy node.
 */
public final class Core {
  private Core() {}

  /** A function of same-shape blocks (already broadcast) giving one block. */
  @FunctionalInterface
  public interface BlocksFunction extends Serializable {
    /** Computes one output block from the input blocks. */
    NDArray apply(NDArray... blocks) throws Exception;
  }

  /**
   * A {@link BlocksFunction} that is pointwise: each output element depends only on the input
   * elements at the same position, for inputs of any (equal) shape. Elementwise ops built from one
   * ({@link #pointwise}) may be evaluated tile by tile when they feed a reduction.
   */
  @FunctionalInterface
  public interface Pointwise extends BlocksFunction {}

  /**
   * A {@link Pointwise} function that broadcasts inputs of one element itself, as NumPy's functions
   * do (e.g. {@code where(c, x, fill)} with a 0-d {@code fill}): the elementwise op passes such an
   * input block as it is instead of copying it to the block's shape first.
   */
  @FunctionalInterface
  public interface TakesScalars extends Pointwise {}

  /**
   * A {@link Pointwise} function that can write its result into a buffer the plan owns: when a
   * chain of such ops runs tile by tile (or run by run), each op's buffer is reused for every tile
   * of the same shape instead of a new array per tile (e.g. {@code (buf, b) ->
   * Elementwise.multiply(b[0], b[1], buf)}).
   */
  @FunctionalInterface
  public interface PointwiseInto extends Pointwise {
    /**
     * The result for {@code blocks}, written into {@code buf} and returned when {@code buf} (null,
     * or an array of the blocks' shape and the op's output dtype that holds earlier values) can
     * take it, else a new array. The function must not keep {@code buf}, nor return it holding
     * anything but this result.
     */
    NDArray applyInto(NDArray buf, NDArray... blocks) throws Exception;

    /** {@link #applyInto} without a buffer: a new array. */
    @Override
    default NDArray apply(NDArray... blocks) throws Exception {
      return applyInto(null, blocks);
    }
  }

  /**
   * {@link #elemwise} of a pointwise function: the same op, marked so that a fused chain of such
   * ops feeding a reduction runs on cache-sized tiles instead of whole blocks.
   */
  public static ArrayNode pointwise(String name, Pointwise fn, DType out, ArrayNode... xs) {
    return elemwise(name, fn, out, xs);
  }

  /**
   * Elementwise {@code fn} over inputs broadcast together; the output has dtype {@code out}, the
   * broadcast shape, and the chunks of the first input that spans each axis (other inputs are
   * rechunked to match when needed).
   *
   * @throws IllegalArgumentException if shapes do not broadcast
   */
  public static ArrayNode elemwise(String name, BlocksFunction fn, DType out, ArrayNode... xs) {
    long[][] shapes = new long[xs.length][];
    for (int i = 0; i < xs.length; i++) {
      shapes[i] = xs[i].shape();
    }
    long[] shape = Shapes.broadcast(name, shapes);
    int nd = shape.length;
    for (ArrayNode x : xs) {
      if (!x.isRegular()) {
        return ElemwiseOp.irregular(name, fn, out, shape, xs);
      }
    }
    long[] chunks = new long[nd];
    Arrays.fill(chunks, -1);
    for (ArrayNode x : xs) {
      int off = nd - x.shape().length;
      for (int d = 0; d < x.shape().length; d++) {
        if (chunks[off + d] < 0 && x.shape()[d] == shape[off + d] && shape[off + d] != 1) {
          chunks[off + d] = x.chunks()[d];
        }
      }
    }
    for (int d = 0; d < nd; d++) {
      if (chunks[d] < 0) {
        chunks[d] = Math.max(1, shape[d]);
      }
    }
    List<ArrayNode> ins = new ArrayList<>();
    for (ArrayNode x : xs) {
      int off = nd - x.shape().length;
      long[] want = x.chunks();
      boolean diff = false;
      for (int d = 0; d < want.length; d++) {
        long w = x.shape()[d] == 1 ? 1 : chunks[off + d];
        if (x.shape()[d] != 1 && want[d] != w) {
          diff = true;
        }
        want[d] = x.shape()[d] == 1 ? Math.max(1, want[d]) : w;
      }
      ins.add(diff ? rechunk(x, want) : x);
    }
    return ElemwiseOp.op(name, fn, out, ChunkGrid.regular(shape, chunks), shapes, ins);
  }

  /**
   * Applies {@code fn} to corresponding blocks of inputs that have the same number of blocks on
   * every axis; the output has the first input's shape and chunks and dtype {@code out}.
   *
   * @throws IllegalArgumentException if the inputs' block grids differ
   */
  public static ArrayNode mapBlocks(BlocksFunction fn, DType out, ArrayNode... xs) {
    ArrayNode first = xs[0];
    for (ArrayNode x : xs) {
      if ((!x.isRegular() || !first.isRegular()) && !x.chunkGrid().equals(first.chunkGrid())) {
        throw new IllegalArgumentException(
            "map_blocks: inputs have chunk grids "
                + first.chunkGrid()
                + " and "
                + x.chunkGrid()
                + "; rechunk them to the same grid "
                + "first");
      }
      if (!Arrays.equals(x.numBlocks(), first.numBlocks())) {
        throw new IllegalArgumentException(
            "map_blocks: inputs have block grids "
                + Shapes.format(first.numBlocks())
                + " and "
                + Shapes.format(x.numBlocks())
                + "; rechunk them to the same grid first");
      }
    }
    KeyFunction keys =
        c -> {
          List<BlockKeys> l = new ArrayList<>();
          for (int i = 0; i < xs.length; i++) {
            l.add(BlockKeys.one(c));
          }
          return l;
        };
    BlockwiseFunction bf =
        (args, c) -> {
          NDArray[] b = new NDArray[args.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = (NDArray) args.get(i);
          }
          return fn.apply(b);
        };
    int[] ones = new int[xs.length];
    Arrays.fill(ones, 1);
    return new ArrayNode.Computed(
        new Blockwise("map_blocks", keys, bf, ones, ones.clone(), 0),
        List.of(xs),
        first.chunkGrid(),
        out,
        null);
  }

  /** General blockwise: the caller's key function, block function and memory description. */
  public static ArrayNode blockwise(
      Blockwise op, long[] shape, long[] chunks, DType out, ArrayNode... xs) {
    return new ArrayNode.Computed(op, List.of(xs), shape, chunks, out, null);
  }

  /**
   * Rechunks to {@code chunks} (sizes clipped to the shape; -1 means the whole axis). Virtual
   * inputs are first computed blockwise (they have no storage to copy from).
   *
   * @throws IllegalArgumentException if chunks has the wrong length or a size below -1 or 0
   */
  public static ArrayNode rechunk(ArrayNode x, long[] chunks) {
    return rechunk(x, chunks, null);
  }

  /**
   * A stored Zarr input on regular {@code chunks} (-1: the whole axis) read straight from its
   * store: each block is the region it covers, read (from the stored chunks it overlaps) in the
   * task that needs it; no op and nothing written, as Dask's {@code from_array} with other chunks.
   * For chunks that overlap few stored chunks each way (e.g. 100 time steps from chunks of 250):
   * each stored chunk is decoded by every block that overlaps it. Any other array: {@link
   * #rechunk(ArrayNode, long[])}.
   */
  public static ArrayNode readRegions(ArrayNode x, long[] chunks) {
    if (!(x instanceof ArrayNode.Stored st) || chunks.length != x.shape().length) {
      return rechunk(x, chunks);
    }
    long[] shape = x.shape();
    long[] c = new long[chunks.length];
    for (int i = 0; i < c.length; i++) {
      if (chunks[i] < 1 && chunks[i] != -1) {
        throw new IllegalArgumentException(
            "readRegions: chunk sizes must be >= 1 (or -1 for the whole axis), got "
                + Arrays.toString(chunks));
      }
      c[i] = chunks[i] == -1 ? Math.max(1, shape[i]) : Math.min(chunks[i], Math.max(1, shape[i]));
    }
    if (Arrays.equals(c, x.chunks())) {
      return x;
    }
    ChunkGrid want = ChunkGrid.regular(shape, c);
    return new ArrayNode.Virtual(
        "zarr-regions", want, x.dtype(), RegionRead.regrid(st.array(), want));
  }

  /**
   * Whether every block boundary of {@code out} is one of {@code in} on every axis: each block of
   * out is a box of whole blocks of in.
   */
  static boolean joinsBlocks(ChunkGrid in, ChunkGrid out) {
    for (int d = 0; d < in.shape().length; d++) {
      long[] have = in.offsets(d);
      for (long o : out.offsets(d)) {
        if (Arrays.binarySearch(have, o) < 0) {
          return false;
        }
      }
    }
    return true;
  }

  /** Rechunks into a user target (its chunks are used). */
  public static ArrayNode rechunk(ArrayNode x0, long[] chunks, ZarrArray target) {
    ArrayNode x = Regrid.regular(x0);
    long[] shape = x.shape();
    if (chunks.length != shape.length) {
      throw new IllegalArgumentException(
          "rechunk: chunks "
              + Arrays.toString(chunks)
              + " must have one entry per dimension of shape "
              + Shapes.format(shape));
    }
    long[] c = new long[chunks.length];
    for (int i = 0; i < c.length; i++) {
      if (chunks[i] == -1) {
        c[i] = Math.max(1, shape[i]);
      } else if (chunks[i] < 1) {
        throw new IllegalArgumentException(
            "rechunk: chunk sizes must be >= 1 (or -1 for the "
                + "whole axis), got "
                + Arrays.toString(chunks));
      } else {
        c[i] = Math.min(chunks[i], Math.max(1, shape[i]));
      }
    }
    if (Arrays.equals(c, x.chunks()) && target == null) {
      return x;
    }
    if (target == null) {
      ChunkGrid want = ChunkGrid.regular(shape, c);
      // a gather from a small table is rebuilt on the new chunks: no rechunk op at all
      ArrayNode t = Take.onGrid(x, want);
      if (t != null) {
        return t;
      }
      if (joinsBlocks(x.chunkGrid(), want) && Regrid.maxOverlap(x.chunkGrid(), want) <= 4096) {
        // each new block is whole old blocks put together (every old block read once, by one
        // task): one blockwise op that the ops before it fuse into, no intermediate copy
        return Regrid.join(x, want);
      }
    }
    ArrayNode in = x instanceof ArrayNode.Virtual ? identity(x) : x;
    return new ArrayNode.Rechunked(in, c, target);
  }

  /**
   * Rechunks to any grid: a regular grid goes through the multistage {@link #rechunk(ArrayNode,
   * long[])}; an irregular one (explicit block sizes per axis) through {@link Regrid#to}, whose
   * output blocks read the input blocks they overlap at once. When that would be more than two
   * input blocks per axis (small input chunks, large target blocks), the input is first rechunked
   * (multistage, bounded) to regular chunks of the largest target block, after which every target
   * block overlaps at most two per axis.
   */
  public static ArrayNode rechunk(ArrayNode x, ChunkGrid grid) {
    if (grid.isRegular()) {
      return rechunk(x, grid.maxChunks());
    }
    int nd = x.shape().length;
    ArrayNode src =
        Regrid.maxOverlap(x.chunkGrid(), grid) > (1 << Math.min(nd, 20))
            ? rechunk(x, grid.maxChunks())
            : x;
    return Regrid.to(src, grid);
  }

  /** An identity blockwise copy of {@code x} (optionally into a target). */
  public static ArrayNode identity(ArrayNode x) {
    return store(x, null);
  }

  /** A blockwise copy of {@code x} written to {@code target} (same shape, chunks and dtype). */
  public static ArrayNode store(ArrayNode x, ZarrArray target) {
    if (target != null
        && (!Arrays.equals(target.shape(), x.shape()) || target.dtype() != x.dtype())) {
      throw new IllegalArgumentException(
          "store: target "
              + target
              + " has shape "
              + Shapes.format(target.shape())
              + " and dtype "
              + target.dtype()
              + " but the array has "
              + Shapes.format(x.shape())
              + " and "
              + x.dtype());
    }
    ArrayNode src = x;
    if (target != null && (!x.isRegular() || !Arrays.equals(target.chunks(), x.chunks()))) {
      return rechunk(x, target.chunks(), target);
    }
    if (target != null && x instanceof ArrayNode.Rechunked r && r.target() == null) {
      // storing a rechunk: its last stage writes the target instead of an intermediate that a
      // blockwise copy would then read and write again (one full pass less)
      return rechunk(r.inputs().get(0), target.chunks(), target);
    }
    if (target != null
        && x instanceof ArrayNode.Computed c
        && c.target() == null
        && c.op().function() instanceof ChainFunction) {
      // storing a chain (a scan): its tasks write the target as they walk, instead of an
      // intermediate that a blockwise copy would then read and write again
      return new ArrayNode.Computed(c.op(), c.inputs(), c.chunkGrid(), c.dtype(), target);
    }
    KeyFunction keys = c -> List.of(BlockKeys.one(c));
    return new ArrayNode.Computed(
        new Blockwise("store", keys, new StoreBlocks(), new int[] {1}, new int[] {1}, 0),
        List.of(src),
        x.chunkGrid(),
        x.dtype(),
        target);
  }

  /**
   * The block function of {@link #store}: the input block as it is. Pointwise, so a stored chain of
   * pointwise ops is written a run at a time (the plan's tiled writes).
   */
  private static final class StoreBlocks implements PointwiseFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public NDArray apply(List<Object> args, long[] c) {
      return (NDArray) args.get(0);
    }

    @Override
    public NDArray applyTiles(NDArray... tiles) {
      return tiles[0];
    }
  }

  /**
   * A virtual array whose blocks come from an in-memory array ({@link HeldBlocks}: on an executor
   * whose tasks run in other JVMs the plan stores the array first, so a worker reads only its
   * blocks).
   */
  public static ArrayNode fromArray(NDArray a, long[] chunks) {
    long[] c = normChunks(a.shape(), chunks);
    ChunkGrid grid;
    try {
      grid = ChunkGrid.regular(a.shape(), c);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("from_array: " + e.getMessage(), e);
    }
    return new ArrayNode.Virtual("from_array", a.shape(), c, a.dtype(), new HeldBlocks(a, grid));
  }

  /**
   * A virtual array whose blocks come from {@code value}, the computed value of {@code source}, on
   * source's chunk grid; it is named after source's digest, so making it reads none of the data
   * (see {@link HeldBlocks#named}).
   */
  public static ArrayNode persisted(NDArray value, ArrayNode source) {
    if (value.dtype() != source.dtype() || !Arrays.equals(value.shape(), source.shape())) {
      throw new IllegalArgumentException(
          "persist: the value of "
              + source.name()
              + " must be "
              + source.dtype()
              + " of shape "
              + Arrays.toString(source.shape())
              + ", got "
              + value.dtype()
              + " of shape "
              + Arrays.toString(value.shape()));
    }
    ChunkGrid grid = source.chunkGrid();
    return new ArrayNode.Virtual(
        "from_array",
        grid,
        value.dtype(),
        HeldBlocks.named(value, grid, "value-of:" + source.digest()));
  }

  /**
   * A virtual array whose blocks come from an in-memory array, on any chunk grid (e.g. Dask-style
   * block sizes per axis: {@code ChunkGrid.of(shape, new long[][] {{4, 4, 2}, {5}})}).
   */
  public static ArrayNode fromArray(NDArray a, ChunkGrid grid) {
    return new ArrayNode.Virtual("from_array", grid, a.dtype(), new HeldBlocks(a, grid));
  }

  /** A virtual array filled with one value. */
  public static ArrayNode full(long[] shape, long[] chunks, Object value, DType dtype) {
    return new ArrayNode.Virtual(
        "full", shape, normChunks(shape, chunks), dtype, new Fill(dtype, value));
  }

  /** A virtual array filled with one value on any chunk grid (e.g. another array's, for *_like). */
  public static ArrayNode full(ChunkGrid grid, Object value, DType dtype) {
    return new ArrayNode.Virtual("full", grid, dtype, new Fill(dtype, value));
  }

  /**
   * The value of an array made by {@link #full} (every element equal to it), else null: an op may
   * read such an input as one value instead of generating blocks of copies.
   */
  public static Object fillValue(ArrayNode x) {
    return x instanceof ArrayNode.Virtual v && v.generator() instanceof Fill f ? f.value : null;
  }

  /** A virtual array whose element at flat index i is {@code f(i)}. */
  public static ArrayNode fromIndex(
      String kind, long[] shape, long[] chunks, DType dtype, IndexFunction f) {
    long[] c = normChunks(shape, chunks);
    return new ArrayNode.Virtual(
        kind,
        shape,
        c,
        dtype,
        (coords, bs) -> {
          NDArray out = NDArray.empty(dtype, bs);
          int nd = bs.length;
          long[] strides = Shapes.strides(shape);
          long[] idx = new long[nd];
          int n = out.size();
          for (int i = 0; i < n; i++) {
            long flat = 0;
            for (int d = 0; d < nd; d++) {
              flat += (coords[d] * c[d] + idx[d]) * strides[d];
            }
            f.set(out, i, flat, idx, coords);
            for (int d = nd - 1; d >= 0; d--) {
              if (++idx[d] < bs[d]) {
                break;
              }
              idx[d] = 0;
            }
          }
          return out;
        });
  }

  /** Chunks clipped to the shape; -1 = whole axis; null = whole array as one chunk. */
  public static long[] normChunks(long[] shape, long[] chunks) {
    long[] c = new long[shape.length];
    for (int i = 0; i < c.length; i++) {
      long want = chunks == null || chunks[i] == -1 ? shape[i] : chunks[i];
      if (chunks != null && chunks[i] < 1 && chunks[i] != -1) {
        throw new IllegalArgumentException(
            "chunks: sizes must be >= 1 (or -1 for the whole "
                + "axis), got "
                + Arrays.toString(chunks));
      }
      c[i] = Math.max(1, Math.min(want, Math.max(1, shape[i])));
    }
    return c;
  }
}
