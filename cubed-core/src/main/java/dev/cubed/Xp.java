package dev.cubed;

import dev.cubed.core.BasicIndexing;
import dev.cubed.core.ChunkedManipulation;
import dev.cubed.core.Contraction;
import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
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
 * <p>{@code Xp} is the one public entry point; its families are declared in package-private classes
 * it extends (static methods reached as {@code Xp.name}): {@code XpUnary} (unary elementwise),
 * {@code XpLogic} (comparison, logical, bitwise), {@code XpArith} (arithmetic; both with scalar
 * operands), {@code XpSearch} (searching, selection, take, data types, {@link #info()}), {@code
 * XpManip} (flip, roll, moveaxis, vecdot, {@code *_like}) and {@code XpShape} (tile, repeat,
 * meshgrid, tril/triu, diff, unstack), {@code XpSort}, {@code XpNan} (nansum, nanmean, ...), {@code
 * XpPad} (pad), {@code XpEinsum} (einsum) and {@code XpQuantile} (quantile, nanquantile).
 * Reductions, basic manipulation, indexing, contractions and creation stay here.
 */
public final class Xp extends XpQuantile {
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
  public static CubedArray blockwise(
      dev.cubed.primitive.Blockwise op, long[] shape, long[] chunks, DType out, CubedArray... xs) {
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

  static CubedArray reduce(
      CubedArray x, Reductions.Op op, Axes axes, int splitEvery, int correction) {
    String name = op.name().toLowerCase();
    int[] ax = axes.resolve(name, x.ndim());
    if (splitEvery == AUTO_SPLIT) {
      int w = x.spec().workers();
      splitEvery =
          Reductions.balancedSplit(
              x.numBlocks(),
              ax,
              w > 0 ? w : Runtime.getRuntime().availableProcessors(),
              DEFAULT_SPLIT_EVERY);
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
   * Sum over axes with keepdims and splitEvery (blocks merged per task per round, 2 or more; {@link
   * #AUTO_SPLIT} for the default).
   */
  public static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  /** Product over axes (all if none given); complex products keep a complex128 state. */
  public static CubedArray prod(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.PROD, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Product over axes with keepdims ({@code Axes.of(0).keepDims()}) and splitEvery (2 or more;
   * {@link #AUTO_SPLIT} for the default).
   */
  public static CubedArray prod(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.PROD, axes, splitEvery, 0);
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
   * Minimum over axes with keepdims and splitEvery (errors as {@link #min(CubedArray, int...)}).
   */
  public static CubedArray min(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MIN, axes, splitEvery, 0);
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
   * Maximum over axes with keepdims and splitEvery (errors as {@link #max(CubedArray, int...)}).
   */
  public static CubedArray max(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MAX, axes, splitEvery, 0);
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
   * Mean over axes with keepdims and splitEvery (2 or more; {@link #AUTO_SPLIT} for the default).
   */
  public static CubedArray mean(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  /** Variance (correction 0) over axes (all if none given). */
  public static CubedArray var(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.VAR, axes(axes), AUTO_SPLIT, 0);
  }

  /**
   * Variance with a degrees-of-freedom correction: sum of squared deviations divided by {@code
   * max(count - correction, 0)} (NaN or infinity when the correction reaches the count).
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

  /** Logical AND over axes with keepdims and splitEvery. */
  public static CubedArray all(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.ALL, axes, splitEvery, 0);
  }

  /** Logical OR over axes (all if none given). */
  public static CubedArray any(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ANY, axes(axes), AUTO_SPLIT, 0);
  }

  /** Logical OR over axes with keepdims and splitEvery. */
  public static CubedArray any(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.ANY, axes, splitEvery, 0);
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
   * {@code cumulative_sum(x, axis=axis, dtype=dtype)}: the sums accumulate in {@code dtype} as
   * NumPy does (x converted to it first; integers wrap at its width, e.g. int8 sums overflow as
   * int8), and the result has that dtype. A null dtype is the default form ({@link
   * #cumulativeSum(CubedArray, int)}).
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeSum(CubedArray x, int axis, DType dtype) {
    return cumulativeIn(x, dtype, cumulativeSum(inDtype(x, dtype), axis));
  }

  /**
   * Inclusive cumulative product along an axis (every dtype; integers and bool accumulate in int64,
   * uint64 for unsigned), by block scans with the block totals scanned recursively.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeProd(CubedArray x, int axis) {
    return wrap(dev.cubed.core.Scans.cumulative(x.node(), dev.cubed.core.Scans.Op.PROD, axis), x);
  }

  /**
   * {@code cumulative_prod(x, axis=axis, dtype=dtype)}: the products accumulate in {@code dtype}
   * (as {@link #cumulativeSum(CubedArray, int, DType)}); a null dtype is the default form.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeProd(CubedArray x, int axis, DType dtype) {
    return cumulativeIn(x, dtype, cumulativeProd(inDtype(x, dtype), axis));
  }

  private static CubedArray inDtype(CubedArray x, DType dtype) {
    return dtype == null || dtype == x.dtype() ? x : Xp.astype(x, dtype);
  }

  // integer scans run in int64/uint64; wrapping the result to a narrower integer (or bool) gives
  // what accumulating at that width gives, since + and * commute with reduction mod 2^bits
  private static CubedArray cumulativeIn(CubedArray x, DType dtype, CubedArray r) {
    return dtype == null || r.dtype() == dtype ? r : Xp.astype(r, dtype);
  }

  /**
   * Index of the maximum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty axis
   *     ("attempt to get argmax of an empty sequence", refused when built)
   */
  public static CubedArray argmax(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMAX, Axes.of(axis), AUTO_SPLIT, 0);
  }

  /**
   * {@code argmax(x, axis=..., keepdims=...)}: {@code Axes.of(axis)} (one axis) or {@link
   * Axes#all()} (the flattened array, as {@link XpSearch#argmax(CubedArray)}), with {@link
   * Axes#keepDims()} keeping the reduced axes with length 1.
   *
   * @throws IllegalArgumentException for more than one axis, and as the one-axis form
   */
  public static CubedArray argmax(CubedArray x, Axes axes) {
    return argReduce("argmax", x, axes, Reductions.Op.ARGMAX);
  }

  /**
   * Index of the minimum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty axis
   *     (refused when built)
   */
  public static CubedArray argmin(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMIN, Axes.of(axis), AUTO_SPLIT, 0);
  }

  /** {@code argmin(x, axis=..., keepdims=...)}: as {@link #argmax(CubedArray, Axes)}. */
  public static CubedArray argmin(CubedArray x, Axes axes) {
    return argReduce("argmin", x, axes, Reductions.Op.ARGMIN);
  }

  private static CubedArray argReduce(String fn, CubedArray x, Axes axes, Reductions.Op op) {
    if (axes.isAll()) {
      CubedArray r = op == Reductions.Op.ARGMAX ? XpSearch.argmax(x) : XpSearch.argmin(x);
      if (!axes.isKeepDims()) {
        return r;
      }
      long[] ones = new long[x.ndim()];
      java.util.Arrays.fill(ones, 1);
      return Xp.reshape(r, ones);
    }
    if (axes.raw().length != 1) {
      throw new IllegalArgumentException(
          fn
              + ": one axis or all (the flattened array), got "
              + axes
              + "; reduce one axis at a time");
    }
    return reduce(x, op, axes, AUTO_SPLIT, 0);
  }

  // ------------------------------------------------------------------ manipulation, indexing

  /** Permutes the axes. */
  public static CubedArray permuteDims(CubedArray x, int... axes) {
    return wrap(ChunkedManipulation.permuteDims(x.node(), axes), x);
  }

  /**
   * Inserts a size-1 axis at {@code axis} (an axis of the result: {@code -(ndim + 1) <= axis <=
   * ndim}).
   *
   * @throws IndexOutOfBoundsException if the axis is out of that range (the standard's IndexError)
   */
  public static CubedArray expandDims(CubedArray x, int axis) {
    int n = x.ndim() + 1;
    if (axis < -n || axis >= n) {
      throw new IndexOutOfBoundsException(
          "expand_dims: axis "
              + axis
              + " is out of range for "
              + "an array of shape "
              + shapeOf(x)
              + " (the result has "
              + n
              + " dimensions: valid "
              + "axes are "
              + -n
              + " to "
              + (n - 1)
              + ")");
    }
    return wrap(ChunkedManipulation.expandDims(x.node(), axis), x);
  }

  /** Removes the given size-1 axes. */
  public static CubedArray squeeze(CubedArray x, int... axes) {
    return wrap(ChunkedManipulation.squeeze(x.node(), axes), x);
  }

  /** Broadcasts to a shape. */
  public static CubedArray broadcastTo(CubedArray x, long... shape) {
    return wrap(ChunkedManipulation.broadcastTo(x.node(), shape), x);
  }

  /** Joins arrays along an existing axis; mixed dtypes promote (the standard's rules). */
  public static CubedArray concat(java.util.List<CubedArray> xs, int axis) {
    return wrap(
        ChunkedManipulation.concat(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /** Joins arrays of equal shape along a new axis; mixed dtypes promote. */
  public static CubedArray stack(java.util.List<CubedArray> xs, int axis) {
    return wrap(
        ChunkedManipulation.stack(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /**
   * Reshape in C order (one size may be -1); the input is rechunked to contiguous blocks when
   * needed.
   *
   * @throws IllegalArgumentException if the sizes differ, or -1 cannot be inferred (next to a 0, or
   *     not dividing the size), as the kernel
   */
  public static CubedArray reshape(CubedArray x, long... shape) {
    if (java.util.Arrays.equals(x.shape(), shape)) {
      return x;
    }
    return wrap(dev.cubed.core.Reshape.reshape(x.node(), shape), x);
  }

  /** Basic indexing: integers, slices (any step), newaxis, ellipsis. */
  public static CubedArray getItem(CubedArray x, Index... index) {
    return wrap(BasicIndexing.getItem(x.node(), index), x);
  }

  /**
   * Matrix product with the standard's rules (1-D operands as row/column vectors, batch axes
   * broadcast). The contracted block index is kept as an extra axis and tree-summed; the first op's
   * group size is automatic ({@code Contraction.AUTO}: no partial products are written when the
   * output has at least 16 blocks), later rounds sum 4 per task.
   *
   * @throws IllegalArgumentException for 0-d or bool operands, misaligned or non-broadcasting
   *     shapes
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
   * @throws IllegalArgumentException if the axes are invalid, paired sizes differ or a dtype is
   *     bool
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
  public static CubedArray tensordot(
      CubedArray a, CubedArray b, int[] axesA, int[] axesB, int splitEvery) {
    checkSplit("tensordot", splitEvery);
    return wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB, splitEvery), a);
  }

  private static void checkSplit(String fn, int splitEvery) {
    if (splitEvery < 2) {
      throw new IllegalArgumentException(fn + ": splitEvery must be >= 2, got " + splitEvery);
    }
  }

  // ------------------------------------------------------------------ creation (virtual)

  /**
   * A virtual array of one value (no storage). Chunk sizes are at least 1 (-1 for a whole axis); a
   * zero-length axis also takes 0 (Dask's normal form for it: one empty block).
   *
   * @throws IllegalArgumentException for a chunk size below 1 (other than -1, or 0 on a zero-length
   *     axis)
   */
  public static CubedArray full(long[] shape, Object value, DType dtype, long[] chunks, Spec spec) {
    return new CubedArray(Core.full(shape, emptyAxisChunks(shape, chunks), value, dtype), spec);
  }

  /** The chunks with a 0 on a zero-length axis read as 1 (that axis has no elements). */
  static long[] emptyAxisChunks(long[] shape, long[] chunks) {
    if (chunks == null || chunks.length != shape.length) {
      return chunks;
    }
    long[] c = chunks.clone();
    for (int i = 0; i < c.length; i++) {
      if (c[i] == 0 && shape[i] == 0) {
        c[i] = 1;
      }
    }
    return c;
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
  public static CubedArray arange(
      double start, double stop, double step, DType dtype, long chunk, Spec spec) {
    if (step == 0) {
      throw new IllegalArgumentException("arange: step must not be 0");
    }
    long n = Math.max(0, (long) Math.ceil((stop - start) / step));
    return new CubedArray(
        Core.fromIndex(
            "arange",
            new long[] {n},
            emptyAxisChunks(new long[] {n}, new long[] {chunk}),
            dtype,
            (b, i, flat, in, bc) -> {
              if (dtype.isFloating()) {
                b.setDouble(i, start + flat * step);
              } else {
                b.setLong(i, (long) (start + flat * step));
              }
            }),
        spec);
  }

  /** {@code num} evenly spaced values from start to stop (stop included) (virtual). */
  public static CubedArray linspace(
      double start, double stop, long num, DType dtype, long chunk, Spec spec) {
    return linspace(start, stop, num, dtype, Creation.Endpoint.INCLUDE, chunk, spec);
  }

  /**
   * {@code linspace(start, stop, num, dtype=dtype, endpoint=...)} (virtual), element for element
   * the kernel's {@link Creation#linspace(Object, Object, long, DType, Creation.Endpoint)} and so
   * NumPy's: element i is {@code start + i * step} with {@code step = (stop - start) / div} in
   * float64 ({@code div = num - 1} with the endpoint, {@code num} without), then converted to the
   * dtype; with the endpoint the last element is exactly stop. Start and stop may be {@link
   * dev.cubed.nd.Complex}; a null dtype is float64 (complex128 for complex bounds).
   *
   * @throws IllegalArgumentException for a negative num or a dtype that is not floating (complex
   *     for complex bounds)
   */
  public static CubedArray linspace(
      Object start,
      Object stop,
      long num,
      DType dtype,
      Creation.Endpoint endpoint,
      long chunk,
      Spec spec) {
    // the kernel on at most two elements checks num, the bounds and the dtype, and names the dtype
    DType dt = Creation.linspace(start, stop, Math.min(num, 2), dtype, endpoint).dtype();
    Linspace f = new Linspace(start, stop, num, endpoint == Creation.Endpoint.INCLUDE);
    long[] shape = {num};
    return new CubedArray(
        Core.fromIndex(
            "linspace",
            shape,
            emptyAxisChunks(shape, new long[] {chunk}),
            dt,
            (b, i, flat, in, bc) -> f.set(b, i, flat)),
        spec);
  }

  /** Ones on diagonal {@code k} of an (n, m) array, zeros elsewhere (virtual). */
  public static CubedArray eye(long n, long m, long k, DType dtype, long[] chunks, Spec spec) {
    long[] shape = {n, m};
    return new CubedArray(
        Core.fromIndex(
            "eye",
            shape,
            emptyAxisChunks(shape, chunks),
            dtype,
            (b, i, flat, in, bc) -> {
              long r = flat / m;
              long c = flat % m;
              b.setObject(
                  i,
                  c - r == k
                      ? (dtype.isBool() ? (Object) true : (Object) 1)
                      : (dtype.isBool() ? (Object) false : (Object) 0));
            }),
        spec);
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
