package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Positional;
import dev.cubed.core.Reductions;
import dev.cubed.core.Selection;
import dev.cubed.core.Take;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.reduce.Searching;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Searching, selection and data-type functions of {@link Xp} (final and package-private; the
 * contract of {@code Xp.where} is on {@link Xp}): flattened {@code argmax}/{@code argmin}, {@code
 * count_nonzero}, {@code where}, {@code clip}, {@code result_type}, {@code can_cast}.
 */
final class XpSearch {
  private XpSearch() {}

  static CubedArray countNonzero(CubedArray x, int... axes) {
    return countNonzero(x, axes.length == 0 ? Axes.all() : Axes.of(axes));
  }

  static CubedArray countNonzero(CubedArray x, Axes axes) {
    CubedArray t = XpBlocks.ew("count_nonzero", b -> b[0].astype(DType.BOOL), x);
    CubedArray s = XpReduce.reduce(t, Reductions.Op.SUM, axes, XpReduce.DEFAULT_SPLIT_EVERY, 0);
    return XpUnary.astype(s, DType.INT64);
  }

  static CubedArray where(CubedArray condition, CubedArray x1, CubedArray x2) {
    // a 0-d operand (xarray's fillna value) is read as a value, not broadcast to each block; so
    // is a constant array no larger than the other two together (xarray's nansum passes
    // zeros_like(x)), made 0-d here
    x1 = constantAsValue(x1, condition, x2);
    x2 = constantAsValue(x2, condition, x1);
    return XpBlocks.ew(
        "where",
        (Core.PointwiseInto & Core.TakesScalars) (buf, b) -> Searching.where(b[0], b[1], b[2], buf),
        condition,
        x1,
        x2);
  }

  /**
   * {@code x} as a 0-d array of its dtype when it is a constant ({@link Core#fillValue}) whose
   * shape adds nothing to the broadcast of {@code a} and {@code b}; else {@code x}.
   */
  private static CubedArray constantAsValue(CubedArray x, CubedArray a, CubedArray b) {
    Object v = Core.fillValue(x.node());
    if (v == null || x.ndim() == 0) {
      return x;
    }
    long[] rest = Shapes.broadcast("where", a.shape(), b.shape());
    if (!Arrays.equals(Shapes.broadcast("where", rest, x.shape()), rest)) {
      return x;
    }
    return XpCreate.full(new long[0], v, x.dtype(), new long[0], x.spec());
  }

  static CubedArray where(CubedArray condition, CubedArray x1, Object x2) {
    Object s = XpBlocks.scalar("where", x2);
    return XpBlocks.ewInto("where", (buf, b) -> Searching.where(b[0], b[1], s, buf), condition, x1);
  }

  static CubedArray where(CubedArray condition, Object x1, CubedArray x2) {
    Object s = XpBlocks.scalar("where", x1);
    return XpBlocks.ewInto("where", (buf, b) -> Searching.where(b[0], s, b[1], buf), condition, x2);
  }

  static CubedArray clip(CubedArray x, Object min, Object max) {
    boolean minArr = min instanceof CubedArray;
    boolean maxArr = max instanceof CubedArray;
    Object lo = min == null || minArr ? null : XpBlocks.scalar("clip", min);
    Object hi = max == null || maxArr ? null : XpBlocks.scalar("clip", max);
    if (minArr && maxArr) {
      return XpBlocks.ew(
          "clip", b -> Elementwise.clip(b[0], b[1], b[2]), x, (CubedArray) min, (CubedArray) max);
    } else if (minArr) {
      return XpBlocks.ew(
          "clip",
          b -> Elementwise.clip(Elementwise.clip(b[0], b[1], null), null, hi),
          x,
          (CubedArray) min);
    } else if (maxArr) {
      return XpBlocks.ew(
          "clip",
          b -> Elementwise.clip(Elementwise.clip(b[0], lo, null), null, b[1]),
          x,
          (CubedArray) max);
    }
    return XpBlocks.ewInto("clip", (buf, b) -> Elementwise.clip(b[0], lo, hi, buf), x);
  }

  static CubedArray isin(CubedArray x1, CubedArray x2) {
    return isin(x1, x2, false);
  }

  static CubedArray isin(CubedArray x1, CubedArray x2, boolean invert) {
    if (x2.size() == 0) {
      return XpManip.fullLike(x1, invert, DType.BOOL);
    }
    return XpBlocks.wrap(Positional.isin(x1.node(), x2.node(), invert), x1);
  }

  static CubedArray isin(Object x1, CubedArray x2) {
    return isin(x1, x2, false);
  }

  static CubedArray isin(Object x1, CubedArray x2, boolean invert) {
    return isin(scalarArray("isin", x1, x2.spec()), x2, invert);
  }

  static CubedArray isin(CubedArray x1, Object x2) {
    return isin(x1, x2, false);
  }

  static CubedArray isin(CubedArray x1, Object x2, boolean invert) {
    return isin(x1, scalarArray("isin", x2, x1.spec()), invert);
  }

  /** A 0-d array holding a lone scalar at the dtype NumPy gives it (uint64 past int64's range). */
  private static CubedArray scalarArray(String fn, Object v, Spec spec) {
    XpBlocks.scalar(fn, v);
    DType dt = DType.ofScalar(v);
    if (v instanceof BigInteger b && b.bitLength() > 63) {
      if (b.signum() < 0 || b.bitLength() > 64) {
        throw new IllegalArgumentException(
            fn + ": the integer " + b + " fits neither int64 nor " + "uint64");
      }
      dt = DType.UINT64;
    }
    return XpCreate.full(new long[0], v, dt, new long[0], spec);
  }

  static CubedArray take(CubedArray x, NDArray indices, int axis) {
    int ax = Shapes.normalizeAxis("take", axis, x.ndim());
    if (indices.ndim() == 1 || !indices.dtype().isInteger()) {
      return XpBlocks.wrap(Take.take(x.node(), indices, ax), x);
    }
    CubedArray flat = XpBlocks.wrap(Take.take(x.node(), indices.reshape(indices.size()), ax), x);
    long[] s = x.shape();
    long[] is = indices.shape();
    long[] out = new long[s.length - 1 + is.length];
    System.arraycopy(s, 0, out, 0, ax);
    System.arraycopy(is, 0, out, ax, is.length);
    System.arraycopy(s, ax + 1, out, ax + is.length, s.length - ax - 1);
    return XpManip.reshape(flat, out);
  }

  static CubedArray takeAlongAxis(CubedArray x, NDArray indices, int axis) {
    return XpBlocks.wrap(Take.takeAlongAxis(x.node(), indices, axis), x);
  }

  static CubedArray take(CubedArray x, NDArray indices) {
    if (x.ndim() != 1) {
      throw new IllegalArgumentException(
          "take: axis is required for an array of shape "
              + XpBlocks.shapeOf(x)
              + "; it may be omitted only for 1-d arrays");
    }
    return take(x, indices, 0);
  }

  static CubedArray searchsorted(CubedArray x1, CubedArray x2) {
    return searchsorted(x1, x2, Searching.Side.LEFT);
  }

  static CubedArray searchsorted(CubedArray x1, CubedArray x2, Searching.Side side) {
    return XpBlocks.wrap(Positional.searchsorted(x1.node(), x2.node(), side), x2);
  }

  static CubedArray searchsorted(
      CubedArray x1, CubedArray x2, Searching.Side side, CubedArray sorter) {
    if (sorter == null) {
      return searchsorted(x1, x2, side);
    }
    if (sorter.ndim() != 1
        || !sorter.dtype().isInteger()
        || x1.ndim() != 1
        || sorter.shape()[0] != x1.shape()[0]) {
      throw new IllegalArgumentException(
          "searchsorted: sorter must be a 1-d integer array of "
              + "x1's length (indices that sort x1, e.g. argsort(x1)), got "
              + sorter.dtype()
              + " "
              + XpBlocks.shapeOf(sorter)
              + " for x1 of shape "
              + XpBlocks.shapeOf(x1));
    }
    CubedArray sorted = x1;
    if (x1.size() > 0) {
      sorted =
          XpBlocks.mapBlocks(
              b -> Indexing.take(b[0], b[1], 0),
              x1.dtype(),
              XpBlocks.rechunk(x1, -1),
              XpBlocks.rechunk(sorter, -1));
    }
    return searchsorted(sorted, x2, side);
  }

  static List<CubedArray> nonzero(CubedArray x) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          "nonzero: a 0-d array is not allowed (the standard "
              + "requires at least 1 dimension); use expand_dims first");
    }
    CubedArray flat = x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
    long[] counts = blockCounts(flat);
    List<CubedArray> out = new ArrayList<>();
    for (int d = 0; d < x.ndim(); d++) {
      out.add(XpBlocks.wrap(Selection.nonzeroCoordinate(flat.node(), counts, x.shape(), d), x));
    }
    return out;
  }

  static CubedArray getMask(CubedArray x, CubedArray mask) {
    if (mask.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(
          "mask indexing: the mask must be bool, got " + mask.dtype());
    }
    if (mask.ndim() == 0) {
      CubedArray e = XpManip.expandDims(x, 0);
      return mask.compute().getBoolean(0) ? e : XpManip.getItem(e, Index.slice(0L, 0L));
    }
    if (mask.ndim() >= 1
        && mask.ndim() < x.ndim()
        && Arrays.equals(mask.shape(), Arrays.copyOf(x.shape(), mask.ndim()))) {
      return XpSort.getMaskLeading(x, mask);
    }
    if (!Arrays.equals(mask.shape(), x.shape())) {
      throw new IndexOutOfBoundsException(
          "mask indexing: mask shape "
              + XpBlocks.shapeOf(mask)
              + " is neither x's "
              + XpBlocks.shapeOf(x)
              + " nor a prefix of it (x's leading "
              + "dimensions); give a mask of x's shape or of its first dimensions");
    }
    CubedArray fx = x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
    CubedArray fm = mask.ndim() == 1 ? mask : XpManip.reshape(mask, mask.size());
    if (!fm.node().chunkGrid().equals(fx.node().chunkGrid())) {
      fm = XpBlocks.rechunk(fm, fx.chunks());
    }
    long[] counts = blockCounts(fm);
    return XpBlocks.wrap(Selection.masked(fx.node(), fm.node(), counts), x);
  }

  private static long[] blockCounts(CubedArray flat) {
    if (flat.size() == 0) {
      return new long[0];
    }
    NDArray c = XpBlocks.wrap(Selection.counts(flat.node()), flat).compute();
    long[] r = new long[c.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = c.getLong(i);
    }
    return r;
  }

  static DType resultType(Object... arraysAndDtypes) {
    Object[] a = new Object[arraysAndDtypes.length];
    for (int i = 0; i < a.length; i++) {
      a[i] = arraysAndDtypes[i] instanceof CubedArray c ? c.dtype() : arraysAndDtypes[i];
    }
    return DataTypes.resultType(a);
  }

  static boolean canCast(CubedArray from, DType to) {
    return DataTypes.canCast(from.dtype(), to);
  }

  static boolean canCast(DType from, DType to) {
    return DataTypes.canCast(from, to);
  }

  static ArrayApiInfo info() {
    return ArrayApiInfo.INSTANCE;
  }
}
