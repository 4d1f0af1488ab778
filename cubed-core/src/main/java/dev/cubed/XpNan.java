package dev.cubed;

import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;

/**
 * The NaN-skipping functions of {@link Xp} (NumPy's {@code nansum}, {@code nanmean}, ...; reached
 * as {@code Xp.nanmean} etc.; this class is not public). Each is lazy and chunked like its plain
 * counterpart, with the same axes, keepdims ({@code Axes.of(0).keepDims()}) and splitEvery:
 *
 * <ul>
 *   <li>nanmean, nanvar/nanstd, nanmin/nanmax, nanargmin/nanargmax: tree reductions whose states
 *       count only the non-NaN elements (nanmean: (count, total); nanvar: (count, mean, M2) with
 *       Chan's merge; nanmin/nanmax: the best non-NaN value; nanargmin/nanargmax: (index, value)).
 *       Memory as the plain reduction: one block and one state chunk per task.
 *   <li>nansum, nanprod, nancumsum, nancumprod: NaN replaced by 0 (1 for products) in a pointwise
 *       step fused into the plain reduction or scan (nothing extra is stored).
 * </ul>
 *
 * <p>Results on slices holding only NaN (as NumPy, without its RuntimeWarning): nansum 0, nanprod
 * 1, nanmean/nanvar/nanstd/nanmin/nanmax NaN; nanvar/nanstd also NaN when the non-NaN count is at
 * most the correction; nanargmin/nanargmax fail the compute with IllegalArgumentException "All-NaN
 * slice encountered" (NumPy raises ValueError; the slices are only known when computed).
 *
 * <p>Integer and bool inputs hold no NaN: every function is its plain counterpart (nanmean of int
 * is mean, float64). Complex inputs (an element is NaN when either part is): nansum, nanprod,
 * nancumsum, nancumprod as above; nanmean the nanmeans of the two parts; nanvar the sum of the
 * parts' nanvars (real), nanstd its square root; nanmin, nanmax, nanargmin, nanargmax are refused
 * (IllegalArgumentException, complex values are not ordered), as the plain ones.
 */
class XpNan extends XpSort {
  XpNan() {}

  private static Axes axesOf(int... axes) {
    return axes.length == 0 ? Axes.all() : Axes.of(axes);
  }

  /** Whether elements of this dtype can be NaN. */
  private static boolean hasNan(CubedArray x) {
    return x.dtype().isFloating();
  }

  // ------------------------------------------------------------------ sums and products

  /** Sum over axes (all if none given) with NaN counted as 0; a slice of NaNs only sums to 0. */
  public static CubedArray nansum(CubedArray x, int... axes) {
    return nansum(x, axesOf(axes), Xp.AUTO_SPLIT);
  }

  /** {@link #nansum(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nansum(CubedArray x, Axes axes, int splitEvery) {
    return Xp.reduce(hasNan(x) ? fillNan(x, 0) : x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  /** Product over axes (all if none given) with NaN counted as 1; NaNs only give 1. */
  public static CubedArray nanprod(CubedArray x, int... axes) {
    return nanprod(x, axesOf(axes), Xp.AUTO_SPLIT);
  }

  /** {@link #nanprod(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanprod(CubedArray x, Axes axes, int splitEvery) {
    return Xp.reduce(hasNan(x) ? fillNan(x, 1) : x, Reductions.Op.PROD, axes, splitEvery, 0);
  }

  /**
   * Inclusive cumulative sum along an axis with NaN counted as 0 (NumPy's nancumsum; the plain
   * {@link Xp#cumulativeSum} for integer and bool inputs).
   */
  public static CubedArray nancumsum(CubedArray x, int axis) {
    return Xp.cumulativeSum(hasNan(x) ? fillNan(x, 0) : x, axis);
  }

  /** Inclusive cumulative product along an axis with NaN counted as 1 (NumPy's nancumprod). */
  public static CubedArray nancumprod(CubedArray x, int axis) {
    return Xp.cumulativeProd(hasNan(x) ? fillNan(x, 1) : x, axis);
  }

  // ------------------------------------------------------------------ statistics

  /**
   * Mean of the non-NaN elements over axes (all if none given): (count, total) states; NaN for a
   * slice of NaNs only.
   *
   * @throws IllegalArgumentException for bool (as mean)
   */
  public static CubedArray nanmean(CubedArray x, int... axes) {
    return nanmean(x, axesOf(axes), Xp.AUTO_SPLIT);
  }

  /** {@link #nanmean(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmean(CubedArray x, Axes axes, int splitEvery) {
    if (x.dtype().isComplex()) {
      CubedArray re = nanmean(nanPart(x, false), axes, splitEvery);
      CubedArray im = nanmean(nanPart(x, true), axes, splitEvery);
      DType t = x.dtype();
      return ew("nanmean", b -> complexOf(t, b[0], b[1]), re, im);
    }
    return Xp.reduce(
        x, hasNan(x) ? Reductions.Op.NANMEAN : Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  /** Variance (correction 0) of the non-NaN elements over axes (all if none given). */
  public static CubedArray nanvar(CubedArray x, int... axes) {
    return nanvar(x, axesOf(axes), 0, Xp.AUTO_SPLIT);
  }

  /**
   * Variance of the non-NaN elements: their squared deviations summed, divided by {@code count -
   * correction}; NaN when that is 0 or less (NumPy's nanvar with ddof). Complex: the sum of the
   * parts' variances (real).
   *
   * @throws IllegalArgumentException for bool (as var)
   */
  public static CubedArray nanvar(CubedArray x, Axes axes, int correction, int splitEvery) {
    return moment(x, axes, correction, splitEvery, false);
  }

  /** Standard deviation (correction 0) of the non-NaN elements over axes (all if none given). */
  public static CubedArray nanstd(CubedArray x, int... axes) {
    return nanstd(x, axesOf(axes), 0, Xp.AUTO_SPLIT);
  }

  /** The square root of {@link #nanvar(CubedArray, Axes, int, int)}. */
  public static CubedArray nanstd(CubedArray x, Axes axes, int correction, int splitEvery) {
    return moment(x, axes, correction, splitEvery, true);
  }

  private static CubedArray moment(
      CubedArray x, Axes axes, int correction, int splitEvery, boolean std) {
    if (x.dtype().isComplex()) {
      CubedArray v =
          Xp.add(
              moment(nanPart(x, false), axes, correction, splitEvery, false),
              moment(nanPart(x, true), axes, correction, splitEvery, false));
      return std ? Xp.sqrt(v) : v;
    }
    Reductions.Op op =
        hasNan(x)
            ? (std ? Reductions.Op.NANSTD : Reductions.Op.NANVAR)
            : (std ? Reductions.Op.STD : Reductions.Op.VAR);
    return Xp.reduce(x, op, axes, splitEvery, correction);
  }

  // ------------------------------------------------------------------ min, max, arg

  /**
   * Minimum of the non-NaN elements over axes (all if none given); NaN for a slice of NaNs only.
   *
   * @throws IllegalArgumentException for complex dtypes, or an empty reduced axis with a non-empty
   *     result (as min)
   */
  public static CubedArray nanmin(CubedArray x, int... axes) {
    return nanmin(x, axesOf(axes), Xp.AUTO_SPLIT);
  }

  /** {@link #nanmin(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmin(CubedArray x, Axes axes, int splitEvery) {
    return Xp.reduce(x, realNan(x) ? Reductions.Op.NANMIN : Reductions.Op.MIN, axes, splitEvery, 0);
  }

  /**
   * Maximum of the non-NaN elements over axes (all if none given); NaN for a slice of NaNs only.
   *
   * @throws IllegalArgumentException as {@link #nanmin(CubedArray, int...)}
   */
  public static CubedArray nanmax(CubedArray x, int... axes) {
    return nanmax(x, axesOf(axes), Xp.AUTO_SPLIT);
  }

  /** {@link #nanmax(CubedArray, int...)} with keepdims and splitEvery. */
  public static CubedArray nanmax(CubedArray x, Axes axes, int splitEvery) {
    return Xp.reduce(x, realNan(x) ? Reductions.Op.NANMAX : Reductions.Op.MAX, axes, splitEvery, 0);
  }

  /**
   * Index of the largest non-NaN element along one axis (first occurrence), int64. A slice of NaNs
   * only fails the compute (IllegalArgumentException "nanargmax: All-NaN slice encountered").
   *
   * @throws IllegalArgumentException for complex dtypes, a bad axis or an empty axis (when built)
   */
  public static CubedArray nanargmax(CubedArray x, int axis) {
    return nanargmax(x, Axes.of(axis), Xp.AUTO_SPLIT);
  }

  /** {@link #nanargmax(CubedArray, int)} with keepdims ({@code Axes.of(axis).keepDims()}). */
  public static CubedArray nanargmax(CubedArray x, Axes axis, int splitEvery) {
    return Xp.reduce(
        x, realNan(x) ? Reductions.Op.NANARGMAX : Reductions.Op.ARGMAX, axis, splitEvery, 0);
  }

  /** {@link #nanargmax(CubedArray, int)} of the flattened array (C order), int64 0-d. */
  public static CubedArray nanargmax(CubedArray x) {
    return nanargmax(flatten("nanargmax", x), 0);
  }

  /**
   * Index of the smallest non-NaN element along one axis (first occurrence), int64. A slice of NaNs
   * only fails the compute (IllegalArgumentException "nanargmin: All-NaN slice encountered").
   *
   * @throws IllegalArgumentException as {@link #nanargmax(CubedArray, int)}
   */
  public static CubedArray nanargmin(CubedArray x, int axis) {
    return nanargmin(x, Axes.of(axis), Xp.AUTO_SPLIT);
  }

  /** {@link #nanargmin(CubedArray, int)} with keepdims ({@code Axes.of(axis).keepDims()}). */
  public static CubedArray nanargmin(CubedArray x, Axes axis, int splitEvery) {
    return Xp.reduce(
        x, realNan(x) ? Reductions.Op.NANARGMIN : Reductions.Op.ARGMIN, axis, splitEvery, 0);
  }

  /** {@link #nanargmin(CubedArray, int)} of the flattened array (C order), int64 0-d. */
  public static CubedArray nanargmin(CubedArray x) {
    return nanargmin(flatten("nanargmin", x), 0);
  }

  /** Real floating (complex goes to the plain op, which refuses it with its own message). */
  private static boolean realNan(CubedArray x) {
    return x.dtype().isRealFloating();
  }

  private static CubedArray flatten(String fn, CubedArray x) {
    if (x.size() == 0) {
      throw new IllegalArgumentException(
          fn
              + ": attempt to get "
              + fn.substring(3)
              + " of an empty sequence (shape "
              + Xp.shapeOf(x)
              + ")");
    }
    return x.ndim() == 1 ? x : Xp.reshape(x, x.size());
  }

  // ------------------------------------------------------------------ pointwise helpers

  /** x with every NaN element (complex: either part NaN) replaced by {@code v}; same dtype. */
  private static CubedArray fillNan(CubedArray x, double v) {
    return ew("nanfill", b -> fill(b[0], v), x);
  }

  private static NDArray fill(NDArray b, double v) {
    NDArray r = b.copy();
    int n = r.size();
    if (r.dtype().isComplex()) {
      for (int i = 0; i < n; i++) {
        if (Double.isNaN(r.getDouble(i)) || Double.isNaN(r.getImag(i))) {
          r.setComplex(i, v, 0);
        }
      }
    } else if (r.dtype() == DType.FLOAT64) {
      double[] d = (double[]) r.data();
      for (int i = 0; i < n; i++) {
        if (Double.isNaN(d[i])) {
          d[i] = v;
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        if (Double.isNaN(r.getDouble(i))) {
          r.setDouble(i, v);
        }
      }
    }
    return r;
  }

  /**
   * The real or imaginary part of complex x (float32 for complex64, float64 for complex128), NaN
   * where either part of the element is NaN (NumPy counts such an element as NaN).
   */
  private static CubedArray nanPart(CubedArray x, boolean imag) {
    return ew(
        imag ? "nanimag" : "nanreal",
        b -> {
          NDArray p = (imag ? Elementwise.imag(b[0]) : Elementwise.real(b[0])).copy();
          int n = p.size();
          for (int i = 0; i < n; i++) {
            if (Double.isNaN(b[0].getDouble(i)) || Double.isNaN(b[0].getImag(i))) {
              p.setDouble(i, Double.NaN);
            }
          }
          return p;
        },
        x);
  }

  private static NDArray complexOf(DType t, NDArray re, NDArray im) {
    NDArray out = NDArray.empty(t, re.shape());
    int n = out.size();
    for (int i = 0; i < n; i++) {
      out.setComplex(i, re.getDouble(i), im.getDouble(i));
    }
    return out;
  }
}
