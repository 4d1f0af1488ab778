package dev.cubed.nd.window;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.window.MovingWindow.Op;

/**
 * Moving-window reductions of lanes in double: Neumaier-compensated sums with NaN and infinity
 * counts (sum, mean), Welford's mean and squared deviations with removal (var, std), monotone
 * deques (min, max). Each lane's state is reset at the start of a sweep.
 */
final class DoubleLanes implements MovingWindow.Lanes {
  private static final int L = MovingWindow.LANES;

  /**
   * A removal leaving less than this share of the squared deviations marks the lane for a
   * recomputation from its window (the rest would be mostly the rounding error of the subtraction).
   */
  private static final double CANCELLED = 1e-3;

  private final Op op;
  private final int w;
  private final int ddof;
  private final int minCount;
  private final double[] in = new double[L];
  private final double[] old = new double[L];
  private final int[] nan = new int[L];
  private final int[] pinf = new int[L];
  private final int[] ninf = new int[L];
  private final int[] fin = new int[L];
  private final double[] s = new double[L];
  private final double[] c = new double[L];
  private final double[] mean = new double[L];
  private final double[] m2 = new double[L];
  private final double[] shift = new double[L];
  private final boolean[] shifted = new boolean[L];
  private final int[] lastNan = new int[L];
  private final double[] dv;
  private final int[] di;
  private final int[] head = new int[L];
  private final int[] size = new int[L];
  private final boolean[] dirty = new boolean[L];
  private final boolean sums;
  private final boolean moments;
  private final boolean extremes;
  private final boolean max;

  DoubleLanes(Op op, int window, int ddof, int minCount) {
    this.minCount = minCount;
    this.op = op;
    this.w = window;
    this.ddof = ddof;
    sums = op == Op.SUM || op == Op.NANSUM || op == Op.MEAN || op == Op.NANMEAN;
    moments = op == Op.VAR || op == Op.NANVAR || op == Op.STD || op == Op.NANSTD;
    extremes = !sums && !moments;
    max = op == Op.MAX || op == Op.NANMAX;
    dv = extremes ? new double[L * window] : null;
    di = extremes ? new int[L * window] : null;
  }

  @Override
  public void sweep(NDArray x, NDArray r, int inBase, int outBase, int n, int stride, int len) {
    for (int l = 0; l < len; l++) {
      nan[l] = pinf[l] = ninf[l] = fin[l] = head[l] = size[l] = 0;
      s[l] = c[l] = mean[l] = m2[l] = 0;
      lastNan[l] = Integer.MIN_VALUE / 2;
      dirty[l] = shifted[l] = false;
      shift[l] = 0;
    }
    for (int t = 0; t < n; t++) {
      load(x, inBase + t * stride, len, in);
      if (extremes) {
        push(t, len);
      } else {
        if (t >= w) {
          load(x, inBase + (t - w) * stride, len, old);
          for (int l = 0; l < len; l++) {
            update(l, old[l], -1);
          }
        }
        for (int l = 0; l < len; l++) {
          update(l, in[l], 1);
        }
      }
      if (t >= w - 1) {
        if (moments) {
          for (int l = 0; l < len; l++) {
            if (dirty[l]) {
              recompute(x, inBase + l, stride, t, l);
            }
          }
        }
        emit(r, outBase + (t - w + 1) * stride, len, t);
      }
    }
  }

  /**
   * Welford's state of lane l from the window's values themselves (two passes), after a removal
   * took away nearly all of the squared deviations: the subtraction would have left mostly rounding
   * error (a huge value leaving a window of small ones).
   */
  private void recompute(NDArray x, int at, int stride, int t, int l) {
    double sum = 0;
    int k = 0;
    for (int u = t - w + 1; u <= t; u++) {
      double v = x.getDouble(at + u * stride) - shift[l];
      if (!Double.isNaN(v) && !Double.isInfinite(v)) {
        sum += v;
        k++;
      }
    }
    double m = k == 0 ? 0 : sum / k;
    double ss = 0;
    for (int u = t - w + 1; u <= t; u++) {
      double v = x.getDouble(at + u * stride) - shift[l];
      if (!Double.isNaN(v) && !Double.isInfinite(v)) {
        ss += (v - m) * (v - m);
      }
    }
    mean[l] = m;
    m2[l] = ss;
    dirty[l] = false;
  }

  private void update(int l, double v, int sign) {
    if (v != v) {
      nan[l] += sign;
    } else if (v == Double.POSITIVE_INFINITY) {
      pinf[l] += sign;
    } else if (v == Double.NEGATIVE_INFINITY) {
      ninf[l] += sign;
    } else {
      int k = fin[l] += sign;
      if (k == 0) {
        s[l] = c[l] = mean[l] = m2[l] = 0;
      } else if (sums) {
        double y = sign > 0 ? v : -v;
        double sum = s[l] + y;
        c[l] += Math.abs(s[l]) >= Math.abs(y) ? (s[l] - sum) + y : (y - sum) + s[l];
        s[l] = sum;
      } else {
        if (!shifted[l]) {
          // moments of v - shift (the lane's first value): the same variance, without the
          // cancellation of a large mean (temperatures in kelvin, say)
          shift[l] = v;
          shifted[l] = true;
        }
        v -= shift[l];
        double before = m2[l];
        double d = v - mean[l];
        mean[l] += sign * d / k;
        m2[l] += sign * d * (v - mean[l]);
        if (sign < 0 && !(m2[l] > before * CANCELLED)) {
          dirty[l] = true;
        }
      }
    }
  }

  private void push(int t, int len) {
    for (int l = 0; l < len; l++) {
      int base = l * w;
      if (size[l] > 0 && di[base + head[l]] <= t - w) {
        head[l] = head[l] + 1 == w ? 0 : head[l] + 1;
        size[l]--;
      }
      double v = in[l];
      if (v != v) {
        lastNan[l] = t;
        continue;
      }
      while (size[l] > 0) {
        int back = (head[l] + size[l] - 1) % w;
        double b = dv[base + back];
        if (max ? b <= v : b >= v) {
          size[l]--;
        } else {
          break;
        }
      }
      int at = (head[l] + size[l]) % w;
      dv[base + at] = v;
      di[base + at] = t;
      size[l]++;
    }
  }

  private void emit(NDArray r, int at, int len, int t) {
    for (int l = 0; l < len; l++) {
      store(r, at + l, value(l, t));
    }
  }

  private double value(int l, int t) {
    int valid = fin[l] + pinf[l] + ninf[l];
    if (valid < minCount) {
      return Double.NaN;
    }
    switch (op) {
      case SUM:
        return nan[l] > 0 ? Double.NaN : sum(l);
      case NANSUM:
        return sum(l);
      case MEAN:
        return nan[l] > 0 ? Double.NaN : sum(l) / w;
      case NANMEAN:
        return valid == 0 ? Double.NaN : sum(l) / valid;
      case VAR:
      case STD:
        {
          if (nan[l] > 0 || pinf[l] + ninf[l] > 0) {
            return Double.NaN;
          }
          double v = Math.max(m2[l], 0) / Math.max(w - ddof, 0);
          return op == Op.STD ? Math.sqrt(v) : v;
        }
      case NANVAR:
      case NANSTD:
        {
          if (pinf[l] + ninf[l] > 0 || fin[l] - ddof <= 0) {
            return Double.NaN;
          }
          double v = Math.max(m2[l], 0) / (fin[l] - ddof);
          return op == Op.NANSTD ? Math.sqrt(v) : v;
        }
      default:
        if ((!op.skipsNan() && lastNan[l] > t - w) || size[l] == 0) {
          return Double.NaN;
        }
        return dv[l * w + head[l]];
    }
  }

  private double sum(int l) {
    if (pinf[l] > 0 && ninf[l] > 0) {
      return Double.NaN;
    }
    if (pinf[l] > 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (ninf[l] > 0) {
      return Double.NEGATIVE_INFINITY;
    }
    return s[l] + c[l];
  }

  private static void load(NDArray x, int at, int len, double[] buf) {
    Object d = x.data();
    if (x.dtype() == DType.FLOAT64) {
      System.arraycopy((double[]) d, at, buf, 0, len);
    } else if (x.dtype() == DType.FLOAT32) {
      float[] f = (float[]) d;
      for (int l = 0; l < len; l++) {
        buf[l] = f[at + l];
      }
    } else {
      for (int l = 0; l < len; l++) {
        buf[l] = x.getDouble(at + l);
      }
    }
  }

  private static void store(NDArray r, int i, double v) {
    if (r.dtype() == DType.FLOAT64) {
      ((double[]) r.data())[i] = v;
    } else if (r.dtype() == DType.FLOAT32) {
      ((float[]) r.data())[i] = (float) v;
    } else {
      r.setDouble(i, v);
    }
  }
}
