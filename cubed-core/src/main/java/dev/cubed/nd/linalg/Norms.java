package dev.cubed.nd.linalg;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;

/** Vector and matrix norms (the standard's {@code vector_norm} and {@code matrix_norm}). */
final class Norms {
  private Norms() {}

  /** |x| of every element as doubles (complex: modulus). */
  static double[] magnitudes(NDArray x) {
    int n = x.size();
    double[] v = MatrixStack.read(x, 0, n);
    if (!x.dtype().isComplex()) {
      for (int i = 0; i < n; i++) {
        v[i] = Math.abs(v[i]);
      }
      return v;
    }
    double[] m = new double[n];
    for (int i = 0; i < n; i++) {
      m[i] = Math.hypot(v[2 * i], v[2 * i + 1]);
    }
    return m;
  }

  static NDArray vectorNorm(NDArray x, Axes axes, double ord) {
    String fn = "vector_norm";
    DType out = MatrixStack.floating(fn, x.dtype()).realPart();
    if (Double.isNaN(ord)) {
      throw new IllegalArgumentException(fn + ": ord must be a real number or +-inf, got NaN");
    }
    int nd = x.ndim();
    int[] red = axes.resolve(fn, nd);
    boolean[] isRed = new boolean[nd];
    for (int a : red) {
      isRed[a] = true;
    }
    int[] perm = new int[nd];
    int k = 0;
    for (int i = 0; i < nd; i++) {
      if (!isRed[i]) {
        perm[k++] = i;
      }
    }
    for (int a : red) {
      perm[k++] = a;
    }
    boolean identity = true;
    for (int i = 0; i < nd; i++) {
      identity &= perm[i] == i;
    }
    NDArray y = identity ? x : x.permuteDims(perm);
    long[] s = x.shape();
    long inner = 1;
    for (int a : red) {
      inner *= s[a];
    }
    long[] outShape = axes.reducedShape(fn, s);
    NDArray result = NDArray.zeros(out, outShape);
    int outer = result.size();
    if (inner == 0 && Double.isInfinite(ord)) {
      throw new IllegalArgumentException(
          fn
              + ": ord="
              + (ord > 0 ? "inf" : "-inf")
              + " is undefined for an empty reduction (shape "
              + Shapes.format(s)
              + ")");
    }
    double[] mag = magnitudes(y);
    double[] r = new double[outer];
    int in = (int) inner;
    for (int o = 0; o < outer; o++) {
      r[o] = reduce(mag, o * in, in, ord);
    }
    MatrixStack.write(result, 0, outer, r, false);
    return result;
  }

  /** The ord-norm of the magnitudes {@code m[off..off+n)}. */
  static double reduce(double[] m, int off, int n, double ord) {
    if (ord == 2) {
      double scale = 0;
      for (int i = 0; i < n; i++) {
        double a = m[off + i];
        if (a > scale || Double.isNaN(a)) {
          scale = a;
        }
      }
      if (scale == 0 || Double.isNaN(scale) || Double.isInfinite(scale)) {
        return scale;
      }
      double sum = 0;
      for (int i = 0; i < n; i++) {
        double a = m[off + i] / scale;
        sum += a * a;
      }
      return scale * Math.sqrt(sum);
    }
    if (ord == 1) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += m[off + i];
      }
      return sum;
    }
    if (ord == Double.POSITIVE_INFINITY || ord == Double.NEGATIVE_INFINITY) {
      boolean max = ord > 0;
      double best = m[off];
      for (int i = 0; i < n; i++) {
        double a = m[off + i];
        if (Double.isNaN(a)) {
          return a;
        }
        best = max ? Math.max(best, a) : Math.min(best, a);
      }
      return best;
    }
    if (ord == 0) {
      double cnt = 0; // NaN counts as non-zero, as NumPy's count_nonzero
      for (int i = 0; i < n; i++) {
        if (m[off + i] != 0) {
          cnt++;
        }
      }
      return cnt;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += Math.pow(m[off + i], ord);
    }
    return Math.pow(sum, 1 / ord);
  }

  static NDArray matrixNorm(NDArray x, Linalg.MatrixNormOrder ord, Linalg.KeepDims keep) {
    String fn = "matrix_norm";
    MatrixStack st = MatrixStack.of(fn, x);
    DType out = MatrixStack.floating(fn, x.dtype()).realPart();
    long[] shape = keep == Linalg.KeepDims.KEEP ? st.shapeWith(1, 1) : st.shapeWith();
    NDArray result = NDArray.zeros(out, shape);
    int m = st.rows;
    int n = st.cols;
    if (m * n == 0
        && ord != Linalg.MatrixNormOrder.FRO
        && ord != Linalg.MatrixNormOrder.NUC
        && st.count > 0) {
      throw new IllegalArgumentException(
          fn
              + ": ord "
              + ord
              + " is undefined for empty matrices"
              + " (shape "
              + Shapes.format(x.shape())
              + ")");
    }
    boolean cx = st.complex;
    double[] r = new double[st.count];
    for (int b = 0; b < st.count; b++) {
      double[] a = st.get(b);
      double[] mag = new double[m * n];
      for (int i = 0; i < m * n; i++) {
        mag[i] = cx ? Math.hypot(a[2 * i], a[2 * i + 1]) : Math.abs(a[i]);
      }
      r[b] =
          switch (ord) {
            case FRO -> reduce(mag, 0, m * n, 2);
            case NUC, TWO, NEG_TWO -> {
              double[] s = Spectral.svd(fn, st.where(b), a, m, n, cx, Spectral.Job.VALUES).s();
              if (ord == Linalg.MatrixNormOrder.NUC) {
                double sum = 0;
                for (double v : s) {
                  sum += v;
                }
                yield sum;
              }
              yield ord == Linalg.MatrixNormOrder.TWO ? s[0] : s[s.length - 1];
            }
            case ONE, NEG_ONE -> {
              double best =
                  ord == Linalg.MatrixNormOrder.ONE
                      ? Double.NEGATIVE_INFINITY
                      : Double.POSITIVE_INFINITY;
              for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int i = 0; i < m; i++) {
                  sum += mag[i * n + j];
                }
                best = ord == Linalg.MatrixNormOrder.ONE ? max(best, sum) : min(best, sum);
              }
              yield best;
            }
            case INF, NEG_INF -> {
              double best =
                  ord == Linalg.MatrixNormOrder.INF
                      ? Double.NEGATIVE_INFINITY
                      : Double.POSITIVE_INFINITY;
              for (int i = 0; i < m; i++) {
                double sum = 0;
                for (int j = 0; j < n; j++) {
                  sum += mag[i * n + j];
                }
                best = ord == Linalg.MatrixNormOrder.INF ? max(best, sum) : min(best, sum);
              }
              yield best;
            }
          };
    }
    MatrixStack.write(result, 0, st.count, r, false);
    return result;
  }

  private static double max(double a, double b) {
    return Double.isNaN(a) || Double.isNaN(b) ? Double.NaN : Math.max(a, b);
  }

  private static double min(double a, double b) {
    return Double.isNaN(a) || Double.isNaN(b) ? Double.NaN : Math.min(a, b);
  }
}
