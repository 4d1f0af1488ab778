package dev.cubed;

import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;

/**
 * The NaN-skipping functions of {@link Xp} (NumPy's {@code nansum}, {@code nanmean}, ...; final and
 * package-private; the contract of {@code Xp.nanmean} is on {@link Xp}). Each is lazy and chunked
 * like its plain counterpart, with the same axes, keepdims ({@code Axes.of(0).keepDims()}) and
 * splitEvery:
 *
 * <ul>
 *   <li>nanmean, nanvar/nanstd, nanmin/nanmax, nanargmin/nanargmax: tree reductions whose states
 *       count only the non-NaN elements (nanmean: (count, total); nanvar: (count, mean, M2) with
 *       Chan's merge; nanmin/nanmax: the best non-NaN value; nanargmin/nanargmax: (index, value)).
 *       Memory as the plain reduction: one block and one state chunk per task.
 *   <li>nansum of real floating arrays and nancount: one pass over each block adding (counting) its
 *       non-NaN elements into float64 states.
 *   <li>nansum of complex arrays, nanprod, nancumsum, nancumprod: NaN replaced by 0 (1 for
 *       products) in a pointwise step fused into the plain reduction or scan (nothing extra is
 *       stored).
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
final class XpNan {
  private XpNan() {}

  private static Axes axesOf(int... axes) {
    return axes.length == 0 ? Axes.all() : Axes.of(axes);
  }

  /** Whether elements of this dtype can be NaN. */
  private static boolean hasNan(CubedArray x) {
    return x.dtype().isFloating();
  }

  // ------------------------------------------------------------------ sums and products

  static CubedArray nansum(CubedArray x, int... axes) {
    return nansum(x, axesOf(axes), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nansum(CubedArray x, Axes axes, int splitEvery) {
    if (x.dtype().isRealFloating()) {
      return XpReduce.reduce(x, Reductions.Op.NANSUM, axes, splitEvery, 0);
    }
    return XpReduce.reduce(hasNan(x) ? fillNan(x, 0) : x, Reductions.Op.SUM, axes, splitEvery, 0);
  }

  static CubedArray nancount(CubedArray x, Axes axes, int splitEvery) {
    if (!x.dtype().isComplex()) {
      return XpReduce.reduce(x, Reductions.Op.NANCOUNT, axes, splitEvery, 0);
    }
    // complex: an element is NaN when either part is
    CubedArray kept = XpUnary.logicalNot(XpUnary.isnan(x));
    return XpUnary.astype(
        XpReduce.reduce(kept, Reductions.Op.SUM, axes, splitEvery, 0), DType.INT64);
  }

  static CubedArray nanprod(CubedArray x, int... axes) {
    return nanprod(x, axesOf(axes), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanprod(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.reduce(hasNan(x) ? fillNan(x, 1) : x, Reductions.Op.PROD, axes, splitEvery, 0);
  }

  static CubedArray nancumsum(CubedArray x, int axis) {
    return XpReduce.cumulativeSum(hasNan(x) ? fillNan(x, 0) : x, axis);
  }

  static CubedArray nancumprod(CubedArray x, int axis) {
    return XpReduce.cumulativeProd(hasNan(x) ? fillNan(x, 1) : x, axis);
  }

  // ------------------------------------------------------------------ statistics

  static CubedArray nanmean(CubedArray x, int... axes) {
    return nanmean(x, axesOf(axes), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanmean(CubedArray x, Axes axes, int splitEvery) {
    if (x.dtype().isComplex()) {
      CubedArray re = nanmean(nanPart(x, false), axes, splitEvery);
      CubedArray im = nanmean(nanPart(x, true), axes, splitEvery);
      DType t = x.dtype();
      return XpBlocks.ew("nanmean", b -> complexOf(t, b[0], b[1]), re, im);
    }
    return XpReduce.reduce(
        x, hasNan(x) ? Reductions.Op.NANMEAN : Reductions.Op.MEAN, axes, splitEvery, 0);
  }

  static CubedArray nanvar(CubedArray x, int... axes) {
    return nanvar(x, axesOf(axes), 0, XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanvar(CubedArray x, Axes axes, int correction, int splitEvery) {
    return moment(x, axes, correction, splitEvery, false);
  }

  static CubedArray nanstd(CubedArray x, int... axes) {
    return nanstd(x, axesOf(axes), 0, XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanstd(CubedArray x, Axes axes, int correction, int splitEvery) {
    return moment(x, axes, correction, splitEvery, true);
  }

  private static CubedArray moment(
      CubedArray x, Axes axes, int correction, int splitEvery, boolean std) {
    if (x.dtype().isComplex()) {
      CubedArray v =
          XpBinary.ADD.apply(
              moment(nanPart(x, false), axes, correction, splitEvery, false),
              moment(nanPart(x, true), axes, correction, splitEvery, false));
      return std ? XpUnary.sqrt(v) : v;
    }
    Reductions.Op op =
        hasNan(x)
            ? (std ? Reductions.Op.NANSTD : Reductions.Op.NANVAR)
            : (std ? Reductions.Op.STD : Reductions.Op.VAR);
    return XpReduce.reduce(x, op, axes, splitEvery, correction);
  }

  // ------------------------------------------------------------------ min, max, arg

  static CubedArray nanmin(CubedArray x, int... axes) {
    return nanmin(x, axesOf(axes), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanmin(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.reduce(
        x, realNan(x) ? Reductions.Op.NANMIN : Reductions.Op.MIN, axes, splitEvery, 0);
  }

  static CubedArray nanmax(CubedArray x, int... axes) {
    return nanmax(x, axesOf(axes), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanmax(CubedArray x, Axes axes, int splitEvery) {
    return XpReduce.reduce(
        x, realNan(x) ? Reductions.Op.NANMAX : Reductions.Op.MAX, axes, splitEvery, 0);
  }

  static CubedArray nanargmax(CubedArray x, int axis) {
    return nanargmax(x, Axes.of(axis), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanargmax(CubedArray x, Axes axis, int splitEvery) {
    return XpReduce.reduce(
        x, realNan(x) ? Reductions.Op.NANARGMAX : Reductions.Op.ARGMAX, axis, splitEvery, 0);
  }

  static CubedArray nanargmax(CubedArray x) {
    return nanargmax(flatten("nanargmax", x), 0);
  }

  static CubedArray nanargmin(CubedArray x, int axis) {
    return nanargmin(x, Axes.of(axis), XpReduce.AUTO_SPLIT);
  }

  static CubedArray nanargmin(CubedArray x, Axes axis, int splitEvery) {
    return XpReduce.reduce(
        x, realNan(x) ? Reductions.Op.NANARGMIN : Reductions.Op.ARGMIN, axis, splitEvery, 0);
  }

  static CubedArray nanargmin(CubedArray x) {
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
              + XpBlocks.shapeOf(x)
              + ")");
    }
    return x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
  }

  // ------------------------------------------------------------------ pointwise helpers

  /** x with every NaN element (complex: either part NaN) replaced by {@code v}; same dtype. */
  private static CubedArray fillNan(CubedArray x, double v) {
    return XpBlocks.ew("nanfill", b -> fill(b[0], v), x);
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
    return XpBlocks.ew(
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
