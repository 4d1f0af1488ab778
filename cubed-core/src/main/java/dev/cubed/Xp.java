package dev.cubed;

import dev.cubed.core.Contraction;
import dev.cubed.core.Core;
import dev.cubed.core.Indexing;
import dev.cubed.core.Manip;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Elementwise;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.plan.ChunkGrid;

/**
 * The Array API facade over lazy {@link CubedArray}s (names in lowerCamelCase). Elementwise
 * functions broadcast; reductions are trees with {@code splitEvery} (default 4) blocks merged per
 * reduced axis per round.
 *
 * <p>{@code Xp} is the one public entry point; its families are declared in package-private
 * classes it extends (static methods reached as {@code Xp.name}): {@code XpUnary} (unary
 * elementwise), {@code XpLogic} (comparison, logical, bitwise), {@code XpArith} (arithmetic; both
 * with scalar operands), {@code XpSearch} (searching, selection, take, data types, {@link #info()}),
 * {@code XpManip} (flip, roll, moveaxis, vecdot, {@code *_like}) and {@code XpShape} (tile, repeat,
 * meshgrid, tril/triu, diff, unstack). Reductions, basic manipulation, indexing, contractions and
 * creation stay here.
 */
public final class Xp extends XpNan {
  /** Default number of blocks merged per reduced axis in each reduction round. */
  public static final int DEFAULT_SPLIT_EVERY = 4;

  /**
   * splitEvery 0, what the reductions without a splitEvery argument use: {@link
   * #DEFAULT_SPLIT_EVERY}, or up to twice it when that spreads a reduction's first round more
   * evenly over the spec's workers ({@link Reductions#balancedSplit}).
   */
  public static final int AUTO_SPLIT = 0;

  private Xp() {}

  public static CubedArray mapBlocks(Core.BlocksFunction fn, DType out, CubedArray... xs) {
    ArrayNode[] ns = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      ns[i] = xs[i].node();
    }
    return wrap(Core.mapBlocks(fn, out, ns), xs[0]);
  }

  /**
   * General blockwise: {@code op}'s key function maps each output block (of the given shape and
   * chunks) to the input blocks it reads (one, several together, or several one at a time).
   */
  public static CubedArray blockwise(dev.cubed.primitive.Blockwise op, long[] shape,
      long[] chunks, DType out, CubedArray... xs) {
    ArrayNode[] ns = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      ns[i] = xs[i].node();
    }
    return wrap(Core.blockwise(op, shape, chunks, out, ns), xs[0]);
  }

  /** Rechunks (multistage, bounded memory); -1 keeps an axis whole. */
  public static CubedArray rechunk(CubedArray x, long... chunks) {
    return wrap(Core.rechunk(x.node(), chunks), x);
  }

  /**
   * Rechunks to explicit block sizes per axis (Dask form, e.g. {@code {{4, 4, 2}, {5}}}). Regular
   * lists take the multistage path; irregular ones a single step whose tasks read the input blocks
   * they overlap (refused by the memory check if those do not fit).
   *
   * @throws IllegalArgumentException if a list does not add up to its axis or has a size below 1
   */
  public static CubedArray rechunk(CubedArray x, long[][] blockSizes) {
    return wrap(Core.rechunk(x.node(), ChunkGrid.of(x.shape(), blockSizes)), x);
  }

  // ------------------------------------------------------------------ reductions

  static CubedArray reduce(CubedArray x, Reductions.Op op, Axes axes, int splitEvery,
      int correction) {
    String name = op.name().toLowerCase();
    int[] ax = axes.resolve(name, x.ndim());
    if (splitEvery == AUTO_SPLIT) {
      int w = x.spec().workers();
      splitEvery = Reductions.balancedSplit(x.numBlocks(), ax,
          w > 0 ? w : Runtime.getRuntime().availableProcessors(), DEFAULT_SPLIT_EVERY);
    }
    if (x.dtype().isComplex() && ComplexReductions.handles(op)) {
      return ComplexReductions.reduce(x, op, axes, splitEvery, correction);
    }
    return wrap(Reductions.reduce(x.node(), op, ax, axes.isKeepDims(), splitEvery, correction), x);
  }

  private static Axes axes(int... axes) {
    return axes.length == 0 ? Axes.all() : Axes.of(axes);
  }

  /** Sum over axes (all if none given). */
  public static CubedArray sum(CubedArray x, int... axes) {
    return sum(x, axes(axes), AUTO_SPLIT);
  }

  /**
   * Sum over axes with keepdims and splitEvery (blocks merged per task per round, 2 or more;
   * {@link #AUTO_SPLIT} for the default).
   */
  public static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  /** Product over axes (all if none given); complex products keep a complex128 state. */
  public static CubedArray prod(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.PROD, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Minimum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray min(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MIN, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Maximum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray max(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MAX, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Mean over axes (all if none given).
   *
   * @throws IllegalArgumentException for bool (mean is defined for numeric dtypes)
   */
  public static CubedArray mean(CubedArray x, int... axes) {
    return mean(x, axes(axes), AUTO_SPLIT);
  }

  /**
   * Mean over axes with keepdims and splitEvery (2 or more; {@link #AUTO_SPLIT} for the
   * default).
   */
  public static CubedArray mean(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  /** Variance (correction 0) over axes (all if none given). */
  public static CubedArray var(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.VAR, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Variance with a degrees-of-freedom correction: sum of squared deviations divided by
   * {@code max(count - correction, 0)} (NaN or infinity when the correction reaches the count).
   *
   * @throws IllegalArgumentException for bool (numeric dtypes only)
   */
  public static CubedArray var(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.VAR, axes, splitEvery, correction);
  }

  /** Standard deviation (correction 0) over axes (all if none given). */
  public static CubedArray std(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.STD, axes(axes), AUTO_SPLIT, 0);
  }

  /** Standard deviation with a degrees-of-freedom correction. */
  public static CubedArray std(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.STD, axes, splitEvery, correction);
  }

  /** Logical AND over axes (all if none given). */
  public static CubedArray all(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ALL, axes(axes), AUTO_SPLIT, 0);
  }

  /** Logical OR over axes (all if none given). */
  public static CubedArray any(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ANY, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Inclusive cumulative sum along an axis (every dtype; integers and bool accumulate in int64,
   * uint64 for unsigned), by block scans with the block totals scanned recursively.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeSum(CubedArray x, int axis) {
    return wrap(dev.cubed.core.Scans.cumulative(x.node(), dev.cubed.core.Scans.Op.SUM, axis), x);
  }

  /**
   * Inclusive cumulative product along an axis (every dtype; integers and bool accumulate in
   * int64, uint64 for unsigned), by block scans with the block totals scanned recursively.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeProd(CubedArray x, int axis) {
    return wrap(dev.cubed.core.Scans.cumulative(x.node(), dev.cubed.core.Scans.Op.PROD, axis), x);
  }

  /**
   * Index of the maximum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty
   *     axis ("attempt to get argmax of an empty sequence", refused when built)
   */
  public static CubedArray argmax(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMAX, Axes.of(axis), AUTO_SPLIT, 0);
  }

  /**
   * Index of the minimum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty
   *     axis (refused when built)
   */
  public static CubedArray argmin(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMIN, Axes.of(axis), AUTO_SPLIT, 0);
  }

  // ------------------------------------------------------------------ manipulation, indexing

  /** Permutes the axes. */
  public static CubedArray permuteDims(CubedArray x, int... axes) {
    return wrap(Manip.permuteDims(x.node(), axes), x);
  }

  /** Inserts a size-1 axis at {@code axis}. */
  public static CubedArray expandDims(CubedArray x, int axis) {
    return wrap(Manip.expandDims(x.node(), axis), x);
  }

  /** Removes the given size-1 axes. */
  public static CubedArray squeeze(CubedArray x, int... axes) {
    return wrap(Manip.squeeze(x.node(), axes), x);
  }

  /** Broadcasts to a shape. */
  public static CubedArray broadcastTo(CubedArray x, long... shape) {
    return wrap(Manip.broadcastTo(x.node(), shape), x);
  }

  /** Joins arrays along an existing axis; mixed dtypes promote (the standard's rules). */
  public static CubedArray concat(java.util.List<CubedArray> xs, int axis) {
    return wrap(Manip.concat(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /** Joins arrays of equal shape along a new axis; mixed dtypes promote. */
  public static CubedArray stack(java.util.List<CubedArray> xs, int axis) {
    return wrap(Manip.stack(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /**
   * Reshape in C order (one size may be -1); the input is rechunked to contiguous blocks when
   * needed.
   *
   * @throws IllegalArgumentException if the sizes differ, or -1 cannot be inferred (next to a 0,
   *     or not dividing the size), as the kernel
   */
  public static CubedArray reshape(CubedArray x, long... shape) {
    if (java.util.Arrays.equals(x.shape(), shape)) {
      return x;
    }
    return wrap(dev.cubed.core.Reshape.reshape(x.node(), shape), x);
  }

  /** Basic indexing: integers, slices (any step), newaxis, ellipsis. */
  public static CubedArray getItem(CubedArray x, Index... index) {
    return wrap(Indexing.getItem(x.node(), index), x);
  }

  /**
   * Matrix product with the standard's rules (1-D operands as row/column vectors, batch axes
   * broadcast). The contracted block index is kept as an extra axis and tree-summed; the first op's
   * group size is automatic ({@code Contraction.AUTO}: no partial products are written when the
   * output has at least 16 blocks), later rounds sum 4 per task.
   *
   * @throws IllegalArgumentException for 0-d or bool operands, misaligned or non-broadcasting shapes
   */
  public static CubedArray matmul(CubedArray a, CubedArray b) {
    return wrap(Contraction.matmul(a.node(), b.node()), a);
  }

  /**
   * {@link #matmul(CubedArray, CubedArray)} summing {@code splitEvery} block products per task.
   *
   * @throws IllegalArgumentException also if splitEvery is below 2
   */
  public static CubedArray matmul(CubedArray a, CubedArray b, int splitEvery) {
    checkSplit("matmul", splitEvery);
    return wrap(Contraction.matmul(a.node(), b.node(), splitEvery), a);
  }

  /**
   * Tensor contraction over the paired axes (result axes: a's free axes, then b's), with the
   * automatic first-round group of {@link #matmul(CubedArray, CubedArray)}.
   *
   * @throws IllegalArgumentException if the axes are invalid, paired sizes differ or a dtype is bool
   */
  public static CubedArray tensordot(CubedArray a, CubedArray b, int[] axesA, int[] axesB) {
    return wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB), a);
  }

  /**
   * {@link #tensordot(CubedArray, CubedArray, int[], int[])} summing {@code splitEvery} block
   * products per task.
   *
   * @throws IllegalArgumentException also if splitEvery is below 2
   */
  public static CubedArray tensordot(CubedArray a, CubedArray b, int[] axesA, int[] axesB,
      int splitEvery) {
    checkSplit("tensordot", splitEvery);
    return wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB, splitEvery), a);
  }

  private static void checkSplit(String fn, int splitEvery) {
    if (splitEvery < 2) {
      throw new IllegalArgumentException(fn + ": splitEvery must be >= 2, got " + splitEvery);
    }
  }

  // ------------------------------------------------------------------ creation (virtual)

  /** A virtual array of one value (no storage). */
  public static CubedArray full(long[] shape, Object value, DType dtype, long[] chunks,
      Spec spec) {
    return new CubedArray(Core.full(shape, chunks, value, dtype), spec);
  }

  /** Zeros (virtual). */
  public static CubedArray zeros(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return full(shape, 0, dtype, chunks, spec);
  }

  /** Ones (virtual). */
  public static CubedArray ones(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return full(shape, 1, dtype, chunks, spec);
  }

  /** {@code start + i * step} for i in [0, ceil((stop - start) / step)) (virtual). */
  public static CubedArray arange(double start, double stop, double step, DType dtype,
      long chunk, Spec spec) {
    if (step == 0) {
      throw new IllegalArgumentException("arange: step must not be 0");
    }
    long n = Math.max(0, (long) Math.ceil((stop - start) / step));
    return new CubedArray(Core.fromIndex("arange", new long[] {n}, new long[] {chunk}, dtype,
        (b, i, flat, in, bc) -> {
          if (dtype.isFloating()) {
            b.setDouble(i, start + flat * step);
          } else {
            b.setLong(i, (long) (start + flat * step));
          }
        }), spec);
  }

  /** {@code num} evenly spaced values from start to stop (stop included) (virtual). */
  public static CubedArray linspace(double start, double stop, long num, DType dtype, long chunk,
      Spec spec) {
    double step = num > 1 ? (stop - start) / (num - 1) : 0;
    return new CubedArray(Core.fromIndex("linspace", new long[] {num}, new long[] {chunk}, dtype,
        (b, i, flat, in, bc) -> b.setDouble(i, flat == num - 1 && num > 1 ? stop
            : start + flat * step)), spec);
  }

  /** Ones on diagonal {@code k} of an (n, m) array, zeros elsewhere (virtual). */
  public static CubedArray eye(long n, long m, long k, DType dtype, long[] chunks, Spec spec) {
    long[] shape = {n, m};
    return new CubedArray(Core.fromIndex("eye", shape, chunks, dtype, (b, i, flat, in, bc) -> {
      long r = flat / m;
      long c = flat % m;
      b.setObject(i, c - r == k ? (dtype.isBool() ? (Object) true : (Object) 1)
          : (dtype.isBool() ? (Object) false : (Object) 0));
    }), spec);
  }

  /** The shape of an array as text, e.g. "(3, 4)". */
  public static String shapeOf(CubedArray x) {
    return Shapes.format(x.shape());
  }

  /** Wraps an in-memory array as one chunk. */
  public static CubedArray asarray(NDArray a, Spec spec) {
    return Cubed.asarray(a, spec);
  }
}
