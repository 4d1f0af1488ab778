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
 */
public final class Xp {
  /** Default number of blocks merged per reduced axis in each reduction round. */
  public static final int DEFAULT_SPLIT_EVERY = 4;

  private Xp() {}

  static CubedArray wrap(ArrayNode n, CubedArray like) {
    return new CubedArray(n, like.spec());
  }

  /** Applies a per-block kernel elementwise; the dtype is that of the kernel on one-element inputs. */
  static CubedArray ew(String name, Core.BlocksFunction fn, CubedArray... xs) {
    NDArray[] samples = new NDArray[xs.length];
    ArrayNode[] nodes = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      samples[i] = NDArray.ones(xs[i].dtype(), 1);
      nodes[i] = xs[i].node();
    }
    DType out;
    try {
      out = fn.apply(samples).dtype();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
    return wrap(Core.elemwise(name, fn, out, nodes), xs[0]);
  }

  /** Elementwise add with broadcasting (kernel: {@link Elementwise#add}). */
  public static CubedArray add(CubedArray x1, CubedArray x2) {
    return ew("add", b -> Elementwise.add(b[0], b[1]), x1, x2);
  }

  /** Elementwise atan2 with broadcasting (kernel: {@link Elementwise#atan2}). */
  public static CubedArray atan2(CubedArray x1, CubedArray x2) {
    return ew("atan2", b -> Elementwise.atan2(b[0], b[1]), x1, x2);
  }

  /** Elementwise bitwise_and with broadcasting (kernel: {@link Elementwise#bitwiseAnd}). */
  public static CubedArray bitwiseAnd(CubedArray x1, CubedArray x2) {
    return ew("bitwise_and", b -> Elementwise.bitwiseAnd(b[0], b[1]), x1, x2);
  }

  /** Elementwise bitwise_left_shift with broadcasting (kernel: {@link Elementwise#bitwiseLeftShift}). */
  public static CubedArray bitwiseLeftShift(CubedArray x1, CubedArray x2) {
    return ew("bitwise_left_shift", b -> Elementwise.bitwiseLeftShift(b[0], b[1]), x1, x2);
  }

  /** Elementwise bitwise_or with broadcasting (kernel: {@link Elementwise#bitwiseOr}). */
  public static CubedArray bitwiseOr(CubedArray x1, CubedArray x2) {
    return ew("bitwise_or", b -> Elementwise.bitwiseOr(b[0], b[1]), x1, x2);
  }

  /** Elementwise bitwise_right_shift with broadcasting (kernel: {@link Elementwise#bitwiseRightShift}). */
  public static CubedArray bitwiseRightShift(CubedArray x1, CubedArray x2) {
    return ew("bitwise_right_shift", b -> Elementwise.bitwiseRightShift(b[0], b[1]), x1, x2);
  }

  /** Elementwise bitwise_xor with broadcasting (kernel: {@link Elementwise#bitwiseXor}). */
  public static CubedArray bitwiseXor(CubedArray x1, CubedArray x2) {
    return ew("bitwise_xor", b -> Elementwise.bitwiseXor(b[0], b[1]), x1, x2);
  }

  /** Elementwise copysign with broadcasting (kernel: {@link Elementwise#copysign}). */
  public static CubedArray copysign(CubedArray x1, CubedArray x2) {
    return ew("copysign", b -> Elementwise.copysign(b[0], b[1]), x1, x2);
  }

  /** Elementwise divide with broadcasting (kernel: {@link Elementwise#divide}). */
  public static CubedArray divide(CubedArray x1, CubedArray x2) {
    return ew("divide", b -> Elementwise.divide(b[0], b[1]), x1, x2);
  }

  /** Elementwise equal with broadcasting (kernel: {@link Elementwise#equal}). */
  public static CubedArray equal(CubedArray x1, CubedArray x2) {
    return ew("equal", b -> Elementwise.equal(b[0], b[1]), x1, x2);
  }

  /** Elementwise floor_divide with broadcasting (kernel: {@link Elementwise#floorDivide}). */
  public static CubedArray floorDivide(CubedArray x1, CubedArray x2) {
    return ew("floor_divide", b -> Elementwise.floorDivide(b[0], b[1]), x1, x2);
  }

  /** Elementwise greater with broadcasting (kernel: {@link Elementwise#greater}). */
  public static CubedArray greater(CubedArray x1, CubedArray x2) {
    return ew("greater", b -> Elementwise.greater(b[0], b[1]), x1, x2);
  }

  /** Elementwise greater_equal with broadcasting (kernel: {@link Elementwise#greaterEqual}). */
  public static CubedArray greaterEqual(CubedArray x1, CubedArray x2) {
    return ew("greater_equal", b -> Elementwise.greaterEqual(b[0], b[1]), x1, x2);
  }

  /** Elementwise hypot with broadcasting (kernel: {@link Elementwise#hypot}). */
  public static CubedArray hypot(CubedArray x1, CubedArray x2) {
    return ew("hypot", b -> Elementwise.hypot(b[0], b[1]), x1, x2);
  }

  /** Elementwise less with broadcasting (kernel: {@link Elementwise#less}). */
  public static CubedArray less(CubedArray x1, CubedArray x2) {
    return ew("less", b -> Elementwise.less(b[0], b[1]), x1, x2);
  }

  /** Elementwise less_equal with broadcasting (kernel: {@link Elementwise#lessEqual}). */
  public static CubedArray lessEqual(CubedArray x1, CubedArray x2) {
    return ew("less_equal", b -> Elementwise.lessEqual(b[0], b[1]), x1, x2);
  }

  /** Elementwise logaddexp with broadcasting (kernel: {@link Elementwise#logaddexp}). */
  public static CubedArray logaddexp(CubedArray x1, CubedArray x2) {
    return ew("logaddexp", b -> Elementwise.logaddexp(b[0], b[1]), x1, x2);
  }

  /** Elementwise logical_and with broadcasting (kernel: {@link Elementwise#logicalAnd}). */
  public static CubedArray logicalAnd(CubedArray x1, CubedArray x2) {
    return ew("logical_and", b -> Elementwise.logicalAnd(b[0], b[1]), x1, x2);
  }

  /** Elementwise logical_or with broadcasting (kernel: {@link Elementwise#logicalOr}). */
  public static CubedArray logicalOr(CubedArray x1, CubedArray x2) {
    return ew("logical_or", b -> Elementwise.logicalOr(b[0], b[1]), x1, x2);
  }

  /** Elementwise logical_xor with broadcasting (kernel: {@link Elementwise#logicalXor}). */
  public static CubedArray logicalXor(CubedArray x1, CubedArray x2) {
    return ew("logical_xor", b -> Elementwise.logicalXor(b[0], b[1]), x1, x2);
  }

  /** Elementwise maximum with broadcasting (kernel: {@link Elementwise#maximum}). */
  public static CubedArray maximum(CubedArray x1, CubedArray x2) {
    return ew("maximum", b -> Elementwise.maximum(b[0], b[1]), x1, x2);
  }

  /** Elementwise minimum with broadcasting (kernel: {@link Elementwise#minimum}). */
  public static CubedArray minimum(CubedArray x1, CubedArray x2) {
    return ew("minimum", b -> Elementwise.minimum(b[0], b[1]), x1, x2);
  }

  /** Elementwise multiply with broadcasting (kernel: {@link Elementwise#multiply}). */
  public static CubedArray multiply(CubedArray x1, CubedArray x2) {
    return ew("multiply", b -> Elementwise.multiply(b[0], b[1]), x1, x2);
  }

  /** Elementwise nextafter with broadcasting (kernel: {@link Elementwise#nextafter}). */
  public static CubedArray nextafter(CubedArray x1, CubedArray x2) {
    return ew("nextafter", b -> Elementwise.nextafter(b[0], b[1]), x1, x2);
  }

  /** Elementwise not_equal with broadcasting (kernel: {@link Elementwise#notEqual}). */
  public static CubedArray notEqual(CubedArray x1, CubedArray x2) {
    return ew("not_equal", b -> Elementwise.notEqual(b[0], b[1]), x1, x2);
  }

  /** Elementwise pow with broadcasting (kernel: {@link Elementwise#pow}). */
  public static CubedArray pow(CubedArray x1, CubedArray x2) {
    return ew("pow", b -> Elementwise.pow(b[0], b[1]), x1, x2);
  }

  /** Elementwise remainder with broadcasting (kernel: {@link Elementwise#remainder}). */
  public static CubedArray remainder(CubedArray x1, CubedArray x2) {
    return ew("remainder", b -> Elementwise.remainder(b[0], b[1]), x1, x2);
  }

  /** Elementwise subtract with broadcasting (kernel: {@link Elementwise#subtract}). */
  public static CubedArray subtract(CubedArray x1, CubedArray x2) {
    return ew("subtract", b -> Elementwise.subtract(b[0], b[1]), x1, x2);
  }

  /** Elementwise abs (kernel: {@link Elementwise#abs}). */
  public static CubedArray abs(CubedArray x) {
    return ew("abs", b -> Elementwise.abs(b[0]), x);
  }

  /** Elementwise acos (kernel: {@link Elementwise#acos}). */
  public static CubedArray acos(CubedArray x) {
    return ew("acos", b -> Elementwise.acos(b[0]), x);
  }

  /** Elementwise acosh (kernel: {@link Elementwise#acosh}). */
  public static CubedArray acosh(CubedArray x) {
    return ew("acosh", b -> Elementwise.acosh(b[0]), x);
  }

  /** Elementwise asin (kernel: {@link Elementwise#asin}). */
  public static CubedArray asin(CubedArray x) {
    return ew("asin", b -> Elementwise.asin(b[0]), x);
  }

  /** Elementwise asinh (kernel: {@link Elementwise#asinh}). */
  public static CubedArray asinh(CubedArray x) {
    return ew("asinh", b -> Elementwise.asinh(b[0]), x);
  }

  /** Elementwise atan (kernel: {@link Elementwise#atan}). */
  public static CubedArray atan(CubedArray x) {
    return ew("atan", b -> Elementwise.atan(b[0]), x);
  }

  /** Elementwise atanh (kernel: {@link Elementwise#atanh}). */
  public static CubedArray atanh(CubedArray x) {
    return ew("atanh", b -> Elementwise.atanh(b[0]), x);
  }

  /** Elementwise bitwise_invert (kernel: {@link Elementwise#bitwiseInvert}). */
  public static CubedArray bitwiseInvert(CubedArray x) {
    return ew("bitwise_invert", b -> Elementwise.bitwiseInvert(b[0]), x);
  }

  /** Elementwise ceil (kernel: {@link Elementwise#ceil}). */
  public static CubedArray ceil(CubedArray x) {
    return ew("ceil", b -> Elementwise.ceil(b[0]), x);
  }

  /** Elementwise conj (kernel: {@link Elementwise#conj}). */
  public static CubedArray conj(CubedArray x) {
    return ew("conj", b -> Elementwise.conj(b[0]), x);
  }

  /** Elementwise cos (kernel: {@link Elementwise#cos}). */
  public static CubedArray cos(CubedArray x) {
    return ew("cos", b -> Elementwise.cos(b[0]), x);
  }

  /** Elementwise cosh (kernel: {@link Elementwise#cosh}). */
  public static CubedArray cosh(CubedArray x) {
    return ew("cosh", b -> Elementwise.cosh(b[0]), x);
  }

  /** Elementwise exp (kernel: {@link Elementwise#exp}). */
  public static CubedArray exp(CubedArray x) {
    return ew("exp", b -> Elementwise.exp(b[0]), x);
  }

  /** Elementwise expm1 (kernel: {@link Elementwise#expm1}). */
  public static CubedArray expm1(CubedArray x) {
    return ew("expm1", b -> Elementwise.expm1(b[0]), x);
  }

  /** Elementwise floor (kernel: {@link Elementwise#floor}). */
  public static CubedArray floor(CubedArray x) {
    return ew("floor", b -> Elementwise.floor(b[0]), x);
  }

  /** Elementwise imag (kernel: {@link Elementwise#imag}). */
  public static CubedArray imag(CubedArray x) {
    return ew("imag", b -> Elementwise.imag(b[0]), x);
  }

  /** Elementwise isfinite (kernel: {@link Elementwise#isfinite}). */
  public static CubedArray isfinite(CubedArray x) {
    return ew("isfinite", b -> Elementwise.isfinite(b[0]), x);
  }

  /** Elementwise isinf (kernel: {@link Elementwise#isinf}). */
  public static CubedArray isinf(CubedArray x) {
    return ew("isinf", b -> Elementwise.isinf(b[0]), x);
  }

  /** Elementwise isnan (kernel: {@link Elementwise#isnan}). */
  public static CubedArray isnan(CubedArray x) {
    return ew("isnan", b -> Elementwise.isnan(b[0]), x);
  }

  /** Elementwise log (kernel: {@link Elementwise#log}). */
  public static CubedArray log(CubedArray x) {
    return ew("log", b -> Elementwise.log(b[0]), x);
  }

  /** Elementwise log1p (kernel: {@link Elementwise#log1p}). */
  public static CubedArray log1p(CubedArray x) {
    return ew("log1p", b -> Elementwise.log1p(b[0]), x);
  }

  /** Elementwise log2 (kernel: {@link Elementwise#log2}). */
  public static CubedArray log2(CubedArray x) {
    return ew("log2", b -> Elementwise.log2(b[0]), x);
  }

  /** Elementwise log10 (kernel: {@link Elementwise#log10}). */
  public static CubedArray log10(CubedArray x) {
    return ew("log10", b -> Elementwise.log10(b[0]), x);
  }

  /** Elementwise logical_not (kernel: {@link Elementwise#logicalNot}). */
  public static CubedArray logicalNot(CubedArray x) {
    return ew("logical_not", b -> Elementwise.logicalNot(b[0]), x);
  }

  /** Elementwise negative (kernel: {@link Elementwise#negative}). */
  public static CubedArray negative(CubedArray x) {
    return ew("negative", b -> Elementwise.negative(b[0]), x);
  }

  /** Elementwise positive (kernel: {@link Elementwise#positive}). */
  public static CubedArray positive(CubedArray x) {
    return ew("positive", b -> Elementwise.positive(b[0]), x);
  }

  /** Elementwise real (kernel: {@link Elementwise#real}). */
  public static CubedArray real(CubedArray x) {
    return ew("real", b -> Elementwise.real(b[0]), x);
  }

  /** Elementwise reciprocal (kernel: {@link Elementwise#reciprocal}). */
  public static CubedArray reciprocal(CubedArray x) {
    return ew("reciprocal", b -> Elementwise.reciprocal(b[0]), x);
  }

  /** Elementwise round (kernel: {@link Elementwise#round}). */
  public static CubedArray round(CubedArray x) {
    return ew("round", b -> Elementwise.round(b[0]), x);
  }

  /** Elementwise sign (kernel: {@link Elementwise#sign}). */
  public static CubedArray sign(CubedArray x) {
    return ew("sign", b -> Elementwise.sign(b[0]), x);
  }

  /** Elementwise signbit (kernel: {@link Elementwise#signbit}). */
  public static CubedArray signbit(CubedArray x) {
    return ew("signbit", b -> Elementwise.signbit(b[0]), x);
  }

  /** Elementwise sin (kernel: {@link Elementwise#sin}). */
  public static CubedArray sin(CubedArray x) {
    return ew("sin", b -> Elementwise.sin(b[0]), x);
  }

  /** Elementwise sinh (kernel: {@link Elementwise#sinh}). */
  public static CubedArray sinh(CubedArray x) {
    return ew("sinh", b -> Elementwise.sinh(b[0]), x);
  }

  /** Elementwise sqrt (kernel: {@link Elementwise#sqrt}). */
  public static CubedArray sqrt(CubedArray x) {
    return ew("sqrt", b -> Elementwise.sqrt(b[0]), x);
  }

  /** Elementwise square (kernel: {@link Elementwise#square}). */
  public static CubedArray square(CubedArray x) {
    return ew("square", b -> Elementwise.square(b[0]), x);
  }

  /** Elementwise tan (kernel: {@link Elementwise#tan}). */
  public static CubedArray tan(CubedArray x) {
    return ew("tan", b -> Elementwise.tan(b[0]), x);
  }

  /** Elementwise tanh (kernel: {@link Elementwise#tanh}). */
  public static CubedArray tanh(CubedArray x) {
    return ew("tanh", b -> Elementwise.tanh(b[0]), x);
  }

  /** Elementwise trunc (kernel: {@link Elementwise#trunc}). */
  public static CubedArray trunc(CubedArray x) {
    return ew("trunc", b -> Elementwise.trunc(b[0]), x);
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
    return sum(x, axes(axes), DEFAULT_SPLIT_EVERY);
  }

  /** Sum over axes with keepdims and splitEvery. */
  public static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  /** Product over axes (all if none given); complex products keep a complex128 state. */
  public static CubedArray prod(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.PROD, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /**
   * Minimum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray min(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MIN, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /**
   * Maximum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray max(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MAX, axes(axes), DEFAULT_SPLIT_EVERY, 0);
  }

  /**
   * Mean over axes (all if none given).
   *
   * @throws IllegalArgumentException for bool (mean is defined for numeric dtypes)
   */
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
    return reduce(x, Reductions.Op.ARGMAX, Axes.of(axis), DEFAULT_SPLIT_EVERY, 0);
  }

  /**
   * Index of the minimum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty
   *     axis (refused when built)
   */
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
