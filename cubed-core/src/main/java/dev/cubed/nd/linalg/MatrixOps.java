package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * The linalg functions built on the kernels rather than being one: trace, diagonal, cross,
 * matrix_power (no factorization), solve (LU per matrix) and pinv (SVD per matrix).
 */
final class MatrixOps {
  private MatrixOps() {}

  /** Length of the diagonal at {@code offset} of an m x n matrix. */
  private static int diagLength(int m, int n, int offset) {
    return Math.max(0, offset >= 0 ? Math.min(m, n - offset) : Math.min(m + offset, n));
  }

  static NDArray diagonal(NDArray x, int offset) {
    MatrixStack st = MatrixStack.of("diagonal", x);
    int m = st.rows;
    int n = st.cols;
    int len = diagLength(m, n, offset);
    NDArray out = NDArray.zeros(x.dtype(), st.shapeWith(len));
    int w = x.dtype().isComplex() ? 2 : 1;
    int start = offset >= 0 ? offset : -offset * n;
    Object src = x.data();
    Object dst = out.data();
    for (int b = 0; b < st.count; b++) {
      int base = b * m * n + start;
      for (int i = 0; i < len; i++) {
        System.arraycopy(src, w * (base + i * (n + 1)), dst, w * (b * len + i), w);
      }
    }
    return out;
  }

  /** The dtype {@code trace} returns by default for {@code dt} (integers widen as the standard). */
  static DType traceType(DType dt) {
    if (dt.isSigned() && dt != DType.INT64) {
      return DType.INT64;
    }
    if (dt.isUnsigned() && dt != DType.UINT64) {
      return DType.UINT64;
    }
    return dt;
  }

  static NDArray trace(NDArray x, int offset, DType dtype) {
    String fn = "trace";
    MatrixStack.requireNumeric(fn, x.dtype());
    DType rt = dtype == null ? traceType(x.dtype()) : dtype;
    MatrixStack.requireNumeric(fn, rt);
    MatrixStack st = MatrixStack.of(fn, x);
    NDArray d = diagonal(x, offset);
    if (d.dtype() != rt) {
      d = d.astype(rt);
    }
    int len = (int) d.shape(d.ndim() - 1);
    NDArray out = NDArray.zeros(rt, st.shapeWith());
    for (int b = 0; b < st.count; b++) {
      if (rt.isInteger()) {
        long s = 0;
        for (int i = 0; i < len; i++) {
          s += d.getLong(b * len + i);
        }
        out.setLong(b, s);
      } else {
        double re = 0;
        double im = 0;
        for (int i = 0; i < len; i++) {
          re += d.getDouble(b * len + i);
          im += d.getImag(b * len + i);
        }
        out.setComplex(b, re, im);
      }
    }
    return out;
  }

  static NDArray cross(NDArray x1, NDArray x2, int axis) {
    String fn = "cross";
    MatrixStack.requireNumeric(fn, x1.dtype());
    MatrixStack.requireNumeric(fn, x2.dtype());
    if (x1.ndim() == 0 || x2.ndim() == 0) {
      throw new IllegalArgumentException(
          fn
              + ": x1 and x2 must have at least one dimension, got"
              + " shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape()));
    }
    int minNd = Math.min(x1.ndim(), x2.ndim());
    if (axis >= 0 && x1.ndim() != x2.ndim() || axis < -minNd || axis >= minNd) {
      throw new IllegalArgumentException(
          fn
              + ": axis "
              + axis
              + " must be in [-"
              + minNd
              + ", -1] for shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape())
              + " (non-negative only when both have the same number of dimensions)");
    }
    long[] s1 = x1.shape();
    long[] s2 = x2.shape();
    int a1 = axis < 0 ? s1.length + axis : axis;
    int a2 = axis < 0 ? s2.length + axis : axis;
    if (s1[a1] != 3 || s2[a2] != 3) {
      throw new IllegalArgumentException(
          fn
              + ": the vectors along axis "
              + axis
              + " must have 3"
              + " elements, got shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2));
    }
    DType rt = DType.resultType(x1.dtype(), x2.dtype());
    long[] os = Shapes.broadcast(fn, s1, s2);
    int ax = axis < 0 ? os.length + axis : axis;
    NDArray a = (x1.dtype() == rt ? x1 : x1.astype(rt));
    NDArray b = (x2.dtype() == rt ? x2 : x2.astype(rt));
    if (!Arrays.equals(s1, os)) {
      a = a.broadcastTo(os);
    }
    if (!Arrays.equals(s2, os)) {
      b = b.broadcastTo(os);
    }
    int inner = 1;
    for (int i = ax + 1; i < os.length; i++) {
      inner *= (int) os[i];
    }
    NDArray out = NDArray.zeros(rt, os);
    int n = out.size();
    int groups = inner == 0 ? 0 : n / (3 * inner);
    if (rt.isInteger()) {
      for (int g = 0; g < groups; g++) {
        for (int i = 0; i < inner; i++) {
          int p = g * 3 * inner + i;
          long u0 = a.getLong(p);
          long u1 = a.getLong(p + inner);
          long u2 = a.getLong(p + 2 * inner);
          long v0 = b.getLong(p);
          long v1 = b.getLong(p + inner);
          long v2 = b.getLong(p + 2 * inner);
          out.setLong(p, u1 * v2 - u2 * v1);
          out.setLong(p + inner, u2 * v0 - u0 * v2);
          out.setLong(p + 2 * inner, u0 * v1 - u1 * v0);
        }
      }
      return out;
    }
    boolean cx = rt.isComplex();
    boolean f32 = rt.realPart() == DType.FLOAT32;
    double[] u = MatrixStack.read(a, 0, n);
    double[] v = MatrixStack.read(b, 0, n);
    double[] r = new double[u.length];
    int w = cx ? 2 : 1;
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < inner; i++) {
        int p = g * 3 * inner + i;
        for (int c = 0; c < 3; c++) {
          int j = p + ((c + 1) % 3) * inner;
          int k = p + ((c + 2) % 3) * inner;
          int o = w * (p + c * inner);
          if (!cx) {
            r[o] =
                f32
                    ? (float) ((float) (u[j] * v[k]) - (float) (u[k] * v[j]))
                    : u[j] * v[k] - u[k] * v[j];
          } else {
            double re = mulRe(u, v, w * j, w * k) - mulRe(u, v, w * k, w * j);
            double im = mulIm(u, v, w * j, w * k) - mulIm(u, v, w * k, w * j);
            r[o] = re;
            r[o + 1] = im;
          }
        }
      }
    }
    MatrixStack.write(out, 0, n, r, cx);
    return out;
  }

  private static double mulRe(double[] u, double[] v, int i, int j) {
    return u[i] * v[j] - u[i + 1] * v[j + 1];
  }

  private static double mulIm(double[] u, double[] v, int i, int j) {
    return u[i] * v[j + 1] + u[i + 1] * v[j];
  }

  static NDArray matrixPower(NDArray x, int power) {
    String fn = "matrix_power";
    MatrixStack.requireNumeric(fn, x.dtype());
    MatrixStack st = MatrixStack.square(fn, x);
    int m = st.rows;
    if (x.dtype().isInteger()) {
      if (power < 0) {
        return matrixPower(x.astype(DType.FLOAT64), power);
      }
      NDArray out = NDArray.zeros(x.dtype(), x.shape());
      for (int b = 0; b < st.count; b++) {
        long[] a = new long[m * m];
        for (int i = 0; i < m * m; i++) {
          a[i] = x.getLong(b * m * m + i);
        }
        long[] r = new long[m * m];
        for (int i = 0; i < m; i++) {
          r[i * m + i] = 1;
        }
        int p = power;
        while (p > 0) {
          if ((p & 1) != 0) {
            r = imul(r, a, m);
          }
          p >>= 1;
          if (p > 0) {
            a = imul(a, a, m);
          }
        }
        for (int i = 0; i < m * m; i++) {
          out.setLong(b * m * m + i, r[i]);
        }
      }
      return out;
    }
    boolean cx = st.complex;
    NDArray out = NDArray.zeros(x.dtype(), x.shape());
    for (int b = 0; b < st.count; b++) {
      double[] a = st.get(b);
      if (power < 0) {
        LuKernel.Factor f = LuKernel.factor(a, m, cx);
        if (f.zeroPivot() >= 0) {
          throw new Linalg.LinAlgException(
              fn + ": singular matrix" + st.where(b) + "; a negative power needs the inverse");
        }
        a = LuKernel.inverse(f);
      }
      double[] r = MatrixStack.identity(m, cx);
      long p = Math.abs((long) power);
      boolean first = true;
      while (p > 0) {
        if ((p & 1) != 0) {
          r = first ? a.clone() : MatrixStack.matmul(r, a, m, m, m, cx);
          first = false;
        }
        p >>= 1;
        if (p > 0) {
          a = MatrixStack.matmul(a, a, m, m, m, cx);
        }
      }
      MatrixStack.write(out, b * m * m, m * m, r, cx);
    }
    return out;
  }

  private static long[] imul(long[] a, long[] b, int m) {
    long[] o = new long[m * m];
    for (int i = 0; i < m; i++) {
      for (int k = 0; k < m; k++) {
        long v = a[i * m + k];
        for (int j = 0; j < m; j++) {
          o[i * m + j] += v * b[k * m + j];
        }
      }
    }
    return o;
  }

  static NDArray solve(NDArray x1, NDArray x2) {
    String fn = "solve";
    MatrixStack a = MatrixStack.square(fn, x1);
    DType dt =
        DType.resultType(
            MatrixStack.floating(fn, x1.dtype()), MatrixStack.floating(fn, x2.dtype()));
    int m = a.rows;
    boolean cx = dt.isComplex();
    NDArray lhs = x1.dtype() == dt ? x1 : x1.astype(dt);
    NDArray rhs = x2.dtype() == dt ? x2 : x2.astype(dt);
    if (x2.ndim() == 0) {
      throw new IllegalArgumentException(
          fn + ": x2 must be a vector (M,) or a stack (..., M, K)," + " got a 0-d array");
    }
    boolean vector = x2.ndim() == 1;
    long[] s2 = x2.shape();
    long rowsB = vector ? s2[0] : s2[s2.length - 2];
    if (rowsB != m) {
      throw new IllegalArgumentException(
          fn
              + ": x1 "
              + Shapes.format(x1.shape())
              + " and x2 "
              + Shapes.format(s2)
              + " are not aligned: x2 needs "
              + m
              + " rows (dimension "
              + (vector ? 0 : s2.length - 2)
              + "), got "
              + rowsB);
    }
    int k = vector ? 1 : (int) s2[s2.length - 1];
    long[] batch;
    if (vector) {
      batch = a.batch;
      rhs = rhs.reshape(m, 1);
    } else {
      batch = Shapes.broadcast(fn, a.batch, Arrays.copyOf(s2, s2.length - 2));
    }
    lhs = broadcastStack(lhs, batch, m, m);
    rhs = broadcastStack(rhs, batch, m, k);
    MatrixStack sa = MatrixStack.of(fn, lhs);
    long[] outShape = Arrays.copyOf(batch, batch.length + (vector ? 1 : 2));
    outShape[batch.length] = m;
    if (!vector) {
      outShape[batch.length + 1] = k;
    }
    NDArray out = NDArray.zeros(dt, outShape);
    for (int b = 0; b < sa.count; b++) {
      LuKernel.Factor f = LuKernel.factor(sa.get(b), m, cx);
      if (f.zeroPivot() >= 0) {
        throw new Linalg.LinAlgException(fn + ": singular matrix" + sa.where(b));
      }
      double[] rb = MatrixStack.read(rhs, b * m * k, m * k);
      MatrixStack.write(out, b * m * k, m * k, LuKernel.solve(f, rb, k), cx);
    }
    return out;
  }

  private static NDArray broadcastStack(NDArray x, long[] batch, int r, int c) {
    long[] target = Arrays.copyOf(batch, batch.length + 2);
    target[batch.length] = r;
    target[batch.length + 1] = c;
    return Arrays.equals(x.shape(), target) ? x : x.broadcastTo(target);
  }

  /** Per-matrix relative tolerances: the array (broadcast to the batch), the scalar, or default. */
  static double[] rtols(String fn, NDArray x, double rtol, NDArray rtolArray) {
    MatrixStack st = MatrixStack.of(fn, x);
    DType real = MatrixStack.floating(fn, x.dtype()).realPart();
    double[] out = new double[st.count];
    if (rtolArray == null) {
      Arrays.fill(out, Double.isNaN(rtol) ? Math.max(st.rows, st.cols) * real.finfo().eps() : rtol);
      return out;
    }
    if (!rtolArray.dtype().isRealNumeric()) {
      throw new IllegalArgumentException(
          fn + ": rtol must have a real dtype, got " + rtolArray.dtype());
    }
    NDArray r =
        Arrays.equals(rtolArray.shape(), st.batch) ? rtolArray : rtolArray.broadcastTo(st.batch);
    for (int b = 0; b < st.count; b++) {
      out[b] = r.getDouble(b);
    }
    return out;
  }

  /** The pseudo-inverse with one relative tolerance per matrix ({@link #rtols}). */
  static NDArray pinv(NDArray x, double[] tol) {
    String fn = "pinv";
    MatrixStack st = MatrixStack.of(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int m = st.rows;
    int n = st.cols;
    int k = Math.min(m, n);
    boolean cx = st.complex;
    NDArray out = NDArray.zeros(dt, st.shapeWith(n, m));
    for (int b = 0; b < st.count; b++) {
      Spectral.Svd r = Spectral.svd(fn, st.where(b), st.get(b), m, n, cx, Spectral.Job.REDUCED);
      double cut = k == 0 ? 0 : tol[b] * r.s()[0];
      // pinv = Vh^H diag(1/s) U^H
      double[] v = MatrixStack.adjoint(r.vh(), k, n, cx); // n x k
      int w = cx ? 2 : 1;
      for (int j = 0; j < k; j++) {
        double inv = r.s()[j] > cut ? 1 / r.s()[j] : 0;
        for (int i = 0; i < n; i++) {
          for (int c = 0; c < w; c++) {
            v[w * (i * k + j) + c] *= inv;
          }
        }
      }
      double[] uh = MatrixStack.adjoint(r.u(), m, k, cx); // k x m
      MatrixStack.write(out, b * n * m, n * m, MatrixStack.matmul(v, uh, n, k, m, cx), cx);
    }
    return out;
  }
}
