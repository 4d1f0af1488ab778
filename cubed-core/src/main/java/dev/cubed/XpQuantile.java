package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code quantile} and {@code nanquantile} (NumPy's, method "linear") on chunked arrays (final and
 * package-private; the contract of {@code Xp.quantile} is on {@link Xp}). Lazy and bounded: the
 * reduced axes are moved last and merged into one; float64 lanes that fit a task are sorted and
 * read in one op ({@link XpQuantileLanes}). Otherwise the lanes are sorted with {@link
 * Xp#sort(CubedArray, int)} (NaN last; one block per lane when a lane fits a task, else the
 * distributed sample sort), then each quantile is read from the sorted lanes: without NaN-skipping
 * the two neighbouring positions are fixed slices; with it (the non-NaN count differs per lane)
 * each position is picked by a mask of the lane's positions and a sum, so every quantile costs two
 * passes over the sorted array. No task holds more than a lane's block and its mask.
 */
final class XpQuantile {
  private XpQuantile() {}

  static CubedArray quantile(CubedArray x, double[] q, int... axes) {
    return quantile(x, q, axes, false);
  }

  static CubedArray nanquantile(CubedArray x, double[] q, int... axes) {
    return quantile(x, q, axes, true);
  }

  static CubedArray quantile(CubedArray x, NDArray q, int... axes) {
    return quantile(x, doubles("quantile", q), axes, false);
  }

  static CubedArray nanquantile(CubedArray x, NDArray q, int... axes) {
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
    CubedArray y = x.dtype() == out ? x : XpUnary.astype(x, out);
    y = XpManip.permuteDims(y, perm);
    long[] flat = new long[rest.size() + 1];
    for (int i = 0; i < rest.size(); i++) {
      flat[i] = rest.get(i);
    }
    flat[rest.size()] = m;
    if (ax.length != 1) {
      y = XpManip.reshape(y, flat);
    }
    CubedArray fused = XpQuantileLanes.of(y, q, skipNan);
    if (fused != null) {
      return fused;
    }
    CubedArray s = XpSort.sort(y, -1);
    List<CubedArray> qs = new ArrayList<>(q.length);
    if (!skipNan) {
      CubedArray anyNan = out.isFloating() ? XpUnary.isnan(last(s, m - 1)) : null;
      for (double v : q) {
        double k = (m - 1) * v;
        long lo = (long) Math.floor(k);
        long hi = Math.min(lo + 1, m - 1);
        CubedArray r = lerp(last(s, lo), last(s, hi), k - lo);
        qs.add(anyNan == null ? r : XpSearch.where(anyNan, Double.NaN, r));
      }
    } else {
      CubedArray cnt =
          XpReduce.sum(XpUnary.astype(XpUnary.logicalNot(XpUnary.isnan(s)), DType.FLOAT64), -1);
      long chunk = s.chunkShape()[s.ndim() - 1];
      CubedArray pos = XpCreate.arange(0, m, 1, DType.FLOAT64, Math.max(1, chunk), x.spec());
      for (double v : q) {
        CubedArray k = XpBinary.MULTIPLY.apply(XpBinary.SUBTRACT.apply(cnt, 1.0), v);
        CubedArray lo = XpUnary.floor(k);
        CubedArray hi =
            XpBinary.MINIMUM.apply(XpBinary.ADD.apply(lo, 1.0), XpBinary.SUBTRACT.apply(cnt, 1.0));
        CubedArray frac = XpUnary.astype(XpBinary.SUBTRACT.apply(k, lo), out);
        CubedArray r = lerp(pick(s, pos, lo), pick(s, pos, hi), frac);
        qs.add(XpSearch.where(XpBinary.EQUAL.apply(cnt, 0.0), Double.NaN, r));
      }
    }
    return XpManip.stack(qs, 0);
  }

  /** The values of the sorted lanes at the (per-lane) positions: a mask of the position, summed. */
  private static CubedArray pick(CubedArray s, CubedArray pos, CubedArray at) {
    CubedArray mask = XpBinary.EQUAL.apply(pos, XpManip.expandDims(at, at.ndim()));
    return XpReduce.sum(XpSearch.where(mask, s, 0.0), -1);
  }

  /** {@code s[..., i]}. */
  private static CubedArray last(CubedArray s, long i) {
    Index[] idx = new Index[s.ndim()];
    Arrays.fill(idx, Index.all());
    idx[s.ndim() - 1] = Index.at(i);
    return XpManip.getItem(s, idx);
  }

  /** NumPy's linear interpolation: a + (b - a) t, or b - (b - a)(1 - t) from t = 0.5 on. */
  private static CubedArray lerp(CubedArray a, CubedArray b, Object t) {
    CubedArray diff = XpBinary.SUBTRACT.apply(b, a);
    if (t instanceof Double d) {
      return d >= 0.5
          ? XpBinary.SUBTRACT.apply(b, XpBinary.MULTIPLY.apply(diff, 1 - d))
          : XpBinary.ADD.apply(a, XpBinary.MULTIPLY.apply(diff, d));
    }
    CubedArray tt = (CubedArray) t;
    return XpSearch.where(
        XpBinary.GREATER_EQUAL.apply(tt, 0.5),
        XpBinary.SUBTRACT.apply(b, XpBinary.MULTIPLY.apply(diff, XpBinary.SUBTRACT.apply(1.0, tt))),
        XpBinary.ADD.apply(a, XpBinary.MULTIPLY.apply(diff, tt)));
  }

  private static int[] range(int n) {
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = i;
    }
    return r;
  }
}
