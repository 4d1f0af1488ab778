package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.elementwise.Elementwise;

/**
 * The unary elementwise family of {@link Xp} (final and package-private; the contract of {@code
 * Xp.sin} is on {@link Xp}) and the shared helpers of the facade. Memory: one block in, one block
 * out per task.
 */
final class XpUnary {
  private XpUnary() {}

  static CubedArray abs(CubedArray x) {
    return XpBlocks.ewInto("abs", (buf, b) -> Elementwise.abs(b[0], buf), x);
  }

  static CubedArray acos(CubedArray x) {
    return XpBlocks.ew("acos", b -> Elementwise.acos(b[0]), x);
  }

  static CubedArray acosh(CubedArray x) {
    return XpBlocks.ew("acosh", b -> Elementwise.acosh(b[0]), x);
  }

  static CubedArray asin(CubedArray x) {
    return XpBlocks.ew("asin", b -> Elementwise.asin(b[0]), x);
  }

  static CubedArray asinh(CubedArray x) {
    return XpBlocks.ew("asinh", b -> Elementwise.asinh(b[0]), x);
  }

  static CubedArray atan(CubedArray x) {
    return XpBlocks.ew("atan", b -> Elementwise.atan(b[0]), x);
  }

  static CubedArray atanh(CubedArray x) {
    return XpBlocks.ew("atanh", b -> Elementwise.atanh(b[0]), x);
  }

  static CubedArray bitwiseInvert(CubedArray x) {
    return XpBlocks.ew("bitwise_invert", b -> Elementwise.bitwiseInvert(b[0]), x);
  }

  static CubedArray ceil(CubedArray x) {
    return XpBlocks.ew("ceil", b -> Elementwise.ceil(b[0]), x);
  }

  static CubedArray conj(CubedArray x) {
    return XpBlocks.ew("conj", b -> Elementwise.conj(b[0]), x);
  }

  static CubedArray cos(CubedArray x) {
    return XpBlocks.ew("cos", b -> Elementwise.cos(b[0]), x);
  }

  static CubedArray cosh(CubedArray x) {
    return XpBlocks.ew("cosh", b -> Elementwise.cosh(b[0]), x);
  }

  static CubedArray exp(CubedArray x) {
    return XpBlocks.ew("exp", b -> Elementwise.exp(b[0]), x);
  }

  static CubedArray expm1(CubedArray x) {
    return XpBlocks.ew("expm1", b -> Elementwise.expm1(b[0]), x);
  }

  static CubedArray floor(CubedArray x) {
    return XpBlocks.ew("floor", b -> Elementwise.floor(b[0]), x);
  }

  static CubedArray imag(CubedArray x) {
    return XpBlocks.ew("imag", b -> Elementwise.imag(b[0]), x);
  }

  static CubedArray isfinite(CubedArray x) {
    return XpBlocks.ewInto("isfinite", (buf, b) -> Elementwise.isfinite(b[0], buf), x);
  }

  static CubedArray isinf(CubedArray x) {
    return XpBlocks.ewInto("isinf", (buf, b) -> Elementwise.isinf(b[0], buf), x);
  }

  static CubedArray isnan(CubedArray x) {
    return XpBlocks.ewInto("isnan", (buf, b) -> Elementwise.isnan(b[0], buf), x);
  }

  static CubedArray log(CubedArray x) {
    return XpBlocks.ew("log", b -> Elementwise.log(b[0]), x);
  }

  static CubedArray log1p(CubedArray x) {
    return XpBlocks.ew("log1p", b -> Elementwise.log1p(b[0]), x);
  }

  static CubedArray log2(CubedArray x) {
    return XpBlocks.ew("log2", b -> Elementwise.log2(b[0]), x);
  }

  static CubedArray log10(CubedArray x) {
    return XpBlocks.ew("log10", b -> Elementwise.log10(b[0]), x);
  }

  static CubedArray logicalNot(CubedArray x) {
    return XpBlocks.ew("logical_not", b -> Elementwise.logicalNot(b[0]), x);
  }

  static CubedArray negative(CubedArray x) {
    return XpBlocks.ewInto("negative", (buf, b) -> Elementwise.negative(b[0], buf), x);
  }

  static CubedArray positive(CubedArray x) {
    return XpBlocks.ew("positive", b -> Elementwise.positive(b[0]), x);
  }

  static CubedArray real(CubedArray x) {
    return XpBlocks.ew("real", b -> Elementwise.real(b[0]), x);
  }

  static CubedArray reciprocal(CubedArray x) {
    return XpBlocks.ew("reciprocal", b -> Elementwise.reciprocal(b[0]), x);
  }

  static CubedArray round(CubedArray x) {
    return XpBlocks.ew("round", b -> Elementwise.round(b[0]), x);
  }

  static CubedArray sign(CubedArray x) {
    return XpBlocks.ew("sign", b -> Elementwise.sign(b[0]), x);
  }

  static CubedArray signbit(CubedArray x) {
    return XpBlocks.ew("signbit", b -> Elementwise.signbit(b[0]), x);
  }

  static CubedArray sin(CubedArray x) {
    return XpBlocks.ew("sin", b -> Elementwise.sin(b[0]), x);
  }

  static CubedArray sinh(CubedArray x) {
    return XpBlocks.ew("sinh", b -> Elementwise.sinh(b[0]), x);
  }

  static CubedArray sqrt(CubedArray x) {
    return XpBlocks.ewInto("sqrt", (buf, b) -> Elementwise.sqrt(b[0], buf), x);
  }

  static CubedArray square(CubedArray x) {
    return XpBlocks.ewInto("square", (buf, b) -> Elementwise.square(b[0], buf), x);
  }

  static CubedArray tan(CubedArray x) {
    return XpBlocks.ew("tan", b -> Elementwise.tan(b[0]), x);
  }

  static CubedArray tanh(CubedArray x) {
    return XpBlocks.ew("tanh", b -> Elementwise.tanh(b[0]), x);
  }

  static CubedArray trunc(CubedArray x) {
    return XpBlocks.ew("trunc", b -> Elementwise.trunc(b[0]), x);
  }

  static CubedArray astype(CubedArray a, DType t) {
    if (a.dtype() == t) {
      return a;
    }
    return XpBlocks.wrap(Core.pointwise("astype", bl -> bl[0].astype(t), t, a.node()), a);
  }
}
