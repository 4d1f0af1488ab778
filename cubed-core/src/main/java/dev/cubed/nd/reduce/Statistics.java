package dev.cubed.nd.reduce;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.WideArrays;

/**
 * The standard's statistical functions on one in-memory array: sum, prod, min, max, mean, var, std
 * over any axis tuple with keepdims ({@link Axes}), and the cumulative sum and product along one
 * axis.
 *
 * <p>Result dtypes follow the standard and NumPy: sum and prod of bool and signed integers give
 * int64, of unsigned integers uint64 (both wrap on overflow); floating types keep their dtype
 * (float32 sums accumulate in double and round once); mean, var and std of integers give float64;
 * var and std of complex give the real dtype. min and max keep the dtype, propagate NaN, and are
 * not defined for complex (the standard gives complex no order) nor over an empty axis.
 */
public final class Statistics {
  private Statistics() {}

  /** How cumulative functions treat the start: the standard's {@code include_initial}. */
  public enum Initial {
    /** The result has the input's length along the axis (the default). */
    EXCLUDE,
    /** The result starts with the identity (0 for sums, 1 for products): one longer. */
    INCLUDE
  }

  /**
   * The float64 sum of {@code x[from, from + n)} in the order every float64 sum of this library
   * uses along a contiguous run: eight interleaved partial sums (element {@code k} into partial
   * {@code k % 8}) combined pairwise, then the last {@code n % 8} elements in order. As accurate as
   * a shallow pairwise sum and vectorizable. The chunked reductions sum a chunk's rows with it, so
   * their row sums equal this kernel's.
   */
  public static double sumRun(double[] x, int from, int n) {
    return ReduceLoops.sumRun(x, from, n);
  }

  /** Sum over all axes; see the class comment for dtypes. */
  public static NDArray sum(NDArray x) {
    return sum(x, Axes.all());
  }

  /** Sum over the axes; see the class comment for dtypes. */
  public static NDArray sum(NDArray x, Axes axes) {
    return sumProd("sum", x, axes, ReduceLoops.Op.SUM, null);
  }

  /** Sum computed in and returned as {@code dtype} (the standard's {@code dtype} argument). */
  public static NDArray sum(NDArray x, Axes axes, DType dtype) {
    return sumProd("sum", x, axes, ReduceLoops.Op.SUM, dtype);
  }

  public static NDArray prod(NDArray x) {
    return prod(x, Axes.all());
  }

  public static NDArray prod(NDArray x, Axes axes) {
    return sumProd("prod", x, axes, ReduceLoops.Op.PROD, null);
  }

  public static NDArray prod(NDArray x, Axes axes, DType dtype) {
    return sumProd("prod", x, axes, ReduceLoops.Op.PROD, dtype);
  }

  public static NDArray min(NDArray x) {
    return min(x, Axes.all());
  }

  /** Minimum over the axes (NaN propagates); an empty reduction is an error. */
  public static NDArray min(NDArray x, Axes axes) {
    return minMax("min", x, axes, ReduceLoops.Op.MIN);
  }

  public static NDArray max(NDArray x) {
    return max(x, Axes.all());
  }

  /** Maximum over the axes (NaN propagates); an empty reduction is an error. */
  public static NDArray max(NDArray x, Axes axes) {
    return minMax("max", x, axes, ReduceLoops.Op.MAX);
  }

  public static NDArray mean(NDArray x) {
    return mean(x, Axes.all());
  }

  /** Arithmetic mean (NaN for an empty reduction, as NumPy). */
  public static NDArray mean(NDArray x, Axes axes) {
    checkNumeric("mean", x);
    ReduceLayout l = ReduceLayout.of("mean", x, axes);
    DType rt = x.dtype().defaultFloating();
    if (rt.isComplex()) {
      double[] s = ReduceLoops.complexes(WideArrays.complexes(l.data), l, ReduceLoops.Op.SUM);
      for (int i = 0; i < s.length; i += 2) {
        // NumPy divides by the count as a complex number (Smith's algorithm), so a NaN or an
        // infinity in one part makes the other part NaN too
        double a = s[i];
        double b = s[i + 1];
        s[i] = (a + b * 0.0) / l.reduced;
        s[i + 1] = (b - a * 0.0) / l.reduced;
      }
      return WideArrays.fromComplexes(rt, l.outShape, s);
    }
    double[] s = ReduceLoops.doubles(WideArrays.doubles(l.data), l, ReduceLoops.Op.SUM);
    for (int i = 0; i < s.length; i++) {
      s[i] /= l.reduced;
    }
    return WideArrays.fromDoubles(rt, l.outShape, s);
  }

  public static NDArray var(NDArray x) {
    return var(x, Axes.all(), 0);
  }

  /**
   * Variance with {@code correction} degrees of freedom removed (0: population, 1: sample). Complex
   * input gives the real dtype: the sum of the variances of the two parts.
   */
  public static NDArray var(NDArray x, Axes axes, double correction) {
    return varStd("var", x, axes, correction, false);
  }

  public static NDArray std(NDArray x) {
    return std(x, Axes.all(), 0);
  }

  /** Standard deviation: the square root of {@link #var(NDArray, Axes, double)}. */
  public static NDArray std(NDArray x, Axes axes, double correction) {
    return varStd("std", x, axes, correction, true);
  }

  /** Cumulative sum along an axis (the only axis of a 1-d array by default). */
  public static NDArray cumulativeSum(NDArray x, int axis, Initial initial) {
    return Cumulative.run("cumulative_sum", x, axis, initial, ReduceLoops.Op.SUM);
  }

  /** Cumulative sum of a 1-d array. */
  public static NDArray cumulativeSum(NDArray x) {
    return cumulativeSum(x, oneAxis("cumulative_sum", x), Initial.EXCLUDE);
  }

  /** Cumulative product along an axis. */
  public static NDArray cumulativeProd(NDArray x, int axis, Initial initial) {
    return Cumulative.run("cumulative_prod", x, axis, initial, ReduceLoops.Op.PROD);
  }

  /** Cumulative product of a 1-d array. */
  public static NDArray cumulativeProd(NDArray x) {
    return cumulativeProd(x, oneAxis("cumulative_prod", x), Initial.EXCLUDE);
  }

  // ---------------------------------------------------------------- shared

  private static int oneAxis(String fn, NDArray x) {
    if (x.ndim() != 1) {
      throw new IllegalArgumentException(
          fn
              + ": an array of shape "
              + Shapes.format(x.shape())
              + " needs an explicit axis; only 1-d arrays default to axis 0");
    }
    return 0;
  }

  static void checkNumeric(String fn, NDArray x) {
    if (!x.dtype().isNumeric()) {
      throw new IllegalArgumentException(
          fn
              + ": dtype "
              + x.dtype()
              + " is not supported: "
              + fn
              + " is defined for numeric dtypes (integer, real or complex floating)");
    }
  }

  /** The dtype sum and prod give by default. */
  static DType sumType(DType in) {
    if (in.isBool() || in.isSigned()) {
      return DType.INT64;
    }
    return in.isUnsigned() ? DType.UINT64 : in;
  }

  private static NDArray sumProd(String fn, NDArray x, Axes axes, ReduceLoops.Op op, DType dtype) {
    if (x.dtype().isBool() && dtype == null) {
      x = x.astype(DType.INT64);
    }
    checkNumeric(fn, x);
    DType rt = dtype != null ? dtype : sumType(x.dtype());
    NDArray in = x.dtype() == rt || (rt.isInteger() && x.dtype().isInteger()) ? x : x.astype(rt);
    ReduceLayout l = ReduceLayout.of(fn, in, axes);
    if (rt.isComplex()) {
      return WideArrays.fromComplexes(
          rt, l.outShape, ReduceLoops.complexes(WideArrays.complexes(l.data), l, op));
    }
    if (rt.isRealFloating()) {
      return WideArrays.fromDoubles(
          rt, l.outShape, ReduceLoops.doubles(WideArrays.doubles(l.data), l, op));
    }
    return WideArrays.fromLongs(
        rt, l.outShape, ReduceLoops.longs(WideArrays.longs(l.data), l, op, false));
  }

  private static NDArray minMax(String fn, NDArray x, Axes axes, ReduceLoops.Op op) {
    DType dt = x.dtype();
    if (dt.isComplex()) {
      throw new IllegalArgumentException(
          fn
              + ": dtype "
              + dt
              + " is not supported: "
              + fn
              + " is defined for real dtypes (complex numbers have no order)");
    }
    ReduceLayout l = ReduceLayout.of(fn, x, axes);
    if (l.reduced == 0 && l.outSize() > 0) {
      throw new IllegalArgumentException(
          fn
              + ": zero-size reduction over the axes "
              + axes
              + " of shape "
              + Shapes.format(x.shape())
              + ": "
              + fn
              + " has no identity, so every"
              + " reduced run must hold at least one element");
    }
    if (dt.isBool()) {
      NDArray asInt = x.astype(DType.INT8);
      ReduceLayout li = ReduceLayout.of(fn, asInt, axes);
      return WideArrays.fromLongs(
              DType.INT8, li.outShape, ReduceLoops.longs(WideArrays.longs(li.data), li, op, false))
          .astype(DType.BOOL);
    }
    if (dt.isRealFloating()) {
      return WideArrays.fromDoubles(
          dt, l.outShape, ReduceLoops.doubles(WideArrays.doubles(l.data), l, op));
    }
    return WideArrays.fromLongs(
        dt, l.outShape, ReduceLoops.longs(WideArrays.longs(l.data), l, op, dt == DType.UINT64));
  }

  private static NDArray varStd(String fn, NDArray x, Axes axes, double correction, boolean sqrt) {
    checkNumeric(fn, x);
    ReduceLayout l = ReduceLayout.of(fn, x, axes);
    DType rt = x.dtype().defaultFloating().realPart();
    int n = l.reduced;
    double[] out = new double[l.outSize()];
    if (x.dtype().isComplex()) {
      double[] c = WideArrays.complexes(l.data);
      double[] re = new double[c.length / 2];
      double[] im = new double[c.length / 2];
      for (int i = 0; i < re.length; i++) {
        re[i] = c[2 * i];
        im[i] = c[2 * i + 1];
      }
      double[] vr = centeredSquares(re, l);
      double[] vi = centeredSquares(im, l);
      for (int i = 0; i < out.length; i++) {
        out[i] = vr[i] + vi[i];
      }
    } else {
      out = centeredSquares(WideArrays.doubles(l.data), l);
    }
    double dof = n - correction;
    for (int i = 0; i < out.length; i++) {
      double v = out[i] / Math.max(dof, 0);
      out[i] = sqrt ? Math.sqrt(v) : v;
    }
    return WideArrays.fromDoubles(rt, l.outShape, out);
  }

  /** Sum of squared deviations from the mean per output element (two passes). */
  private static double[] centeredSquares(double[] x, ReduceLayout l) {
    double[] mean = ReduceLoops.doubles(x, l, ReduceLoops.Op.SUM);
    for (int i = 0; i < mean.length; i++) {
      mean[i] /= l.reduced;
    }
    double[] out = new double[mean.length];
    for (int o = 0; o < l.outer; o++) {
      for (int k = 0; k < l.reduced; k++) {
        for (int i = 0; i < l.inner; i++) {
          double d = x[l.at(o, k, i)] - mean[o * l.inner + i];
          out[o * l.inner + i] += d * d;
        }
      }
    }
    return out;
  }
}
