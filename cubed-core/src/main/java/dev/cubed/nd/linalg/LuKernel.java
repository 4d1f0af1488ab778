package dev.cubed.nd.linalg;

import dev.ludovic.netlib.lapack.JavaLAPACK;
import dev.ludovic.netlib.lapack.LAPACK;
import org.netlib.util.intW;

/**
 * LU factorization with partial pivoting of one square matrix and what follows from it: det,
 * slogdet, solve and inverse. Real matrices go to LAPACK {@code dgetrf}/{@code dgetrs} (the
 * row-major buffer is the column-major transpose, so the factorization is of A^T and solves use
 * {@code trans="T"}); complex matrices use the Java elimination below on interleaved re,im pairs.
 *
 * <p>The LU routines run on netlib's pure-Java LAPACK, not the native one: OpenBLAS's threaded
 * {@code dgetrf} allocates large buffers on the calling thread's stack and crashes the JVM
 * (SIGSEGV) on threads with the default 1 MB stack for n around 100 and up (observed here with
 * OpenBLAS pthread builds; -Xss4m avoids it). The other native routines used by Linalg were checked
 * up to n = 600 without the problem.
 */
final class LuKernel {
  private static final LAPACK LU_LAPACK = JavaLAPACK.getInstance();

  private LuKernel() {}

  /**
   * A factorization. {@code zeroPivot} is the index of the first exactly-zero pivot (the matrix is
   * singular), or -1.
   */
  record Factor(double[] lu, int[] piv, int n, boolean complex, int zeroPivot) {}

  static Factor factor(double[] a, int n, boolean complex) {
    double[] lu = a.clone();
    if (!complex) {
      int[] piv = new int[n];
      if (n == 0) {
        return new Factor(lu, piv, 0, false, -1);
      }
      intW info = new intW(0);
      LU_LAPACK.dgetrf(n, n, lu, n, piv, info);
      if (info.val < 0) {
        throw new IllegalStateException("dgetrf: illegal argument " + (-info.val));
      }
      return new Factor(lu, piv, n, false, info.val > 0 ? info.val - 1 : -1);
    }
    int[] piv = new int[n];
    int zero = -1;
    for (int k = 0; k < n; k++) {
      int p = k;
      double best = -1;
      for (int i = k; i < n; i++) {
        double m = Math.hypot(lu[2 * (i * n + k)], lu[2 * (i * n + k) + 1]);
        if (m > best) {
          best = m;
          p = i;
        }
      }
      piv[k] = p;
      if (p != k) {
        for (int j = 0; j < 2 * n; j++) {
          double t = lu[2 * k * n + j];
          lu[2 * k * n + j] = lu[2 * p * n + j];
          lu[2 * p * n + j] = t;
        }
      }
      if (best == 0) {
        if (zero < 0) {
          zero = k;
        }
        continue;
      }
      double pr = lu[2 * (k * n + k)];
      double pi = lu[2 * (k * n + k) + 1];
      double den = pr * pr + pi * pi;
      for (int i = k + 1; i < n; i++) {
        int ik = 2 * (i * n + k);
        double xr = lu[ik];
        double xi = lu[ik + 1];
        double lr = (xr * pr + xi * pi) / den;
        double li = (xi * pr - xr * pi) / den;
        lu[ik] = lr;
        lu[ik + 1] = li;
        if (lr == 0 && li == 0) {
          continue;
        }
        for (int j = k + 1; j < n; j++) {
          int kj = 2 * (k * n + j);
          int ij = 2 * (i * n + j);
          double ur = lu[kj];
          double ui = lu[kj + 1];
          lu[ij] -= lr * ur - li * ui;
          lu[ij + 1] -= lr * ui + li * ur;
        }
      }
    }
    return new Factor(lu, piv, n, true, zero);
  }

  private static int swaps(Factor f) {
    int s = 0;
    for (int i = 0; i < f.n; i++) {
      int p = f.complex ? f.piv[i] : f.piv[i] - 1;
      if (p != i) {
        s++;
      }
    }
    return s;
  }

  /** The determinant as {re, im}. */
  static double[] det(Factor f) {
    int n = f.n;
    double re = (swaps(f) & 1) == 0 ? 1 : -1;
    double im = 0;
    for (int i = 0; i < n; i++) {
      if (f.complex) {
        double dr = f.lu[2 * (i * n + i)];
        double di = f.lu[2 * (i * n + i) + 1];
        double t = re * dr - im * di;
        im = re * di + im * dr;
        re = t;
      } else {
        re *= f.lu[i * n + i];
      }
    }
    return new double[] {re, im};
  }

  /** {sign re, sign im, log|det|}; a singular matrix gives sign 0 and -inf. */
  static double[] slogdet(Factor f) {
    int n = f.n;
    double sr = (swaps(f) & 1) == 0 ? 1 : -1;
    double si = 0;
    double log = 0;
    for (int i = 0; i < n; i++) {
      double dr = f.complex ? f.lu[2 * (i * n + i)] : f.lu[i * n + i];
      double di = f.complex ? f.lu[2 * (i * n + i) + 1] : 0;
      double abs = Math.hypot(dr, di);
      if (abs == 0) {
        return new double[] {0, 0, Double.NEGATIVE_INFINITY};
      }
      double ur = dr / abs;
      double ui = di / abs;
      double t = sr * ur - si * ui;
      si = sr * ui + si * ur;
      sr = t;
      log += Math.log(abs);
    }
    return new double[] {sr, si, log};
  }

  /**
   * Solves A X = B for B row-major n x k (interleaved when complex); the factor must be
   * non-singular.
   */
  static double[] solve(Factor f, double[] b, int k) {
    int n = f.n;
    if (n == 0 || k == 0) {
      return b.clone();
    }
    if (!f.complex) {
      double[] cm = MatrixStack.transpose(b, n, k);
      intW info = new intW(0);
      LU_LAPACK.dgetrs("T", n, k, f.lu, n, f.piv, cm, n, info);
      if (info.val != 0) {
        throw new IllegalStateException("dgetrs: info " + info.val);
      }
      return MatrixStack.transpose(cm, k, n);
    }
    double[] x = b.clone();
    double[] lu = f.lu;
    for (int i = 0; i < n; i++) {
      int p = f.piv[i];
      if (p != i) {
        for (int j = 0; j < 2 * k; j++) {
          double t = x[2 * i * k + j];
          x[2 * i * k + j] = x[2 * p * k + j];
          x[2 * p * k + j] = t;
        }
      }
    }
    // forward: L unit lower
    for (int i = 0; i < n; i++) {
      for (int p = 0; p < i; p++) {
        double lr = lu[2 * (i * n + p)];
        double li = lu[2 * (i * n + p) + 1];
        if (lr == 0 && li == 0) {
          continue;
        }
        for (int j = 0; j < k; j++) {
          double yr = x[2 * (p * k + j)];
          double yi = x[2 * (p * k + j) + 1];
          x[2 * (i * k + j)] -= lr * yr - li * yi;
          x[2 * (i * k + j) + 1] -= lr * yi + li * yr;
        }
      }
    }
    // backward: U
    for (int i = n - 1; i >= 0; i--) {
      for (int p = i + 1; p < n; p++) {
        double ur = lu[2 * (i * n + p)];
        double ui = lu[2 * (i * n + p) + 1];
        if (ur == 0 && ui == 0) {
          continue;
        }
        for (int j = 0; j < k; j++) {
          double yr = x[2 * (p * k + j)];
          double yi = x[2 * (p * k + j) + 1];
          x[2 * (i * k + j)] -= ur * yr - ui * yi;
          x[2 * (i * k + j) + 1] -= ur * yi + ui * yr;
        }
      }
      double dr = lu[2 * (i * n + i)];
      double di = lu[2 * (i * n + i) + 1];
      double den = dr * dr + di * di;
      for (int j = 0; j < k; j++) {
        double yr = x[2 * (i * k + j)];
        double yi = x[2 * (i * k + j) + 1];
        x[2 * (i * k + j)] = (yr * dr + yi * di) / den;
        x[2 * (i * k + j) + 1] = (yi * dr - yr * di) / den;
      }
    }
    return x;
  }

  /** The inverse of a non-singular factor. */
  static double[] inverse(Factor f) {
    return solve(f, MatrixStack.identity(f.n, f.complex), f.n);
  }
}
