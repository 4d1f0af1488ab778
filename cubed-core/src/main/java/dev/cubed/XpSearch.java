package dev.cubed;

import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.Elementwise;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Searching;

/**
 * Searching, selection and data-type functions of {@link Xp} (reached as {@code Xp.where} etc.;
 * this class is not public): flattened {@code argmax}/{@code argmin}, {@code count_nonzero}, {@code
 * where}, {@code clip}, {@code result_type}, {@code can_cast}.
 */
class XpSearch extends XpArith {
  XpSearch() {}

  /**
   * Index of the maximum of the flattened array (C order; first occurrence, the first NaN wins), as
   * int64 0-d. Memory: the array is reshaped to 1-D (rechunked to contiguous blocks when its blocks
   * are not, bounded), then a tree reduction keeping (value, index) per block.
   *
   * @throws IllegalArgumentException for complex dtypes or an empty array (refused when built)
   */
  public static CubedArray argmax(CubedArray x) {
    return Xp.argmax(flat("argmax", x), 0);
  }

  /**
   * Index of the minimum of the flattened array (C order; first occurrence, the first NaN wins), as
   * int64 0-d. Memory as {@link #argmax(CubedArray)}.
   *
   * @throws IllegalArgumentException for complex dtypes or an empty array (refused when built)
   */
  public static CubedArray argmin(CubedArray x) {
    return Xp.argmin(flat("argmin", x), 0);
  }

  private static CubedArray flat(String fn, CubedArray x) {
    if (x.size() == 0) {
      throw new IllegalArgumentException(
          fn + ": attempt to get " + fn + " of an empty sequence (shape " + Xp.shapeOf(x) + ")");
    }
    return x.ndim() == 1 ? x : Xp.reshape(x, x.size());
  }

  /**
   * Number of non-zero elements over the axes (all if none given), int64 as the kernel. NaN counts
   * as non-zero. Memory: a blockwise truth test, then the sum's tree reduction.
   */
  public static CubedArray countNonzero(CubedArray x, int... axes) {
    return countNonzero(x, axes.length == 0 ? Axes.all() : Axes.of(axes));
  }

  /** {@code count_nonzero} with keepdims (see {@link #countNonzero(CubedArray, int...)}). */
  public static CubedArray countNonzero(CubedArray x, Axes axes) {
    CubedArray t = ew("count_nonzero", b -> b[0].astype(DType.BOOL), x);
    CubedArray s = Xp.reduce(t, Reductions.Op.SUM, axes, Xp.DEFAULT_SPLIT_EVERY, 0);
    return Xp.astype(s, DType.INT64);
  }

  /**
   * {@code where(condition, x1, x2)}: x1 where condition is true, else x2; all three broadcast, the
   * result has the promoted dtype of x1 and x2. Memory: one block of each input per task.
   *
   * @throws IllegalArgumentException if condition is not bool or shapes do not broadcast (kernel's
   *     checks, when built)
   */
  public static CubedArray where(CubedArray condition, CubedArray x1, CubedArray x2) {
    return ew("where", b -> Searching.where(b[0], b[1], b[2]), condition, x1, x2);
  }

  /**
   * {@code where} with a scalar for x2; the scalar takes x1's dtype by the scalar rules of {@link
   * Xp} (NumPy 2's where the standard leaves mixed kinds open).
   */
  public static CubedArray where(CubedArray condition, CubedArray x1, Object x2) {
    Object s = scalar("where", x2);
    return ew("where", b -> Searching.where(b[0], b[1], s), condition, x1);
  }

  /** {@code where} with a scalar for x1 (see {@link #where(CubedArray, CubedArray, Object)}). */
  public static CubedArray where(CubedArray condition, Object x1, CubedArray x2) {
    Object s = scalar("where", x1);
    return ew("where", b -> Searching.where(b[0], s, b[1]), condition, x2);
  }

  /**
   * {@code clip(x, min, max)}: each bound is a {@link CubedArray} (broadcast with x), a Java scalar
   * (taking x's dtype) or null (no bound); the result has x's dtype and the broadcast shape. NaN in
   * x or a bound gives NaN. Real numeric dtypes. Memory: one block of x and of each array bound per
   * task.
   *
   * @throws IllegalArgumentException for complex or bool x, a bad scalar, or bounds whose shapes do
   *     not broadcast (when built)
   */
  public static CubedArray clip(CubedArray x, Object min, Object max) {
    boolean minArr = min instanceof CubedArray;
    boolean maxArr = max instanceof CubedArray;
    Object lo = min == null || minArr ? null : scalar("clip", min);
    Object hi = max == null || maxArr ? null : scalar("clip", max);
    if (minArr && maxArr) {
      return ew(
          "clip", b -> Elementwise.clip(b[0], b[1], b[2]), x, (CubedArray) min, (CubedArray) max);
    } else if (minArr) {
      return ew(
          "clip",
          b -> Elementwise.clip(Elementwise.clip(b[0], b[1], null), null, hi),
          x,
          (CubedArray) min);
    } else if (maxArr) {
      return ew(
          "clip",
          b -> Elementwise.clip(Elementwise.clip(b[0], lo, null), null, b[1]),
          x,
          (CubedArray) max);
    }
    return ew("clip", b -> Elementwise.clip(b[0], lo, hi), x);
  }

  /**
   * {@code isin(x1, x2)}: whether each element of x1 equals some element of x2 (any shape; values
   * compare as numbers across dtypes, NaN equals nothing). x2 is the test set: every task reads one
   * block of x1 and all of x2 (the memory check counts x2 whole, plus a flattened copy), so x2 must
   * be small.
   */
  public static CubedArray isin(CubedArray x1, CubedArray x2) {
    return isin(x1, x2, false);
  }

  /** {@code isin(x1, x2, invert)}: with {@code invert}, whether each element is not in x2. */
  public static CubedArray isin(CubedArray x1, CubedArray x2, boolean invert) {
    if (x2.size() == 0) {
      return Xp.fullLike(x1, invert, DType.BOOL);
    }
    return wrap(dev.cubed.core.Positional.isin(x1.node(), x2.node(), invert), x1);
  }

  /**
   * {@code isin(x1, x2)} with a scalar x1 ({@link Boolean}, an integer type, {@link Float}, {@link
   * Double} or {@link dev.cubed.nd.Complex}): a 0-d bool array, whether x1 equals some element of
   * x2 (compared as numbers, as the array form).
   *
   * @throws IllegalArgumentException if x1 is not such a scalar (when built)
   */
  public static CubedArray isin(Object x1, CubedArray x2) {
    return isin(x1, x2, false);
  }

  /** {@code isin(x1, x2, invert)} with a scalar x1 (see {@link #isin(Object, CubedArray)}). */
  public static CubedArray isin(Object x1, CubedArray x2, boolean invert) {
    return isin(scalarArray("isin", x1, x2.spec()), x2, invert);
  }

  /**
   * {@code isin(x1, x2)} with a scalar x2: whether each element of x1 equals x2 (compared as
   * numbers; NaN equals nothing), bool with x1's shape.
   *
   * @throws IllegalArgumentException if x2 is not a supported scalar (when built)
   */
  public static CubedArray isin(CubedArray x1, Object x2) {
    return isin(x1, x2, false);
  }

  /** {@code isin(x1, x2, invert)} with a scalar x2 (see {@link #isin(CubedArray, Object)}). */
  public static CubedArray isin(CubedArray x1, Object x2, boolean invert) {
    return isin(x1, scalarArray("isin", x2, x1.spec()), invert);
  }

  /** A 0-d array holding a lone scalar at the dtype NumPy gives it (uint64 past int64's range). */
  private static CubedArray scalarArray(String fn, Object v, Spec spec) {
    scalar(fn, v);
    DType dt = DType.ofScalar(v);
    if (v instanceof java.math.BigInteger b && b.bitLength() > 63) {
      if (b.signum() < 0 || b.bitLength() > 64) {
        throw new IllegalArgumentException(
            fn + ": the integer " + b + " fits neither int64 nor " + "uint64");
      }
      dt = DType.UINT64;
    }
    return Xp.full(new long[0], v, dt, new long[0], spec);
  }

  /**
   * {@code take(x, indices, axis)}: elements along the axis at integer indices held in memory (any
   * shape; negative ones count from the end); the result's shape is {@code x.shape[:axis] +
   * indices.shape + x.shape[axis+1:]}. Memory: output blocks have x's largest block size along the
   * axis; each reads, one at a time, only the input blocks its indices fall in (see {@link
   * dev.cubed.core.Take#take}); indices of other than one dimension go through a reshape.
   *
   * @throws IllegalArgumentException for a non-integer index dtype, an axis out of range or an
   *     index outside {@code [-n, n)} (when built)
   */
  public static CubedArray take(CubedArray x, NDArray indices, int axis) {
    int ax = dev.cubed.nd.Shapes.normalizeAxis("take", axis, x.ndim());
    if (indices.ndim() == 1 || !indices.dtype().isInteger()) {
      return wrap(dev.cubed.core.Take.take(x.node(), indices, ax), x);
    }
    CubedArray flat =
        wrap(dev.cubed.core.Take.take(x.node(), indices.reshape(indices.size()), ax), x);
    long[] s = x.shape();
    long[] is = indices.shape();
    long[] out = new long[s.length - 1 + is.length];
    System.arraycopy(s, 0, out, 0, ax);
    System.arraycopy(is, 0, out, ax, is.length);
    System.arraycopy(s, ax + 1, out, ax + is.length, s.length - ax - 1);
    return Xp.reshape(flat, out);
  }

  /**
   * {@code take_along_axis(x, indices, axis)} with the indices in memory (x's number of dimensions,
   * the others broadcasting against x's). Memory: x is rechunked to one block along the axis (the
   * memory check refuses, before running, when a whole axis of x's blocks does not fit a task),
   * then each task reads one block of x and its part of the indices (the in-memory indices are
   * counted in each task).
   *
   * @throws IllegalArgumentException as the kernel (dimension mismatch, non-integer indices, shapes
   *     that do not broadcast, an index out of range), when built
   */
  public static CubedArray takeAlongAxis(CubedArray x, NDArray indices, int axis) {
    return wrap(dev.cubed.core.Take.takeAlongAxis(x.node(), indices, axis), x);
  }

  /**
   * {@code take(x, indices)} for a 1-D x (the standard allows omitting the axis then).
   *
   * @throws IllegalArgumentException if x is not 1-D, or as the axis form
   */
  public static CubedArray take(CubedArray x, NDArray indices) {
    if (x.ndim() != 1) {
      throw new IllegalArgumentException(
          "take: axis is required for an array of shape "
              + Xp.shapeOf(x)
              + "; it may be omitted only for 1-d arrays");
    }
    return take(x, indices, 0);
  }

  /** {@code searchsorted(x1, x2)} with side LEFT (see the side form). */
  public static CubedArray searchsorted(CubedArray x1, CubedArray x2) {
    return searchsorted(x1, x2, Searching.Side.LEFT);
  }

  /**
   * {@code searchsorted(x1, x2, side)}: for each element of x2 the insertion index into the sorted
   * 1-D x1 (NaN sorts last), int64 with x2's shape and chunks. Memory: each task reads one block of
   * x2 and all of x1 (the memory check counts x1 whole: it must fit one task; x2 may be any size).
   * x1 is not checked for being sorted (as the standard: the result is unspecified otherwise).
   *
   * @throws IllegalArgumentException if x1 is not 1-D or a dtype is complex (when built)
   */
  public static CubedArray searchsorted(CubedArray x1, CubedArray x2, Searching.Side side) {
    return wrap(dev.cubed.core.Positional.searchsorted(x1.node(), x2.node(), side), x2);
  }

  /**
   * {@code searchsorted(x1, x2, side=side, sorter=sorter)}: as the side form on {@code take(x1,
   * sorter)}, for an unsorted 1-D x1 and integer indices that sort it ascending (as {@code
   * argsort(x1)} gives; negative ones count from the end). Memory: one task gathers x1 by the
   * sorter, both whole (they must fit a task, as x1 must for the side form); then as the side form.
   * A null sorter is the side form.
   *
   * @throws IllegalArgumentException if the sorter is not 1-D, not integer or not of x1's length,
   *     or as the side form (when built); an index out of range fails the compute
   */
  public static CubedArray searchsorted(
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
              + Xp.shapeOf(sorter)
              + " for x1 of shape "
              + Xp.shapeOf(x1));
    }
    CubedArray sorted = x1;
    if (x1.size() > 0) {
      sorted =
          Xp.mapBlocks(
              b -> dev.cubed.nd.Indexing.take(b[0], b[1], 0),
              x1.dtype(),
              Xp.rechunk(x1, -1),
              Xp.rechunk(sorter, -1));
    }
    return searchsorted(sorted, x2, side);
  }

  /**
   * {@code nonzero(x)}: the coordinates of the non-zero (true) elements, one int64 array per
   * dimension, in C order. Data-dependent: this call runs a counting pass at once (on x's spec: x
   * is reshaped to 1-D blocks contiguous in C order and each block's non-zeros are counted, one
   * block per task, a tiny result); the returned arrays are lazy, chunked irregularly by those
   * counts (blocks with none dropped), output block j reading one block of the flattened x. x is
   * computed again when they are.
   *
   * @throws IllegalArgumentException for a 0-d x (as the standard)
   */
  public static java.util.List<CubedArray> nonzero(CubedArray x) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          "nonzero: a 0-d array is not allowed (the standard "
              + "requires at least 1 dimension); use expand_dims first");
    }
    CubedArray flat = x.ndim() == 1 ? x : Xp.reshape(x, x.size());
    long[] counts = blockCounts(flat);
    java.util.List<CubedArray> out = new java.util.ArrayList<>();
    for (int d = 0; d < x.ndim(); d++) {
      out.add(
          wrap(dev.cubed.core.Selection.nonzeroCoordinate(flat.node(), counts, x.shape(), d), x));
    }
    return out;
  }

  /**
   * {@code x[mask]} for a bool mask of x's shape: the selected elements in C order, 1-D. A mask
   * over x's leading dimensions ({@code mask.shape == x.shape[:k]}, k at least 1) selects whole
   * sub-arrays: shape {@code (count,) + x.shape[k:]} (x reshaped to rows, output block (j, m)
   * reading one block of x and one of the mask). Data-dependent: this call runs the counting pass
   * over the mask at once (as {@link #nonzero}); the result is lazy, chunked irregularly by the
   * counts, output block j reading one block of the flattened x and mask (the mask is rechunked to
   * x's flat blocks when they differ).
   *
   * <p>A 0-d mask (the standard's zero-dimensional boolean index) adds a leading axis: {@code
   * x[true]} has shape {@code (1,) + x.shape}, {@code x[false]} {@code (0,) + x.shape}; its value
   * is computed at once (on the mask's spec), the result stays lazy.
   *
   * @throws IllegalArgumentException if the mask is not bool
   * @throws IndexOutOfBoundsException if the mask's shape is neither x's nor a prefix of it (the
   *     standard's IndexError; the Python bridge raises it as one)
   */
  public static CubedArray getMask(CubedArray x, CubedArray mask) {
    if (mask.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(
          "mask indexing: the mask must be bool, got " + mask.dtype());
    }
    if (mask.ndim() == 0) {
      CubedArray e = Xp.expandDims(x, 0);
      return mask.compute().getBoolean(0) ? e : Xp.getItem(e, dev.cubed.nd.Index.slice(0L, 0L));
    }
    if (mask.ndim() >= 1
        && mask.ndim() < x.ndim()
        && java.util.Arrays.equals(mask.shape(), java.util.Arrays.copyOf(x.shape(), mask.ndim()))) {
      return XpSort.getMaskLeading(x, mask);
    }
    if (!java.util.Arrays.equals(mask.shape(), x.shape())) {
      throw new IndexOutOfBoundsException(
          "mask indexing: mask shape "
              + Xp.shapeOf(mask)
              + " is neither x's "
              + Xp.shapeOf(x)
              + " nor a prefix of it (x's leading "
              + "dimensions); give a mask of x's shape or of its first dimensions");
    }
    CubedArray fx = x.ndim() == 1 ? x : Xp.reshape(x, x.size());
    CubedArray fm = mask.ndim() == 1 ? mask : Xp.reshape(mask, mask.size());
    if (!fm.node().chunkGrid().equals(fx.node().chunkGrid())) {
      fm = Xp.rechunk(fm, fx.chunks());
    }
    long[] counts = blockCounts(fm);
    return wrap(dev.cubed.core.Selection.masked(fx.node(), fm.node(), counts), x);
  }

  private static long[] blockCounts(CubedArray flat) {
    if (flat.size() == 0) {
      return new long[0];
    }
    NDArray c = wrap(dev.cubed.core.Selection.counts(flat.node()), flat).compute();
    long[] r = new long[c.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = c.getLong(i);
    }
    return r;
  }

  /**
   * {@code result_type(*arrays_and_dtypes)}: {@link CubedArray}s count by their dtype; dtypes,
   * in-memory arrays and Java scalars as {@link DataTypes#resultType(Object...)}. Nothing is
   * computed.
   *
   * @throws IllegalArgumentException if nothing is given or an argument is not supported
   */
  public static DType resultType(Object... arraysAndDtypes) {
    Object[] a = new Object[arraysAndDtypes.length];
    for (int i = 0; i < a.length; i++) {
      a[i] = arraysAndDtypes[i] instanceof CubedArray c ? c.dtype() : arraysAndDtypes[i];
    }
    return DataTypes.resultType(a);
  }

  /** {@code can_cast(x, to)} on the array's dtype (the standard's promotion lattice). */
  public static boolean canCast(CubedArray from, DType to) {
    return DataTypes.canCast(from.dtype(), to);
  }

  /** {@code can_cast(from, to)} (the standard's promotion lattice). */
  public static boolean canCast(DType from, DType to) {
    return DataTypes.canCast(from, to);
  }

  /** The inspection namespace ({@code __array_namespace_info__()}); see {@link ArrayApiInfo}. */
  public static ArrayApiInfo info() {
    return ArrayApiInfo.INSTANCE;
  }
}
