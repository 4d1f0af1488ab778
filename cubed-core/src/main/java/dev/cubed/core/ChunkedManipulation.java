package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import dev.cubed.primitive.PassThroughFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Chunked manipulation: permuteDims, expandDims, squeeze, broadcastTo, concat, stack. */
public final class ChunkedManipulation {
  private ChunkedManipulation() {}

  private static ArrayNode oneToOne(
      String name,
      ArrayNode x,
      long[] shape,
      long[] chunks,
      KeyFunction keys,
      BlockwiseFunction fn) {
    return new ArrayNode.Computed(
        new Blockwise(name, keys, fn, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        shape,
        chunks,
        x.dtype(),
        null);
  }

  /** A one-block-to-one-block op whose output grid has the given block sizes per axis. */
  private static ArrayNode oneToOne(
      String name,
      ArrayNode x,
      long[] shape,
      long[][] sizes,
      KeyFunction keys,
      BlockwiseFunction fn) {
    return new ArrayNode.Computed(
        new Blockwise(name, keys, fn, new int[] {1}, new int[] {1}, 0),
        List.of(x),
        ChunkGrid.of(shape, sizes),
        x.dtype(),
        null);
  }

  /**
   * Permutes the axes.
   *
   * @throws IllegalArgumentException if {@code axes} is not a permutation of the dimensions
   */
  public static ArrayNode permuteDims(ArrayNode x, int... axes) {
    int nd = x.shape().length;
    int[] ax = new int[axes.length];
    for (int i = 0; i < axes.length; i++) {
      ax[i] = Shapes.normalizeAxis("permute_dims", axes[i], nd);
    }
    if (ax.length != nd || Arrays.stream(ax).distinct().count() != nd) {
      throw new IllegalArgumentException(
          "permute_dims: axes "
              + Arrays.toString(axes)
              + " must name each of the "
              + nd
              + " dimensions once");
    }
    long[] s = new long[nd];
    long[][] c = new long[nd][];
    for (int i = 0; i < nd; i++) {
      s[i] = x.shape()[ax[i]];
      c[i] = x.chunkGrid().sizes(ax[i]);
    }
    return oneToOne(
        "permute_dims",
        x,
        s,
        c,
        k -> {
          long[] in = new long[nd];
          for (int i = 0; i < nd; i++) {
            in[ax[i]] = k[i];
          }
          return List.of(BlockKeys.one(in));
        },
        (args, k) -> ((NDArray) args.get(0)).permuteDims(ax));
  }

  /**
   * Inserts an axis of size 1 at {@code axis} (in the result's numbering).
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static ArrayNode expandDims(ArrayNode x, int axis) {
    int nd = x.shape().length + 1;
    int a = Shapes.normalizeAxis("expand_dims", axis, nd);
    long[] s = new long[nd];
    long[][] c = new long[nd][];
    for (int i = 0, j = 0; i < nd; i++) {
      s[i] = i == a ? 1 : x.shape()[j];
      c[i] = i == a ? new long[] {1} : x.chunkGrid().sizes(j++);
    }
    return oneToOne(
        "expand_dims",
        x,
        s,
        c,
        k -> {
          long[] in = new long[nd - 1];
          for (int i = 0, j = 0; i < nd; i++) {
            if (i != a) {
              in[j++] = k[i];
            }
          }
          return List.of(BlockKeys.one(in));
        },
        (args, k) -> {
          NDArray b = (NDArray) args.get(0);
          long[] bs = new long[nd];
          for (int i = 0, j = 0; i < nd; i++) {
            bs[i] = i == a ? 1 : b.shape(j++);
          }
          return b.reshape(bs);
        });
  }

  /**
   * Removes axes of size 1.
   *
   * @throws IllegalArgumentException if an axis does not have size 1
   */
  public static ArrayNode squeeze(ArrayNode x, int... axes) {
    int nd = x.shape().length;
    int[] ax = Shapes.normalizeAxes("squeeze", axes, nd);
    boolean[] drop = new boolean[nd];
    for (int a : ax) {
      if (x.shape()[a] != 1) {
        throw new IllegalArgumentException(
            "squeeze: axis "
                + a
                + " of shape "
                + Shapes.format(x.shape())
                + " has size "
                + x.shape()[a]
                + ", not 1");
      }
      drop[a] = true;
    }
    int no = nd - ax.length;
    long[] s = new long[no];
    long[][] c = new long[no][];
    for (int i = 0, j = 0; i < nd; i++) {
      if (!drop[i]) {
        s[j] = x.shape()[i];
        c[j++] = x.chunkGrid().sizes(i);
      }
    }
    return oneToOne(
        "squeeze",
        x,
        s,
        c,
        k -> {
          long[] in = new long[nd];
          for (int i = 0, j = 0; i < nd; i++) {
            in[i] = drop[i] ? 0 : k[j++];
          }
          return List.of(BlockKeys.one(in));
        },
        (args, k) -> {
          NDArray b = (NDArray) args.get(0);
          long[] bs = new long[no];
          for (int i = 0, j = 0; i < nd; i++) {
            if (!drop[i]) {
              bs[j++] = b.shape(i);
            }
          }
          return b.reshape(bs);
        });
  }

  /**
   * Broadcasts to {@code shape} (new axes and size-1 axes get one chunk of the whole axis).
   *
   * @throws IllegalArgumentException if the shapes are not broadcast-compatible
   */
  public static ArrayNode broadcastTo(ArrayNode x0, long[] shape) {
    ArrayNode x = Regrid.regular(x0);
    Shapes.checkBroadcastTo("broadcast_to", x.shape(), shape);
    int nd = shape.length;
    int off = nd - x.shape().length;
    long[] c = new long[nd];
    for (int i = 0; i < nd; i++) {
      boolean kept = i >= off && x.shape()[i - off] == shape[i];
      c[i] = kept ? x.chunks()[i - off] : Math.max(1, shape[i]);
    }
    long[] xs = x.shape();
    return oneToOne(
        "broadcast_to",
        x,
        shape,
        c,
        k -> {
          long[] in = new long[xs.length];
          for (int i = 0; i < xs.length; i++) {
            in[i] = xs[i] == shape[i + off] ? k[i + off] : 0;
          }
          return List.of(BlockKeys.one(in));
        },
        (args, k) -> {
          long[] bs = new long[nd];
          for (int i = 0; i < nd; i++) {
            bs[i] = Math.min(c[i], shape[i] - k[i] * c[i]);
          }
          return ((NDArray) args.get(0)).broadcastTo(bs).copy();
        });
  }

  /**
   * Joins arrays along an existing axis without moving data: the output's blocks along {@code axis}
   * are the inputs' blocks in order (Dask-style; e.g. two arrays of length 10 in chunks of 4 give
   * blocks (4, 4, 2, 4, 4, 2)), so each task reads exactly one input block. On the other axes the
   * inputs take the first array's block sizes ({@link Regrid#to} moves an input whose blocks differ
   * there). The grid is regular when the blocks happen to line up.
   *
   * <p>Mixed dtypes promote by the standard's rules (each input is converted first).
   *
   * @throws IllegalArgumentException for no arrays, 0-d arrays, or shapes that differ off the axis
   */
  public static ArrayNode concat(List<ArrayNode> xs0, int axis) {
    if (xs0.isEmpty()) {
      throw new IllegalArgumentException("concat: need at least one array to concatenate");
    }
    // mixed dtypes promote (the standard's type promotion, as the kernel's concat)
    DType dt = xs0.get(0).dtype();
    for (ArrayNode x : xs0) {
      dt = DType.resultType(dt, x.dtype());
    }
    List<ArrayNode> xs = new ArrayList<>(xs0.size());
    for (ArrayNode x : xs0) {
      DType t = dt;
      xs.add(x.dtype() == dt ? x : Core.elemwise("astype", b -> b[0].astype(t), t, x));
    }
    ArrayNode first = xs.get(0);
    int nd = first.shape().length;
    if (nd == 0) {
      throw new IllegalArgumentException(
          "concat: zero-dimensional arrays cannot be concatenated; use stack");
    }
    int a = Shapes.normalizeAxis("concat", axis, nd);
    long[] shape = first.shape();
    shape[a] = 0;
    List<ArrayNode> ins = new ArrayList<>();
    List<Long> axisSizes = new ArrayList<>();
    List<long[]> owner = new ArrayList<>(); // output block along a -> (input, input block)
    for (int j = 0; j < xs.size(); j++) {
      ArrayNode x = xs.get(j);
      for (int i = 0; i < nd; i++) {
        if (x.shape().length != nd) {
          throw new IllegalArgumentException(
              "concat: array 0 has shape "
                  + Shapes.format(first.shape())
                  + " and array "
                  + j
                  + " has shape "
                  + Shapes.format(x.shape())
                  + "; all arrays must have the same number of dimensions");
        }
        if (i != a && x.shape()[i] != first.shape()[i]) {
          throw new IllegalArgumentException(
              "concat: shapes "
                  + Shapes.format(first.shape())
                  + " and "
                  + Shapes.format(x.shape())
                  + " differ in dimension "
                  + i);
        }
      }
      long[][] want = new long[nd][];
      for (int i = 0; i < nd; i++) {
        want[i] = i == a ? x.chunkGrid().sizes(a) : first.chunkGrid().sizes(i);
      }
      ChunkGrid w = ChunkGrid.of(x.shape(), want);
      ins.add(w.equals(x.chunkGrid()) ? x : Regrid.to(x, w));
      long[] sz = want[a];
      for (int b = 0; b < sz.length; b++) {
        axisSizes.add(sz[b]);
        owner.add(new long[] {j, b});
      }
      shape[a] += x.shape()[a];
    }
    long[][] sizes = new long[nd][];
    for (int i = 0; i < nd; i++) {
      sizes[i] =
          i == a
              ? axisSizes.stream().mapToLong(Long::longValue).toArray()
              : first.chunkGrid().sizes(i);
    }
    ChunkGrid outGrid = ChunkGrid.of(shape, sizes);
    HeldBlocks joined = joinedWindow(ins, a, outGrid);
    if (joined != null) {
      return new ArrayNode.Virtual("from_array", outGrid, first.dtype(), joined);
    }
    int nIn = ins.size();
    long[][] own = owner.toArray(new long[0][]);
    KeyFunction keys =
        k -> {
          long[] o = own[(int) k[a]];
          List<BlockKeys> l = new ArrayList<>(nIn);
          for (int j = 0; j < nIn; j++) {
            if (j == o[0]) {
              long[] key = k.clone();
              key[a] = o[1];
              l.add(BlockKeys.one(key));
            } else {
              l.add(BlockKeys.stream(List.of()));
            }
          }
          return l;
        };
    BlockwiseFunction fn = new ConcatBlocks(own, a);
    int[] held = new int[nIn];
    Arrays.fill(held, 1);
    return new ArrayNode.Computed(
        new Blockwise("concat", keys, fn, held, held.clone(), 0),
        ins,
        outGrid,
        first.dtype(),
        null);
  }

  /** A concatenation's block: the block of the input owning its position along the axis. */
  private record ConcatBlocks(long[][] owner, int axis) implements PassThroughFunction {
    @Override
    public NDArray apply(List<Object> args, long[] k) {
      return (NDArray) args.get(source(k));
    }

    @Override
    public int source(long[] k) {
      return (int) owner[(int) k[axis]][0];
    }
  }

  /**
   * The concatenation of {@code ins} along {@code axis} as one window of an in-memory input, when
   * they are adjacent boxes of the same held array ({@link HeldBlocks#joined}); null otherwise.
   */
  private static HeldBlocks joinedWindow(List<ArrayNode> ins, int axis, ChunkGrid grid) {
    List<HeldBlocks> parts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (ArrayNode x : ins) {
      if (!(x instanceof ArrayNode.Virtual v && v.generator() instanceof HeldBlocks h)) {
        return null;
      }
      parts.add(h);
      names.add(x.digest());
    }
    return HeldBlocks.joined(parts, names, axis, grid);
  }

  /** Joins arrays of equal shape along a new axis (mixed dtypes promote, as in concat). */
  public static ArrayNode stack(List<ArrayNode> xs, int axis) {
    if (xs.isEmpty()) {
      throw new IllegalArgumentException("stack: need at least one array to stack");
    }
    int nd = xs.get(0).shape().length + 1;
    int a = Shapes.normalizeAxis("stack", axis, nd);
    List<ArrayNode> ex = new ArrayList<>();
    for (ArrayNode x : xs) {
      if (!Arrays.equals(x.shape(), xs.get(0).shape())) {
        throw new IllegalArgumentException(
            "stack: shapes "
                + Shapes.format(xs.get(0).shape())
                + " and "
                + Shapes.format(x.shape())
                + " differ");
      }
      ex.add(expandDims(x, a));
    }
    return concat(ex, a);
  }
}
