package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;
import java.util.Locale;

/**
 * Per-chunk parts of the tree reductions: {@code initial} turns a block into partial states (one
 * per output element, reduced axes kept with extent 1, an extra last axis of {@code fields}
 * entries), {@code combine} merges two states, {@code finish} turns a state into the result. States
 * are int64/uint64 (integer sums, products, min/max, all/any) or float64: mean carries (count,
 * total), var/std carry (count, mean, M2) merged with Chan's formula, argmin/argmax carry (index,
 * value) with the block's offset added to local indices: float64 states for floating inputs (NaN
 * wins, like NumPy), int64/uint64 states for integer and bool inputs (values compared exactly,
 * unsigned for unsigned inputs). Complex products carry a complex128 state.
 */
final class ReduceKernel {
  private ReduceKernel() {}

  enum Kind {
    SUM,
    PROD,
    MIN,
    MAX,
    ALL,
    ANY,
    MEAN,
    VAR,
    ARGMIN,
    ARGMAX,
    /** The NaN-skipping kinds (states and steps in {@link NanKernel}). */
    NANMEAN,
    NANVAR,
    NANMIN,
    NANMAX,
    NANARGMIN,
    NANARGMAX,
    NANSUM,
    NANCOUNT;

    int fields() {
      return switch (this) {
        case MEAN, ARGMIN, ARGMAX, NANMEAN, NANARGMIN, NANARGMAX -> 2;
        case VAR, NANVAR -> 3;
        default -> 1;
      };
    }

    boolean isArg() {
      return this == ARGMIN || this == ARGMAX || this == NANARGMIN || this == NANARGMAX;
    }

    /** Whether this kind skips NaN ({@link NanKernel}). */
    boolean isNan() {
      return ordinal() >= NANMEAN.ordinal();
    }
  }

  /** The state dtype for a reduction of {@code in}. */
  static DType stateType(Kind k, DType in) {
    if (k.isNan()) {
      return NanKernel.stateType(k, in);
    }
    if (in.isComplex()) {
      if (k == Kind.PROD) {
        return DType.COMPLEX128;
      }
      if (k == Kind.MIN || k == Kind.MAX || k.isArg()) {
        throw new IllegalArgumentException(
            k.name().toLowerCase()
                + ": not defined for complex "
                + "dtypes (got "
                + in
                + "); the standard orders only real values");
      }
    }
    if (in.isComplex()) { // the kernels' own check, its name made only when it fails
      ChunkMath.checkReal(k.name().toLowerCase(Locale.ROOT), in);
    }
    switch (k) {
      case MEAN, VAR:
        return DType.FLOAT64;
      case ARGMIN, ARGMAX:
        if (in.isFloating()) {
          return DType.FLOAT64;
        }
        return in.isUnsigned() ? DType.UINT64 : DType.INT64;
      case ALL, ANY:
        return DType.INT64;
      default:
        if (in.isFloating()) {
          return DType.FLOAT64;
        }
        return in.isUnsigned() ? DType.UINT64 : DType.INT64;
    }
  }

  /** The result dtype. */
  static DType resultType(Kind k, DType in) {
    return switch (k) {
      case SUM, PROD ->
          in.isFloating() || in.isComplex() ? in : (in.isUnsigned() ? DType.UINT64 : DType.INT64);
      case MIN, MAX -> in;
      case ALL, ANY -> DType.BOOL;
      case MEAN, VAR -> in.isFloating() ? in : DType.FLOAT64;
      case ARGMIN, ARGMAX -> DType.INT64;
      case NANMEAN, NANVAR, NANMIN, NANMAX, NANARGMIN, NANARGMAX, NANSUM, NANCOUNT ->
          NanKernel.resultType(k, in);
    };
  }

  private static long[] keepShape(long[] shape, boolean[] red) {
    long[] s = shape.clone();
    for (int i = 0; i < s.length; i++) {
      if (red[i]) {
        s[i] = 1;
      }
    }
    return s;
  }

  private static long[] withFields(long[] s, int k) {
    long[] r = Arrays.copyOf(s, s.length + 1);
    r[s.length] = k;
    return r;
  }

  /** Partial states of one block; {@code argOffset} is the block's start along the arg axis. */
  static NDArray initial(Kind kind, NDArray block, boolean[] red, int argAxis, long argOffset) {
    return initial(kind, block, red, argAxis, argOffset, null);
  }

  /**
   * {@link #initial}, written into {@code reuse} (whose contents are overwritten) when it has the
   * state's dtype and shape, else into a new array; the array written is returned.
   */
  static NDArray initial(
      Kind kind, NDArray block, boolean[] red, int argAxis, long argOffset, NDArray reuse) {
    if (kind.isNan()) {
      return NanKernel.initial(kind, block, red, argAxis, argOffset, reuse);
    }
    long[] shape = block.shape();
    int nd = shape.length;
    long[] ks = keepShape(shape, red);
    int m = (int) Shapes.size(ks);
    int k = kind.fields();
    DType st = stateType(kind, block.dtype());
    long[] stateShape = withFields(ks, k);
    NDArray state;
    if (reuse != null && reuse.dtype() == st && Arrays.equals(reuse.shape(), stateShape)) {
      state = reuse;
      if (state.data() instanceof double[] d) {
        Arrays.fill(d, 0.0);
      } else {
        Arrays.fill((long[]) state.data(), 0L);
      }
    } else {
      state = NDArray.zeros(st, stateShape);
    }
    long[] os = new long[nd];
    long stride = 1;
    for (int d = nd - 1; d >= 0; d--) {
      os[d] = red[d] ? 0 : stride;
      stride *= ks[d];
    }
    boolean cx = st == DType.COMPLEX128;
    double[] ds = st == DType.FLOAT64 ? (double[]) state.data() : null;
    double[] src = block.dtype() == DType.FLOAT64 ? (double[]) block.data() : null;
    int n = block.size();
    if (src != null && !cx && nd > 0 && (kind == Kind.SUM || kind == Kind.MEAN)) {
      SumRows.sumRows(kind == Kind.MEAN, src, ds, shape, os);
      return state;
    }
    if (src != null
        && !cx
        && nd > 0
        && (kind == Kind.ARGMAX || kind == Kind.ARGMIN)
        && argAxis == nd - 1
        && onlyLast(red)
        && shape[nd - 1] > 0) {
      argRowsLast(kind, src, ds, (int) shape[nd - 1], n, argOffset);
      return state;
    }
    elementwise(kind, block, state, os, m, argAxis, argOffset);
    return state;
  }

  /**
   * The general case of {@link #initial}: the state (zeros; set to ones here for products and all)
   * updated element by element, {@code os} the state's strides per block axis (0 on reduced axes),
   * {@code m} its number of entries. A method of its own so that the fast paths above, which the
   * tiled evaluation calls for every tile, stay small for the JIT compiler.
   */
  private static void elementwise(
      Kind kind, NDArray block, NDArray state, long[] os, int m, int argAxis, long argOffset) {
    long[] shape = block.shape();
    int nd = shape.length;
    int n = block.size();
    DType st = state.dtype();
    boolean cx = st == DType.COMPLEX128;
    boolean fl = st == DType.FLOAT64 || cx;
    boolean unsigned = st == DType.UINT64;
    double[] ds = fl ? (double[]) state.data() : null;
    long[] ls = fl ? null : (long[]) state.data();
    double[] src = block.dtype() == DType.FLOAT64 ? (double[]) block.data() : null;
    if (kind == Kind.PROD || kind == Kind.ALL) {
      if (cx) {
        for (int j = 0; j < m; j++) {
          ds[2 * j] = 1.0;
        }
      } else if (fl) {
        Arrays.fill(ds, 1.0);
      } else {
        Arrays.fill(ls, 1L);
      }
    }
    boolean[] seen = new boolean[m];
    if (kind == Kind.PROD || kind == Kind.ALL) {
      Arrays.fill(seen, true);
    }
    long[] idx = new long[nd];
    int o = 0;
    for (int i = 0; i < n; i++) {
      switch (kind) {
        case SUM -> {
          if (fl) {
            ds[o] += src != null ? src[i] : block.getDouble(i);
          } else {
            ls[o] += block.getLong(i);
          }
        }
        case PROD -> {
          if (!seen[o]) {
            seen[o] = true;
            if (fl) {
              ds[o] = 1;
            } else {
              ls[o] = 1;
            }
          }
          if (cx) {
            double xr = block.getDouble(i);
            double xi = block.getImag(i);
            double ar = ds[2 * o];
            double ai = ds[2 * o + 1];
            ds[2 * o] = ar * xr - ai * xi;
            ds[2 * o + 1] = ar * xi + ai * xr;
          } else if (fl) {
            ds[o] *= block.getDouble(i);
          } else {
            ls[o] *= block.getLong(i);
          }
        }
        case MIN, MAX -> {
          boolean max = kind == Kind.MAX;
          if (fl) {
            double v = src != null ? src[i] : block.getDouble(i);
            if (!seen[o]) {
              seen[o] = true;
              ds[o] = v;
            } else if (Double.isNaN(v) || (max ? v > ds[o] : v < ds[o])) {
              if (!Double.isNaN(ds[o])) {
                ds[o] = v;
              }
            }
          } else {
            long v = block.dtype().isBool() ? (block.getBoolean(i) ? 1 : 0) : block.getLong(i);
            int c =
                seen[o] ? (unsigned ? Long.compareUnsigned(v, ls[o]) : Long.compare(v, ls[o])) : 0;
            if (!seen[o] || (max ? c > 0 : c < 0)) {
              seen[o] = true;
              ls[o] = v;
            }
          }
        }
        case ALL -> {
          if (!seen[o]) {
            seen[o] = true;
            ls[o] = 1;
          }
          if (!truthy(block, i)) {
            ls[o] = 0;
          }
        }
        case ANY -> {
          if (truthy(block, i)) {
            ls[o] = 1;
          }
        }
        case MEAN -> {
          ds[o * 2] += 1;
          ds[o * 2 + 1] += src != null ? src[i] : block.getDouble(i);
        }
        case VAR -> {
          double v = src != null ? src[i] : block.getDouble(i);
          double cnt = ds[o * 3] + 1;
          double delta = v - ds[o * 3 + 1];
          double mean = ds[o * 3 + 1] + delta / cnt;
          ds[o * 3] = cnt;
          ds[o * 3 + 1] = mean;
          ds[o * 3 + 2] += delta * (v - mean);
        }
        case ARGMIN, ARGMAX -> {
          if (fl) {
            double v = src != null ? src[i] : block.getDouble(i);
            if (!seen[o] || better(kind, v, ds[o * 2 + 1])) {
              seen[o] = true;
              ds[o * 2] = argOffset + idx[argAxis];
              ds[o * 2 + 1] = v;
            }
          } else {
            long v = block.dtype().isBool() ? (block.getBoolean(i) ? 1 : 0) : block.getLong(i);
            if (!seen[o] || betterLong(kind, v, ls[o * 2 + 1], unsigned)) {
              seen[o] = true;
              ls[o * 2] = argOffset + idx[argAxis];
              ls[o * 2 + 1] = v;
            }
          }
        }
        default -> throw new IllegalStateException();
      }
      o = advance(idx, shape, os, o, nd - 1);
    }
    if ((kind == Kind.MIN || kind == Kind.MAX) && n == 0) {
      throw new IllegalArgumentException(
          kind.name().toLowerCase() + ": zero-size reduction has no identity");
    }
  }

  /**
   * Steps the C-order index {@code idx} (dimensions 0..last) to the next element and returns the
   * state offset {@code o} moved along with it ({@code os} = state strides, 0 on reduced axes).
   */
  static int advance(long[] idx, long[] shape, long[] os, int o, int last) {
    for (int d = last; d >= 0; d--) {
      idx[d]++;
      o += (int) os[d];
      if (idx[d] < shape[d]) {
        break;
      }
      o -= (int) (os[d] * shape[d]);
      idx[d] = 0;
    }
    return o;
  }

  private static boolean truthy(NDArray b, int i) {
    if (b.dtype().isBool()) {
      return b.getBoolean(i);
    }
    return b.dtype().isFloating() ? b.getDouble(i) != 0 : b.getLong(i) != 0;
  }

  /** Whether value v beats the current best c (NaN beats everything; ties keep the first). */
  private static boolean better(Kind kind, double v, double c) {
    if (Double.isNaN(c)) {
      return false;
    }
    if (Double.isNaN(v)) {
      return true;
    }
    return kind == Kind.ARGMAX ? v > c : v < c;
  }

  private static boolean onlyLast(boolean[] red) {
    for (int d = 0; d < red.length - 1; d++) {
      if (red[d]) {
        return false;
      }
    }
    return red[red.length - 1];
  }

  /**
   * argmax/argmin of a float64 block along its last axis, row by row: the same comparisons in the
   * same order as the general loop (first NaN wins, then the first strict improvement), without its
   * per-element dispatch and index arithmetic. State: (index + argOffset, value) per row.
   */
  private static void argRowsLast(
      Kind kind, double[] src, double[] ds, int len, int n, long argOffset) {
    int rows = n / len;
    for (int r = 0; r < rows; r++) {
      int base = r * len;
      double bv = src[base];
      int bi = 0;
      for (int j = 1; j < len; j++) {
        double v = src[base + j];
        if (better(kind, v, bv)) {
          bv = v;
          bi = j;
        }
      }
      ds[2 * r] = argOffset + bi;
      ds[2 * r + 1] = bv;
    }
  }

  /** Whether integer value v strictly beats the current best c. */
  private static boolean betterLong(Kind kind, long v, long c, boolean unsigned) {
    int cmp = unsigned ? Long.compareUnsigned(v, c) : Long.compare(v, c);
    return kind == Kind.ARGMAX ? cmp > 0 : cmp < 0;
  }

  /** Merges state b into state a (same shape) and returns a. */
  static NDArray combine(Kind kind, NDArray a, NDArray b) {
    if (kind.isNan()) {
      return NanKernel.combine(kind, a, b);
    }
    int k = kind.fields();
    int m = a.size() / k;
    boolean cx = a.dtype() == DType.COMPLEX128;
    boolean fl = a.dtype() == DType.FLOAT64 || cx;
    boolean unsigned = a.dtype() == DType.UINT64;
    double[] da = fl ? (double[]) a.data() : null;
    double[] db = fl ? (double[]) b.data() : null;
    long[] la = fl ? null : (long[]) a.data();
    long[] lb = fl ? null : (long[]) b.data();
    if (kind == Kind.MEAN || (kind == Kind.SUM && !cx)) {
      // field by field additions (count and total for mean): one tight loop
      int n = m * k;
      if (fl) {
        for (int i = 0; i < n; i++) {
          da[i] += db[i];
        }
      } else {
        for (int i = 0; i < n; i++) {
          la[i] += lb[i];
        }
      }
      return a;
    }
    for (int o = 0; o < m; o++) {
      switch (kind) {
        case SUM -> {
          if (fl) {
            da[o] += db[o];
          } else {
            la[o] += lb[o];
          }
        }
        case PROD -> {
          if (cx) {
            double ar = da[2 * o];
            double ai = da[2 * o + 1];
            double br = db[2 * o];
            double bi = db[2 * o + 1];
            da[2 * o] = ar * br - ai * bi;
            da[2 * o + 1] = ar * bi + ai * br;
          } else if (fl) {
            da[o] *= db[o];
          } else {
            la[o] *= lb[o];
          }
        }
        case MIN, MAX -> {
          boolean max = kind == Kind.MAX;
          if (fl) {
            if (Double.isNaN(db[o])
                || (!Double.isNaN(da[o]) && (max ? db[o] > da[o] : db[o] < da[o]))) {
              da[o] = db[o];
            }
          } else {
            int c = unsigned ? Long.compareUnsigned(lb[o], la[o]) : Long.compare(lb[o], la[o]);
            if (max ? c > 0 : c < 0) {
              la[o] = lb[o];
            }
          }
        }
        case ALL -> la[o] = la[o] & lb[o];
        case ANY -> la[o] = la[o] | lb[o];
        case MEAN -> {
          da[2 * o] += db[2 * o];
          da[2 * o + 1] += db[2 * o + 1];
        }
        case VAR -> {
          double na = da[3 * o];
          double nb = db[3 * o];
          double n = na + nb;
          if (nb == 0) {
            break;
          }
          if (na == 0) {
            da[3 * o] = nb;
            da[3 * o + 1] = db[3 * o + 1];
            da[3 * o + 2] = db[3 * o + 2];
            break;
          }
          double delta = db[3 * o + 1] - da[3 * o + 1];
          da[3 * o + 1] = da[3 * o + 1] + delta * nb / n;
          da[3 * o + 2] = da[3 * o + 2] + db[3 * o + 2] + delta * delta * na * nb / n;
          da[3 * o] = n;
        }
        case ARGMIN, ARGMAX -> {
          if (!fl) {
            long va = la[2 * o + 1];
            long vb = lb[2 * o + 1];
            if (betterLong(kind, vb, va, unsigned) || (va == vb && lb[2 * o] < la[2 * o])) {
              la[2 * o] = lb[2 * o];
              la[2 * o + 1] = vb;
            }
            break;
          }
          double va = da[2 * o + 1];
          double vb = db[2 * o + 1];
          boolean takeB =
              better(kind, vb, va)
                  || (!better(kind, va, vb)
                      && !(Double.isNaN(va) && !Double.isNaN(vb))
                      && db[2 * o] < da[2 * o]
                      && (va == vb || (Double.isNaN(va) && Double.isNaN(vb))));
          if (takeB) {
            da[2 * o] = db[2 * o];
            da[2 * o + 1] = vb;
          }
        }
        default -> throw new IllegalStateException();
      }
    }
    return a;
  }

  /**
   * The mean of a real floating input from its sum state (one float64 total per element) and the
   * number of elements reduced into each, {@code count} (the same for every element: the product of
   * the reduced extents). Divides as {@link #finish} divides a (count, total) state, so the result
   * is the same; 0 elements give NaN.
   */
  static NDArray finishMean(NDArray state, DType in, double count) {
    long[] ss = state.shape();
    long[] shape = Arrays.copyOf(ss, ss.length - 1);
    NDArray r = NDArray.empty(resultType(Kind.MEAN, in), shape);
    double[] ds = (double[]) state.data();
    int m = r.size();
    if (r.dtype() == DType.FLOAT64) {
      double[] out = (double[]) r.data();
      for (int o = 0; o < m; o++) {
        out[o] = ds[o] / count;
      }
    } else {
      for (int o = 0; o < m; o++) {
        r.setDouble(o, ds[o] / count);
      }
    }
    return r;
  }

  /** The result of a state (shape = state shape without the fields axis). */
  static NDArray finish(Kind kind, NDArray state, DType in, int correction, boolean sqrt) {
    if (kind.isNan()) {
      return NanKernel.finish(kind, state, in, correction, sqrt);
    }
    long[] ss = state.shape();
    long[] shape = Arrays.copyOf(ss, ss.length - 1);
    DType rt = resultType(kind, in);
    NDArray r = NDArray.empty(rt, shape);
    int m = r.size();
    if (kind == Kind.MEAN && rt == DType.FLOAT64) {
      // count and total per element: the same division as below, without per-element dispatch
      double[] ds = (double[]) state.data();
      double[] out = (double[]) r.data();
      for (int o = 0; o < m; o++) {
        out[o] = ds[2 * o + 1] / ds[2 * o];
      }
      return r;
    }
    for (int o = 0; o < m; o++) {
      switch (kind) {
        case SUM, PROD, MIN, MAX -> {
          if (state.dtype() == DType.COMPLEX128) {
            r.setComplex(o, state.getDouble(o), state.getImag(o));
          } else if (state.dtype() == DType.FLOAT64) {
            r.setDouble(o, state.getDouble(o));
          } else {
            r.setLong(o, ((long[]) state.data())[o]);
          }
        }
        case ALL, ANY -> r.setBoolean(o, ((long[]) state.data())[o] != 0);
        case MEAN -> r.setDouble(o, state.getDouble(2 * o + 1) / state.getDouble(2 * o));
        case VAR -> {
          // as the kernel and NumPy: the divisor is max(count - correction, 0), so a correction
          // at or above the count gives NaN (no spread) or infinity, never a negative or 0
          double v = state.getDouble(3 * o + 2) / Math.max(state.getDouble(3 * o) - correction, 0);
          r.setDouble(o, sqrt ? Math.sqrt(v) : v);
        }
        case ARGMIN, ARGMAX ->
            r.setLong(
                o,
                state.dtype() == DType.FLOAT64
                    ? (long) state.getDouble(2 * o)
                    : ((long[]) state.data())[2 * o]);
        default -> throw new IllegalStateException();
      }
    }
    return r;
  }
}
