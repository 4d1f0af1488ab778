package dev.cubed.nd.window;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.window.MovingWindow.Op;

/**
 * Moving-window sums, minima and maxima of integer and bool lanes, exactly in long: sums wrap as
 * NumPy's int64/uint64 sums do, minima and maxima keep a monotone deque per lane (uint64 compared
 * unsigned). Integers have no NaN, so the nan-variants equal the plain ones.
 */
final class LongLanes implements MovingWindow.Lanes {
  private static final int L = MovingWindow.LANES;
  private final int w;
  private final boolean unsigned64;
  private final long[] in = new long[L];
  private final long[] old = new long[L];
  private final long[] s = new long[L];
  private final long[] dv;
  private final int[] di;
  private final int[] head = new int[L];
  private final int[] size = new int[L];
  private final boolean sums;
  private final boolean max;

  LongLanes(Op op, int window, DType in) {
    this.w = window;
    this.unsigned64 = in == DType.UINT64;
    sums = op == Op.SUM || op == Op.NANSUM;
    max = op == Op.MAX || op == Op.NANMAX;
    dv = sums ? null : new long[L * window];
    di = sums ? null : new int[L * window];
  }

  @Override
  public void sweep(NDArray x, NDArray r, int inBase, int outBase, int n, int stride, int len) {
    for (int l = 0; l < len; l++) {
      s[l] = 0;
      head[l] = size[l] = 0;
    }
    for (int t = 0; t < n; t++) {
      load(x, inBase + t * stride, len, in);
      if (sums) {
        if (t >= w) {
          load(x, inBase + (t - w) * stride, len, old);
          for (int l = 0; l < len; l++) {
            s[l] -= old[l];
          }
        }
        for (int l = 0; l < len; l++) {
          s[l] += in[l];
        }
      } else {
        push(t, len);
      }
      if (t >= w - 1) {
        int at = outBase + (t - w + 1) * stride;
        if (sums && r.data() instanceof long[] rd) {
          System.arraycopy(s, 0, rd, at, len);
        } else {
          for (int l = 0; l < len; l++) {
            r.setLong(at + l, sums ? s[l] : dv[l * w + head[l]]);
          }
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
      long v = in[l];
      while (size[l] > 0) {
        long b = dv[base + (head[l] + size[l] - 1) % w];
        int cmp = unsigned64 ? Long.compareUnsigned(b, v) : Long.compare(b, v);
        if (max ? cmp <= 0 : cmp >= 0) {
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

  private static void load(NDArray x, int at, int len, long[] buf) {
    if (x.dtype() == DType.INT64 || x.dtype() == DType.UINT64) {
      System.arraycopy((long[]) x.data(), at, buf, 0, len);
    } else if (x.dtype() == DType.BOOL) { // rolling counts: sums of a bool window
      boolean[] b = (boolean[]) x.data();
      for (int l = 0; l < len; l++) {
        buf[l] = b[at + l] ? 1 : 0;
      }
    } else if (x.dtype() == DType.INT32) {
      int[] b = (int[]) x.data();
      for (int l = 0; l < len; l++) {
        buf[l] = b[at + l];
      }
    } else {
      for (int l = 0; l < len; l++) {
        buf[l] = x.getLong(at + l);
      }
    }
  }
}
