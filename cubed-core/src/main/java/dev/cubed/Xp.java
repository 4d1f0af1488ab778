package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.primitive.Blockwise;
import java.util.List;

/**
 * The Array API over lazy {@link CubedArray}s: every function of the standard's main namespace
 * (names in lowerCamelCase: {@code bitwise_left_shift} is {@link #bitwiseLeftShift}), and the
 * library's extras (NaN-skipping reductions, quantiles, pad, einsum, map_blocks, rechunk). The
 * standard's extensions are their own facades, as they are namespaces in the standard: {@link
 * XpLinalg} ({@code linalg}) and {@link XpFft} ({@code fft}); {@link XpIndexing} holds indexing by
 * integer arrays. A user writes {@code Xp.add(x, y)}, {@code Xp.mean(x)}, {@code XpLinalg.qr(x)},
 * {@code XpFft.fft(x)}.
 *
 * <p><b>How it is built.</b> This class is the whole public surface of the main namespace and
 * nothing else: each method carries the function's contract and is one line handing the call to a
 * package-private, final implementation class of its section ({@code XpCreate}, {@code XpUnary},
 * {@code XpBinary}, {@code XpReduce}, {@code XpNan}, {@code XpQuantile}, {@code XpManip}, {@code
 * XpShape}, {@code XpSearch}, {@code XpSort}, {@code XpPad}, {@code XpEinsum}, {@code XpBlocks} for
 * the shared internals). It extends nothing, and the implementation classes never call back into
 * it: they call each other. The file is long because the namespace is large (about 270 overloads);
 * the sections below follow the implementation classes, so a function's code is in the class its
 * section names. A new function gets its contract here and its code in the class of its section (a
 * new file past about 600 lines).
 *
 * <p>Elementwise functions broadcast; the three overloads of each binary function (two arrays, an
 * array and a scalar, a scalar and an array) go through one helper ({@code XpBinary.apply}), with
 * the standard's rule for Python scalars: a scalar ({@link Boolean}, an integer type, {@link
 * Float}/{@link Double} or {@link dev.cubed.nd.Complex}) takes the array's dtype when its kind
 * fits; mixed kinds give NumPy 2's result (NEP 50; see {@link DType#resultType(DType, Object)}).
 * Reductions are trees with {@code splitEvery} (default 4) blocks merged per reduced axis per
 * round.
 */
public final class Xp {
  /** Default number of blocks merged per reduced axis in each reduction round. */
  public static final int DEFAULT_SPLIT_EVERY = XpReduce.DEFAULT_SPLIT_EVERY;

  /**
   * splitEvery 0, what the reductions without a splitEvery argument use: {@link
   * #DEFAULT_SPLIT_EVERY}, or up to twice it when that spreads a reduction's first round more
   * evenly over the spec's workers ({@link Reductions#balancedSplit}).
   */
  public static final int AUTO_SPLIT = XpReduce.AUTO_SPLIT;

  private Xp() {}

  // ---------------------------------------------------------------- Creation (virtual arrays:
  // nothing stored)

  /**
   * A virtual array of one value (no storage). Chunk sizes are at least 1 (-1 for a whole axis); a
   * zero-length axis also takes 0 (Dask's normal form for it: one empty block).
   *
   * @throws IllegalArgumentException for a chunk size below 1 (other than -1, or 0 on a zero-length
   *     axis)
   */
  public static CubedArray full(long[] shape, Object value, DType dtype, long[] chunks, Spec spec) {
    return XpCreate.full(shape, value, dtype, chunks, spec);
  }

  /** Zeros (virtual). */
  public static CubedArray zeros(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return XpCreate.zeros(shape, dtype, chunks, spec);
  }

  /** Ones (virtual). */
  public static CubedArray ones(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return XpCreate.ones(shape, dtype, chunks, spec);
  }

  /** {@code start + i * step} for i in [0, ceil((stop - start) / step)) (virtual). */
  public static CubedArray arange(
      double start, double stop, double step, DType dtype, long chunk, Spec spec) {
    return XpCreate.arange(start, stop, step, dtype, chunk, spec);
  }

  /** {@code num} evenly spaced values from start to stop (stop included) (virtual). */
  public static CubedArray linspace(
      double start, double stop, long num, DType dtype, long chunk, Spec spec) {
    return XpCreate.linspace(start, stop, num, dtype, chunk, spec);
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
    return XpCreate.linspace(start, stop, num, dtype, endpoint, chunk, spec);
  }

  /** Ones on diagonal {@code k} of an (n, m) array, zeros elsewhere (virtual). */
  public static CubedArray eye(long n, long m, long k, DType dtype, long[] chunks, Spec spec) {
    return XpCreate.eye(n, m, k, dtype, chunks, spec);
  }

  /** Wraps an in-memory array as one chunk. */
  public static CubedArray asarray(NDArray a, Spec spec) {
    return XpCreate.asarray(a, spec);
  }

  // ---------------------------------------------------------------- Elementwise: unary, and astype

  /** Elementwise abs (kernel: {@link Elementwise#abs}). */
  public static CubedArray abs(CubedArray x) {
    return XpUnary.abs(x);
  }

  /** Elementwise acos (kernel: {@link Elementwise#acos}). */
  public static CubedArray acos(CubedArray x) {
    return XpUnary.acos(x);
  }

  /** Elementwise acosh (kernel: {@link Elementwise#acosh}). */
  public static CubedArray acosh(CubedArray x) {
    return XpUnary.acosh(x);
  }

  /** Elementwise asin (kernel: {@link Elementwise#asin}). */
  public static CubedArray asin(CubedArray x) {
    return XpUnary.asin(x);
  }

  /** Elementwise asinh (kernel: {@link Elementwise#asinh}). */
  public static CubedArray asinh(CubedArray x) {
    return XpUnary.asinh(x);
  }

  /** Elementwise atan (kernel: {@link Elementwise#atan}). */
  public static CubedArray atan(CubedArray x) {
    return XpUnary.atan(x);
  }

  /** Elementwise atanh (kernel: {@link Elementwise#atanh}). */
  public static CubedArray atanh(CubedArray x) {
    return XpUnary.atanh(x);
  }

  /** Elementwise bitwise_invert (kernel: {@link Elementwise#bitwiseInvert}). */
  public static CubedArray bitwiseInvert(CubedArray x) {
    return XpUnary.bitwiseInvert(x);
  }

  /** Elementwise ceil (kernel: {@link Elementwise#ceil}). */
  public static CubedArray ceil(CubedArray x) {
    return XpUnary.ceil(x);
  }

  /** Elementwise conj (kernel: {@link Elementwise#conj}). */
  public static CubedArray conj(CubedArray x) {
    return XpUnary.conj(x);
  }

  /** Elementwise cos (kernel: {@link Elementwise#cos}). */
  public static CubedArray cos(CubedArray x) {
    return XpUnary.cos(x);
  }

  /** Elementwise cosh (kernel: {@link Elementwise#cosh}). */
  public static CubedArray cosh(CubedArray x) {
    return XpUnary.cosh(x);
  }

  /** Elementwise exp (kernel: {@link Elementwise#exp}). */
  public static CubedArray exp(CubedArray x) {
    return XpUnary.exp(x);
  }

  /** Elementwise expm1 (kernel: {@link Elementwise#expm1}). */
  public static CubedArray expm1(CubedArray x) {
    return XpUnary.expm1(x);
  }

  /** Elementwise floor (kernel: {@link Elementwise#floor}). */
  public static CubedArray floor(CubedArray x) {
    return XpUnary.floor(x);
  }

  /** Elementwise imag (kernel: {@link Elementwise#imag}). */
  public static CubedArray imag(CubedArray x) {
    return XpUnary.imag(x);
  }

  /** Elementwise isfinite (kernel: {@link Elementwise#isfinite}). */
  public static CubedArray isfinite(CubedArray x) {
    return XpUnary.isfinite(x);
  }

  /** Elementwise isinf (kernel: {@link Elementwise#isinf}). */
  public static CubedArray isinf(CubedArray x) {
    return XpUnary.isinf(x);
  }

  /** Elementwise isnan (kernel: {@link Elementwise#isnan}). */
  public static CubedArray isnan(CubedArray x) {
    return XpUnary.isnan(x);
  }

  /** Elementwise log (kernel: {@link Elementwise#log}). */
  public static CubedArray log(CubedArray x) {
    return XpUnary.log(x);
  }

  /** Elementwise log1p (kernel: {@link Elementwise#log1p}). */
  public static CubedArray log1p(CubedArray x) {
    return XpUnary.log1p(x);
  }

  /** Elementwise log2 (kernel: {@link Elementwise#log2}). */
  public static CubedArray log2(CubedArray x) {
    return XpUnary.log2(x);
  }

  /** Elementwise log10 (kernel: {@link Elementwise#log10}). */
  public static CubedArray log10(CubedArray x) {
    return XpUnary.log10(x);
  }

  /** Elementwise logical_not (kernel: {@link Elementwise#logicalNot}). */
  public static CubedArray logicalNot(CubedArray x) {
    return XpUnary.logicalNot(x);
  }

  /** Elementwise negative (kernel: {@link Elementwise#negative}). */
  public static CubedArray negative(CubedArray x) {
    return XpUnary.negative(x);
  }

  /** Elementwise positive (kernel: {@link Elementwise#positive}). */
  public static CubedArray positive(CubedArray x) {
    return XpUnary.positive(x);
  }

  /** Elementwise real (kernel: {@link Elementwise#real}). */
  public static CubedArray real(CubedArray x) {
    return XpUnary.real(x);
  }

  /** Elementwise reciprocal (kernel: {@link Elementwise#reciprocal}). */
  public static CubedArray reciprocal(CubedArray x) {
    return XpUnary.reciprocal(x);
  }

  /** Elementwise round (kernel: {@link Elementwise#round}). */
  public static CubedArray round(CubedArray x) {
    return XpUnary.round(x);
  }

  /** Elementwise sign (kernel: {@link Elementwise#sign}). */
  public static CubedArray sign(CubedArray x) {
    return XpUnary.sign(x);
  }

  /** Elementwise signbit (kernel: {@link Elementwise#signbit}). */
  public static CubedArray signbit(CubedArray x) {
    return XpUnary.signbit(x);
  }

  /** Elementwise sin (kernel: {@link Elementwise#sin}). */
  public static CubedArray sin(CubedArray x) {
    return XpUnary.sin(x);
  }

  /** Elementwise sinh (kernel: {@link Elementwise#sinh}). */
  public static CubedArray sinh(CubedArray x) {
    return XpUnary.sinh(x);
  }

  /** Elementwise sqrt (kernel: {@link Elementwise#sqrt}). */
  public static CubedArray sqrt(CubedArray x) {
    return XpUnary.sqrt(x);
  }

  /** Elementwise square (kernel: {@link Elementwise#square}). */
  public static CubedArray square(CubedArray x) {
    return XpUnary.square(x);
  }

  /** Elementwise tan (kernel: {@link Elementwise#tan}). */
  public static CubedArray tan(CubedArray x) {
    return XpUnary.tan(x);
  }

  /** Elementwise tanh (kernel: {@link Elementwise#tanh}). */
  public static CubedArray tanh(CubedArray x) {
    return XpUnary.tanh(x);
  }

  /** Elementwise trunc (kernel: {@link Elementwise#trunc}). */
  public static CubedArray trunc(CubedArray x) {
    return XpUnary.trunc(x);
  }

  /** Converts to another dtype (NDArray.astype rules). */
  public static CubedArray astype(CubedArray a, DType t) {
    return XpUnary.astype(a, t);
  }

  // ---------------------------------------------------------------- Elementwise: binary
  // (array/array, array/scalar, scalar/array; one helper each, XpBinary)

  /**
   * Elementwise bitwise_and with broadcasting (kernel: {@link Elementwise#bitwiseAnd(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseAnd(CubedArray x1, CubedArray x2) {
    return XpBinary.BITWISE_AND.apply(x1, x2);
  }

  /**
   * bitwise_and of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseAnd(CubedArray x1, Object x2) {
    return XpBinary.BITWISE_AND.apply(x1, x2);
  }

  /** bitwise_and of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseAnd(Object x1, CubedArray x2) {
    return XpBinary.BITWISE_AND.apply(x1, x2);
  }

  /**
   * Elementwise bitwise_left_shift with broadcasting (kernel: {@link
   * Elementwise#bitwiseLeftShift(NDArray, NDArray)}).
   */
  public static CubedArray bitwiseLeftShift(CubedArray x1, CubedArray x2) {
    return XpBinary.BITWISE_LEFT_SHIFT.apply(x1, x2);
  }

  /**
   * bitwise_left_shift of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseLeftShift(CubedArray x1, Object x2) {
    return XpBinary.BITWISE_LEFT_SHIFT.apply(x1, x2);
  }

  /** bitwise_left_shift of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseLeftShift(Object x1, CubedArray x2) {
    return XpBinary.BITWISE_LEFT_SHIFT.apply(x1, x2);
  }

  /**
   * Elementwise bitwise_or with broadcasting (kernel: {@link Elementwise#bitwiseOr(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseOr(CubedArray x1, CubedArray x2) {
    return XpBinary.BITWISE_OR.apply(x1, x2);
  }

  /**
   * bitwise_or of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseOr(CubedArray x1, Object x2) {
    return XpBinary.BITWISE_OR.apply(x1, x2);
  }

  /** bitwise_or of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseOr(Object x1, CubedArray x2) {
    return XpBinary.BITWISE_OR.apply(x1, x2);
  }

  /**
   * Elementwise bitwise_right_shift with broadcasting (kernel: {@link
   * Elementwise#bitwiseRightShift(NDArray, NDArray)}).
   */
  public static CubedArray bitwiseRightShift(CubedArray x1, CubedArray x2) {
    return XpBinary.BITWISE_RIGHT_SHIFT.apply(x1, x2);
  }

  /**
   * bitwise_right_shift of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseRightShift(CubedArray x1, Object x2) {
    return XpBinary.BITWISE_RIGHT_SHIFT.apply(x1, x2);
  }

  /** bitwise_right_shift of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseRightShift(Object x1, CubedArray x2) {
    return XpBinary.BITWISE_RIGHT_SHIFT.apply(x1, x2);
  }

  /**
   * Elementwise bitwise_xor with broadcasting (kernel: {@link Elementwise#bitwiseXor(NDArray,
   * NDArray)}).
   */
  public static CubedArray bitwiseXor(CubedArray x1, CubedArray x2) {
    return XpBinary.BITWISE_XOR.apply(x1, x2);
  }

  /**
   * bitwise_xor of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray bitwiseXor(CubedArray x1, Object x2) {
    return XpBinary.BITWISE_XOR.apply(x1, x2);
  }

  /** bitwise_xor of a scalar and an array (promotion: see the class comment). */
  public static CubedArray bitwiseXor(Object x1, CubedArray x2) {
    return XpBinary.BITWISE_XOR.apply(x1, x2);
  }

  /** Elementwise equal with broadcasting (kernel: {@link Elementwise#equal(NDArray, NDArray)}). */
  public static CubedArray equal(CubedArray x1, CubedArray x2) {
    return XpBinary.EQUAL.apply(x1, x2);
  }

  /**
   * equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray equal(CubedArray x1, Object x2) {
    return XpBinary.EQUAL.apply(x1, x2);
  }

  /** equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray equal(Object x1, CubedArray x2) {
    return XpBinary.EQUAL.apply(x1, x2);
  }

  /**
   * Elementwise greater with broadcasting (kernel: {@link Elementwise#greater(NDArray, NDArray)}).
   */
  public static CubedArray greater(CubedArray x1, CubedArray x2) {
    return XpBinary.GREATER.apply(x1, x2);
  }

  /**
   * greater of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray greater(CubedArray x1, Object x2) {
    return XpBinary.GREATER.apply(x1, x2);
  }

  /** greater of a scalar and an array (promotion: see the class comment). */
  public static CubedArray greater(Object x1, CubedArray x2) {
    return XpBinary.GREATER.apply(x1, x2);
  }

  /**
   * Elementwise greater_equal with broadcasting (kernel: {@link Elementwise#greaterEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray greaterEqual(CubedArray x1, CubedArray x2) {
    return XpBinary.GREATER_EQUAL.apply(x1, x2);
  }

  /**
   * greater_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray greaterEqual(CubedArray x1, Object x2) {
    return XpBinary.GREATER_EQUAL.apply(x1, x2);
  }

  /** greater_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray greaterEqual(Object x1, CubedArray x2) {
    return XpBinary.GREATER_EQUAL.apply(x1, x2);
  }

  /** Elementwise less with broadcasting (kernel: {@link Elementwise#less(NDArray, NDArray)}). */
  public static CubedArray less(CubedArray x1, CubedArray x2) {
    return XpBinary.LESS.apply(x1, x2);
  }

  /**
   * less of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray less(CubedArray x1, Object x2) {
    return XpBinary.LESS.apply(x1, x2);
  }

  /** less of a scalar and an array (promotion: see the class comment). */
  public static CubedArray less(Object x1, CubedArray x2) {
    return XpBinary.LESS.apply(x1, x2);
  }

  /**
   * Elementwise less_equal with broadcasting (kernel: {@link Elementwise#lessEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray lessEqual(CubedArray x1, CubedArray x2) {
    return XpBinary.LESS_EQUAL.apply(x1, x2);
  }

  /**
   * less_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray lessEqual(CubedArray x1, Object x2) {
    return XpBinary.LESS_EQUAL.apply(x1, x2);
  }

  /** less_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray lessEqual(Object x1, CubedArray x2) {
    return XpBinary.LESS_EQUAL.apply(x1, x2);
  }

  /**
   * Elementwise logical_and with broadcasting (kernel: {@link Elementwise#logicalAnd(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalAnd(CubedArray x1, CubedArray x2) {
    return XpBinary.LOGICAL_AND.apply(x1, x2);
  }

  /**
   * logical_and of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalAnd(CubedArray x1, Object x2) {
    return XpBinary.LOGICAL_AND.apply(x1, x2);
  }

  /** logical_and of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalAnd(Object x1, CubedArray x2) {
    return XpBinary.LOGICAL_AND.apply(x1, x2);
  }

  /**
   * Elementwise logical_or with broadcasting (kernel: {@link Elementwise#logicalOr(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalOr(CubedArray x1, CubedArray x2) {
    return XpBinary.LOGICAL_OR.apply(x1, x2);
  }

  /**
   * logical_or of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalOr(CubedArray x1, Object x2) {
    return XpBinary.LOGICAL_OR.apply(x1, x2);
  }

  /** logical_or of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalOr(Object x1, CubedArray x2) {
    return XpBinary.LOGICAL_OR.apply(x1, x2);
  }

  /**
   * Elementwise logical_xor with broadcasting (kernel: {@link Elementwise#logicalXor(NDArray,
   * NDArray)}).
   */
  public static CubedArray logicalXor(CubedArray x1, CubedArray x2) {
    return XpBinary.LOGICAL_XOR.apply(x1, x2);
  }

  /**
   * logical_xor of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logicalXor(CubedArray x1, Object x2) {
    return XpBinary.LOGICAL_XOR.apply(x1, x2);
  }

  /** logical_xor of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logicalXor(Object x1, CubedArray x2) {
    return XpBinary.LOGICAL_XOR.apply(x1, x2);
  }

  /**
   * Elementwise not_equal with broadcasting (kernel: {@link Elementwise#notEqual(NDArray,
   * NDArray)}).
   */
  public static CubedArray notEqual(CubedArray x1, CubedArray x2) {
    return XpBinary.NOT_EQUAL.apply(x1, x2);
  }

  /**
   * not_equal of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray notEqual(CubedArray x1, Object x2) {
    return XpBinary.NOT_EQUAL.apply(x1, x2);
  }

  /** not_equal of a scalar and an array (promotion: see the class comment). */
  public static CubedArray notEqual(Object x1, CubedArray x2) {
    return XpBinary.NOT_EQUAL.apply(x1, x2);
  }

  /** Elementwise add with broadcasting (kernel: {@link Elementwise#add(NDArray, NDArray)}). */
  public static CubedArray add(CubedArray x1, CubedArray x2) {
    return XpBinary.ADD.apply(x1, x2);
  }

  /**
   * add of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray add(CubedArray x1, Object x2) {
    return XpBinary.ADD.apply(x1, x2);
  }

  /** add of a scalar and an array (promotion: see the class comment). */
  public static CubedArray add(Object x1, CubedArray x2) {
    return XpBinary.ADD.apply(x1, x2);
  }

  /** Elementwise atan2 with broadcasting (kernel: {@link Elementwise#atan2(NDArray, NDArray)}). */
  public static CubedArray atan2(CubedArray x1, CubedArray x2) {
    return XpBinary.ATAN2.apply(x1, x2);
  }

  /**
   * atan2 of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray atan2(CubedArray x1, Object x2) {
    return XpBinary.ATAN2.apply(x1, x2);
  }

  /** atan2 of a scalar and an array (promotion: see the class comment). */
  public static CubedArray atan2(Object x1, CubedArray x2) {
    return XpBinary.ATAN2.apply(x1, x2);
  }

  /**
   * Elementwise copysign with broadcasting (kernel: {@link Elementwise#copysign(NDArray,
   * NDArray)}).
   */
  public static CubedArray copysign(CubedArray x1, CubedArray x2) {
    return XpBinary.COPYSIGN.apply(x1, x2);
  }

  /**
   * copysign of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray copysign(CubedArray x1, Object x2) {
    return XpBinary.COPYSIGN.apply(x1, x2);
  }

  /** copysign of a scalar and an array (promotion: see the class comment). */
  public static CubedArray copysign(Object x1, CubedArray x2) {
    return XpBinary.COPYSIGN.apply(x1, x2);
  }

  /**
   * Elementwise divide with broadcasting (kernel: {@link Elementwise#divide(NDArray, NDArray)}).
   */
  public static CubedArray divide(CubedArray x1, CubedArray x2) {
    return XpBinary.DIVIDE.apply(x1, x2);
  }

  /**
   * divide of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray divide(CubedArray x1, Object x2) {
    return XpBinary.DIVIDE.apply(x1, x2);
  }

  /** divide of a scalar and an array (promotion: see the class comment). */
  public static CubedArray divide(Object x1, CubedArray x2) {
    return XpBinary.DIVIDE.apply(x1, x2);
  }

  /**
   * Elementwise floor_divide with broadcasting (kernel: {@link Elementwise#floorDivide(NDArray,
   * NDArray)}).
   */
  public static CubedArray floorDivide(CubedArray x1, CubedArray x2) {
    return XpBinary.FLOOR_DIVIDE.apply(x1, x2);
  }

  /**
   * floor_divide of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray floorDivide(CubedArray x1, Object x2) {
    return XpBinary.FLOOR_DIVIDE.apply(x1, x2);
  }

  /** floor_divide of a scalar and an array (promotion: see the class comment). */
  public static CubedArray floorDivide(Object x1, CubedArray x2) {
    return XpBinary.FLOOR_DIVIDE.apply(x1, x2);
  }

  /** Elementwise hypot with broadcasting (kernel: {@link Elementwise#hypot(NDArray, NDArray)}). */
  public static CubedArray hypot(CubedArray x1, CubedArray x2) {
    return XpBinary.HYPOT.apply(x1, x2);
  }

  /**
   * hypot of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray hypot(CubedArray x1, Object x2) {
    return XpBinary.HYPOT.apply(x1, x2);
  }

  /** hypot of a scalar and an array (promotion: see the class comment). */
  public static CubedArray hypot(Object x1, CubedArray x2) {
    return XpBinary.HYPOT.apply(x1, x2);
  }

  /**
   * Elementwise logaddexp with broadcasting (kernel: {@link Elementwise#logaddexp(NDArray,
   * NDArray)}).
   */
  public static CubedArray logaddexp(CubedArray x1, CubedArray x2) {
    return XpBinary.LOGADDEXP.apply(x1, x2);
  }

  /**
   * logaddexp of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray logaddexp(CubedArray x1, Object x2) {
    return XpBinary.LOGADDEXP.apply(x1, x2);
  }

  /** logaddexp of a scalar and an array (promotion: see the class comment). */
  public static CubedArray logaddexp(Object x1, CubedArray x2) {
    return XpBinary.LOGADDEXP.apply(x1, x2);
  }

  /**
   * Elementwise maximum with broadcasting (kernel: {@link Elementwise#maximum(NDArray, NDArray)}).
   */
  public static CubedArray maximum(CubedArray x1, CubedArray x2) {
    return XpBinary.MAXIMUM.apply(x1, x2);
  }

  /**
   * maximum of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray maximum(CubedArray x1, Object x2) {
    return XpBinary.MAXIMUM.apply(x1, x2);
  }

  /** maximum of a scalar and an array (promotion: see the class comment). */
  public static CubedArray maximum(Object x1, CubedArray x2) {
    return XpBinary.MAXIMUM.apply(x1, x2);
  }

  /**
   * Elementwise minimum with broadcasting (kernel: {@link Elementwise#minimum(NDArray, NDArray)}).
   */
  public static CubedArray minimum(CubedArray x1, CubedArray x2) {
    return XpBinary.MINIMUM.apply(x1, x2);
  }

  /**
   * minimum of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray minimum(CubedArray x1, Object x2) {
    return XpBinary.MINIMUM.apply(x1, x2);
  }

  /** minimum of a scalar and an array (promotion: see the class comment). */
  public static CubedArray minimum(Object x1, CubedArray x2) {
    return XpBinary.MINIMUM.apply(x1, x2);
  }

  /**
   * Elementwise multiply with broadcasting (kernel: {@link Elementwise#multiply(NDArray,
   * NDArray)}).
   */
  public static CubedArray multiply(CubedArray x1, CubedArray x2) {
    return XpBinary.MULTIPLY.apply(x1, x2);
  }

  /**
   * multiply of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray multiply(CubedArray x1, Object x2) {
    return XpBinary.MULTIPLY.apply(x1, x2);
  }

  /** multiply of a scalar and an array (promotion: see the class comment). */
  public static CubedArray multiply(Object x1, CubedArray x2) {
    return XpBinary.MULTIPLY.apply(x1, x2);
  }

  /**
   * Elementwise nextafter with broadcasting (kernel: {@link Elementwise#nextafter(NDArray,
   * NDArray)}).
   */
  public static CubedArray nextafter(CubedArray x1, CubedArray x2) {
    return XpBinary.NEXTAFTER.apply(x1, x2);
  }

  /**
   * nextafter of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray nextafter(CubedArray x1, Object x2) {
    return XpBinary.NEXTAFTER.apply(x1, x2);
  }

  /** nextafter of a scalar and an array (promotion: see the class comment). */
  public static CubedArray nextafter(Object x1, CubedArray x2) {
    return XpBinary.NEXTAFTER.apply(x1, x2);
  }

  /** Elementwise pow with broadcasting (kernel: {@link Elementwise#pow(NDArray, NDArray)}). */
  public static CubedArray pow(CubedArray x1, CubedArray x2) {
    return XpBinary.POW.apply(x1, x2);
  }

  /**
   * pow of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray pow(CubedArray x1, Object x2) {
    return XpBinary.POW.apply(x1, x2);
  }

  /** pow of a scalar and an array (promotion: see the class comment). */
  public static CubedArray pow(Object x1, CubedArray x2) {
    return XpBinary.POW.apply(x1, x2);
  }

  /**
   * Elementwise remainder with broadcasting (kernel: {@link Elementwise#remainder(NDArray,
   * NDArray)}).
   */
  public static CubedArray remainder(CubedArray x1, CubedArray x2) {
    return XpBinary.REMAINDER.apply(x1, x2);
  }

  /**
   * remainder of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray remainder(CubedArray x1, Object x2) {
    return XpBinary.REMAINDER.apply(x1, x2);
  }

  /** remainder of a scalar and an array (promotion: see the class comment). */
  public static CubedArray remainder(Object x1, CubedArray x2) {
    return XpBinary.REMAINDER.apply(x1, x2);
  }

  /**
   * Elementwise subtract with broadcasting (kernel: {@link Elementwise#subtract(NDArray,
   * NDArray)}).
   */
  public static CubedArray subtract(CubedArray x1, CubedArray x2) {
    return XpBinary.SUBTRACT.apply(x1, x2);
  }

  /**
   * subtract of an array and a scalar (promotion: see the class comment).
   *
   * @throws IllegalArgumentException if the scalar is not a supported Java scalar, or the kernel
   *     refuses the dtypes (checked when the op is built)
   */
  public static CubedArray subtract(CubedArray x1, Object x2) {
    return XpBinary.SUBTRACT.apply(x1, x2);
  }

  /** subtract of a scalar and an array (promotion: see the class comment). */
  public static CubedArray subtract(Object x1, CubedArray x2) {
    return XpBinary.SUBTRACT.apply(x1, x2);
  }

  // ---------------------------------------------------------------- Statistical: reductions,
  // cumulative sums and products, arg-reductions

  /** Sum over axes (all if none given). */
  public static CubedArray sum(CubedArray x, int... axes) {
    return XpReduce.sum(x, axes);
  }

  /**
   * Sum over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the default
   * splitEvery (see {@link #sum(CubedArray, Axes, int)}).
   */
  public static CubedArray sum(CubedArray x, Axes axes) {
    return sum(x, axes, AUTO_SPLIT);
  }

  /**
   * Sum over axes with keepdims and splitEvery (blocks merged per task per round, 2 or more; {@link
   * #AUTO_SPLIT} for the default).
   */
  public static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.sum(x, axes, splitEvery);
  }

  /** Product over axes (all if none given); complex products keep a complex128 state. */
  public static CubedArray prod(CubedArray x, int... axes) {
    return XpReduce.prod(x, axes);
  }

  /**
   * Product over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the default
   * splitEvery (see {@link #prod(CubedArray, Axes, int)}).
   */
  public static CubedArray prod(CubedArray x, Axes axes) {
    return prod(x, axes, AUTO_SPLIT);
  }

  /**
   * Product over axes with keepdims ({@code Axes.of(0).keepDims()}) and splitEvery (2 or more;
   * {@link #AUTO_SPLIT} for the default).
   */
  public static CubedArray prod(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.prod(x, axes, splitEvery);
  }

  /**
   * Minimum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray min(CubedArray x, int... axes) {
    return XpReduce.min(x, axes);
  }

  /**
   * Minimum over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the default
   * splitEvery (see {@link #min(CubedArray, Axes, int)}).
   */
  public static CubedArray min(CubedArray x, Axes axes) {
    return min(x, axes, AUTO_SPLIT);
  }

  /**
   * Minimum over axes with keepdims and splitEvery (errors as {@link #min(CubedArray, int...)}).
   */
  public static CubedArray min(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.min(x, axes, splitEvery);
  }

  /**
   * Maximum over axes (all if none given).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), or an empty reduced axis
   *     with a non-empty result (no identity; refused when built, as the kernel)
   */
  public static CubedArray max(CubedArray x, int... axes) {
    return XpReduce.max(x, axes);
  }

  /**
   * Maximum over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the default
   * splitEvery (see {@link #max(CubedArray, Axes, int)}).
   */
  public static CubedArray max(CubedArray x, Axes axes) {
    return max(x, axes, AUTO_SPLIT);
  }

  /**
   * Maximum over axes with keepdims and splitEvery (errors as {@link #max(CubedArray, int...)}).
   */
  public static CubedArray max(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.max(x, axes, splitEvery);
  }

  /**
   * Mean over axes (all if none given).
   *
   * @throws IllegalArgumentException for bool (mean is defined for numeric dtypes)
   */
  public static CubedArray mean(CubedArray x, int... axes) {
    return XpReduce.mean(x, axes);
  }

  /**
   * Mean over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the default
   * splitEvery (see {@link #mean(CubedArray, Axes, int)}).
   */
  public static CubedArray mean(CubedArray x, Axes axes) {
    return mean(x, axes, AUTO_SPLIT);
  }

  /**
   * Mean over axes with keepdims and splitEvery (2 or more; {@link #AUTO_SPLIT} for the default).
   */
  public static CubedArray mean(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.mean(x, axes, splitEvery);
  }

  /** Variance (correction 0) over axes (all if none given). */
  public static CubedArray var(CubedArray x, int... axes) {
    return XpReduce.var(x, axes);
  }

  /**
   * Variance (correction 0) over axes, keepdims as {@code axes} says, the default splitEvery (see
   * {@link #var(CubedArray, Axes, int, int)}).
   */
  public static CubedArray var(CubedArray x, Axes axes) {
    return var(x, axes, 0, AUTO_SPLIT);
  }

  /**
   * Variance with a degrees-of-freedom correction over axes, keepdims as {@code axes} says, the
   * default splitEvery.
   */
  public static CubedArray var(CubedArray x, Axes axes, int correction) {
    return var(x, axes, correction, AUTO_SPLIT);
  }

  /**
   * Variance with a degrees-of-freedom correction: sum of squared deviations divided by {@code
   * max(count - correction, 0)} (NaN or infinity when the correction reaches the count).
   *
   * @throws IllegalArgumentException for bool (numeric dtypes only)
   */
  public static CubedArray var(CubedArray x, Axes axes, int correction, int splitEvery) {
    return XpReduce.var(x, axes, correction, splitEvery);
  }

  /** Standard deviation (correction 0) over axes (all if none given). */
  public static CubedArray std(CubedArray x, int... axes) {
    return XpReduce.std(x, axes);
  }

  /**
   * Standard deviation (correction 0) over axes, keepdims as {@code axes} says, the default
   * splitEvery (see {@link #std(CubedArray, Axes, int, int)}).
   */
  public static CubedArray std(CubedArray x, Axes axes) {
    return std(x, axes, 0, AUTO_SPLIT);
  }

  /**
   * Standard deviation with a degrees-of-freedom correction over axes, keepdims as {@code axes}
   * says, the default splitEvery.
   */
  public static CubedArray std(CubedArray x, Axes axes, int correction) {
    return std(x, axes, correction, AUTO_SPLIT);
  }

  /** Standard deviation with a degrees-of-freedom correction. */
  public static CubedArray std(CubedArray x, Axes axes, int correction, int splitEvery) {
    return XpReduce.std(x, axes, correction, splitEvery);
  }

  /** Logical AND over axes (all if none given). */
  public static CubedArray all(CubedArray x, int... axes) {
    return XpReduce.all(x, axes);
  }

  /**
   * Logical AND over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the
   * default splitEvery (see {@link #all(CubedArray, Axes, int)}).
   */
  public static CubedArray all(CubedArray x, Axes axes) {
    return all(x, axes, AUTO_SPLIT);
  }

  /** Logical AND over axes with keepdims and splitEvery. */
  public static CubedArray all(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.all(x, axes, splitEvery);
  }

  /** Logical OR over axes (all if none given). */
  public static CubedArray any(CubedArray x, int... axes) {
    return XpReduce.any(x, axes);
  }

  /**
   * Logical OR over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the
   * default splitEvery (see {@link #any(CubedArray, Axes, int)}).
   */
  public static CubedArray any(CubedArray x, Axes axes) {
    return any(x, axes, AUTO_SPLIT);
  }

  /** Logical OR over axes with keepdims and splitEvery. */
  public static CubedArray any(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.any(x, axes, splitEvery);
  }

  /**
   * Inclusive cumulative sum along an axis (every dtype; integers and bool accumulate in int64,
   * uint64 for unsigned), by block scans with the block totals scanned recursively.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeSum(CubedArray x, int axis) {
    return XpReduce.cumulativeSum(x, axis);
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
    return XpReduce.cumulativeSum(x, axis, dtype);
  }

  /**
   * Inclusive cumulative product along an axis (every dtype; integers and bool accumulate in int64,
   * uint64 for unsigned), by block scans with the block totals scanned recursively.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeProd(CubedArray x, int axis) {
    return XpReduce.cumulativeProd(x, axis);
  }

  /**
   * {@code cumulative_prod(x, axis=axis, dtype=dtype)}: the products accumulate in {@code dtype}
   * (as {@link #cumulativeSum(CubedArray, int, DType)}); a null dtype is the default form.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray cumulativeProd(CubedArray x, int axis, DType dtype) {
    return XpReduce.cumulativeProd(x, axis, dtype);
  }

  /**
   * Index of the maximum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty axis
   *     ("attempt to get argmax of an empty sequence", refused when built)
   */
  public static CubedArray argmax(CubedArray x, int axis) {
    return XpReduce.argmax(x, axis);
  }

  /**
   * {@code argmax(x, axis=..., keepdims=...)}: {@code Axes.of(axis)} (one axis) or {@link
   * Axes#all()} (the flattened array, as {@link #argmax(CubedArray)}), with {@link Axes#keepDims()}
   * keeping the reduced axes with length 1.
   *
   * @throws IllegalArgumentException for more than one axis, and as the one-axis form
   */
  public static CubedArray argmax(CubedArray x, Axes axes) {
    return XpReduce.argmax(x, axes);
  }

  /**
   * Index of the minimum along one axis (first occurrence; the first NaN wins, like NumPy); exact
   * for every real dtype (int64/uint64 compared as integers).
   *
   * @throws IllegalArgumentException for complex dtypes (not ordered), a bad axis, or an empty axis
   *     (refused when built)
   */
  public static CubedArray argmin(CubedArray x, int axis) {
    return XpReduce.argmin(x, axis);
  }

  /** {@code argmin(x, axis=..., keepdims=...)}: as {@link #argmax(CubedArray, Axes)}. */
  public static CubedArray argmin(CubedArray x, Axes axes) {
    return XpReduce.argmin(x, axes);
  }

  /**
   * Index of the maximum of the flattened array (C order; first occurrence, the first NaN wins), as
   * int64 0-d. Memory: the array is reshaped to 1-D (rechunked to contiguous blocks when its blocks
   * are not, bounded), then a tree reduction keeping (value, index) per block.
   *
   * @throws IllegalArgumentException for complex dtypes or an empty array (refused when built)
   */
  public static CubedArray argmax(CubedArray x) {
    return XpReduce.argmax(x);
  }

  /**
   * Index of the minimum of the flattened array (C order; first occurrence, the first NaN wins), as
   * int64 0-d. Memory as {@link #argmax(CubedArray)}.
   *
   * @throws IllegalArgumentException for complex dtypes or an empty array (refused when built)
   */
  public static CubedArray argmin(CubedArray x) {
    return XpReduce.argmin(x);
  }

  // ---------------------------------------------------------------- Statistical: NaN-skipping
  // (NumPy's nan* functions)

  /** Sum over axes (all if none given) with NaN counted as 0; a slice of NaNs only sums to 0. */
  public static CubedArray nansum(CubedArray x, int... axes) {
    return XpNan.nansum(x, axes);
  }

  /**
   * Sum ignoring NaN over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the
   * default splitEvery (see {@link #nansum(CubedArray, Axes, int)}).
   */
  public static CubedArray nansum(CubedArray x, Axes axes) {
    return nansum(x, axes, AUTO_SPLIT);
  }

  /** {@link #nansum(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nansum(CubedArray x, Axes axes, int splitEvery) {
    return XpNan.nansum(x, axes, splitEvery);
  }

  /**
   * The number of non-NaN elements over axes (xarray's {@code count}), int64, keepdims as {@code
   * axes} says, the default splitEvery; one pass over each block. Complex elements count when
   * neither part is NaN; every element of an integer or bool array counts.
   */
  public static CubedArray nancount(CubedArray x, Axes axes) {
    return XpNan.nancount(x, axes, AUTO_SPLIT);
  }

  /** {@link #nancount(CubedArray, Axes)} over axes (all if none given), dropped. */
  public static CubedArray nancount(CubedArray x, int... axes) {
    return XpNan.nancount(x, axes.length == 0 ? Axes.all() : Axes.of(axes), AUTO_SPLIT);
  }

  /** Product over axes (all if none given) with NaN counted as 1; NaNs only give 1. */
  public static CubedArray nanprod(CubedArray x, int... axes) {
    return XpNan.nanprod(x, axes);
  }

  /**
   * Product ignoring NaN over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}),
   * the default splitEvery (see {@link #nanprod(CubedArray, Axes, int)}).
   */
  public static CubedArray nanprod(CubedArray x, Axes axes) {
    return nanprod(x, axes, AUTO_SPLIT);
  }

  /** {@link #nanprod(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanprod(CubedArray x, Axes axes, int splitEvery) {
    return XpNan.nanprod(x, axes, splitEvery);
  }

  /**
   * Inclusive cumulative sum along an axis with NaN counted as 0 (NumPy's nancumsum; the plain
   * {@link Xp#cumulativeSum} for integer and bool inputs).
   */
  public static CubedArray nancumsum(CubedArray x, int axis) {
    return XpNan.nancumsum(x, axis);
  }

  /** Inclusive cumulative product along an axis with NaN counted as 1 (NumPy's nancumprod). */
  public static CubedArray nancumprod(CubedArray x, int axis) {
    return XpNan.nancumprod(x, axis);
  }

  /**
   * Mean of the non-NaN elements over axes (all if none given): (count, total) states; NaN for a
   * slice of NaNs only.
   *
   * @throws IllegalArgumentException for bool (as mean)
   */
  public static CubedArray nanmean(CubedArray x, int... axes) {
    return XpNan.nanmean(x, axes);
  }

  /**
   * Mean ignoring NaN over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}), the
   * default splitEvery (see {@link #nanmean(CubedArray, Axes, int)}).
   */
  public static CubedArray nanmean(CubedArray x, Axes axes) {
    return nanmean(x, axes, AUTO_SPLIT);
  }

  /** {@link #nanmean(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmean(CubedArray x, Axes axes, int splitEvery) {
    return XpNan.nanmean(x, axes, splitEvery);
  }

  /** Variance (correction 0) of the non-NaN elements over axes (all if none given). */
  public static CubedArray nanvar(CubedArray x, int... axes) {
    return XpNan.nanvar(x, axes);
  }

  /**
   * Variance ignoring NaN (correction 0) over axes, keepdims as {@code axes} says, the default
   * splitEvery (see {@link #nanvar(CubedArray, Axes, int, int)}).
   */
  public static CubedArray nanvar(CubedArray x, Axes axes) {
    return nanvar(x, axes, 0, AUTO_SPLIT);
  }

  /**
   * Variance ignoring NaN with a degrees-of-freedom correction over axes, keepdims as {@code axes}
   * says, the default splitEvery.
   */
  public static CubedArray nanvar(CubedArray x, Axes axes, int correction) {
    return nanvar(x, axes, correction, AUTO_SPLIT);
  }

  /**
   * Variance of the non-NaN elements: their squared deviations summed, divided by {@code count -
   * correction}; NaN when that is 0 or less (NumPy's nanvar with ddof). Complex: the sum of the
   * parts' variances (real).
   *
   * @throws IllegalArgumentException for bool (as var)
   */
  public static CubedArray nanvar(CubedArray x, Axes axes, int correction, int splitEvery) {
    return XpNan.nanvar(x, axes, correction, splitEvery);
  }

  /** Standard deviation (correction 0) of the non-NaN elements over axes (all if none given). */
  public static CubedArray nanstd(CubedArray x, int... axes) {
    return XpNan.nanstd(x, axes);
  }

  /**
   * Standard deviation ignoring NaN (correction 0) over axes, keepdims as {@code axes} says, the
   * default splitEvery (see {@link #nanstd(CubedArray, Axes, int, int)}).
   */
  public static CubedArray nanstd(CubedArray x, Axes axes) {
    return nanstd(x, axes, 0, AUTO_SPLIT);
  }

  /**
   * Standard deviation ignoring NaN with a degrees-of-freedom correction over axes, keepdims as
   * {@code axes} says, the default splitEvery.
   */
  public static CubedArray nanstd(CubedArray x, Axes axes, int correction) {
    return nanstd(x, axes, correction, AUTO_SPLIT);
  }

  /** The square root of {@link #nanvar(CubedArray, Axes, int, int)}. */
  public static CubedArray nanstd(CubedArray x, Axes axes, int correction, int splitEvery) {
    return XpNan.nanstd(x, axes, correction, splitEvery);
  }

  /**
   * Minimum of the non-NaN elements over axes (all if none given); NaN for a slice of NaNs only.
   *
   * @throws IllegalArgumentException for complex dtypes, or an empty reduced axis with a non-empty
   *     result (as min)
   */
  public static CubedArray nanmin(CubedArray x, int... axes) {
    return XpNan.nanmin(x, axes);
  }

  /**
   * Minimum ignoring NaN over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}),
   * the default splitEvery (see {@link #nanmin(CubedArray, Axes, int)}).
   */
  public static CubedArray nanmin(CubedArray x, Axes axes) {
    return nanmin(x, axes, AUTO_SPLIT);
  }

  /** {@link #nanmin(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmin(CubedArray x, Axes axes, int splitEvery) {
    return XpNan.nanmin(x, axes, splitEvery);
  }

  /**
   * Maximum of the non-NaN elements over axes (all if none given); NaN for a slice of NaNs only.
   *
   * @throws IllegalArgumentException as {@link #nanmin(CubedArray, int...)}
   */
  public static CubedArray nanmax(CubedArray x, int... axes) {
    return XpNan.nanmax(x, axes);
  }

  /**
   * Maximum ignoring NaN over axes, keepdims as {@code axes} says ({@code Axes.of(0).keepDims()}),
   * the default splitEvery (see {@link #nanmax(CubedArray, Axes, int)}).
   */
  public static CubedArray nanmax(CubedArray x, Axes axes) {
    return nanmax(x, axes, AUTO_SPLIT);
  }

  /** {@link #nanmax(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmax(CubedArray x, Axes axes, int splitEvery) {
    return XpNan.nanmax(x, axes, splitEvery);
  }

  /**
   * Index of the largest non-NaN element along one axis (first occurrence), int64. A slice of NaNs
   * only fails the compute (IllegalArgumentException "nanargmax: All-NaN slice encountered").
   *
   * @throws IllegalArgumentException for complex dtypes, a bad axis or an empty axis (when built)
   */
  public static CubedArray nanargmax(CubedArray x, int axis) {
    return XpNan.nanargmax(x, axis);
  }

  /** {@link #nanargmax(CubedArray, int)} with keepdims ({@code Axes.of(axis).keepDims()}). */
  public static CubedArray nanargmax(CubedArray x, Axes axis, int splitEvery) {
    return XpNan.nanargmax(x, axis, splitEvery);
  }

  /** {@link #nanargmax(CubedArray, int)} of the flattened array (C order), int64 0-d. */
  public static CubedArray nanargmax(CubedArray x) {
    return XpNan.nanargmax(x);
  }

  /**
   * Index of the smallest non-NaN element along one axis (first occurrence), int64. A slice of NaNs
   * only fails the compute (IllegalArgumentException "nanargmin: All-NaN slice encountered").
   *
   * @throws IllegalArgumentException as {@link #nanargmax(CubedArray, int)}
   */
  public static CubedArray nanargmin(CubedArray x, int axis) {
    return XpNan.nanargmin(x, axis);
  }

  /** {@link #nanargmin(CubedArray, int)} with keepdims ({@code Axes.of(axis).keepDims()}). */
  public static CubedArray nanargmin(CubedArray x, Axes axis, int splitEvery) {
    return XpNan.nanargmin(x, axis, splitEvery);
  }

  /** {@link #nanargmin(CubedArray, int)} of the flattened array (C order), int64 0-d. */
  public static CubedArray nanargmin(CubedArray x) {
    return XpNan.nanargmin(x);
  }

  // ---------------------------------------------------------------- Statistical: quantiles

  /**
   * The q-th quantiles of x over the axes (all for none), NumPy's default "linear" method: for a
   * lane of n sorted values v, position {@code (n - 1) * q} interpolated between its neighbours.
   * The result has one leading axis per q ({@code q.length}), then x's other axes; its dtype is x's
   * for floating x, float64 for integer and bool x. A lane holding NaN gives NaN.
   *
   * @throws IllegalArgumentException for a q outside [0, 1], no q, a complex x, or repeated or
   *     out-of-range axes
   */
  public static CubedArray quantile(CubedArray x, double[] q, int... axes) {
    return XpQuantile.quantile(x, q, axes);
  }

  /**
   * {@link #quantile} skipping NaN: each lane's quantiles among its non-NaN values (n their count);
   * a lane of NaN only gives NaN (NumPy warns there).
   */
  public static CubedArray nanquantile(CubedArray x, double[] q, int... axes) {
    return XpQuantile.nanquantile(x, q, axes);
  }

  /** {@link #quantile(CubedArray, double[], int...)} with the quantiles in a 0-d or 1-D array. */
  public static CubedArray quantile(CubedArray x, NDArray q, int... axes) {
    return XpQuantile.quantile(x, q, axes);
  }

  /** {@link #nanquantile(CubedArray, double[], int...)} with the quantiles in an array. */
  public static CubedArray nanquantile(CubedArray x, NDArray q, int... axes) {
    return XpQuantile.nanquantile(x, q, axes);
  }

  // ---------------------------------------------------------------- Manipulation, basic indexing,
  // matmul and tensordot, *_like

  /** {@code flip(x)}: reverses every axis (see {@link #flip(CubedArray, int...)}). */
  public static CubedArray flip(CubedArray x) {
    return XpManip.flip(x);
  }

  /**
   * {@code flip(x, axis=axes)}: reverses the given axes. Memory: one input block per task (block k
   * of a flipped axis reads block n-1-k); a partial edge block becomes the first block, so the
   * result's chunks are the input's, reversed along the flipped axes (irregular when the last block
   * was partial).
   *
   * @throws IllegalArgumentException if an axis is out of range or repeated (when built)
   */
  public static CubedArray flip(CubedArray x, int... axes) {
    return XpManip.flip(x, axes);
  }

  /**
   * {@code roll(x, shift, axis)}: shifts elements along one axis, wrapping around. Built as the
   * concatenation of two slices (each task reads one input block); the result's chunks are
   * irregular where the cut falls inside a block.
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static CubedArray roll(CubedArray x, long shift, int axis) {
    return XpManip.roll(x, shift, axis);
  }

  /**
   * {@code roll(x, shift, axis=axes)}: shifts pair with axes, a single shift or axis broadcasting
   * against the other (as NumPy); shifts of a repeated axis add up. Memory as {@link
   * #roll(CubedArray, long, int)}, one concatenation per rolled axis.
   *
   * @throws IllegalArgumentException for tuples of different lengths or axes out of range
   */
  public static CubedArray roll(CubedArray x, long[] shift, int[] axes) {
    return XpManip.roll(x, shift, axes);
  }

  /**
   * {@code roll(x, shift)} with {@code axis=None}: rolls the flattened array (C order) and restores
   * the shape. Memory: reshapes to 1-D and back (rechunked to contiguous blocks where needed)
   * around the one-axis roll.
   */
  public static CubedArray roll(CubedArray x, long shift) {
    return XpManip.roll(x, shift);
  }

  /** {@code moveaxis(x, source, destination)} for one axis (see the array form). */
  public static CubedArray moveaxis(CubedArray x, int source, int destination) {
    return XpManip.moveaxis(x, source, destination);
  }

  /**
   * {@code moveaxis(x, source, destination)}: moves the source axes to the destination positions,
   * the others keeping their order. A {@code permute_dims} (blocks move, one per task).
   *
   * @throws IllegalArgumentException for lists of different lengths, axes out of range or repeated
   */
  public static CubedArray moveaxis(CubedArray x, int[] source, int[] destination) {
    return XpManip.moveaxis(x, source, destination);
  }

  /**
   * {@code matrix_transpose(x)}: swaps the last two axes (a {@code permute_dims}; one block per
   * task).
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static CubedArray matrixTranspose(CubedArray x) {
    return XpManip.matrixTranspose(x);
  }

  /**
   * {@code vecdot(x1, x2)} over the last axis (see {@link #vecdot(CubedArray, CubedArray, int)}).
   */
  public static CubedArray vecdot(CubedArray x1, CubedArray x2) {
    return XpManip.vecdot(x1, x2);
  }

  /**
   * {@code vecdot(x1, x2, axis)}: {@code sum(conj(x1) * x2, axis)} with broadcasting over the other
   * axes; {@code axis} (negative, counted from the end as the standard requires for the contracted
   * axis; non-negative values count in the broadcast shape) must have the same size in both. The
   * result has the promoted dtype. Memory: a blockwise product (one block of each input per task),
   * then the sum's tree reduction over the axis.
   *
   * @throws IllegalArgumentException for bool or 0-d operands, shapes that do not broadcast, an
   *     out-of-range axis or different sizes along it (when built)
   */
  public static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
    return XpManip.vecdot(x1, x2, axis);
  }

  /** {@code zeros_like(x)}: x's shape, chunks and dtype (virtual: no storage, no reads of x). */
  public static CubedArray zerosLike(CubedArray x) {
    return XpManip.zerosLike(x);
  }

  /** {@code zeros_like(x, dtype)} (virtual). */
  public static CubedArray zerosLike(CubedArray x, DType dtype) {
    return XpManip.zerosLike(x, dtype);
  }

  /** {@code ones_like(x)}: x's shape, chunks and dtype (virtual). */
  public static CubedArray onesLike(CubedArray x) {
    return XpManip.onesLike(x);
  }

  /** {@code ones_like(x, dtype)} (virtual). */
  public static CubedArray onesLike(CubedArray x, DType dtype) {
    return XpManip.onesLike(x, dtype);
  }

  /**
   * {@code empty_like(x)}: x's shape, chunks and dtype; contents unspecified by the standard, here
   * zeros (virtual, one block generated per task).
   */
  public static CubedArray emptyLike(CubedArray x) {
    return XpManip.emptyLike(x);
  }

  /** {@code empty_like(x, dtype)} (zeros; virtual). */
  public static CubedArray emptyLike(CubedArray x, DType dtype) {
    return XpManip.emptyLike(x, dtype);
  }

  /** {@code full_like(x, fill_value)} in x's dtype (virtual). */
  public static CubedArray fullLike(CubedArray x, Object fillValue) {
    return XpManip.fullLike(x, fillValue);
  }

  /**
   * {@code full_like(x, fill_value, dtype)}: x's shape and chunks (also irregular ones), every
   * element {@code fillValue}. Virtual: blocks are generated where they are read, nothing of x is
   * read or stored.
   *
   * @throws IllegalArgumentException if the value does not fit the dtype (as the kernel's full)
   */
  public static CubedArray fullLike(CubedArray x, Object fillValue, DType dtype) {
    return XpManip.fullLike(x, fillValue, dtype);
  }

  /**
   * {@code empty(shape, dtype)}: contents unspecified by the standard, here zeros (virtual, as
   * {@link Xp#zeros}).
   */
  public static CubedArray empty(long[] shape, DType dtype, long[] chunks, Spec spec) {
    return XpManip.empty(shape, dtype, chunks, spec);
  }

  /** Permutes the axes. */
  public static CubedArray permuteDims(CubedArray x, int... axes) {
    return XpManip.permuteDims(x, axes);
  }

  /**
   * Inserts a size-1 axis at {@code axis} (an axis of the result: {@code -(ndim + 1) <= axis <=
   * ndim}).
   *
   * @throws IndexOutOfBoundsException if the axis is out of that range (the standard's IndexError)
   */
  public static CubedArray expandDims(CubedArray x, int axis) {
    return XpManip.expandDims(x, axis);
  }

  /** Removes the given size-1 axes. */
  public static CubedArray squeeze(CubedArray x, int... axes) {
    return XpManip.squeeze(x, axes);
  }

  /** Broadcasts to a shape. */
  public static CubedArray broadcastTo(CubedArray x, long... shape) {
    return XpManip.broadcastTo(x, shape);
  }

  /** Joins arrays along an existing axis; mixed dtypes promote (the standard's rules). */
  public static CubedArray concat(List<CubedArray> xs, int axis) {
    return XpManip.concat(xs, axis);
  }

  /** Joins arrays of equal shape along a new axis; mixed dtypes promote. */
  public static CubedArray stack(List<CubedArray> xs, int axis) {
    return XpManip.stack(xs, axis);
  }

  /**
   * Reshape in C order (one size may be -1); the input is rechunked to contiguous blocks when
   * needed.
   *
   * @throws IllegalArgumentException if the sizes differ, or -1 cannot be inferred (next to a 0, or
   *     not dividing the size), as the kernel
   */
  public static CubedArray reshape(CubedArray x, long... shape) {
    return XpManip.reshape(x, shape);
  }

  /** Basic indexing: integers, slices (any step), newaxis, ellipsis. */
  public static CubedArray getItem(CubedArray x, Index... index) {
    return XpManip.getItem(x, index);
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
    return XpManip.matmul(a, b);
  }

  /**
   * {@link #matmul(CubedArray, CubedArray)} summing {@code splitEvery} block products per task.
   *
   * @throws IllegalArgumentException also if splitEvery is below 2
   */
  public static CubedArray matmul(CubedArray a, CubedArray b, int splitEvery) {
    return XpManip.matmul(a, b, splitEvery);
  }

  /**
   * Tensor contraction over the paired axes (result axes: a's free axes, then b's), with the
   * automatic first-round group of {@link #matmul(CubedArray, CubedArray)}.
   *
   * @throws IllegalArgumentException if the axes are invalid, paired sizes differ or a dtype is
   *     bool
   */
  public static CubedArray tensordot(CubedArray a, CubedArray b, int[] axesA, int[] axesB) {
    return XpManip.tensordot(a, b, axesA, axesB);
  }

  /**
   * {@link #tensordot(CubedArray, CubedArray, int[], int[])} summing {@code splitEvery} block
   * products per task.
   *
   * @throws IllegalArgumentException also if splitEvery is below 2
   */
  public static CubedArray tensordot(
      CubedArray a, CubedArray b, int[] axesA, int[] axesB, int splitEvery) {
    return XpManip.tensordot(a, b, axesA, axesB, splitEvery);
  }

  // ---------------------------------------------------------------- Shape building: tile, repeat,
  // meshgrid, tril/triu, diff, unstack

  /**
   * {@code tile(x, repetitions)}: NumPy's rule for the lengths (shorter repetitions are padded with
   * leading 1s; more repetitions than axes add leading axes to x). Memory: each output block is an
   * input block, read as it is (one per task); the chunks repeat the input's.
   *
   * @throws IllegalArgumentException for a negative repetition
   */
  public static CubedArray tile(CubedArray x, long... repetitions) {
    return XpShape.tile(x, repetitions);
  }

  /**
   * {@code repeat(x, repeats, axis)} with one count for every element. Memory: output block k is
   * input block k with each element repeated, so it is {@code repeats} times larger: the memory
   * check refuses when that does not fit (rechunk x smaller along the axis first).
   *
   * @throws IllegalArgumentException for a negative count or a bad axis
   */
  public static CubedArray repeat(CubedArray x, long repeats, int axis) {
    return XpShape.repeat(x, repeats, axis);
  }

  /**
   * {@code repeat(x, repeats, axis)} with one count per element of the axis (an in-memory list; a
   * 1-element list applies to all). Memory as {@link #repeat(CubedArray, long, int)}: output block
   * k holds input block k's repeats (blocks repeated 0 times are dropped).
   *
   * @throws IllegalArgumentException for a negative count, a length mismatch or a bad axis
   */
  public static CubedArray repeat(CubedArray x, long[] repeats, int axis) {
    return XpShape.repeat(x, repeats, axis);
  }

  /**
   * {@code repeat(x, repeats)} with {@code axis=None}: repeats the elements of the flattened array
   * (C order). Memory: reshape to 1-D (rechunked to contiguous blocks where needed), then as the
   * axis form.
   */
  public static CubedArray repeat(CubedArray x, long repeats) {
    return XpShape.repeat(x, repeats);
  }

  /**
   * {@code meshgrid(*arrays, indexing)}: coordinate arrays from 1-D arrays (each keeps its dtype);
   * {@code XY} swaps the first two output axes (with at least two inputs). Each output is its input
   * with size-1 axes added, broadcast (no data is copied until the output is computed; one input
   * block per task).
   *
   * @throws IllegalArgumentException if an input is not 1-D
   */
  public static List<CubedArray> meshgrid(Creation.MeshIndexing indexing, CubedArray... arrays) {
    return XpShape.meshgrid(indexing, arrays);
  }

  /**
   * {@code tril(x, k)}: zeros above diagonal k of each matrix in the last two axes. Memory: one
   * block per task, same chunks (each block knows its offset).
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions
   */
  public static CubedArray tril(CubedArray x, long k) {
    return XpShape.tril(x, k);
  }

  /** {@code triu(x, k)}: zeros below diagonal k (see {@link #tril(CubedArray, long)}). */
  public static CubedArray triu(CubedArray x, long k) {
    return XpShape.triu(x, k);
  }

  /** {@code diff(x)}: first difference along the last axis. */
  public static CubedArray diff(CubedArray x) {
    return XpShape.diff(x);
  }

  /**
   * {@code diff(x, n, axis, prepend, append)}: the n-th discrete difference {@code x[i+1] - x[i]}
   * along the axis (bool: {@code !=}, as NumPy), after concatenating prepend and append (either may
   * be null). Built from slices and a subtraction of the two overlapping views; memory: one block
   * of each view per task (the views' chunks are unified, irregular where needed).
   *
   * @throws IllegalArgumentException for a 0-d x, n below 0 or a bad axis
   */
  public static CubedArray diff(
      CubedArray x, int n, int axis, CubedArray prepend, CubedArray append) {
    return XpShape.diff(x, n, axis, prepend, append);
  }

  /**
   * {@code unstack(x, axis)}: the slices of x along the axis, as a list (each a basic-indexing
   * view: one input block per task, no data copied until computed).
   *
   * @throws IllegalArgumentException for a 0-d x or an axis out of range
   */
  public static List<CubedArray> unstack(CubedArray x, int axis) {
    return XpShape.unstack(x, axis);
  }

  /**
   * {@code broadcast_arrays(*arrays)}: each array broadcast to the common shape (lazy views; one
   * input block per task when computed).
   *
   * @throws IllegalArgumentException if the shapes do not broadcast
   */
  public static List<CubedArray> broadcastArrays(CubedArray... arrays) {
    return XpShape.broadcastArrays(arrays);
  }

  // ---------------------------------------------------------------- Searching, selection, take,
  // data types, info()

  /**
   * Number of non-zero elements over the axes (all if none given), int64 as the kernel. NaN counts
   * as non-zero. Memory: a blockwise truth test, then the sum's tree reduction.
   */
  public static CubedArray countNonzero(CubedArray x, int... axes) {
    return XpSearch.countNonzero(x, axes);
  }

  /** {@code count_nonzero} with keepdims (see {@link #countNonzero(CubedArray, int...)}). */
  public static CubedArray countNonzero(CubedArray x, Axes axes) {
    return XpSearch.countNonzero(x, axes);
  }

  /**
   * {@code where(condition, x1, x2)}: x1 where condition is true, else x2; all three broadcast, the
   * result has the promoted dtype of x1 and x2. Memory: one block of each input per task.
   *
   * @throws IllegalArgumentException if condition is not bool or shapes do not broadcast (kernel's
   *     checks, when built)
   */
  public static CubedArray where(CubedArray condition, CubedArray x1, CubedArray x2) {
    return XpSearch.where(condition, x1, x2);
  }

  /**
   * {@code where} with a scalar for x2; the scalar takes x1's dtype by the scalar rules of {@link
   * Xp} (NumPy 2's where the standard leaves mixed kinds open).
   */
  public static CubedArray where(CubedArray condition, CubedArray x1, Object x2) {
    return XpSearch.where(condition, x1, x2);
  }

  /** {@code where} with a scalar for x1 (see {@link #where(CubedArray, CubedArray, Object)}). */
  public static CubedArray where(CubedArray condition, Object x1, CubedArray x2) {
    return XpSearch.where(condition, x1, x2);
  }

  /**
   * {@code clip(x, min, max)}: each bound is a {@link CubedArray} (broadcast with x), a Java scalar
   * (taking x's dtype) or null (no bound); the result has x's dtype and the broadcast shape. NaN in
   * x or a bound gives NaN. Real numeric dtypes. Memory: one block of x and of each array bound per
   * task.
   *
   * @throws IllegalArgumentException for complex or bool x, a bad scalar, or bounds whose shapes do
   *     not broadcast (when built)
   */
  public static CubedArray clip(CubedArray x, Object min, Object max) {
    return XpSearch.clip(x, min, max);
  }

  /**
   * {@code isin(x1, x2)}: whether each element of x1 equals some element of x2 (any shape; values
   * compare as numbers across dtypes, NaN equals nothing). x2 is the test set: every task reads one
   * block of x1 and all of x2 (the memory check counts x2 whole, plus a flattened copy), so x2 must
   * be small.
   */
  public static CubedArray isin(CubedArray x1, CubedArray x2) {
    return XpSearch.isin(x1, x2);
  }

  /** {@code isin(x1, x2, invert)}: with {@code invert}, whether each element is not in x2. */
  public static CubedArray isin(CubedArray x1, CubedArray x2, boolean invert) {
    return XpSearch.isin(x1, x2, invert);
  }

  /**
   * {@code isin(x1, x2)} with a scalar x1 ({@link Boolean}, an integer type, {@link Float}, {@link
   * Double} or {@link dev.cubed.nd.Complex}): a 0-d bool array, whether x1 equals some element of
   * x2 (compared as numbers, as the array form).
   *
   * @throws IllegalArgumentException if x1 is not such a scalar (when built)
   */
  public static CubedArray isin(Object x1, CubedArray x2) {
    return XpSearch.isin(x1, x2);
  }

  /** {@code isin(x1, x2, invert)} with a scalar x1 (see {@link #isin(Object, CubedArray)}). */
  public static CubedArray isin(Object x1, CubedArray x2, boolean invert) {
    return XpSearch.isin(x1, x2, invert);
  }

  /**
   * {@code isin(x1, x2)} with a scalar x2: whether each element of x1 equals x2 (compared as
   * numbers; NaN equals nothing), bool with x1's shape.
   *
   * @throws IllegalArgumentException if x2 is not a supported scalar (when built)
   */
  public static CubedArray isin(CubedArray x1, Object x2) {
    return XpSearch.isin(x1, x2);
  }

  /** {@code isin(x1, x2, invert)} with a scalar x2 (see {@link #isin(CubedArray, Object)}). */
  public static CubedArray isin(CubedArray x1, Object x2, boolean invert) {
    return XpSearch.isin(x1, x2, invert);
  }

  /**
   * {@code take(x, indices, axis)}: elements along the axis at integer indices held in memory (any
   * shape; negative ones count from the end); the result's shape is {@code x.shape[:axis] +
   * indices.shape + x.shape[axis+1:]}. Memory: output blocks have x's largest block size along the
   * axis; each reads, one at a time, only the input blocks its indices fall in (see {@link
   * dev.cubed.core.Take#take}); indices of other than one dimension go through a reshape.
   *
   * @throws IllegalArgumentException for a non-integer index dtype, an axis out of range or an
   *     index outside {@code [-n, n)} (when built)
   */
  public static CubedArray take(CubedArray x, NDArray indices, int axis) {
    return XpSearch.take(x, indices, axis);
  }

  /**
   * {@code take_along_axis(x, indices, axis)} with the indices in memory (x's number of dimensions,
   * the others broadcasting against x's). Memory: x is rechunked to one block along the axis (the
   * memory check refuses, before running, when a whole axis of x's blocks does not fit a task),
   * then each task reads one block of x and its part of the indices (the in-memory indices are
   * counted in each task).
   *
   * @throws IllegalArgumentException as the kernel (dimension mismatch, non-integer indices, shapes
   *     that do not broadcast, an index out of range), when built
   */
  public static CubedArray takeAlongAxis(CubedArray x, NDArray indices, int axis) {
    return XpSearch.takeAlongAxis(x, indices, axis);
  }

  /**
   * {@code take(x, indices)} for a 1-D x (the standard allows omitting the axis then).
   *
   * @throws IllegalArgumentException if x is not 1-D, or as the axis form
   */
  public static CubedArray take(CubedArray x, NDArray indices) {
    return XpSearch.take(x, indices);
  }

  /** {@code searchsorted(x1, x2)} with side LEFT (see the side form). */
  public static CubedArray searchsorted(CubedArray x1, CubedArray x2) {
    return XpSearch.searchsorted(x1, x2);
  }

  /**
   * {@code searchsorted(x1, x2, side)}: for each element of x2 the insertion index into the sorted
   * 1-D x1 (NaN sorts last), int64 with x2's shape and chunks. Memory: each task reads one block of
   * x2 and all of x1 (the memory check counts x1 whole: it must fit one task; x2 may be any size).
   * x1 is not checked for being sorted (as the standard: the result is unspecified otherwise).
   *
   * @throws IllegalArgumentException if x1 is not 1-D or a dtype is complex (when built)
   */
  public static CubedArray searchsorted(CubedArray x1, CubedArray x2, Searching.Side side) {
    return XpSearch.searchsorted(x1, x2, side);
  }

  /**
   * {@code searchsorted(x1, x2, side=side, sorter=sorter)}: as the side form on {@code take(x1,
   * sorter)}, for an unsorted 1-D x1 and integer indices that sort it ascending (as {@code
   * argsort(x1)} gives; negative ones count from the end). Memory: one task gathers x1 by the
   * sorter, both whole (they must fit a task, as x1 must for the side form); then as the side form.
   * A null sorter is the side form.
   *
   * @throws IllegalArgumentException if the sorter is not 1-D, not integer or not of x1's length,
   *     or as the side form (when built); an index out of range fails the compute
   */
  public static CubedArray searchsorted(
      CubedArray x1, CubedArray x2, Searching.Side side, CubedArray sorter) {
    return XpSearch.searchsorted(x1, x2, side, sorter);
  }

  /**
   * {@code nonzero(x)}: the coordinates of the non-zero (true) elements, one int64 array per
   * dimension, in C order. Data-dependent: this call runs a counting pass at once (on x's spec: x
   * is reshaped to 1-D blocks contiguous in C order and each block's non-zeros are counted, one
   * block per task, a tiny result); the returned arrays are lazy, chunked irregularly by those
   * counts (blocks with none dropped), output block j reading one block of the flattened x. x is
   * computed again when they are.
   *
   * @throws IllegalArgumentException for a 0-d x (as the standard)
   */
  public static List<CubedArray> nonzero(CubedArray x) {
    return XpSearch.nonzero(x);
  }

  /**
   * {@code x[mask]} for a bool mask of x's shape: the selected elements in C order, 1-D. A mask
   * over x's leading dimensions ({@code mask.shape == x.shape[:k]}, k at least 1) selects whole
   * sub-arrays: shape {@code (count,) + x.shape[k:]} (x reshaped to rows, output block (j, m)
   * reading one block of x and one of the mask). Data-dependent: this call runs the counting pass
   * over the mask at once (as {@link #nonzero}); the result is lazy, chunked irregularly by the
   * counts, output block j reading one block of the flattened x and mask (the mask is rechunked to
   * x's flat blocks when they differ).
   *
   * <p>A 0-d mask (the standard's zero-dimensional boolean index) adds a leading axis: {@code
   * x[true]} has shape {@code (1,) + x.shape}, {@code x[false]} {@code (0,) + x.shape}; its value
   * is computed at once (on the mask's spec), the result stays lazy.
   *
   * @throws IllegalArgumentException if the mask is not bool
   * @throws IndexOutOfBoundsException if the mask's shape is neither x's nor a prefix of it (the
   *     standard's IndexError; the Python bridge raises it as one)
   */
  public static CubedArray getMask(CubedArray x, CubedArray mask) {
    return XpSearch.getMask(x, mask);
  }

  /**
   * {@code result_type(*arrays_and_dtypes)}: {@link CubedArray}s count by their dtype; dtypes,
   * in-memory arrays and Java scalars as {@link DataTypes#resultType(Object...)}. Nothing is
   * computed.
   *
   * @throws IllegalArgumentException if nothing is given or an argument is not supported
   */
  public static DType resultType(Object... arraysAndDtypes) {
    return XpSearch.resultType(arraysAndDtypes);
  }

  /** {@code can_cast(x, to)} on the array's dtype (the standard's promotion lattice). */
  public static boolean canCast(CubedArray from, DType to) {
    return XpSearch.canCast(from, to);
  }

  /** {@code can_cast(from, to)} (the standard's promotion lattice). */
  public static boolean canCast(DType from, DType to) {
    return XpSearch.canCast(from, to);
  }

  /** The inspection namespace ({@code __array_namespace_info__()}); see {@link ArrayApiInfo}. */
  public static ArrayApiInfo info() {
    return XpSearch.info();
  }

  // ---------------------------------------------------------------- Sorting and sets

  /** {@code sort(x)}: ascending along the last axis, stable. */
  public static CubedArray sort(CubedArray x) {
    return XpSort.sort(x);
  }

  /** {@code sort(x, axis)}: ascending, stable. */
  public static CubedArray sort(CubedArray x, int axis) {
    return XpSort.sort(x, axis);
  }

  /** {@code sort(x, axis, descending)}: stable. */
  public static CubedArray sort(CubedArray x, int axis, boolean descending) {
    return XpSort.sort(x, axis, descending);
  }

  /**
   * {@code sort(x, axis=-1, descending=False, stable=True)}: a sorted copy along the axis with x's
   * shape, dtype and chunks. Always stable (so {@code stable=false} gives the same result); NaN
   * last in both directions, {@code -0.0} and {@code 0.0} equal (input order kept), bool false
   * first. When a whole lane along the axis fits a task the axis is rechunked to one block and each
   * block sorted by the kernel; otherwise each lane goes through the distributed sample sort (two
   * counting passes over the lane run at once when this is called, then the lazy partition and
   * bucket sort; real and bool dtypes only). Every task's memory is within allowedMem.
   *
   * @throws IllegalArgumentException for a 0-d x, an axis out of range, or a complex x whose axis
   *     does not fit one task
   */
  public static CubedArray sort(CubedArray x, int axis, boolean descending, boolean stable) {
    return XpSort.sort(x, axis, descending, stable);
  }

  /** {@code argsort(x)}: ascending along the last axis, stable. */
  public static CubedArray argsort(CubedArray x) {
    return XpSort.argsort(x);
  }

  /** {@code argsort(x, axis)}: ascending, stable. */
  public static CubedArray argsort(CubedArray x, int axis) {
    return XpSort.argsort(x, axis);
  }

  /** {@code argsort(x, axis, descending)}: stable. */
  public static CubedArray argsort(CubedArray x, int axis, boolean descending) {
    return XpSort.argsort(x, axis, descending);
  }

  /**
   * {@code argsort(x, axis=-1, descending=False, stable=True)}: the int64 indices along the axis
   * that sort x (stable: ties in ascending index order, also descending), with x's shape and
   * chunks. Paths and memory as {@link #sort(CubedArray, int, boolean, boolean)}.
   *
   * @throws IllegalArgumentException as sort
   */
  public static CubedArray argsort(CubedArray x, int axis, boolean descending, boolean stable) {
    return XpSort.argsort(x, axis, descending, stable);
  }

  /**
   * {@code unique_values(x)}: the distinct values of the flattened x, sorted ascending (NaN last,
   * each NaN distinct; {@code -0.0} equals {@code 0.0}, the first in sorted order kept), 1-d.
   * Memory: x is sorted as by {@link #sort(CubedArray)} (bounded), then a run-start test reading
   * two sorted blocks per task; a counting pass over the run starts runs at once when this is
   * called, and the result is lazy, chunked irregularly by those counts.
   */
  public static CubedArray uniqueValues(CubedArray x) {
    return XpSort.uniqueValues(x);
  }

  /** {@code unique_counts(x)}: values as {@link #uniqueValues} and their counts (int64). */
  public static Uniques.Counts uniqueCounts(CubedArray x) {
    return XpSort.uniqueCounts(x);
  }

  /**
   * {@code unique_inverse(x)}: values as {@link #uniqueValues} and, for each element of x, the
   * index of its value (int64, x's shape and chunks). The inverse scatters the run numbers back to
   * input order by a second distributed sort keyed by the sorting permutation (its splitters are
   * known, so it needs only a counting pass).
   */
  public static Uniques.Inverse uniqueInverse(CubedArray x) {
    return XpSort.uniqueInverse(x);
  }

  /**
   * {@code unique_all(x)}: values, first-occurrence indices in the flattened x (int64), inverse
   * indices and counts; memory as {@link #uniqueValues} and {@link #uniqueInverse}.
   */
  public static Uniques.All uniqueAll(CubedArray x) {
    return XpSort.uniqueAll(x);
  }

  // ---------------------------------------------------------------- Padding

  /**
   * {@code pad(x, widths, mode, value)}: x with {@code widths[d][0]} elements added before and
   * {@code widths[d][1]} after along each axis d (one pair for all axes, or one per axis), as
   * NumPy's pad:
   *
   * <ul>
   *   <li>{@code "constant"}: {@code value} (in x's dtype; null means 0);
   *   <li>{@code "edge"}: the first/last element along the axis repeated (a non-empty axis);
   *   <li>{@code "reflect"}: mirrored without repeating the edge ({@code [3 2 | 1 2 3 | 2 1]}),
   *       widths at most n-1;
   *   <li>{@code "symmetric"}: mirrored with the edge ({@code [2 1 | 1 2 3 | 3 2]}), widths at most
   *       n;
   *   <li>{@code "wrap"}: the other end ({@code [2 3 | 1 2 3 | 1 2]}), widths at most n.
   * </ul>
   *
   * Axes are padded in order, so corners are filled as NumPy fills them.
   *
   * @throws IllegalArgumentException for an unknown mode, a negative width, widths that are not one
   *     pair or one pair per axis, a value that does not fit x's dtype, or widths larger than the
   *     mode allows (NumPy repeats the mirroring there; this pad refuses)
   */
  public static CubedArray pad(CubedArray x, long[][] widths, String mode, Object value) {
    return XpPad.pad(x, widths, mode, value);
  }

  /** {@code pad(x, widths)} with zeros. */
  public static CubedArray pad(CubedArray x, long[][] widths) {
    return XpPad.pad(x, widths);
  }

  // ---------------------------------------------------------------- einsum

  /**
   * {@code einsum(subscripts, operands...)}: subscripts as NumPy's ({@code "ij,jk->ik"}, {@code
   * "...ab,...b->...a"}, {@code "ij"} for the implicit output: the labels seen once, in
   * alphabetical order, after the ellipsis dimensions). Ellipsis dimensions broadcast (right
   * aligned), as do labels of length 1. The result's dtype is the operands' promoted dtype (as
   * {@code multiply}; NumPy's too).
   *
   * @throws IllegalArgumentException for malformed subscripts, a label repeated in one operand
   *     (diagonals are not supported), an output label that is in no operand or repeated,
   *     subscripts that do not match an operand's number of dimensions, or lengths of one label
   *     that differ (other than 1)
   */
  public static CubedArray einsum(String subscripts, CubedArray... operands) {
    return XpEinsum.einsum(subscripts, operands);
  }

  // ---------------------------------------------------------------- Blocks: map_blocks, blockwise,
  // rechunk

  public static CubedArray mapBlocks(Core.BlocksFunction fn, DType out, CubedArray... xs) {
    return XpBlocks.mapBlocks(fn, out, xs);
  }

  /**
   * General blockwise: {@code op}'s key function maps each output block (of the given shape and
   * chunks) to the input blocks it reads (one, several together, or several one at a time).
   */
  public static CubedArray blockwise(
      Blockwise op, long[] shape, long[] chunks, DType out, CubedArray... xs) {
    return XpBlocks.blockwise(op, shape, chunks, out, xs);
  }

  /** Rechunks (multistage, bounded memory); -1 keeps an axis whole. */
  public static CubedArray rechunk(CubedArray x, long... chunks) {
    return XpBlocks.rechunk(x, chunks);
  }

  /**
   * Rechunks to explicit block sizes per axis (Dask form, e.g. {@code {{4, 4, 2}, {5}}}). Regular
   * lists take the multistage path; irregular ones a single step whose tasks read the input blocks
   * they overlap (refused by the memory check if those do not fit).
   *
   * @throws IllegalArgumentException if a list does not add up to its axis or has a size below 1
   */
  public static CubedArray rechunk(CubedArray x, long[][] blockSizes) {
    return XpBlocks.rechunk(x, blockSizes);
  }

  /** The shape of an array as text, e.g. "(3, 4)". */
  public static String shapeOf(CubedArray x) {
    return XpBlocks.shapeOf(x);
  }
}
