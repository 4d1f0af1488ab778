package dev.cubed.nd;

import java.util.Arrays;

/**
 * Which axes a reduction runs over and whether reduced axes are kept as length-1 dimensions: the
 * standard's {@code axis=...} and {@code keepdims=...} keyword arguments as one immutable value.
 *
 * <pre>{@code
 * Statistics.sum(x, Axes.of(0));              // sum(x, axis=0)
 * Statistics.sum(x, Axes.of(0, -1).keepDims()); // sum(x, axis=(0, -1), keepdims=True)
 * Statistics.sum(x, Axes.all());              // sum(x)
 * }</pre>
 */
public final class Axes {
  private static final Axes ALL = new Axes(null, false);

  private final int[] axes;
  private final boolean keepDims;

  private Axes(int[] axes, boolean keepDims) {
    this.axes = axes;
    this.keepDims = keepDims;
  }

  /** Every axis (the standard's {@code axis=None}). */
  public static Axes all() {
    return ALL;
  }

  /** The given axes; negative values count from the end. */
  public static Axes of(int... axes) {
    return new Axes(axes.clone(), false);
  }

  /** The same axes, keeping reduced dimensions with length 1. */
  public Axes keepDims() {
    return new Axes(axes, true);
  }

  /** True when reduced dimensions are kept with length 1. */
  public boolean isKeepDims() {
    return keepDims;
  }

  /** True for {@code axis=None}. */
  public boolean isAll() {
    return axes == null;
  }

  /** The axes as given (null for all), a copy. */
  public int[] raw() {
    return axes == null ? null : axes.clone();
  }

  /**
   * The axes normalized against an array of {@code ndim} dimensions: sorted, non-negative,
   * distinct.
   *
   * @throws IllegalArgumentException naming {@code function} for an out-of-range or repeated axis
   */
  public int[] resolve(String function, int ndim) {
    return Shapes.normalizeAxes(function, axes, ndim);
  }

  /** The shape a reduction over these axes leaves (reduced axes dropped, or 1 with keepDims). */
  public long[] reducedShape(String function, long[] shape) {
    int[] r = resolve(function, shape.length);
    boolean[] red = new boolean[shape.length];
    for (int a : r) {
      red[a] = true;
    }
    long[] out = new long[keepDims ? shape.length : shape.length - r.length];
    int k = 0;
    for (int i = 0; i < shape.length; i++) {
      if (!red[i]) {
        out[k++] = shape[i];
      } else if (keepDims) {
        out[k++] = 1;
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Axes a && a.keepDims == keepDims && Arrays.equals(a.axes, axes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(axes) * 31 + (keepDims ? 1 : 0);
  }

  @Override
  public String toString() {
    return "Axes("
        + (axes == null ? "all" : Arrays.toString(axes))
        + (keepDims ? ", keepdims" : "")
        + ")";
  }
}
