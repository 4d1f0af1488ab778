package dev.cubed.nd.window;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Locale;

/**
 * Reductions over moving windows along one axis, without the window axis: element {@code j} of the
 * result along {@code axis} is the reduction of the {@code window} consecutive elements {@code j ..
 * j + window - 1} of the input ("valid" windows, so the axis shrinks by {@code window - 1}); every
 * other axis keeps its length. The result equals NumPy's {@code f(sliding_window_view(x, window,
 * axis), axis=-1)} for the same {@code f} (with the window's values never materialized): one pass
 * along the axis that adds the entering element and removes the leaving one, on lanes of the axes
 * after it (so memory access stays contiguous).
 *
 * <p>Sums run in double with Neumaier compensation (float32 input included: float64 accumulators),
 * counting NaN and infinities apart so that a NaN or infinity leaving the window leaves no trace;
 * integer and bool sums run exactly in long (wrapping as NumPy's int64). Variances use Welford's
 * update with removal (mean and sum of squared deviations), so long series of large values keep
 * their precision. Minimum and maximum keep a monotone deque of the window's candidates per lane,
 * an amortized O(1) step per element.
 */
public final class MovingWindow {
  private MovingWindow() {}

  /** What each window is reduced to (the names of NumPy's reductions). */
  public enum Op {
    /** Sum; NaN if a NaN is in the window. */
    SUM,
    /** Sum of the non-NaN values (0 if none). */
    NANSUM,
    /** Mean; NaN if a NaN is in the window. */
    MEAN,
    /** Mean of the non-NaN values (NaN if none). */
    NANMEAN,
    /** Variance divided by {@code window - ddof}; NaN if a NaN is in the window. */
    VAR,
    /**
     * Variance of the non-NaN values, divided by their count minus ddof (NaN if that is 0 or less).
     */
    NANVAR,
    /** Square root of {@link #VAR}. */
    STD,
    /** Square root of {@link #NANVAR}. */
    NANSTD,
    /** Minimum; NaN if a NaN is in the window. */
    MIN,
    /** Maximum; NaN if a NaN is in the window. */
    MAX,
    /** Minimum of the non-NaN values (NaN if none). */
    NANMIN,
    /** Maximum of the non-NaN values (NaN if none). */
    NANMAX;

    /**
     * The op of a NumPy reduction name ("sum", "nanmean", ...; case-insensitive).
     *
     * @throws IllegalArgumentException for another name, listing the supported ones
     */
    public static Op of(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "moving window: reduction '"
                + name
                + "' is not one of sum, nansum, mean, nanmean, var, nanvar, std, nanstd, min,"
                + " max, nanmin, nanmax");
      }
    }

    boolean skipsNan() {
      return this == NANSUM
          || this == NANMEAN
          || this == NANVAR
          || this == NANSTD
          || this == NANMIN
          || this == NANMAX;
    }
  }

  /** Lanes (elements of the axes after the window axis) processed together. */
  static final int LANES = 1024;

  /**
   * The dtype of the result for input {@code in}, as NumPy's: sums of bool and signed integers are
   * int64 (unsigned: uint64), means and variances of integers float64, min and max keep the dtype,
   * floating inputs keep theirs.
   *
   * @throws IllegalArgumentException for complex input
   */
  public static DType resultType(Op op, DType in) {
    if (in.isComplex()) {
      throw new IllegalArgumentException(
          "moving window: complex input is not supported (reduce the real and imaginary parts)");
    }
    if (in.isRealFloating()) {
      return in;
    }
    return switch (op) {
      case SUM, NANSUM -> in.isUnsigned() ? DType.UINT64 : DType.INT64;
      case MIN, MAX, NANMIN, NANMAX -> in;
      default -> DType.FLOAT64;
    };
  }

  /**
   * Working memory of one call besides its input and result, bytes (the lane states: at most {@link
   * #LANES} lanes of a few doubles, and of {@code window} candidates for min/max).
   */
  public static long workBytes(int window) {
    return (long) LANES * (64 + 12L * Math.max(1, window));
  }

  /**
   * The reduction of every window of {@code window} elements along {@code axis} of {@code x}.
   *
   * @param ddof delta degrees of freedom of VAR/STD/NANVAR/NANSTD (ignored by the others)
   * @return an array of {@code x}'s shape with {@code axis} of length {@code n - window + 1}, dtype
   *     {@link #resultType}
   * @throws IllegalArgumentException if the axis is out of range, the window is not between 1 and
   *     the axis' length, or x is complex
   */
  public static NDArray reduce(NDArray x, int axis, int window, Op op, int ddof) {
    return reduce(x, axis, window, op, ddof, 0);
  }

  /**
   * {@link #reduce(NDArray, int, int, Op, int)} giving NaN for every window with fewer than {@code
   * minCount} values that are not NaN (xarray's {@code min_periods}); only for the floating sums,
   * means and variances that skip NaN (0 for no minimum, any op).
   *
   * @throws IllegalArgumentException as the other form, or for a positive minCount with another op
   *     or input
   */
  public static NDArray reduce(NDArray x, int axis, int window, Op op, int ddof, int minCount) {
    if (minCount > 0 && !countsValues(op, x.dtype())) {
      throw new IllegalArgumentException(
          "moving window: a minimum count applies to nansum, nanmean, nanvar and nanstd of"
              + " floating input, not "
              + op.name().toLowerCase(Locale.ROOT)
              + " of "
              + x.dtype());
    }
    int nd = x.ndim();
    if (axis < 0 || axis >= nd) {
      throw new IllegalArgumentException(
          "moving window: axis " + axis + " is out of range for a " + nd + "-d array");
    }
    long n = x.shape(axis);
    if (window < 1 || window > n) {
      throw new IllegalArgumentException(
          "moving window: window "
              + window
              + " must be between 1 and the axis' length "
              + n
              + " (axis "
              + axis
              + ")");
    }
    DType out = resultType(op, x.dtype());
    long[] shape = x.shape().clone();
    shape[axis] = n - window + 1;
    NDArray r = NDArray.empty(out, shape);
    long outer = 1;
    for (int d = 0; d < axis; d++) {
      outer *= x.shape(d);
    }
    long inner = 1;
    for (int d = axis + 1; d < nd; d++) {
      inner *= x.shape(d);
    }
    if (r.size() == 0) {
      return r;
    }
    boolean exact =
        !x.dtype().isRealFloating()
            && (op == Op.SUM
                || op == Op.NANSUM
                || op == Op.MIN
                || op == Op.MAX
                || op == Op.NANMIN
                || op == Op.NANMAX);
    Lanes lanes =
        exact
            ? new LongLanes(op, window, x.dtype())
            : new DoubleLanes(op, window, ddof, Math.max(0, minCount));
    int tile = (int) Math.min(inner, LANES);
    for (long o = 0; o < outer; o++) {
      for (long i0 = 0; i0 < inner; i0 += tile) {
        int len = (int) Math.min(tile, inner - i0);
        lanes.sweep(
            x,
            r,
            (int) (o * n * inner + i0),
            (int) (o * shape[axis] * inner + i0),
            (int) n,
            (int) inner,
            len);
      }
    }
    return r;
  }

  /** Whether {@link #reduce(NDArray, int, int, Op, int, int)} takes a minimum count for these. */
  public static boolean countsValues(Op op, DType in) {
    return in.isRealFloating()
        && (op == Op.NANSUM || op == Op.NANMEAN || op == Op.NANVAR || op == Op.NANSTD);
  }

  /** One lane kind's pass along the axis for {@code len} lanes. */
  interface Lanes {
    /**
     * Reduces the windows of lanes {@code inBase + l} (l below len) of x, elements {@code inBase +
     * t * stride + l} for t below n, into {@code outBase + j * stride + l} of r.
     */
    void sweep(NDArray x, NDArray r, int inBase, int outBase, int n, int stride, int len);
  }
}
