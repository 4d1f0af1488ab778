package dev.cubed;

import dev.cubed.core.Rolling;
import dev.cubed.nd.window.MovingWindow;

/**
 * Moving-window (rolling) reductions, an extension beside the standard's namespace: what xarray's
 * {@code rolling(dim=w).sum()} and NumPy's {@code f(sliding_window_view(x, w, axis), axis=-1)}
 * compute, as one chunked operation that never writes the window axis. Each task reads its block
 * and the neighbouring blocks along the axis that its windows reach into (a halo of {@code window -
 * 1} elements), and runs a moving-window kernel over them: running sums for sum and mean, Welford's
 * update for var and std, a monotone deque for min and max. The plan's intermediates are at most
 * the size of the input; memory per task is the blocks read, their joined span and the result.
 */
public final class XpWindow {
  private XpWindow() {}

  /**
   * {@code func} over every window of {@code window} consecutive elements along {@code axis}: the
   * result has x's shape with that axis {@code window - 1} shorter ("valid" windows: element {@code
   * j} reduces elements {@code j .. j + window - 1}; pad x first for windows that run off its ends,
   * as xarray does). {@code func}: {@code sum}, {@code mean}, {@code var}, {@code std}, {@code
   * min}, {@code max} (a NaN in the window makes the result NaN) or their {@code nan} forms ({@code
   * nansum}, ... : NaN values are left out; a window of NaN only gives 0 for nansum, NaN for the
   * others, and nanvar/nanstd give NaN when the non-NaN count is at most ddof). Dtypes as NumPy's
   * reductions: sums of bool and integers are int64 (uint64 for unsigned), means and variances of
   * integers float64, floating inputs and min/max keep their dtype. Sums and variances accumulate
   * in float64 whatever the floating input.
   *
   * @param axis the axis (negative counts from the end)
   * @param ddof delta degrees of freedom of var/std/nanvar/nanstd (0 for the population variance)
   * @throws IllegalArgumentException for an unknown func, an axis out of range, a window not
   *     between 1 and the axis' length, a negative ddof, or complex x
   */
  public static CubedArray movingReduce(CubedArray x, int axis, int window, String func, int ddof) {
    int nd = x.shape().length;
    int ax = axis < 0 ? axis + nd : axis;
    if (ddof < 0) {
      throw new IllegalArgumentException("movingReduce: ddof must be 0 or more, got " + ddof);
    }
    MovingWindow.Op op = MovingWindow.Op.of(func);
    return XpBlocks.wrap(Rolling.reduce(x.node(), ax, window, op, ddof), x);
  }

  /**
   * {@link #movingReduce(CubedArray, int, int, String, int)} giving NaN for every window with fewer
   * than {@code minCount} values that are not NaN: xarray's {@code rolling(..., min_periods=m)}
   * sums, means, variances and standard deviations in one op (with x padded by NaN as xarray pads),
   * where xarray itself computes a rolling count of {@code notnull(x)} beside the reduction.
   *
   * @param minCount the least number of values a window needs (0 or less: no minimum)
   * @throws IllegalArgumentException as the other form, or for a positive minCount with a func
   *     other than nansum, nanmean, nanvar, nanstd or a non-floating x
   */
  public static CubedArray movingReduce(
      CubedArray x, int axis, int window, String func, int ddof, int minCount) {
    int nd = x.shape().length;
    int ax = axis < 0 ? axis + nd : axis;
    if (ddof < 0) {
      throw new IllegalArgumentException("movingReduce: ddof must be 0 or more, got " + ddof);
    }
    MovingWindow.Op op = MovingWindow.Op.of(func);
    return XpBlocks.wrap(Rolling.reduce(x.node(), ax, window, op, ddof, minCount), x);
  }
}
