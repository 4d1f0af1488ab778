package dev.cubed;

import dev.cubed.core.Contraction;
import dev.cubed.core.Core;
import dev.cubed.core.Indexing;
import dev.cubed.core.Manip;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;

/**
 * The Array API facade over lazy {@link CubedArray}s (names in lowerCamelCase). Elementwise
 * functions broadcast; reductions are trees with {@code splitEvery} (default 4) blocks merged per
 * reduced axis per round.
 */
public final class Xp {
  /** Default number of blocks merged per reduced axis in each reduction round. */
  public static final int DEFAULT_SPLIT_EVERY = 4;

  private Xp() {}

  private static CubedArray wrap(ArrayNode n, CubedArray like) {
    return new CubedArray(n, like.spec());
  }

  private static CubedArray binary(String name, CubedArray a, CubedArray b,
      Core.BlocksFunction fn, DType out) {
    return wrap(Core.elemwise(name, fn, out, a.node(), b.node()), a);
  }

  private static DType promote(String fn, CubedArray a, CubedArray b) {
    return DType.resultType(a.dtype(), b.dtype());
  }

  /** Elementwise sum with broadcasting; dtype by the promotion rules. */
  public static CubedArray add(CubedArray a, CubedArray b) {
    DType t = promote("add", a, b);
    return binary("add", a, b, bl -> Kernels.add(bl[0], bl[1], t), t);
  }

  /** Elementwise difference with broadcasting. */
  public static CubedArray subtract(CubedArray a, CubedArray b) {
    DType t = promote("subtract", a, b);
    return binary("subtract", a, b, bl -> Kernels.subtract(bl[0], bl[1], t), t);
  }

  /** Elementwise product with broadcasting. */
  public static CubedArray multiply(CubedArray a, CubedArray b) {
    DType t = promote("multiply", a, b);
    return binary("multiply", a, b, bl -> Kernels.multiply(bl[0], bl[1], t), t);
  }

  /** Elementwise true division with broadcasting (integers give the default float). */
  public static CubedArray divide(CubedArray a, CubedArray b) {
    DType p = promote("divide", a, b);
    DType t = p.isFloating() ? p : DType.FLOAT64;
    return binary("divide", a, b, bl -> Kernels.divide(bl[0], bl[1], t), t);
  }

  /** Elementwise negation. */
  public static CubedArray negative(CubedArray a) {
    DType t = a.dtype();
    return wrap(Core.elemwise("negative", bl -> Kernels.negative(bl[0], t), t, a.node()), a);
  }

  /** Converts to another dtype (NDArray.astype rules). */
  public static CubedArray astype(CubedArray a, DType t) {
    if (a.dtype() == t) {
      return a;
    }
    return wrap(Core.elemwise("astype", bl -> bl[0].astype(t), t, a.node()), a);
  }

  /** Applies a function to each block (the same block grid for all inputs). */
  public static CubedArray mapBlocks(Core.BlocksFunction fn, DType out, CubedArray... xs) {
    ArrayNode[] ns = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      ns[i] = xs[i].node();
    }
    return wrap(Core.mapBlocks(fn, out, ns), xs[0]);
  }

  /** Rechunks (multistage, bounded memory); -1 keeps an axis whole. */
  public static CubedArray rechunk(CubedArray x, long... chunks) {
    return wrap(Core.rechunk(x.node(), chunks), x);
  }

  // ------------------------------------------------------------------ reductions

  private static CubedArray reduce(CubedArray x, Reductions.Op op, Axes axes, int splitEvery,
      int correction) {
    String name = op.name().toLowerCase();
    int[] ax = axes.resolve(name, x.ndim());
    return wrap(Reductions.reduce(x.node(), op, ax, axes.isKeepDims(), splitEvery, correction), x);
  }

  private static Axes axes(int... axes) {
    return axes.length == 0 ? Axes.all() : Axes.of(axes);
  }

  /** Sum over axes (all if none given). */
  public static CubedArray sum(CubedArray x, int... axes) {
    return sum(x, axes(axes), DEFAULT_SPLIT_EVERY);
  }

  /** Sum over axes with keepdims and splitEvery. */
  public static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  /** Product over axes (all if none given). */
  public static CubedArray prod(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.PROD, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Minimum over axes (all if none given). */
  public static CubedArray min(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MIN, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Maximum over axes (all if none given). */
  public static CubedArray max(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MAX, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Mean over axes (all if none given). */
  public static CubedArray mean(CubedArray x, int... axes) {
    return mean(x, axes(axes), DEFAULT_SPLIT_EVERY);
  }

  /** Mean over axes with keepdims and splitEvery. */
  public static CubedArray mean(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  /** Variance (correction 0) over axes (all if none given). */
  public static CubedArray var(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.VAR, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Variance with a degrees-of-freedom correction. */
  public static CubedArray var(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.VAR, axes, splitEvery, correction);
  }

  /** Standard deviation (correction 0) over axes (all if none given). */
  public static CubedArray std(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.STD, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Standard deviation with a degrees-of-freedom correction. */
  public static CubedArray std(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.STD, axes, splitEvery, correction);
  }

  /** Logical AND over axes (all if none given). */
  public static CubedArray all(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ALL, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Logical OR over axes (all if none given). */
  public static CubedArray any(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ANY, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Index of the maximum along one axis (first occurrence; NaN counts as maximal). */
  public static CubedArray argmax(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMAX, Axes.of(axis), DEFAULT_SPLIT_EVERY, 0);
  }

  /** Index of the minimum along one axis (first occurrence; NaN counts as minimal). */
  public static CubedArray argmin(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMIN, Axes.of(axis), DEFAULT_SPLIT_EVERY, 0);
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

  /** Joins arrays along an existing axis. */
  public static CubedArray concat(java.util.List<CubedArray> xs, int axis) {
    return wrap(Manip.concat(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /** Joins arrays of equal shape along a new axis. */
  public static CubedArray stack(java.util.List<CubedArray> xs, int axis) {
    return wrap(Manip.stack(xs.stream().map(CubedArray::node).toList(), axis), xs.get(0));
  }

  /**
   * Reshape. Only reshapes that add or remove size-1 axes are supported so far.
   *
   * @throws UnsupportedOperationException for other reshapes
   */
  public static CubedArray reshape(CubedArray x, long... shape) {
    long[] a = java.util.Arrays.stream(x.shape()).filter(v -> v != 1).toArray();
    long[] b = java.util.Arrays.stream(shape).filter(v -> v != 1).toArray();
    if (java.util.Arrays.equals(x.shape(), shape)) {
      return x;
    }
    if (!java.util.Arrays.equals(a, b)) {
      throw new UnsupportedOperationException("reshape: " + Shapes.format(x.shape()) + " -> "
          + Shapes.format(shape) + " is not supported by the chunked engine yet (only adding or "
          + "removing size-1 axes)");
    }
    int[] ones = java.util.stream.IntStream.range(0, x.ndim()).filter(i -> x.shape()[i] == 1)
        .toArray();
    CubedArray r = ones.length > 0 ? squeeze(x, ones) : x;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] == 1) {
        r = expandDims(r, i);
      }
    }
    return r;
  }

  /** Basic indexing: integers, slices (any step), newaxis, ellipsis. */
  public static CubedArray getItem(CubedArray x, Index... index) {
    return wrap(Indexing.getItem(x.node(), index), x);
  }

  /** Matrix product of 2-D arrays (contraction streamed block pair by block pair). */
  public static CubedArray matmul(CubedArray a, CubedArray b) {
    return wrap(Contraction.matmul(a.node(), b.node()), a);
  }

  /** Tensor contraction over the paired axes. */
  public static CubedArray tensordot(CubedArray a, CubedArray b, int[] axesA, int[] axesB) {
    return wrap(Contraction.tensordot(a.node(), b.node(), axesA, axesB), a);
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
