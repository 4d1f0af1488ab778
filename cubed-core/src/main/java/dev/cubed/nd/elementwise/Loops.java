package dev.cubed.nd.elementwise;

import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * Broadcasting loop machinery of the elementwise functions: a binary loop works on one row (a run
 * along the innermost broadcast axis) of the backing arrays, and {@link #run} walks the rows of the
 * broadcast result with an odometer over the outer axes, after dropping length-1 axes and merging
 * axes that are contiguous in every operand. Same-shape operands and array-with-one-element
 * operands are a single row. The generic (non fast-path) kernels work on the wide forms of {@link
 * WideArrays}.
 */
final class Loops {
  private Loops() {}

  /**
   * One row of a binary elementwise function: {@code out[oo + i] = f(x[xo + i*xs], y[yo + i*ys])}
   * for {@code i < n}. Offsets and strides count elements (complex loops double them); strides are
   * 0 (broadcast) or 1.
   */
  @FunctionalInterface
  interface Binary {
    void run(Object x, int xo, int xs, Object y, int yo, int ys, Object out, int oo, int n);
  }

  /** A unary elementwise function over {@code n} contiguous elements. */
  @FunctionalInterface
  interface Unary {
    void run(Object x, Object out, int n);
  }

  /** The broadcast shape of two operands (the same array when equal). */
  static long[] shape(String fn, long[] a, long[] b) {
    return Arrays.equals(a, b) ? a : Shapes.broadcast(fn, a, b);
  }

  /**
   * Runs a binary loop over the broadcast of {@code xd} (shape {@code xs}) and {@code yd} (shape
   * {@code ys}) into {@code out}, which holds {@code shape} in C order.
   */
  static void run(
      long[] shape, long[] xs, Object xd, long[] ys, Object yd, Object out, Binary loop) {
    long total = Shapes.size(shape);
    if (total == 0) {
      return;
    }
    int n = (int) total;
    boolean xFull = Arrays.equals(xs, shape);
    boolean yFull = Arrays.equals(ys, shape);
    if (xFull && yFull) {
      loop.run(xd, 0, 1, yd, 0, 1, out, 0, n);
      return;
    }
    if (xFull && Shapes.size(ys) == 1) {
      loop.run(xd, 0, 1, yd, 0, 0, out, 0, n);
      return;
    }
    if (yFull && Shapes.size(xs) == 1) {
      loop.run(xd, 0, 0, yd, 0, 1, out, 0, n);
      return;
    }
    int nd = shape.length;
    long[] sx = broadcastStrides(xs, nd);
    long[] sy = broadcastStrides(ys, nd);
    // coalesce, innermost first: drop length-1 axes, merge axes contiguous in both operands
    int[] dim = new int[nd];
    int[] stx = new int[nd];
    int[] sty = new int[nd];
    int m = 0;
    for (int a = nd - 1; a >= 0; a--) {
      int d = (int) shape[a];
      if (d == 1) {
        continue;
      }
      if (m > 0
          && sx[a] == (long) stx[m - 1] * dim[m - 1]
          && sy[a] == (long) sty[m - 1] * dim[m - 1]) {
        dim[m - 1] *= d;
        continue;
      }
      dim[m] = d;
      stx[m] = (int) sx[a];
      sty[m] = (int) sy[a];
      m++;
    }
    if (m == 0) {
      loop.run(xd, 0, 0, yd, 0, 0, out, 0, 1);
      return;
    }
    int inner = dim[0];
    int rows = n / inner;
    int[] idx = new int[m];
    int xo = 0;
    int yo = 0;
    int oo = 0;
    for (int r = 0; r < rows; r++) {
      loop.run(xd, xo, stx[0], yd, yo, sty[0], out, oo, inner);
      oo += inner;
      for (int k = 1; k < m; k++) {
        xo += stx[k];
        yo += sty[k];
        if (++idx[k] < dim[k]) {
          break;
        }
        xo -= stx[k] * dim[k];
        yo -= sty[k] * dim[k];
        idx[k] = 0;
      }
    }
  }

  /** C-order element strides of {@code s} right-aligned to {@code nd} axes, 0 on length-1 axes. */
  private static long[] broadcastStrides(long[] s, int nd) {
    long[] st = new long[nd];
    long acc = 1;
    for (int i = s.length - 1; i >= 0; i--) {
      int a = nd - s.length + i;
      st[a] = s[i] == 1 ? 0 : acc;
      acc *= s[i];
    }
    return st;
  }
}
