package dev.cubed.nd.linalg;

import java.util.Arrays;

/**
 * Jacobi methods for complex matrices (interleaved re,im, row-major): the cyclic two-sided method
 * for Hermitian eigenproblems and the one-sided (Hestenes) method for the SVD. Both converge
 * quadratically and are accurate to a few ulps relative to the matrix norm; they cost O(n^3) per
 * sweep and typically need 6-10 sweeps.
 */
final class Jacobi {
  private static final int MAX_SWEEPS = 100;
  private static final double EPS = 0x1p-52;

  private Jacobi() {}

  /**
   * max |a_i| over the parts, for scaling into a range where squares neither overflow nor
   * underflow.
   */
  private static double maxAbs(double[] a) {
    double m = 0;
    for (double v : a) {
      m = Math.max(m, Math.abs(v));
    }
    return m;
  }

  /** {@code a / s} (a copy). */
  private static double[] scaled(double[] a, double s) {
    double[] o = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      o[i] = a[i] / s;
    }
    return o;
  }

  /**
   * Eigenvalues (ascending) and, if asked, eigenvectors of the Hermitian lower triangle of a. The
   * matrix is scaled by its largest entry first so the sums of squares stay finite.
   */
  static Spectral.Eig eigh(double[] lower, int n, boolean vectors) {
    double s = maxAbs(lower);
    if (s == 0 || !Double.isFinite(s) || s == 1) {
      return eighScaled(lower, n, vectors);
    }
    Spectral.Eig e = eighScaled(scaled(lower, s), n, vectors);
    double[] w = e.w();
    for (int i = 0; i < w.length; i++) {
      w[i] *= s;
    }
    return e;
  }

  private static Spectral.Eig eighScaled(double[] lower, int n, boolean vectors) {
    double[] a = new double[2 * n * n];
    double fro = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double re = lower[2 * (i * n + j)];
        double im = i == j ? 0 : lower[2 * (i * n + j) + 1];
        a[2 * (i * n + j)] = re;
        a[2 * (i * n + j) + 1] = im;
        a[2 * (j * n + i)] = re;
        a[2 * (j * n + i) + 1] = -im;
        fro += (i == j ? 1 : 2) * (re * re + im * im);
      }
    }
    double[] v = MatrixStack.identity(n, true);
    double tol = EPS * EPS * fro;
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      double off = 0;
      for (int p = 0; p < n; p++) {
        for (int q = p + 1; q < n; q++) {
          off +=
              a[2 * (p * n + q)] * a[2 * (p * n + q)]
                  + a[2 * (p * n + q) + 1] * a[2 * (p * n + q) + 1];
        }
      }
      if (off <= tol || off == 0 || Double.isNaN(off)) {
        break;
      }
      for (int p = 0; p < n; p++) {
        for (int q = p + 1; q < n; q++) {
          rotate(a, v, n, p, q);
        }
      }
    }
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = a[2 * (i * n + i)];
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Double.compare(w[x], w[y]));
    double[] ws = new double[n];
    double[] vs = vectors ? new double[2 * n * n] : null;
    for (int c = 0; c < n; c++) {
      ws[c] = w[order[c]];
      if (vectors) {
        for (int r = 0; r < n; r++) {
          vs[2 * (r * n + c)] = v[2 * (r * n + order[c])];
          vs[2 * (r * n + c) + 1] = v[2 * (r * n + order[c]) + 1];
        }
      }
    }
    return new Spectral.Eig(ws, vs);
  }

  /** One Jacobi rotation zeroing a[p][q]: A <- G^H A G, V <- V G. */
  private static void rotate(double[] a, double[] v, int n, int p, int q) {
    double br = a[2 * (p * n + q)];
    double bi = a[2 * (p * n + q) + 1];
    double g = Math.hypot(br, bi);
    if (g == 0) {
      return;
    }
    double app = a[2 * (p * n + p)];
    double aqq = a[2 * (q * n + q)];
    double tau = (aqq - app) / (2 * g);
    double t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
    double c = 1 / Math.sqrt(1 + t * t);
    double s = t * c;
    double er = br / g; // e = exp(-i phi) = conj(b) / |b|
    double ei = -bi / g;
    // columns: x' = c x - s e y ; y' = s x + c e y
    for (int k = 0; k < n; k++) {
      colRot(a, 2 * (k * n + p), 2 * (k * n + q), c, s, er, ei);
      colRot(v, 2 * (k * n + p), 2 * (k * n + q), c, s, er, ei);
    }
    // rows: p' = c p - s conj(e) q ; q' = s p + c conj(e) q
    for (int k = 0; k < n; k++) {
      colRot(a, 2 * (p * n + k), 2 * (q * n + k), c, s, er, -ei);
    }
    a[2 * (p * n + q)] = 0;
    a[2 * (p * n + q) + 1] = 0;
    a[2 * (q * n + p)] = 0;
    a[2 * (q * n + p) + 1] = 0;
    a[2 * (p * n + p) + 1] = 0;
    a[2 * (q * n + q) + 1] = 0;
  }

  /** (x, y) <- (c x - s e y, s x + c e y) for complex x at ix, y at iy. */
  private static void colRot(double[] m, int ix, int iy, double c, double s, double er, double ei) {
    double xr = m[ix];
    double xi = m[ix + 1];
    double yr = m[iy];
    double yi = m[iy + 1];
    double zr = er * yr - ei * yi; // e y
    double zi = er * yi + ei * yr;
    m[ix] = c * xr - s * zr;
    m[ix + 1] = c * xi - s * zi;
    m[iy] = s * xr + c * zr;
    m[iy + 1] = s * xi + c * zi;
  }

  /**
   * SVD of a complex m x n matrix (finite entries) by one-sided Jacobi, after scaling by the
   * largest entry so that column norms neither overflow nor underflow.
   */
  static Spectral.Svd svd(double[] a, int m, int n, Spectral.Job job) {
    double s = maxAbs(a);
    if (s == 0 || s == 1) {
      return svdScaled(a, m, n, job);
    }
    Spectral.Svd r = svdScaled(scaled(a, s), m, n, job);
    double[] sv = r.s();
    for (int i = 0; i < sv.length; i++) {
      sv[i] *= s;
    }
    return r;
  }

  private static Spectral.Svd svdScaled(double[] a, int m, int n, Spectral.Job job) {
    if (m < n) {
      // A^H = U' S V'^H  =>  A = V' S U'^H
      Spectral.Svd t = svdScaled(MatrixStack.conjTranspose(a, m, n), n, m, job);
      if (job == Spectral.Job.VALUES) {
        return t;
      }
      double[] u = t.vh() == null ? null : MatrixStack.conjTranspose(t.vh(), t.vr(), m);
      double[] vh = MatrixStack.conjTranspose(t.u(), n, t.uc());
      return new Spectral.Svd(u, t.s(), vh, t.vr(), t.uc());
    }
    // m >= n: orthogonalize the n columns of U = A, accumulating V
    double[] u = a.clone();
    double[] v = MatrixStack.identity(n, true);
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      boolean rotated = false;
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          double alpha = 0;
          double beta = 0;
          double gr = 0;
          double gi = 0;
          for (int r = 0; r < m; r++) {
            double xr = u[2 * (r * n + i)];
            double xi = u[2 * (r * n + i) + 1];
            double yr = u[2 * (r * n + j)];
            double yi = u[2 * (r * n + j) + 1];
            alpha += xr * xr + xi * xi;
            beta += yr * yr + yi * yi;
            gr += xr * yr + xi * yi; // conj(x) y
            gi += xr * yi - xi * yr;
          }
          double g = Math.hypot(gr, gi);
          if (g == 0 || g <= EPS * Math.sqrt(alpha * beta)) {
            continue;
          }
          rotated = true;
          double zeta = (beta - alpha) / (2 * g);
          double t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
          double c = 1 / Math.sqrt(1 + t * t);
          double s = c * t;
          double er = gr / g; // e = exp(-i phi) with g = |g| exp(i phi): e = conj(g)/|g|
          double ei = -gi / g;
          for (int r = 0; r < m; r++) {
            colRot(u, 2 * (r * n + i), 2 * (r * n + j), c, s, er, ei);
          }
          for (int r = 0; r < n; r++) {
            colRot(v, 2 * (r * n + i), 2 * (r * n + j), c, s, er, ei);
          }
        }
      }
      if (!rotated) {
        break;
      }
    }
    double[] sv = new double[n];
    for (int c = 0; c < n; c++) {
      double s2 = 0;
      for (int r = 0; r < m; r++) {
        s2 +=
            u[2 * (r * n + c)] * u[2 * (r * n + c)]
                + u[2 * (r * n + c) + 1] * u[2 * (r * n + c) + 1];
      }
      sv[c] = Math.sqrt(s2);
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Double.compare(sv[y], sv[x]));
    double[] s = new double[n];
    for (int c = 0; c < n; c++) {
      s[c] = sv[order[c]];
    }
    if (job == Spectral.Job.VALUES) {
      return new Spectral.Svd(null, s, null, 0, 0);
    }
    int uc = job == Spectral.Job.FULL ? m : n;
    double[] uo = new double[2 * m * uc];
    double cutoff = s[0] * EPS * Math.max(m, n);
    int valid = 0;
    for (int c = 0; c < n; c++) {
      if (s[c] <= cutoff || s[c] == 0) {
        break;
      }
      int src = order[c];
      for (int r = 0; r < m; r++) {
        uo[2 * (r * uc + c)] = u[2 * (r * n + src)] / s[c];
        uo[2 * (r * uc + c) + 1] = u[2 * (r * n + src) + 1] / s[c];
      }
      valid++;
    }
    complete(uo, m, uc, valid);
    double[] vh = new double[2 * n * n];
    for (int c = 0; c < n; c++) {
      int src = order[c];
      for (int r = 0; r < n; r++) {
        vh[2 * (c * n + r)] = v[2 * (r * n + src)];
        vh[2 * (c * n + r) + 1] = -v[2 * (r * n + src) + 1];
      }
    }
    return new Spectral.Svd(uo, s, vh, uc, n);
  }

  /**
   * Fills columns {@code from..cols-1} of the m x cols matrix {@code q} (first columns orthonormal)
   * with orthonormal vectors by Gram-Schmidt (twice) over the unit vectors, skipping those whose
   * residual is below 0.5/sqrt(m).
   */
  static void complete(double[] q, int m, int cols, int from) {
    int c = from;
    for (int e = 0; e < m && c < cols; e++) {
      double[] x = new double[2 * m];
      x[2 * e] = 1;
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < c; k++) {
          double dr = 0;
          double di = 0;
          for (int r = 0; r < m; r++) {
            double qr = q[2 * (r * cols + k)];
            double qi = -q[2 * (r * cols + k) + 1];
            dr += qr * x[2 * r] - qi * x[2 * r + 1];
            di += qr * x[2 * r + 1] + qi * x[2 * r];
          }
          for (int r = 0; r < m; r++) {
            double qr = q[2 * (r * cols + k)];
            double qi = q[2 * (r * cols + k) + 1];
            x[2 * r] -= qr * dr - qi * di;
            x[2 * r + 1] -= qr * di + qi * dr;
          }
        }
      }
      double nrm = 0;
      for (int r = 0; r < 2 * m; r++) {
        nrm += x[r] * x[r];
      }
      nrm = Math.sqrt(nrm);
      // the unused unit vectors' squared residuals sum to m - c >= 1, so some unscanned one always
      // exceeds 1/sqrt(m) (residuals only shrink as columns are added): one pass fills every column
      if (nrm < 0.5 / Math.sqrt(m)) {
        continue;
      }
      for (int r = 0; r < m; r++) {
        q[2 * (r * cols + c)] = x[2 * r] / nrm;
        q[2 * (r * cols + c) + 1] = x[2 * r + 1] / nrm;
      }
      c++;
    }
  }
}
