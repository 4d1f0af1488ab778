package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.plan.ArrayNode;

/**
 * The unary elementwise family of {@link Xp} (reached as {@code Xp.sin} etc.; this class is not
 * public) and the shared helpers of the facade. Memory: one block in, one block out per task.
 */
class XpUnary {
  XpUnary() {}

  static CubedArray wrap(ArrayNode n, CubedArray like) {
    return new CubedArray(n, like.spec());
  }

  /**
   * Applies a per-block kernel elementwise; the dtype is that of the kernel on one-element inputs.
   */
  static CubedArray ew(String name, Core.Pointwise fn, CubedArray... xs) {
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

  /**
   * {@link #ew} of a function that can write into the plan's reused tile buffers (no new array per
   * tile when the op runs tile by tile).
   */
  static CubedArray ewInto(String name, Core.PointwiseInto fn, CubedArray... xs) {
    return ew(name, fn, xs);
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
    return wrap(Core.pointwise("astype", bl -> bl[0].astype(t), t, a.node()), a);
  }

  /** Applies a function to each block (the same block grid for all inputs). */
}
