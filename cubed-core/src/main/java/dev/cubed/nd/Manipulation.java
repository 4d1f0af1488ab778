package dev.cubed.nd;

import java.util.Arrays;

/**
 * The standard's manipulation functions on in-memory arrays. Every result is a new array except
 * {@link #reshape} with {@link Copy#NEVER} or {@link Copy#IF_NEEDED}, which shares the data (a
 * dense C-order array never needs a copy to be reshaped).
 */
public final class Manipulation {
  private Manipulation() {}

  /** The standard's {@code copy} argument of {@code reshape}. */
  public enum Copy {
    /** {@code copy=True}: always a new backing array. */
    ALWAYS,
    /** {@code copy=False}: never copy; share the data (always possible for a dense array). */
    NEVER,
    /** {@code copy=None}: copy only when needed (never, for a dense array). */
    IF_NEEDED
  }

  /**
   * {@code concat(arrays, axis=axis)}: joins arrays of equal ndim whose shapes agree except along
   * {@code axis}; mixed dtypes promote with {@link DType#resultType(DType, DType...)}.
   *
   * @throws IllegalArgumentException for no arrays, 0-d arrays, an axis out of range, or shapes
   *     that differ off the axis
   */
  public static NDArray concat(NDArray[] arrays, int axis) {
    if (arrays.length == 0) {
      throw new IllegalArgumentException("concat: need at least one array to concatenate");
    }
    int nd = arrays[0].ndim();
    if (nd == 0) {
      throw new IllegalArgumentException(
          "concat: zero-dimensional arrays cannot be concatenated; use stack or axis=None");
    }
    int ax = Shapes.normalizeAxis("concat", axis, nd);
    long[] out = arrays[0].shape();
    out[ax] = 0;
    for (int i = 0; i < arrays.length; i++) {
      long[] s = arrays[i].shape();
      boolean ok = s.length == nd;
      for (int k = 0; ok && k < nd; k++) {
        ok = k == ax || s[k] == out[k];
      }
      if (!ok) {
        throw new IllegalArgumentException(
            "concat: array 0 has shape "
                + Shapes.format(arrays[0].shape())
                + " and array "
                + i
                + " has shape "
                + Shapes.format(s)
                + "; all dimensions except axis "
                + axis
                + " must match");
      }
      out[ax] += s[ax];
    }
    DType dt = resultType(arrays);
    NDArray r = NDArray.zeros(dt, out);
    long[] start = new long[nd];
    for (NDArray a : arrays) {
      NDArray c = a.dtype() == dt ? a : a.astype(dt);
      r.setRegion(start, c);
      start[ax] += a.shape(ax);
    }
    return r;
  }

  /** {@code concat(arrays, axis=None)}: the arrays flattened and joined into one 1-d array. */
  public static NDArray concat(NDArray... arrays) {
    NDArray[] flat = new NDArray[arrays.length];
    for (int i = 0; i < arrays.length; i++) {
      flat[i] = arrays[i].reshape(arrays[i].size());
    }
    return concat(flat, 0);
  }

  /**
   * {@code stack(arrays, axis)}: joins arrays of one shape along a new axis ({@code -ndim-1 <= axis
   * <= ndim}); mixed dtypes promote.
   *
   * @throws IllegalArgumentException for no arrays, differing shapes or an axis out of range
   */
  public static NDArray stack(NDArray[] arrays, int axis) {
    if (arrays.length == 0) {
      throw new IllegalArgumentException("stack: need at least one array to stack");
    }
    long[] s0 = arrays[0].shape();
    for (int i = 1; i < arrays.length; i++) {
      if (!Arrays.equals(arrays[i].shape(), s0)) {
        throw new IllegalArgumentException(
            "stack: array 0 has shape "
                + Shapes.format(s0)
                + " and array "
                + i
                + " has shape "
                + Shapes.format(arrays[i].shape())
                + "; all input arrays must have the same shape");
      }
    }
    int ax = Shapes.normalizeAxis("stack", axis, s0.length + 1);
    NDArray[] ex = new NDArray[arrays.length];
    for (int i = 0; i < arrays.length; i++) {
      ex[i] = arrays[i].reshape(insert(s0, ax, 1));
    }
    return concat(ex, ax);
  }

  /**
   * {@code unstack(x, axis)}: the sub-arrays along an axis, each with that axis removed.
   *
   * @throws IllegalArgumentException for a 0-d x or an axis out of range
   */
  public static NDArray[] unstack(NDArray x, int axis) {
    int ax = Shapes.normalizeAxis("unstack", axis, x.ndim());
    NDArray[] out = new NDArray[(int) x.shape(ax)];
    for (int i = 0; i < out.length; i++) {
      int[][] pos = Gather.identity(x.shape());
      pos[ax] = new int[] {i};
      out[i] = Gather.orthogonal(x, pos).reshape(remove(x.shape(), ax));
    }
    return out;
  }

  /**
   * {@code reshape(x, shape, copy=...)}: one dimension may be -1 (inferred).
   *
   * @throws IllegalArgumentException if the sizes differ or several dimensions are -1
   */
  public static NDArray reshape(NDArray x, long[] shape, Copy copy) {
    NDArray r = x.reshape(shape);
    return copy == Copy.ALWAYS ? r.copy() : r;
  }

  /** {@code reshape(x, shape)} ({@code copy=None}): shares the data. */
  public static NDArray reshape(NDArray x, long... shape) {
    return reshape(x, shape, Copy.IF_NEEDED);
  }

  /** {@code permute_dims(x, axes)}: a copy; see {@link NDArray#permuteDims}. */
  public static NDArray permuteDims(NDArray x, int... axes) {
    return x.permuteDims(axes);
  }

  /**
   * {@code moveaxis(x, source, destination)}: moves axes to new positions, the others keeping their
   * order.
   *
   * @throws IllegalArgumentException for tuples of different lengths, repeated or out-of-range axes
   */
  public static NDArray moveaxis(NDArray x, int[] source, int[] destination) {
    return x.permuteDims(moveaxisPermutation(source, destination, x.ndim()));
  }

  /**
   * The {@code permute_dims} order that {@code moveaxis(source, destination)} amounts to for an
   * array of {@code nd} dimensions: the source axes (in the given order) go to the destination
   * positions, the other axes keep their order. Shared by the kernel and the chunked layer.
   *
   * @throws IllegalArgumentException for lists of different lengths, repeated or out-of-range axes
   */
  public static int[] moveaxisPermutation(int[] source, int[] destination, int nd) {
    if (source.length != destination.length) {
      throw new IllegalArgumentException(
          "moveaxis: source "
              + Arrays.toString(source)
              + " and destination "
              + Arrays.toString(destination)
              + " must have the same number of elements");
    }
    int[] src = new int[source.length];
    int[] dst = new int[source.length];
    for (int i = 0; i < src.length; i++) {
      src[i] = Shapes.normalizeAxis("moveaxis", source[i], nd);
      dst[i] = Shapes.normalizeAxis("moveaxis", destination[i], nd);
    }
    Shapes.normalizeAxes("moveaxis", source, nd);
    Shapes.normalizeAxes("moveaxis", destination, nd);
    int[] perm = new int[nd];
    Arrays.fill(perm, -1);
    boolean[] used = new boolean[nd];
    for (int i = 0; i < src.length; i++) {
      perm[dst[i]] = src[i];
      used[src[i]] = true;
    }
    int next = 0;
    for (int k = 0; k < nd; k++) {
      if (perm[k] < 0) {
        while (used[next]) {
          next++;
        }
        perm[k] = next++;
      }
    }
    return perm;
  }

  /** {@code moveaxis(x, source, destination)} for one axis. */
  public static NDArray moveaxis(NDArray x, int source, int destination) {
    return moveaxis(x, new int[] {source}, new int[] {destination});
  }

  /** {@code flip(x, axis=axes)}; null axes flip every axis. */
  public static NDArray flip(NDArray x, int... axes) {
    int[] ax = Shapes.normalizeAxes("flip", axes, x.ndim());
    int[][] pos = Gather.identity(x.shape());
    for (int a : ax) {
      int[] p = pos[a];
      for (int i = 0; i < p.length; i++) {
        p[i] = p.length - 1 - i;
      }
    }
    return Gather.orthogonal(x, pos);
  }

  /** {@code flip(x)}: reverses every axis. */
  public static NDArray flip(NDArray x) {
    return flip(x, (int[]) null);
  }

  /**
   * {@code roll(x, shift, axis=axes)}: shifts elements along each axis (wrapping); the shift tuple
   * pairs with the axis tuple, a single shift or a single axis broadcasting against the other (as
   * NumPy). Shifts of a repeated axis add up.
   *
   * @throws IllegalArgumentException for tuples of different lengths or axes out of range
   */
  public static NDArray roll(NDArray x, long[] shift, int[] axes) {
    int nd = x.ndim();
    int pairs = Math.max(shift.length, axes.length);
    if ((shift.length != pairs && shift.length != 1)
        || (axes.length != pairs && axes.length != 1)
        || axes.length == 0) {
      throw new IllegalArgumentException(
          "roll: shift "
              + Arrays.toString(shift)
              + " and axis "
              + Arrays.toString(axes)
              + " must have the same length, or one of them a single value (broadcast)");
    }
    long[] total = new long[nd];
    for (int i = 0; i < pairs; i++) {
      int a = Shapes.normalizeAxis("roll", axes[axes.length == 1 ? 0 : i], nd);
      total[a] += shift[shift.length == 1 ? 0 : i];
    }
    int[][] pos = Gather.identity(x.shape());
    for (int k = 0; k < nd; k++) {
      long n = x.shape(k);
      if (n == 0 || total[k] % n == 0) {
        continue;
      }
      long s = Math.floorMod(total[k], n);
      for (int i = 0; i < n; i++) {
        pos[k][i] = (int) Math.floorMod(i - s, n);
      }
    }
    return Gather.orthogonal(x, pos);
  }

  /** {@code roll(x, shift)} with {@code axis=None}: rolls the flattened array, same shape back. */
  public static NDArray roll(NDArray x, long shift) {
    NDArray flat = x.reshape(x.size());
    return roll(flat, new long[] {shift}, new int[] {0}).reshape(x.shape());
  }

  /**
   * {@code squeeze(x, axis)}: removes the given axes, which must have length 1.
   *
   * @throws IllegalArgumentException for an axis out of range or of length other than 1
   */
  public static NDArray squeeze(NDArray x, int... axes) {
    int[] ax = Shapes.normalizeAxes("squeeze", axes, x.ndim());
    long[] s = x.shape();
    for (int a : ax) {
      if (s[a] != 1) {
        throw new IllegalArgumentException(
            "squeeze: cannot remove axis "
                + a
                + " of length "
                + s[a]
                + " from shape "
                + Shapes.format(s)
                + "; only axes of length 1 can be squeezed");
      }
    }
    long[] out = new long[s.length - ax.length];
    int j = 0;
    for (int k = 0; k < s.length; k++) {
      if (Arrays.binarySearch(ax, k) < 0) {
        out[j++] = s[k];
      }
    }
    return x.copy().reshape(out);
  }

  /**
   * {@code expand_dims(x, axis)}: inserts length-1 axes at the given positions of the result (each
   * in {@code [-(ndim + len(axis)), ndim + len(axis))}, as in the 2025.12 standard).
   *
   * @throws IndexOutOfBoundsException for an axis out of that range (the standard's IndexError)
   * @throws IllegalArgumentException for repeated axes
   */
  public static NDArray expandDims(NDArray x, int... axes) {
    int outNd = x.ndim() + axes.length;
    for (int a : axes) {
      if (a < -outNd || a >= outNd) {
        throw new IndexOutOfBoundsException(
            "expand_dims: axis "
                + a
                + " is out of range for "
                + "an array of shape "
                + Shapes.format(x.shape())
                + " (the result has "
                + outNd
                + " dimensions: valid axes are "
                + -outNd
                + " to "
                + (outNd - 1)
                + ")");
      }
    }
    int[] ax = Shapes.normalizeAxes("expand_dims", axes, outNd);
    long[] s = x.shape();
    long[] out = new long[outNd];
    int j = 0;
    for (int k = 0; k < outNd; k++) {
      out[k] = Arrays.binarySearch(ax, k) >= 0 ? 1 : s[j++];
    }
    return x.copy().reshape(out);
  }

  /**
   * {@code repeat(x, repeats, axis)}: each element repeated along {@code axis}; {@code repeats} has
   * one value for all elements or one per element of that axis. Use {@link #repeat(NDArray,
   * long[])} for {@code axis=None}.
   *
   * @throws IllegalArgumentException for negative repeats, a repeats length mismatch or a bad axis
   */
  public static NDArray repeat(NDArray x, long[] repeats, int axis) {
    int ax = Shapes.normalizeAxis("repeat", axis, x.ndim());
    long n = x.shape(ax);
    if (repeats.length != 1 && repeats.length != n) {
      throw new IllegalArgumentException(
          "repeat: "
              + repeats.length
              + " repeats for axis "
              + axis
              + " of length "
              + n
              + " (shape "
              + Shapes.format(x.shape())
              + "); give one repeat or one per element");
    }
    long total = 0;
    for (int i = 0; i < n; i++) {
      long r = repeats[repeats.length == 1 ? 0 : i];
      if (r < 0) {
        throw new IllegalArgumentException("repeat: repeats must be >= 0, got " + r);
      }
      total += r;
    }
    if (n == 0 && repeats.length == 1 && repeats[0] < 0) {
      throw new IllegalArgumentException("repeat: repeats must be >= 0, got " + repeats[0]);
    }
    int[][] pos = Gather.identity(x.shape());
    int[] p = new int[Math.toIntExact(total)];
    int j = 0;
    for (int i = 0; i < n; i++) {
      long r = repeats[repeats.length == 1 ? 0 : i];
      for (long t = 0; t < r; t++) {
        p[j++] = i;
      }
    }
    pos[ax] = p;
    return Gather.orthogonal(x, pos);
  }

  /**
   * {@code repeat(x, repeats, axis)} with repeats given as an integer array (0-d or 1-d).
   *
   * @throws IllegalArgumentException for non-integer or multi-dimensional repeats, or as {@link
   *     #repeat(NDArray, long[], int)}
   */
  public static NDArray repeat(NDArray x, NDArray repeats, int axis) {
    return repeat(x, repeatValues(repeats), axis);
  }

  /** {@code repeat(x, repeats)} with {@code axis=None} and repeats as an integer array. */
  public static NDArray repeat(NDArray x, NDArray repeats) {
    return repeat(x, repeatValues(repeats));
  }

  private static long[] repeatValues(NDArray repeats) {
    if (!repeats.dtype().isInteger() || repeats.ndim() > 1) {
      throw new IllegalArgumentException(
          "repeat: repeats must be a 0-d or 1-d integer array, got "
              + repeats.dtype()
              + " of"
              + " shape "
              + Shapes.format(repeats.shape()));
    }
    long[] r = new long[repeats.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = repeats.getLong(i);
    }
    return r;
  }

  /** {@code repeat(x, repeats)} with {@code axis=None}: repeats the flattened array. */
  public static NDArray repeat(NDArray x, long[] repeats) {
    return repeat(x.reshape(x.size()), repeats, 0);
  }

  /**
   * {@code tile(x, repetitions)}: x repeated along each dimension; shorter of shape and repetitions
   * is padded with leading 1s.
   *
   * @throws IllegalArgumentException for negative repetitions
   */
  public static NDArray tile(NDArray x, long... repetitions) {
    int nd = Math.max(x.ndim(), repetitions.length);
    long[] s = pad(x.shape(), nd);
    long[] r = pad(repetitions, nd);
    int[][] pos = new int[nd][];
    for (int k = 0; k < nd; k++) {
      if (r[k] < 0) {
        throw new IllegalArgumentException(
            "tile: repetitions must be >= 0, got " + Arrays.toString(repetitions));
      }
      pos[k] = new int[Math.toIntExact(s[k] * r[k])];
      for (int i = 0; i < pos[k].length; i++) {
        pos[k][i] = (int) (i % s[k]);
      }
    }
    return Gather.orthogonal(x.reshape(s), pos);
  }

  /** {@code broadcast_to(x, shape)}: a materialized copy; see {@link NDArray#broadcastTo}. */
  public static NDArray broadcastTo(NDArray x, long... shape) {
    return x.broadcastTo(shape);
  }

  /**
   * {@code broadcast_arrays(*arrays)}: copies of the arrays broadcast to their common shape.
   *
   * @throws IllegalArgumentException if the shapes do not broadcast
   */
  public static NDArray[] broadcastArrays(NDArray... arrays) {
    long[][] shapes = new long[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      shapes[i] = arrays[i].shape();
    }
    long[] target = Shapes.broadcast("broadcast_arrays", shapes);
    NDArray[] out = new NDArray[arrays.length];
    for (int i = 0; i < arrays.length; i++) {
      out[i] = arrays[i].broadcastTo(target);
    }
    return out;
  }

  static DType resultType(NDArray[] arrays) {
    DType d = arrays[0].dtype();
    for (NDArray a : arrays) {
      d = DType.resultType(d, a.dtype());
    }
    return d;
  }

  static long[] pad(long[] s, int nd) {
    long[] out = new long[nd];
    Arrays.fill(out, 1);
    System.arraycopy(s, 0, out, nd - s.length, s.length);
    return out;
  }

  static long[] insert(long[] s, int at, long v) {
    long[] out = new long[s.length + 1];
    System.arraycopy(s, 0, out, 0, at);
    out[at] = v;
    System.arraycopy(s, at, out, at + 1, s.length - at);
    return out;
  }

  static long[] remove(long[] s, int at) {
    long[] out = new long[s.length - 1];
    System.arraycopy(s, 0, out, 0, at);
    System.arraycopy(s, at + 1, out, at, s.length - at - 1);
    return out;
  }
}
