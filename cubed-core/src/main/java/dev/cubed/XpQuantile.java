package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code quantile} and {@code nanquantile} (NumPy's, method "linear") on chunked arrays (reached as
 * {@code Xp.quantile}; this class is not public). Lazy and bounded: the reduced axes are moved last
 * and merged into one, the lanes sorted with {@link Xp#sort(CubedArray, int)} (NaN last; one block
 * per lane when a lane fits a task, else the distributed sample sort), then each quantile is read
 * from the sorted lanes: without NaN-skipping the two neighbouring positions are fixed slices; with
 * it (the non-NaN count differs per lane) each position is picked by a mask of the lane's positions
 * and a sum, so every quantile costs two passes over the sorted array. No task holds more than a
 * lane's block and its mask.
 */
class XpQuantile extends XpEinsum {
  XpQuantile() {}

  /**
   * The q-th quantiles of x over the axes (all for none), NumPy's default "linear" method: for a
   * lane of n sorted values v, position {@code (n - 1) * q} interpolated between its neighbours.
   * The result has one leading axis per q ({@code q.length}), then x's other axes; its dtype is x's
   * for floating x, float64 for integer and bool x. A lane holding NaN gives NaN.
   *
   * @throws IllegalArgumentException for a q outside [0, 1], no q, a complex x, or repeated or
   *     out-of-range axes
   */
  public static CubedArray quantile(CubedArray x, double[] q, int... axes) {
    return quantile(x, q, axes, false);
  }

  /**
   * {@link #quantile} skipping NaN: each lane's quantiles among its non-NaN values (n their count);
   * a lane of NaN only gives NaN (NumPy warns there).
   */
  public static CubedArray nanquantile(CubedArray x, double[] q, int... axes) {
    return quantile(x, q, axes, true);
  }

  /** {@link #quantile(CubedArray, double[], int...)} with the quantiles in a 0-d or 1-D array. */
  public static CubedArray quantile(CubedArray x, NDArray q, int... axes) {
    return quantile(x, doubles("quantile", q), axes, false);
  }

  /** {@link #nanquantile(CubedArray, double[], int...)} with the quantiles in an array. */
  public static CubedArray nanquantile(CubedArray x, NDArray q, int... axes) {
    return quantile(x, doubles("nanquantile", q), axes, true);
  }

  private static double[] doubles(String fn, NDArray q) {
    if (q.ndim() > 1 || q.dtype().isComplex()) {
      throw new IllegalArgumentException(
          fn
              + ": q must be a number or a 1-d array of numbers,"
              + " got "
              + q.dtype()
              + " of shape "
              + Shapes.format(q.shape()));
    }
    double[] d = new double[q.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = q.getDouble(i);
    }
    return d;
  }

  private static CubedArray quantile(CubedArray x, double[] q, int[] axes, boolean skipNan) {
    String fn = skipNan ? "nanquantile" : "quantile";
    if (q.length == 0) {
      throw new IllegalArgumentException(fn + ": no quantile given");
    }
    for (double v : q) {
      if (!(v >= 0 && v <= 1)) {
        throw new IllegalArgumentException(fn + ": quantile " + v + " is outside [0, 1]");
      }
    }
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException(
          fn + ": complex values are not ordered (got " + x.dtype() + ")");
    }
    int nd = x.ndim();
    boolean[] reduced = new boolean[nd];
    int[] ax = axes.length == 0 ? range(nd) : axes;
    for (int a : ax) {
      int d = Shapes.normalizeAxis(fn, a, nd);
      if (reduced[d]) {
        throw new IllegalArgumentException(
            fn + ": axis " + a + " is repeated in " + Arrays.toString(axes));
      }
      reduced[d] = true;
    }
    int[] perm = new int[nd];
    List<Long> rest = new ArrayList<>();
    int p = 0;
    long m = 1;
    for (int d = 0; d < nd; d++) {
      if (!reduced[d]) {
        perm[p++] = d;
        rest.add(x.shape()[d]);
      }
    }
    for (int d = 0; d < nd; d++) {
      if (reduced[d]) {
        perm[p++] = d;
        m *= x.shape()[d];
      }
    }
    if (m == 0) {
      throw new IllegalArgumentException(
          fn + ": no values along the reduced axes (shape " + Shapes.format(x.shape()) + ")");
    }
    DType out = x.dtype().isFloating() ? x.dtype() : DType.FLOAT64;
    CubedArray y = x.dtype() == out ? x : Xp.astype(x, out);
    y = Xp.permuteDims(y, perm);
    long[] flat = new long[rest.size() + 1];
    for (int i = 0; i < rest.size(); i++) {
      flat[i] = rest.get(i);
    }
    flat[rest.size()] = m;
    if (ax.length != 1) {
      y = Xp.reshape(y, flat);
    }
    CubedArray s = Xp.sort(y, -1);
    List<CubedArray> qs = new ArrayList<>(q.length);
    if (!skipNan) {
      CubedArray anyNan = out.isFloating() ? Xp.isnan(last(s, m - 1)) : null;
      for (double v : q) {
        double k = (m - 1) * v;
        long lo = (long) Math.floor(k);
        long hi = Math.min(lo + 1, m - 1);
        CubedArray r = lerp(last(s, lo), last(s, hi), k - lo);
        qs.add(anyNan == null ? r : Xp.where(anyNan, Double.NaN, r));
      }
    } else {
      CubedArray cnt = Xp.sum(Xp.astype(Xp.logicalNot(Xp.isnan(s)), DType.FLOAT64), -1);
      long chunk = s.chunkShape()[s.ndim() - 1];
      CubedArray pos = Xp.arange(0, m, 1, DType.FLOAT64, Math.max(1, chunk), x.spec());
      for (double v : q) {
        CubedArray k = Xp.multiply(Xp.subtract(cnt, 1.0), v);
        CubedArray lo = Xp.floor(k);
        CubedArray hi = Xp.minimum(Xp.add(lo, 1.0), Xp.subtract(cnt, 1.0));
        CubedArray frac = Xp.astype(Xp.subtract(k, lo), out);
        CubedArray r = lerp(pick(s, pos, lo), pick(s, pos, hi), frac);
        qs.add(Xp.where(Xp.equal(cnt, 0.0), Double.NaN, r));
      }
    }
    return Xp.stack(qs, 0);
  }

  /** The values of the sorted lanes at the (per-lane) positions: a mask of the position, summed. */
  private static CubedArray pick(CubedArray s, CubedArray pos, CubedArray at) {
    CubedArray mask = Xp.equal(pos, Xp.expandDims(at, at.ndim()));
    return Xp.sum(Xp.where(mask, s, 0.0), -1);
  }

  /** {@code s[..., i]}. */
  private static CubedArray last(CubedArray s, long i) {
    dev.cubed.nd.Index[] idx = new dev.cubed.nd.Index[s.ndim()];
    Arrays.fill(idx, dev.cubed.nd.Index.all());
    idx[s.ndim() - 1] = dev.cubed.nd.Index.at(i);
    return Xp.getItem(s, idx);
  }

  /** NumPy's linear interpolation: a + (b - a) t, or b - (b - a)(1 - t) from t = 0.5 on. */
  private static CubedArray lerp(CubedArray a, CubedArray b, Object t) {
    CubedArray diff = Xp.subtract(b, a);
    if (t instanceof Double d) {
      return d >= 0.5 ? Xp.subtract(b, Xp.multiply(diff, 1 - d)) : Xp.add(a, Xp.multiply(diff, d));
    }
    CubedArray tt = (CubedArray) t;
    return Xp.where(
        Xp.greaterEqual(tt, 0.5),
        Xp.subtract(b, Xp.multiply(diff, Xp.subtract(1.0, tt))),
        Xp.add(a, Xp.multiply(diff, tt)));
  }

  private static int[] range(int n) {
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = i;
    }
    return r;
  }
}
