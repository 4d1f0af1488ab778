package dev.cubed;

import dev.cubed.core.GroupReduce;
import dev.cubed.core.Reductions;
import dev.cubed.core.SortedGroupReduce;
import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reductions by group along one axis in bounded memory (the design of Python Cubed's {@code
 * groupby_reduction}, with flox's one pass per block): one blockwise op reduces each block of
 * {@code x} per group label into the states of its groups (the sum, (count, total) for a mean, the
 * minimum or maximum; the reduced axis with {@code numGroups} entries), so each block of x is read
 * once whatever the reduction; the states of the blocks along the axis are merged by the rounds of
 * the plain tree reduction, and a last step turns them into results (mean = total / count). The
 * plan has the same ops whatever the number of groups; a task holds one block of {@code x}, its
 * states ({@code numGroups} along the axis, the other axes as x's block, times the state's fields)
 * and the labels, and the plan's memory check refuses states that do not fit allowed_mem.
 */
public final class XpGroupby {
  private XpGroupby() {}

  /**
   * Reduces {@code x} along {@code axis} per group: element {@code i} along the axis belongs to
   * group {@code codes[i]} (0 to numGroups - 1; a negative code belongs to no group, as xarray's
   * codes for missing labels). The result has x's shape with the axis of length {@code numGroups}
   * (in one block), other axes chunked as x.
   *
   * <p>{@code func}: {@code "sum"} (dtype of {@link Xp#sum}), {@code "count"} (int64: elements that
   * are not NaN), {@code "mean"} (float64, or x's floating dtype), {@code "min"}, {@code "max"}
   * (x's dtype). With {@code skipna} NaN elements are left out (NumPy's nansum, nanmean, nanmin,
   * nanmax: a group of only NaN gives 0 for sum, NaN for the others); without it a NaN makes its
   * group's result NaN. A group no element belongs to gives 0 (sum, count), NaN (mean; min/max of a
   * floating x with skipna), +-infinity (min/max of a floating x without skipna) or the dtype's
   * extreme value (min/max of integers).
   *
   * @throws IllegalArgumentException for an unknown func, an axis out of range, codes of another
   *     length than the axis or not integers, a code of numGroups or more, numGroups below 1, or
   *     complex x
   */
  public static CubedArray groupbyReduce(
      CubedArray x, NDArray codes, int axis, int numGroups, String func, boolean skipna) {
    return groupbyReduce(x, codes, axis, numGroups, func, skipna, 0);
  }

  /**
   * {@link #groupbyReduce(CubedArray, NDArray, int, int, String, boolean)} with {@code func} also
   * {@code "var"} or {@code "std"} (float64, or x's floating dtype: the squared deviations from the
   * group's mean divided by its count minus {@code ddof}, NaN where that is not positive, as
   * NumPy's var and nanvar; std its square root); {@code ddof} is used by those only.
   *
   * @throws IllegalArgumentException as the other form, or for a negative ddof
   */
  public static CubedArray groupbyReduce(
      CubedArray x, NDArray codes, int axis, int numGroups, String func, boolean skipna, int ddof) {
    int ax = checkedAxis(x, axis, ddof);
    long[] labels = labels(codes, x.shape()[ax], numGroups);
    GroupReduce.Func f = func(func);
    int split =
        Reductions.balancedSplit(
            new long[] {x.numBlocks()[ax]},
            new int[] {0},
            x.spec().workersOrProcessors(),
            XpReduce.DEFAULT_SPLIT_EVERY);
    return XpBlocks.wrap(
        GroupReduce.reduce(x.node(), labels, ax, numGroups, f, skipna, split, ddof), x);
  }

  /**
   * {@link #groupbyReduce(CubedArray, NDArray, int, int, String, boolean, int)} for sorted codes
   * (the non-negative ones never decrease: a resample, a sorted coordinate; flox's "blockwise"
   * method): each block is turned into the states of only the groups it touches, and each output
   * block merges the states of the groups that begin in one input block with those of the next
   * blocks the groups reach into, then finishes them: two ops, states the size of the groups a
   * block touches. The same results; the result's axis of length numGroups is chunked by the input
   * blocks the groups begin in.
   *
   * @throws IllegalArgumentException as the other forms, or when the codes are not sorted
   */
  public static CubedArray groupbyReduceSorted(
      CubedArray x, NDArray codes, int axis, int numGroups, String func, boolean skipna, int ddof) {
    int ax = checkedAxis(x, axis, ddof);
    long[] labels = labels(codes, x.shape()[ax], numGroups);
    return XpBlocks.wrap(
        SortedGroupReduce.reduce(x.node(), labels, ax, numGroups, func(func), skipna, ddof), x);
  }

  /** Whether the non-negative codes never decrease ({@link #groupbyReduceSorted} takes them). */
  public static boolean sortedCodes(NDArray codes) {
    if (codes == null || codes.ndim() != 1 || !codes.dtype().isInteger()) {
      return false;
    }
    long[] l = new long[(int) codes.shape(0)];
    for (int i = 0; i < l.length; i++) {
      l[i] = codes.getLong(i);
    }
    return SortedGroupReduce.sorted(l);
  }

  /** The axis of x, non-negative, after checking ddof, the axis and x's dtype. */
  private static int checkedAxis(CubedArray x, int axis, int ddof) {
    if (ddof < 0) {
      throw new IllegalArgumentException("groupbyReduce: ddof must be 0 or more, got " + ddof);
    }
    int nd = x.shape().length;
    int ax = axis < 0 ? axis + nd : axis;
    if (ax < 0 || ax >= nd) {
      throw new IllegalArgumentException(
          "groupbyReduce: axis " + axis + " is out of range for " + nd + "-d x");
    }
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException("groupbyReduce: complex x is not supported");
    }
    return ax;
  }

  private static GroupReduce.Func func(String func) {
    return switch (func.toLowerCase(Locale.ROOT)) {
      case "sum" -> GroupReduce.Func.SUM;
      case "count" -> GroupReduce.Func.COUNT;
      case "mean" -> GroupReduce.Func.MEAN;
      case "min" -> GroupReduce.Func.MIN;
      case "max" -> GroupReduce.Func.MAX;
      case "var" -> GroupReduce.Func.VAR;
      case "std" -> GroupReduce.Func.STD;
      default ->
          throw new IllegalArgumentException(
              "groupbyReduce: func '"
                  + func
                  + "' is not one of sum, count, mean, min, max, var, std (other reductions: reduce"
                  + " each group with the array functions)");
    };
  }

  private static long[] labels(NDArray codes, long n, int numGroups) {
    if (numGroups < 1) {
      throw new IllegalArgumentException("groupbyReduce: numGroups must be 1 or more");
    }
    if (codes == null || codes.ndim() != 1 || codes.shape(0) != n) {
      throw new IllegalArgumentException(
          "groupbyReduce: codes must be a 1-d integer array of the axis' length "
              + n
              + ", got "
              + (codes == null ? "null" : Arrays.toString(codes.shape())));
    }
    if (!codes.dtype().isInteger()) {
      throw new IllegalArgumentException(
          "groupbyReduce: codes must be integers, got " + codes.dtype());
    }
    long[] l = new long[(int) n];
    for (int i = 0; i < l.length; i++) {
      l[i] = codes.getLong(i);
      if (l[i] >= numGroups) {
        throw new IllegalArgumentException(
            "groupbyReduce: code " + l[i] + " at " + i + " is not below numGroups " + numGroups);
      }
    }
    return l;
  }
}
