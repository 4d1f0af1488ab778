package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Arrays;

/**
 * Per-chunk parts of the NaN-skipping tree reductions (the {@code NAN*} kinds of {@link
 * ReduceKernel.Kind}; {@link ReduceKernel} hands them here). Inputs are real floating (float32,
 * float64; integer and bool inputs take the plain reductions, which have no NaN to skip, and
 * complex ones are composed from real parts by the API). Every state is float64 and counts only the
 * non-NaN elements:
 *
 * <ul>
 *   <li>NANMEAN: (count, total); the mean is total / count, NaN for a slice of NaNs only (0 / 0).
 *   <li>NANVAR: (count, mean, M2), merged with Chan's formula as VAR; the variance is {@code M2 /
 *       (count - correction)}, NaN when {@code count - correction <= 0} (NumPy's nanvar, without
 *       its RuntimeWarning).
 *   <li>NANMIN / NANMAX: (value), NaN while no non-NaN element was seen; a merge takes the other
 *       side when one is NaN (fmin / fmax), so a slice of NaNs only gives NaN.
 *   <li>NANARGMIN / NANARGMAX: (index, value), index -1 while no non-NaN element was seen; ties
 *       keep the smaller index. A slice of NaNs only fails the finishing task with
 *       IllegalArgumentException "All-NaN slice encountered" (NumPy raises ValueError there).
 *   <li>NANSUM: (total), 0 for a slice of NaNs only; NANCOUNT: (count), an int64 result (it also
 *       takes integer and bool inputs, whose every element counts).
 * </ul>
 */
final class NanKernel {
  private NanKernel() {}

  /** The state dtype (float64) after checking the input is real floating. */
  static DType stateType(ReduceKernel.Kind k, DType in) {
    if (k == ReduceKernel.Kind.NANCOUNT ? in.isComplex() : !in.isRealFloating()) {
      throw new IllegalArgumentException(
          k.name().toLowerCase()
              + ": the NaN-skipping kernel takes"
              + " float32 or float64, got "
              + in
              + " (integer and bool inputs have no NaN: use the"
              + " plain reduction; complex inputs go through dev.cubed.Xp, which reduces their parts)");
    }
    return DType.FLOAT64;
  }

  /** The result dtype: the input's floating dtype, int64 for the arg reductions and the count. */
  static DType resultType(ReduceKernel.Kind k, DType in) {
    return k.isArg() || k == ReduceKernel.Kind.NANCOUNT ? DType.INT64 : in;
  }

  /** Partial states of one block (see {@link ReduceKernel#initial}). */
  static NDArray initial(
      ReduceKernel.Kind kind,
      NDArray block,
      boolean[] red,
      int argAxis,
      long argOffset,
      NDArray reuse) {
    DType st = stateType(kind, block.dtype());
    long[] shape = block.shape();
    int nd = shape.length;
    long[] ks = shape.clone();
    for (int d = 0; d < nd; d++) {
      if (red[d]) {
        ks[d] = 1;
      }
    }
    int k = kind.fields();
    long[] stateShape = Arrays.copyOf(ks, nd + 1);
    stateShape[nd] = k;
    NDArray state =
        reuse != null && reuse.dtype() == st && Arrays.equals(reuse.shape(), stateShape)
            ? reuse
            : NDArray.zeros(st, stateShape);
    double[] ds = (double[]) state.data();
    fillEmpty(kind, ds);
    long[] os = new long[nd];
    long stride = 1;
    for (int d = nd - 1; d >= 0; d--) {
      os[d] = red[d] ? 0 : stride;
      stride *= ks[d];
    }
    double[] src = block.dtype() == DType.FLOAT64 ? (double[]) block.data() : null;
    if ((kind == ReduceKernel.Kind.NANMEAN
            || kind == ReduceKernel.Kind.NANSUM
            || kind == ReduceKernel.Kind.NANCOUNT)
        && NanRuns.of(kind, block, red, ds)) {
      return state;
    }
    int n = block.size();
    long[] idx = new long[nd];
    int o = 0;
    for (int i = 0; i < n; i++) {
      double v = src != null ? src[i] : block.getDouble(i);
      if (!Double.isNaN(v)) {
        switch (kind) {
          case NANMEAN -> {
            ds[2 * o] += 1;
            ds[2 * o + 1] += v;
          }
          case NANSUM -> ds[o] += v;
          case NANCOUNT -> ds[o] += 1;
          case NANVAR -> {
            double cnt = ds[3 * o] + 1;
            double delta = v - ds[3 * o + 1];
            double mean = ds[3 * o + 1] + delta / cnt;
            ds[3 * o] = cnt;
            ds[3 * o + 1] = mean;
            ds[3 * o + 2] += delta * (v - mean);
          }
          case NANMIN, NANMAX -> {
            if (Double.isNaN(ds[o]) || beats(kind, v, ds[o])) {
              ds[o] = v;
            }
          }
          case NANARGMIN, NANARGMAX -> {
            if (ds[2 * o] < 0 || beats(kind, v, ds[2 * o + 1])) {
              ds[2 * o] = argOffset + (nd == 0 ? 0 : idx[argAxis]);
              ds[2 * o + 1] = v;
            }
          }
          default -> throw new IllegalStateException(kind.name());
        }
      }
      o = ReduceKernel.advance(idx, shape, os, o, nd - 1);
    }
    return state;
  }

  /** The state of no element: zeros, NaN for min/max, (-1, NaN) for the arg reductions. */
  private static void fillEmpty(ReduceKernel.Kind kind, double[] ds) {
    switch (kind) {
      case NANMIN, NANMAX -> Arrays.fill(ds, Double.NaN);
      case NANARGMIN, NANARGMAX -> {
        for (int j = 0; j < ds.length; j += 2) {
          ds[j] = -1;
          ds[j + 1] = Double.NaN;
        }
      }
      default -> Arrays.fill(ds, 0.0);
    }
  }

  /** Whether non-NaN v strictly beats non-NaN c. */
  private static boolean beats(ReduceKernel.Kind kind, double v, double c) {
    return kind == ReduceKernel.Kind.NANMAX || kind == ReduceKernel.Kind.NANARGMAX ? v > c : v < c;
  }

  /** Merges state b into state a (same shape) and returns a. */
  static NDArray combine(ReduceKernel.Kind kind, NDArray a, NDArray b) {
    double[] da = (double[]) a.data();
    double[] db = (double[]) b.data();
    int m = da.length / kind.fields();
    for (int o = 0; o < m; o++) {
      switch (kind) {
        case NANMEAN -> {
          da[2 * o] += db[2 * o];
          da[2 * o + 1] += db[2 * o + 1];
        }
        case NANSUM, NANCOUNT -> da[o] += db[o];
        case NANVAR -> mergeVar(da, db, o);
        case NANMIN, NANMAX -> {
          if (Double.isNaN(da[o]) || (!Double.isNaN(db[o]) && beats(kind, db[o], da[o]))) {
            da[o] = db[o];
          }
        }
        case NANARGMIN, NANARGMAX -> {
          double ia = da[2 * o];
          double ib = db[2 * o];
          if (ib < 0) {
            break;
          }
          double va = da[2 * o + 1];
          double vb = db[2 * o + 1];
          if (ia < 0 || beats(kind, vb, va) || (vb == va && ib < ia)) {
            da[2 * o] = ib;
            da[2 * o + 1] = vb;
          }
        }
        default -> throw new IllegalStateException(kind.name());
      }
    }
    return a;
  }

  /** Chan's parallel merge of (count, mean, M2) state {@code o} of b into a. */
  private static void mergeVar(double[] da, double[] db, int o) {
    double na = da[3 * o];
    double nb = db[3 * o];
    if (nb == 0) {
      return;
    }
    if (na == 0) {
      System.arraycopy(db, 3 * o, da, 3 * o, 3);
      return;
    }
    double n = na + nb;
    double delta = db[3 * o + 1] - da[3 * o + 1];
    da[3 * o + 1] += delta * nb / n;
    da[3 * o + 2] += db[3 * o + 2] + delta * delta * na * nb / n;
    da[3 * o] = n;
  }

  /** The result of a state (shape = state shape without the fields axis). */
  static NDArray finish(
      ReduceKernel.Kind kind, NDArray state, DType in, int correction, boolean sqrt) {
    long[] ss = state.shape();
    long[] shape = Arrays.copyOf(ss, ss.length - 1);
    NDArray r = NDArray.empty(resultType(kind, in), shape);
    double[] ds = (double[]) state.data();
    int m = r.size();
    for (int o = 0; o < m; o++) {
      switch (kind) {
        case NANMEAN -> r.setDouble(o, ds[2 * o + 1] / ds[2 * o]);
        case NANSUM -> r.setDouble(o, ds[o]);
        case NANCOUNT -> r.setLong(o, (long) ds[o]);
        case NANVAR -> {
          double dof = ds[3 * o] - correction;
          double v = dof > 0 ? ds[3 * o + 2] / dof : Double.NaN;
          r.setDouble(o, sqrt ? Math.sqrt(v) : v);
        }
        case NANMIN, NANMAX -> r.setDouble(o, ds[o]);
        case NANARGMIN, NANARGMAX -> {
          if (ds[2 * o] < 0) {
            String plain = kind.name().substring(3).toLowerCase();
            throw new IllegalArgumentException(
                kind.name().toLowerCase()
                    + ": All-NaN slice"
                    + " encountered: a slice along the reduced axis holds only NaN values, so it has"
                    + " no index; fill the NaNs first (where(isnan(x), value, x)) or use "
                    + plain);
          }
          r.setLong(o, (long) ds[2 * o]);
        }
        default -> throw new IllegalStateException(kind.name());
      }
    }
    return r;
  }
}
