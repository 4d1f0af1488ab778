package dev.cubed.nd;

import java.util.Arrays;

/**
 * The standard's creation functions on in-memory arrays. Where the standard lets the dtype default,
 * a null {@code dtype} follows NumPy: integers give int64, floats float64, complex complex128, bool
 * bool.
 */
public final class Creation {
  private Creation() {}

  /** The {@code indexing} argument of {@code meshgrid}. */
  public enum MeshIndexing {
    /** Cartesian ({@code "xy"}): the first two output dimensions are swapped. */
    XY,
    /** Matrix ({@code "ij"}): output dimension i follows input i. */
    IJ
  }

  // ------------------------------------------------------------------ ranges

  /** {@code arange(stop)}: int64 values 0, 1, ..., stop - 1. */
  public static NDArray arange(long stop) {
    return arange(0, stop, 1);
  }

  /**
   * {@code arange(start, stop, step)} of int64: {@code ceil((stop - start) / step)} elements.
   *
   * @throws IllegalArgumentException for a zero step
   */
  public static NDArray arange(long start, long stop, long step) {
    if (step == 0) {
      throw new IllegalArgumentException("arange: step must not be zero");
    }
    long n =
        Math.max(
            0,
            step > 0
                ? Math.floorDiv(stop - start + step - 1, step)
                : Math.floorDiv(start - stop - step - 1, -step));
    long[] v = new long[Shapes.intSize("arange", new long[] {n})];
    for (int i = 0; i < v.length; i++) {
      v[i] = start + i * step;
    }
    return new NDArray(DType.INT64, new long[] {n}, v);
  }

  /**
   * {@code arange(start, stop, step, dtype=dtype)} with NumPy's exact semantics: the length is
   * {@code ceil((stop - start) / step)}; the first two elements are {@code start} and {@code start
   * + step} converted to the dtype, and element {@code i} is {@code first + i * (second - first)}
   * computed in the dtype (so an integer dtype with a fractional step advances by the truncated
   * difference, as NumPy's does). A null dtype means float64.
   *
   * @throws IllegalArgumentException for a zero or NaN step, or a bool or complex dtype
   */
  public static NDArray arange(double start, double stop, double step, DType dtype) {
    DType dt = dtype == null ? DType.FLOAT64 : dtype;
    if (step == 0 || Double.isNaN(step)) {
      throw new IllegalArgumentException("arange: step must be a non-zero number, got " + step);
    }
    if (dt.isBool() || dt.isComplex()) {
      throw new IllegalArgumentException("arange: dtype must be a real numeric dtype, got " + dt);
    }
    double len = Math.ceil((stop - start) / step);
    long n = Double.isNaN(len) ? 0 : (long) Math.max(0, len);
    NDArray a = NDArray.zeros(dt, n);
    if (n == 0) {
      return a;
    }
    a.setDouble(0, start);
    if (n > 1) {
      a.setDouble(1, start + step);
    }
    switch (dt) {
      case FLOAT64 -> {
        double[] d = (double[]) a.data();
        double delta = n > 1 ? d[1] - d[0] : 0;
        for (int i = 2; i < n; i++) {
          d[i] = d[0] + i * delta;
        }
      }
      case FLOAT32 -> {
        float[] d = (float[]) a.data();
        float delta = n > 1 ? d[1] - d[0] : 0;
        for (int i = 2; i < n; i++) {
          d[i] = d[0] + i * delta;
        }
      }
      default -> {
        long first = a.getLong(0);
        long delta = n > 1 ? a.getLong(1) - first : 0;
        for (int i = 2; i < n; i++) {
          a.setLong(i, first + i * delta);
        }
      }
    }
    return a;
  }

  /**
   * {@code linspace(start, stop, num, dtype=dtype, endpoint=...)}: element {@code i} is {@code
   * start + i * ((stop - start) / div)} computed in float64 ({@code div = num - 1} with the
   * endpoint, else {@code num}), then converted to the dtype; with the endpoint the last element is
   * exactly stop. A null dtype means float64. Start and stop may be {@link Complex} (then the dtype
   * defaults to complex128).
   *
   * @throws IllegalArgumentException for a negative num or a non-floating dtype
   */
  public static NDArray linspace(
      Object start, Object stop, long num, DType dtype, Endpoint endpoint) {
    boolean complex = start instanceof Complex || stop instanceof Complex;
    DType dt = dtype == null ? (complex ? DType.COMPLEX128 : DType.FLOAT64) : dtype;
    if (num < 0) {
      throw new IllegalArgumentException("linspace: num must be >= 0, got " + num);
    }
    if (!dt.isFloating() || (complex && !dt.isComplex())) {
      throw new IllegalArgumentException(
          "linspace: dtype must be a "
              + (complex ? "complex" : "floating-point")
              + " dtype for these bounds, got "
              + dt);
    }
    Complex s = toComplex(start);
    Complex e = toComplex(stop);
    boolean ep = endpoint == Endpoint.INCLUDE;
    long div = ep ? num - 1 : num;
    NDArray a = NDArray.zeros(dt, num);
    double dre = e.re() - s.re();
    double dim = e.im() - s.im();
    double stepRe = 0;
    double stepIm = 0;
    boolean stepZero = false;
    if (div > 0) {
      // NumPy divides a complex delta by the real div through the reciprocal (Smith's method)
      stepRe = complex ? (dre + dim * 0.0) * (1.0 / div) : dre / div;
      stepIm = complex ? (dim - dre * 0.0) * (1.0 / div) : 0;
      stepZero = stepRe == 0 && stepIm == 0;
    }
    for (int i = 0; i < num; i++) {
      double re;
      double im;
      if (div > 0 && !stepZero) {
        re = i * stepRe;
        im = i * stepIm;
      } else if (div > 0) {
        re = (double) i / div * dre;
        im = (double) i / div * dim;
      } else {
        re = i * dre;
        im = i * dim;
      }
      a.setComplex(i, re + s.re(), im + s.im());
    }
    if (ep && num > 1) {
      a.setComplex((int) num - 1, e.re(), e.im());
    }
    return a;
  }

  /** {@code linspace(start, stop, num)} of float64 including the endpoint. */
  public static NDArray linspace(double start, double stop, long num) {
    return linspace(start, stop, num, null, Endpoint.INCLUDE);
  }

  /** The {@code endpoint} argument of {@code linspace}. */
  public enum Endpoint {
    /** {@code endpoint=True}: stop is the last element. */
    INCLUDE,
    /** {@code endpoint=False}: stop is excluded. */
    EXCLUDE
  }

  private static Complex toComplex(Object v) {
    if (v instanceof Complex c) {
      return c;
    }
    if (v instanceof Number n) {
      return new Complex(n.doubleValue(), 0);
    }
    throw new IllegalArgumentException("linspace: start and stop must be numbers, got " + v);
  }

  // ------------------------------------------------------------------ filled arrays

  /** {@code empty(shape, dtype)} (zeros in Java); null dtype means float64. */
  public static NDArray empty(long[] shape, DType dtype) {
    return NDArray.empty(dtype == null ? DType.FLOAT64 : dtype, shape);
  }

  /** {@code zeros(shape, dtype)}; null dtype means float64. */
  public static NDArray zeros(long[] shape, DType dtype) {
    return NDArray.zeros(dtype == null ? DType.FLOAT64 : dtype, shape);
  }

  /** {@code ones(shape, dtype)}; null dtype means float64. */
  public static NDArray ones(long[] shape, DType dtype) {
    return NDArray.ones(dtype == null ? DType.FLOAT64 : dtype, shape);
  }

  /**
   * {@code full(shape, fill_value, dtype)}: a null dtype follows the value (bool, int64, float64 or
   * complex128); otherwise the value converts as {@code astype} would.
   */
  public static NDArray full(long[] shape, Object fillValue, DType dtype) {
    return NDArray.full(dtype == null ? DType.ofScalar(fillValue) : dtype, fillValue, shape);
  }

  /** {@code eye(n_rows, n_cols, k=k, dtype=dtype)}; null dtype means float64. */
  public static NDArray eye(long nRows, long nCols, long k, DType dtype) {
    if (nRows < 0 || nCols < 0) {
      throw new IllegalArgumentException(
          "eye: n_rows and n_cols must be >= 0, got " + nRows + " and " + nCols);
    }
    NDArray a = NDArray.zeros(dtype == null ? DType.FLOAT64 : dtype, nRows, nCols);
    for (long i = 0; i < nRows; i++) {
      long j = i + k;
      if (j >= 0 && j < nCols) {
        a.setLong((int) (i * nCols + j), 1);
      }
    }
    return a;
  }

  /** {@code eye(n)} of float64. */
  public static NDArray eye(long n) {
    return eye(n, n, 0, null);
  }

  /** {@code empty_like(x, dtype)}; null dtype keeps x's. */
  public static NDArray emptyLike(NDArray x, DType dtype) {
    return NDArray.empty(dtype == null ? x.dtype() : dtype, x.shape());
  }

  /** {@code zeros_like(x, dtype)}; null dtype keeps x's. */
  public static NDArray zerosLike(NDArray x, DType dtype) {
    return NDArray.zeros(dtype == null ? x.dtype() : dtype, x.shape());
  }

  /** {@code ones_like(x, dtype)}; null dtype keeps x's. */
  public static NDArray onesLike(NDArray x, DType dtype) {
    return NDArray.ones(dtype == null ? x.dtype() : dtype, x.shape());
  }

  /** {@code full_like(x, fill_value, dtype)}; null dtype keeps x's. */
  public static NDArray fullLike(NDArray x, Object fillValue, DType dtype) {
    return NDArray.full(dtype == null ? x.dtype() : dtype, fillValue, x.shape());
  }

  // ------------------------------------------------------------------ conversion

  /**
   * {@code asarray(obj, dtype=dtype)}: an {@link NDArray} (returned as is when the dtype matches or
   * is null, else converted), a Java primitive array, possibly nested and rectangular (see {@link
   * NDArray#fromJava}), or a scalar (Boolean, Number, {@link Complex}) giving a 0-d array.
   *
   * @throws IllegalArgumentException for unsupported objects or ragged arrays
   */
  public static NDArray asarray(Object obj, DType dtype) {
    NDArray a;
    if (obj instanceof NDArray x) {
      a = x;
    } else if (obj != null && obj.getClass().isArray()) {
      a = NDArray.fromJava(obj);
    } else if (obj instanceof Boolean || obj instanceof Number || obj instanceof Complex) {
      DType dt = dtype == null ? DType.ofScalar(obj) : dtype;
      return NDArray.scalar(dt, obj);
    } else {
      throw new IllegalArgumentException(
          "asarray: unsupported object "
              + (obj == null ? "null" : obj.getClass().getName())
              + "; expected an NDArray, a primitive Java array or a scalar");
    }
    return dtype == null || dtype == a.dtype() ? a : a.astype(dtype);
  }

  /**
   * {@code asarray(obj, dtype=dtype, copy=...)}: {@link Manipulation.Copy#ALWAYS} always returns
   * new data; {@link Manipulation.Copy#NEVER} returns the given NDArray itself and fails when a
   * conversion (a Java array, a scalar or another dtype) needs a copy.
   *
   * @throws IllegalArgumentException as {@link #asarray(Object, DType)}, or when {@code NEVER}
   *     cannot be honoured
   */
  public static NDArray asarray(Object obj, DType dtype, Manipulation.Copy copy) {
    if (copy == Manipulation.Copy.NEVER
        && !(obj instanceof NDArray x && (dtype == null || dtype == x.dtype()))) {
      throw new IllegalArgumentException(
          "asarray: copy=False, but converting "
              + (obj instanceof NDArray x
                  ? "a " + x.dtype() + " array to " + dtype
                  : obj == null ? "null" : "a " + obj.getClass().getSimpleName())
              + " needs a copy");
    }
    NDArray a = asarray(obj, dtype);
    return copy == Manipulation.Copy.ALWAYS && a == obj ? a.copy() : a;
  }

  /** {@code asarray(obj)} keeping the object's dtype. */
  public static NDArray asarray(Object obj) {
    return asarray(obj, null);
  }

  // ------------------------------------------------------------------ grids and triangles

  /**
   * {@code meshgrid(*arrays, indexing=...)}: coordinate arrays from 1-d arrays (each keeps its
   * dtype). With {@link MeshIndexing#XY} and at least two inputs the output shape is {@code (n1,
   * n0, n2, ...)}, with {@link MeshIndexing#IJ} it is {@code (n0, n1, n2, ...)}.
   *
   * @throws IllegalArgumentException if an input is not 1-d
   */
  public static NDArray[] meshgrid(MeshIndexing indexing, NDArray... arrays) {
    int n = arrays.length;
    long[] shape = new long[n];
    for (int i = 0; i < n; i++) {
      if (arrays[i].ndim() != 1) {
        throw new IllegalArgumentException(
            "meshgrid: array "
                + i
                + " has shape "
                + Shapes.format(arrays[i].shape())
                + "; every input must be 1-d");
      }
      shape[i] = arrays[i].shape(0);
    }
    boolean xy = indexing == MeshIndexing.XY && n >= 2;
    if (xy) {
      long t = shape[0];
      shape[0] = shape[1];
      shape[1] = t;
    }
    NDArray[] out = new NDArray[n];
    for (int i = 0; i < n; i++) {
      int axis = xy && i < 2 ? 1 - i : i;
      long[] s = new long[n];
      Arrays.fill(s, 1);
      s[axis] = shape[axis];
      out[i] = arrays[i].reshape(s).broadcastTo(shape);
    }
    return out;
  }

  /** {@code tril(x, k=k)}: zeros above the k-th diagonal of each matrix in the last two axes. */
  public static NDArray tril(NDArray x, long k) {
    return triangle("tril", x, k, true);
  }

  /** {@code triu(x, k=k)}: zeros below the k-th diagonal of each matrix in the last two axes. */
  public static NDArray triu(NDArray x, long k) {
    return triangle("triu", x, k, false);
  }

  private static NDArray triangle(String fn, NDArray x, long k, boolean lower) {
    if (x.ndim() < 2) {
      throw new IllegalArgumentException(
          fn + ": x of shape " + Shapes.format(x.shape()) + " must have at least 2 dimensions");
    }
    NDArray out = x.copy();
    long rows = x.shape(-2);
    long cols = x.shape(-1);
    int m = Gather.mult(x.dtype());
    Object zeros = NDArray.allocate(x.dtype(), (int) cols);
    long mats = rows * cols == 0 ? 0 : x.size() / (rows * cols);
    for (long b = 0; b < mats; b++) {
      for (long i = 0; i < rows; i++) {
        long from;
        long to;
        if (lower) {
          from = Math.max(0, Math.min(cols, i + k + 1));
          to = cols;
        } else {
          from = 0;
          to = Math.max(0, Math.min(cols, i + k));
        }
        if (to > from) {
          int base = (int) ((b * rows + i) * cols + from);
          System.arraycopy(zeros, 0, out.data(), base * m, (int) (to - from) * m);
        }
      }
    }
    return out;
  }
}
