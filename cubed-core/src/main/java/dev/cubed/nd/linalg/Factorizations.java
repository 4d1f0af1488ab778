package dev.cubed.nd.linalg;

import dev.ludovic.netlib.lapack.LAPACK;
import org.netlib.util.intW;

/**
 * Cholesky and QR of one matrix. Real matrices use LAPACK ({@code dpotrf}, {@code dgeqrf} + {@code
 * dorgqr}); complex matrices use the Java algorithms below on interleaved re,im pairs
 * (Cholesky-Banachiewicz; Householder reflections).
 */
final class Factorizations {
  private Factorizations() {}

  /**
   * Lower Cholesky factor L (A = L L^H) from the lower triangle of the n x n matrix {@code a}, or
   * null if {@code a} is not positive definite.
   */
  static double[] choleskyLower(double[] a, int n, boolean complex) {
    if (n == 0) {
      return a.clone();
    }
    if (!complex) {
      double[] l = a.clone();
      intW info = new intW(0);
      // the row-major buffer is A^T column-major; its upper triangle is A's lower triangle
      LAPACK.getInstance().dpotrf("U", n, l, n, info);
      if (info.val > 0) {
        return null;
      }
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          l[i * n + j] = 0;
        }
      }
      return l;
    }
    double[] l = new double[2 * n * n];
    for (int j = 0; j < n; j++) {
      double d = a[2 * (j * n + j)];
      for (int k = 0; k < j; k++) {
        double r = l[2 * (j * n + k)];
        double im = l[2 * (j * n + k) + 1];
        d -= r * r + im * im;
      }
      if (!(d > 0)) {
        return null;
      }
      double ljj = Math.sqrt(d);
      l[2 * (j * n + j)] = ljj;
      for (int i = j + 1; i < n; i++) {
        double sr = a[2 * (i * n + j)];
        double si = a[2 * (i * n + j) + 1];
        for (int k = 0; k < j; k++) {
          // s -= L[i][k] * conj(L[j][k])
          double ar = l[2 * (i * n + k)];
          double ai = l[2 * (i * n + k) + 1];
          double br = l[2 * (j * n + k)];
          double bi = -l[2 * (j * n + k) + 1];
          sr -= ar * br - ai * bi;
          si -= ar * bi + ai * br;
        }
        l[2 * (i * n + j)] = sr / ljj;
        l[2 * (i * n + j) + 1] = si / ljj;
      }
    }
    return l;
  }

  /** Q (m x qc) and R (rr x n), row-major, interleaved when complex. */
  record QrParts(double[] q, double[] r, int qc, int rr) {}

  /**
   * QR of the m x n matrix {@code a}: reduced gives Q m x k and R k x n (k = min(m, n)); complete
   * gives Q m x m and R m x n.
   */
  static QrParts qr(double[] a, int m, int n, boolean complex, boolean reduced) {
    int k = Math.min(m, n);
    int qc = reduced ? k : m;
    int rr = reduced ? k : m;
    if (!complex) {
      return realQr(a, m, n, k, qc, rr);
    }
    double[] r = a.clone();
    double[] q = MatrixStack.identity(m, true);
    double[] v = new double[2 * m];
    for (int c = 0; c < k; c++) {
      // v is a unit vector, so it is computed from the column divided by its largest part: no
      // square over- or underflows for huge or tiny entries (LAPACK's zlarfg scales likewise)
      double scale = 0;
      for (int i = c; i < m; i++) {
        scale =
            Math.max(
                scale, Math.max(Math.abs(r[2 * (i * n + c)]), Math.abs(r[2 * (i * n + c) + 1])));
      }
      if (scale == 0) {
        continue;
      }
      if (!Double.isFinite(scale)) {
        scale = 1; // NaN and infinity propagate as unscaled
      }
      double norm2 = 0;
      for (int i = c; i < m; i++) {
        double x = r[2 * (i * n + c)] / scale;
        double y = r[2 * (i * n + c) + 1] / scale;
        norm2 += x * x + y * y;
      }
      double norm = Math.sqrt(norm2);
      double x0r = r[2 * (c * n + c)] / scale;
      double x0i = r[2 * (c * n + c) + 1] / scale;
      double a0 = Math.hypot(x0r, x0i);
      double phr = a0 == 0 ? 1 : x0r / a0;
      double phi = a0 == 0 ? 0 : x0i / a0;
      // v = x - alpha e1 with alpha = -phase * norm (all divided by scale)
      double vn2 = 0;
      for (int i = c; i < m; i++) {
        v[2 * i] = r[2 * (i * n + c)] / scale;
        v[2 * i + 1] = r[2 * (i * n + c) + 1] / scale;
      }
      v[2 * c] += phr * norm;
      v[2 * c + 1] += phi * norm;
      for (int i = c; i < m; i++) {
        vn2 += v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1];
      }
      if (vn2 == 0) {
        continue;
      }
      double vn = Math.sqrt(vn2);
      for (int i = c; i < m; i++) {
        v[2 * i] /= vn;
        v[2 * i + 1] /= vn;
      }
      // R <- (I - 2 v v^H) R on rows c.., columns c..
      for (int j = c; j < n; j++) {
        double sr = 0;
        double si = 0;
        for (int i = c; i < m; i++) {
          double vr = v[2 * i];
          double vi = -v[2 * i + 1];
          double xr = r[2 * (i * n + j)];
          double xi = r[2 * (i * n + j) + 1];
          sr += vr * xr - vi * xi;
          si += vr * xi + vi * xr;
        }
        for (int i = c; i < m; i++) {
          double vr = v[2 * i];
          double vi = v[2 * i + 1];
          // x - 2t as (x - t) - t: 2t may overflow where the result does not
          double tr = vr * sr - vi * si;
          double ti = vr * si + vi * sr;
          r[2 * (i * n + j)] = (r[2 * (i * n + j)] - tr) - tr;
          r[2 * (i * n + j) + 1] = (r[2 * (i * n + j) + 1] - ti) - ti;
        }
      }
      // Q <- Q (I - 2 v v^H)
      for (int i = 0; i < m; i++) {
        double sr = 0;
        double si = 0;
        for (int p = c; p < m; p++) {
          double xr = q[2 * (i * m + p)];
          double xi = q[2 * (i * m + p) + 1];
          sr += xr * v[2 * p] - xi * v[2 * p + 1];
          si += xr * v[2 * p + 1] + xi * v[2 * p];
        }
        for (int p = c; p < m; p++) {
          double vr = v[2 * p];
          double vi = -v[2 * p + 1];
          q[2 * (i * m + p)] -= 2 * (sr * vr - si * vi);
          q[2 * (i * m + p) + 1] -= 2 * (sr * vi + si * vr);
        }
      }
    }
    double[] rOut = new double[2 * rr * n];
    for (int i = 0; i < rr; i++) {
      for (int j = i; j < n; j++) {
        rOut[2 * (i * n + j)] = r[2 * (i * n + j)];
        rOut[2 * (i * n + j) + 1] = r[2 * (i * n + j) + 1];
      }
    }
    double[] qOut = new double[2 * m * qc];
    for (int i = 0; i < m; i++) {
      System.arraycopy(q, 2 * i * m, qOut, 2 * i * qc, 2 * qc);
    }
    return new QrParts(qOut, rOut, qc, rr);
  }

  private static QrParts realQr(double[] a, int m, int n, int k, int qc, int rr) {
    if (m == 0 || n == 0) {
      double[] q = new double[m * qc];
      for (int i = 0; i < Math.min(m, qc); i++) {
        q[i * qc + i] = 1;
      }
      return new QrParts(q, new double[rr * n], qc, rr);
    }
    LAPACK lapack = LAPACK.getInstance();
    double[] cm = MatrixStack.transpose(a, m, n); // column-major m x n
    double[] tau = new double[k];
    intW info = new intW(0);
    double[] wq = new double[1];
    lapack.dgeqrf(m, n, cm, m, tau, wq, -1, info);
    double[] work = new double[Math.max(1, (int) wq[0])];
    lapack.dgeqrf(m, n, cm, m, tau, work, work.length, info);
    if (info.val != 0) {
      throw new IllegalStateException("dgeqrf: info " + info.val);
    }
    double[] r = new double[rr * n];
    for (int i = 0; i < rr; i++) {
      for (int j = i; j < n; j++) {
        r[i * n + j] = cm[j * m + i];
      }
    }
    double[] qb = new double[m * qc];
    System.arraycopy(cm, 0, qb, 0, m * Math.min(qc, n));
    lapack.dorgqr(m, qc, k, qb, m, tau, wq, -1, info);
    work = new double[Math.max(1, (int) wq[0])];
    lapack.dorgqr(m, qc, k, qb, m, tau, work, work.length, info);
    if (info.val != 0) {
      throw new IllegalStateException("dorgqr: info " + info.val);
    }
    return new QrParts(MatrixStack.transpose(qb, qc, m), r, qc, rr);
  }
}
