package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.eval.PointwiseFunction;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The elementwise op on a chunk grid ({@link #op}), and its set-up when an input has an irregular
 * chunk grid ({@link #irregular}). The output takes, on each axis, the common refinement of the
 * inputs' block boundaries there ({@link #unifiedAxis}; the first spanning input's blocks when the
 * refinement would be too fine); inputs whose blocks differ are moved to those sizes by {@link
 * Regrid#to} (for a refinement each of their output blocks reads one input block), so every task
 * then reads exactly one block of each input. Inputs with equal grids (e.g. two slices {@code
 * x[3:17]} and {@code y[3:17]} of equally chunked arrays) are read as they are.
 */
final class ElemwiseOp {
  private ElemwiseOp() {}

  static ArrayNode irregular(
      String name, Core.BlocksFunction fn, DType out, long[] shape, ArrayNode... xs) {
    int nd = shape.length;
    // the grid comes from the inputs that are not shifted slices (Shifted#movable with an
    // irregular grid, e.g. x[1:] of chunks 100: (99, 100, ...)) when those can be read on it from
    // their source (Shifted#onGrid: each block and one neighbour), so x[1:] - x[:-1] keeps
    // x[:-1]'s grid (not the refinement (99, 1, 99, 1, ...) with both slices regridded)
    List<ArrayNode> fixed = new ArrayList<>();
    List<ArrayNode> moved = new ArrayList<>();
    for (ArrayNode x : xs) {
      (x.isRegular() || !Shifted.movable(x) ? fixed : moved).add(x);
    }
    long[][] sizes = null;
    if (!fixed.isEmpty() && !moved.isEmpty()) {
      ArrayNode[] base = fixed.toArray(new ArrayNode[0]);
      sizes = new long[nd][];
      for (int d = 0; d < nd; d++) {
        sizes[d] = covers(shape, d, base) ? unifiedAxis(shape, d, base) : unifiedAxis(shape, d, xs);
      }
      for (ArrayNode x : moved) {
        if (Shifted.onGrid(x, inputGrid(x, shape, sizes)) == null) {
          sizes = null; // too far from the slice's source grid: the refinement below
          break;
        }
      }
    }
    if (sizes == null) {
      sizes = new long[nd][];
      for (int d = 0; d < nd; d++) {
        sizes[d] = unifiedAxis(shape, d, xs);
      }
    }
    ChunkGrid grid = ChunkGrid.of(shape, sizes);
    List<ArrayNode> ins = new ArrayList<>();
    long[][] inShapes = new long[xs.length][];
    for (int j = 0; j < xs.length; j++) {
      ArrayNode x = xs[j];
      inShapes[j] = x.shape();
      ChunkGrid w = inputGrid(x, shape, sizes);
      if (w.equals(x.chunkGrid())) {
        ins.add(x);
      } else {
        ArrayNode t = Take.onGrid(x, w);
        if (t == null) {
          t = Shifted.onGrid(x, w);
        }
        ins.add(t != null ? t : Regrid.to(x, w));
      }
    }
    return op(name, fn, out, grid, inShapes, ins);
  }

  /**
   * The block sizes of output axis {@code d}: the common refinement of the block boundaries of all
   * inputs spanning it (every output block lies inside one block of each input, Dask's {@code
   * unify_chunks}), unless that has more than twice the blocks of the finest input there (too many
   * small blocks), in which case the first spanning input's blocks are used.
   */
  static long[] unifiedAxis(long[] shape, int d, ArrayNode... xs) {
    int nd = shape.length;
    TreeSet<Long> cuts = new TreeSet<>();
    long[] first = null;
    int most = 0;
    for (ArrayNode x : xs) {
      int xd = d - (nd - x.shape().length);
      if (xd < 0 || x.shape()[xd] != shape[d] || shape[d] == 1) {
        continue;
      }
      long[] ax = x.chunkGrid().sizes(xd);
      if (first == null) {
        first = ax;
      }
      most = Math.max(most, ax.length);
      long at = 0;
      for (int b = 0; b + 1 < ax.length; b++) {
        at += ax[b];
        cuts.add(at);
      }
    }
    if (first == null) {
      return shape[d] == 0 ? new long[0] : new long[] {shape[d]};
    }
    if (shape[d] == 0 || cuts.size() + 1 > 2L * most) {
      return first;
    }
    long[] r = new long[cuts.size() + 1];
    long prev = 0;
    int i = 0;
    for (long c : cuts) {
      r[i++] = c - prev;
      prev = c;
    }
    r[i] = shape[d] - prev;
    return r;
  }

  /** The grid input {@code x} takes in an output of {@code shape} on blocks {@code sizes}. */
  private static ChunkGrid inputGrid(ArrayNode x, long[] shape, long[][] sizes) {
    int off = shape.length - x.shape().length;
    long[][] want = new long[x.shape().length][];
    for (int d = 0; d < want.length; d++) {
      want[d] = x.shape()[d] == 1 && shape[off + d] != 1 ? new long[] {1} : sizes[off + d];
    }
    return ChunkGrid.of(x.shape(), want);
  }

  /** Whether some input of {@code xs} spans output axis {@code d} (not broadcast along it). */
  private static boolean covers(long[] shape, int d, ArrayNode... xs) {
    int nd = shape.length;
    for (ArrayNode x : xs) {
      int xd = d - (nd - x.shape().length);
      if (xd >= 0 && x.shape()[xd] == shape[d]) {
        return true;
      }
    }
    return false;
  }

  /** A pointwise op's block function: also applies to tiles ({@link PointwiseFunction}). */
  private static final class Blocks implements PointwiseFunction {
    private static final long serialVersionUID = 1L;
    private final ChunkGrid grid;
    private final Core.Pointwise fn;
    private final DType out;

    Blocks(ChunkGrid grid, Core.Pointwise fn, DType out) {
      this.grid = grid;
      this.fn = fn;
      this.out = out;
    }

    @Override
    public NDArray apply(List<Object> args, long[] c) throws Exception {
      return apply(grid, fn, out, args, c);
    }

    @Override
    public NDArray applyTiles(NDArray... tiles) throws Exception {
      NDArray r = fn.apply(spread(tiles));
      return r.dtype() == out ? r : r.astype(out);
    }

    @Override
    public NDArray applyTilesInto(NDArray buf, NDArray... tiles) throws Exception {
      if (!(fn instanceof Core.PointwiseInto into)) {
        return applyTiles(tiles);
      }
      NDArray r = into.applyInto(buf, spread(tiles));
      return r.dtype() == out ? r : r.astype(out);
    }

    @Override
    public boolean takesValues() {
      return true;
    }

    /**
     * The tiles with 0-d ones broadcast to the others' shape, unless the function takes one-element
     * inputs as values ({@link Core.TakesScalars}).
     */
    private NDArray[] spread(NDArray[] tiles) {
      if (fn instanceof Core.TakesScalars) {
        return tiles;
      }
      long[] shape = null;
      boolean values = false;
      for (NDArray t : tiles) {
        if (t.ndim() > 0) {
          shape = shape == null ? t.shape() : shape;
        } else {
          values = true;
        }
      }
      if (!values || shape == null) {
        return tiles;
      }
      NDArray[] r = tiles.clone();
      for (int i = 0; i < r.length; i++) {
        if (r[i].ndim() == 0) {
          r[i] = r[i].broadcastTo(shape);
        }
      }
      return r;
    }

    /**
     * {@code fn} on the blocks of output block {@code c}, size-1 inputs broadcast first
     * (one-element inputs of a {@link Core.TakesScalars} function passed as they are).
     */
    static NDArray apply(
        ChunkGrid grid, Core.BlocksFunction fn, DType out, List<Object> args, long[] c)
        throws Exception {
      long[] bs = grid.blockShape(c);
      boolean scalars = fn instanceof Core.TakesScalars;
      NDArray[] blocks = new NDArray[args.size()];
      for (int i = 0; i < blocks.length; i++) {
        NDArray b = (NDArray) args.get(i);
        blocks[i] =
            Arrays.equals(b.shape(), bs) || (scalars && b.size() == 1) ? b : b.broadcastTo(bs);
      }
      NDArray r = fn.apply(blocks);
      if (scalars && !Arrays.equals(r.shape(), bs)) {
        r = r.broadcastTo(bs);
      }
      return r.dtype() == out ? r : r.astype(out);
    }
  }

  /**
   * The elementwise op over inputs already on {@code grid} (size-1 axes broadcast): block k of the
   * output reads block k of each input (block 0 along its size-1 axes).
   */
  static ArrayNode op(
      String name,
      Core.BlocksFunction fn,
      DType out,
      ChunkGrid grid,
      long[][] inShapes,
      List<ArrayNode> ins) {
    int nd = grid.shape().length;
    KeyFunction keys =
        c -> {
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
    BlockwiseFunction bf =
        fn instanceof Core.Pointwise p
            ? new Blocks(grid, p, out)
            : (args, c) -> Blocks.apply(grid, fn, out, args, c);
    int[] ones = new int[ins.size()];
    Arrays.fill(ones, 1);
    return new ArrayNode.Computed(
        new Blockwise(name, keys, bf, ones, ones.clone(), 0), ins, grid, out, null);
  }
}
