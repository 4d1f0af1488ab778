package dev.cubed;

import dev.cubed.core.Reductions;
import dev.cubed.core.Scans;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import java.util.Arrays;

/**
 * The statistical reductions, cumulative sums/products and arg-reductions behind {@link Xp}: trees
 * with {@code splitEvery} blocks merged per reduced axis per round. Package-private; the contracts
 * are on {@link Xp}.
 */
final class XpReduce {
  static final int DEFAULT_SPLIT_EVERY = 4;
  static final int AUTO_SPLIT = 0;

  private XpReduce() {}

  // ------------------------------------------------------------------ reductions

  static CubedArray reduce(
      CubedArray x, Reductions.Op op, Axes axes, int splitEvery, int correction) {
    String name = op.name().toLowerCase();
    int[] ax = axes.resolve(name, x.ndim());
    if (splitEvery == AUTO_SPLIT) {
      splitEvery =
          Reductions.balancedSplit(
              x.numBlocks(), ax, x.spec().workersOrProcessors(), DEFAULT_SPLIT_EVERY);
    }
    if (x.dtype().isComplex() && ComplexReductions.handles(op)) {
      return ComplexReductions.reduce(x, op, axes, splitEvery, correction);
    }
    return XpBlocks.wrap(
        Reductions.reduce(x.node(), op, ax, axes.isKeepDims(), splitEvery, correction), x);
  }

  private static Axes axes(int... axes) {
    return axes.length == 0 ? Axes.all() : Axes.of(axes);
  }

  static CubedArray sum(CubedArray x, int... axes) {
    return sum(x, axes(axes), AUTO_SPLIT);
  }

  static CubedArray sum(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  static CubedArray prod(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.PROD, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray prod(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.PROD, axes, splitEvery, 0);
  }

  static CubedArray min(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MIN, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray min(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MIN, axes, splitEvery, 0);
  }

  static CubedArray max(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.MAX, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray max(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MAX, axes, splitEvery, 0);
  }

  static CubedArray mean(CubedArray x, int... axes) {
    return mean(x, axes(axes), AUTO_SPLIT);
  }

  static CubedArray mean(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  static CubedArray var(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.VAR, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray var(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.VAR, axes, splitEvery, correction);
  }

  static CubedArray std(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.STD, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray std(CubedArray x, Axes axes, int correction, int splitEvery) {
    return reduce(x, Reductions.Op.STD, axes, splitEvery, correction);
  }

  static CubedArray all(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ALL, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray all(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.ALL, axes, splitEvery, 0);
  }

  static CubedArray any(CubedArray x, int... axes) {
    return reduce(x, Reductions.Op.ANY, axes(axes), AUTO_SPLIT, 0);
  }

  static CubedArray any(CubedArray x, Axes axes, int splitEvery) {
    return reduce(x, Reductions.Op.ANY, axes, splitEvery, 0);
  }

  static CubedArray cumulativeSum(CubedArray x, int axis) {
    return XpBlocks.wrap(Scans.cumulative(x.node(), Scans.Op.SUM, axis, scanBudget(x)), x);
  }

  static CubedArray cumulativeSum(CubedArray x, int axis, DType dtype) {
    return cumulativeIn(x, dtype, cumulativeSum(inDtype(x, dtype), axis));
  }

  static CubedArray cumulativeProd(CubedArray x, int axis) {
    return XpBlocks.wrap(Scans.cumulative(x.node(), Scans.Op.PROD, axis, scanBudget(x)), x);
  }

  static CubedArray cumulativeProd(CubedArray x, int axis, DType dtype) {
    return cumulativeIn(x, dtype, cumulativeProd(inDtype(x, dtype), axis));
  }

  private static Scans.Budget scanBudget(CubedArray x) {
    Spec s = x.spec();
    return new Scans.Budget(
        s.workersOrProcessors(), s.scanChainMaxBlocks(), s.allowedMem(), s.reservedMem());
  }

  private static CubedArray inDtype(CubedArray x, DType dtype) {
    return dtype == null || dtype == x.dtype() ? x : XpUnary.astype(x, dtype);
  }

  // integer scans run in int64/uint64; wrapping the result to a narrower integer (or bool) gives
  // what accumulating at that width gives, since + and * commute with reduction mod 2^bits
  private static CubedArray cumulativeIn(CubedArray x, DType dtype, CubedArray r) {
    return dtype == null || r.dtype() == dtype ? r : XpUnary.astype(r, dtype);
  }

  static CubedArray argmax(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMAX, Axes.of(axis), AUTO_SPLIT, 0);
  }

  static CubedArray argmax(CubedArray x, Axes axes) {
    return argReduce("argmax", x, axes, Reductions.Op.ARGMAX);
  }

  static CubedArray argmin(CubedArray x, int axis) {
    return reduce(x, Reductions.Op.ARGMIN, Axes.of(axis), AUTO_SPLIT, 0);
  }

  static CubedArray argmin(CubedArray x, Axes axes) {
    return argReduce("argmin", x, axes, Reductions.Op.ARGMIN);
  }

  private static CubedArray argReduce(String fn, CubedArray x, Axes axes, Reductions.Op op) {
    if (axes.isAll()) {
      CubedArray r = op == Reductions.Op.ARGMAX ? XpReduce.argmax(x) : XpReduce.argmin(x);
      if (!axes.isKeepDims()) {
        return r;
      }
      long[] ones = new long[x.ndim()];
      Arrays.fill(ones, 1);
      return XpManip.reshape(r, ones);
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

  static CubedArray argmax(CubedArray x) {
    return XpReduce.argmax(flat("argmax", x), 0);
  }

  static CubedArray argmin(CubedArray x) {
    return XpReduce.argmin(flat("argmin", x), 0);
  }

  private static CubedArray flat(String fn, CubedArray x) {
    if (x.size() == 0) {
      throw new IllegalArgumentException(
          fn
              + ": attempt to get "
              + fn
              + " of an empty sequence (shape "
              + XpBlocks.shapeOf(x)
              + ")");
    }
    return x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
  }
}
