package dev.cubed.nd.linalg;

import java.util.Arrays;

/**
 * Eigenvalues and right eigenvectors of one general complex n x n matrix, in float64: Householder
 * reduction to upper Hessenberg form, then the shifted complex QR algorithm (Wilkinson shifts,
 * deflation on negligible subdiagonals, an exceptional shift every 10 iterations without deflation)
 * to the Schur form A = Z T Z^H; eigenvalues are diag(T), eigenvectors come from back-substitution
 * on T (a zero pivot replaced by a tiny one, as LAPACK's {@code ztrevc}), transformed by Z and
 * scaled to unit 2-norm with the largest component real (as {@code zgeev}). Matrices are row-major
 * with separate real and imaginary arrays.
 */
final class ComplexEigen {
  private static final double EPS = Math.ulp(1.0);
  private static final double SAFE_MIN = Double.MIN_NORMAL / EPS;

  /** Iterations without deflation before an exceptional shift. */
  static final int EXCEPTIONAL_EVERY = 10;

  /** Total QR iterations allowed per eigenvalue (as LAPACK's 30 per eigenvalue). */
  static final int ITERATIONS_PER_EIGENVALUE = 30;

  final int n;

  /** Schur form T (upper triangular after {@link #schur}), row-major. */
  final double[] tr;

  final double[] ti;

  /** Unitary Z (A = Z T Z^H), row-major; null when vectors were not asked for. */
  final double[] zr;

  final double[] zi;

  private ComplexEigen(int n, double[] ar, double[] ai, boolean vectors) {
    this.n = n;
    this.tr = ar;
    this.ti = ai;
    this.zr = vectors ? new double[n * n] : null;
    this.zi = vectors ? new double[n * n] : null;
    if (vectors) {
      for (int i = 0; i < n; i++) {
        zr[i * n + i] = 1;
      }
    }
  }

  /**
   * Decomposes the n x n complex matrix given as interleaved (re, im) pairs, row-major.
   *
   * @param where appended to the non-convergence message (e.g. which matrix of a stack)
   * @throws ArithmeticException if the QR iteration does not converge within {@value
   *     #ITERATIONS_PER_EIGENVALUE} iterations per eigenvalue
   */
  static ComplexEigen of(String fn, String where, double[] interleaved, int n, boolean vectors) {
    return of(fn, where, interleaved, n, vectors, ITERATIONS_PER_EIGENVALUE * Math.max(10, n));
  }

  /** As {@link #of(String, String, double[], int, boolean)} with an explicit iteration limit. */
  static ComplexEigen of(
      String fn, String where, double[] interleaved, int n, boolean vectors, int limit) {
    double[] ar = new double[n * n];
    double[] ai = new double[n * n];
    for (int i = 0; i < n * n; i++) {
      ar[i] = interleaved[2 * i];
      ai[i] = interleaved[2 * i + 1];
    }
    ComplexEigen e = new ComplexEigen(n, ar, ai, vectors);
    e.hessenberg();
    e.schur(fn, where, limit);
    return e;
  }

  /** Eigenvalues diag(T) as interleaved pairs, in the order the QR algorithm left them. */
  double[] eigenvalues() {
    double[] w = new double[2 * n];
    for (int i = 0; i < n; i++) {
      w[2 * i] = tr[i * n + i];
      w[2 * i + 1] = ti[i * n + i];
    }
    return w;
  }

  /** Householder reduction to upper Hessenberg form, accumulating the reflections into Z. */
  private void hessenberg() {
    double[] vr = new double[n];
    double[] vi = new double[n];
    for (int k = 0; k < n - 2; k++) {
      double norm = 0;
      for (int i = k + 1; i < n; i++) {
        norm = Math.hypot(norm, Math.hypot(tr[i * n + k], ti[i * n + k]));
      }
      if (norm == 0) {
        continue;
      }
      double x0r = tr[(k + 1) * n + k];
      double x0i = ti[(k + 1) * n + k];
      double x0 = Math.hypot(x0r, x0i);
      // alpha = -phase(x0) * norm; v = x - alpha e1 (no cancellation in the first component)
      double pr = x0 == 0 ? 1 : x0r / x0;
      double pi = x0 == 0 ? 0 : x0i / x0;
      for (int i = k + 1; i < n; i++) {
        vr[i] = tr[i * n + k];
        vi[i] = ti[i * n + k];
      }
      vr[k + 1] += pr * norm;
      vi[k + 1] += pi * norm;
      double vn = 0;
      for (int i = k + 1; i < n; i++) {
        vn = Math.hypot(vn, Math.hypot(vr[i], vi[i]));
      }
      for (int i = k + 1; i < n; i++) {
        vr[i] /= vn;
        vi[i] /= vn;
      }
      // A = H A with H = I - 2 v v^H: column j -= 2 v (v^H a_j)
      for (int j = k; j < n; j++) {
        double sr = 0;
        double si = 0;
        for (int i = k + 1; i < n; i++) {
          double ar = tr[i * n + j];
          double aim = ti[i * n + j];
          sr += vr[i] * ar + vi[i] * aim;
          si += vr[i] * aim - vi[i] * ar;
        }
        for (int i = k + 1; i < n; i++) {
          tr[i * n + j] -= 2 * (vr[i] * sr - vi[i] * si);
          ti[i * n + j] -= 2 * (vr[i] * si + vi[i] * sr);
        }
      }
      reflectRight(tr, ti, vr, vi, k + 1);
      if (zr != null) {
        reflectRight(zr, zi, vr, vi, k + 1);
      }
      tr[(k + 1) * n + k] = -pr * norm;
      ti[(k + 1) * n + k] = -pi * norm;
      for (int i = k + 2; i < n; i++) {
        tr[i * n + k] = 0;
        ti[i * n + k] = 0;
      }
    }
  }

  /** M = M H with H = I - 2 v v^H acting on columns from..n-1: row i -= 2 (m_i v) v^H. */
  private void reflectRight(double[] mr, double[] mi, double[] vr, double[] vi, int from) {
    for (int i = 0; i < n; i++) {
      double sr = 0;
      double si = 0;
      for (int j = from; j < n; j++) {
        double ar = mr[i * n + j];
        double aim = mi[i * n + j];
        sr += ar * vr[j] - aim * vi[j];
        si += ar * vi[j] + aim * vr[j];
      }
      for (int j = from; j < n; j++) {
        mr[i * n + j] -= 2 * (sr * vr[j] + si * vi[j]);
        mi[i * n + j] -= 2 * (si * vr[j] - sr * vi[j]);
      }
    }
  }

  private double abs1(int i, int j) {
    return Math.abs(tr[i * n + j]) + Math.abs(ti[i * n + j]);
  }

  /** Shifted QR iteration on the Hessenberg T until it is upper triangular. */
  private void schur(String fn, String where, int limit) {
    double hnorm = 0;
    for (int i = 0; i < n * n; i++) {
      hnorm = Math.max(hnorm, Math.abs(tr[i]) + Math.abs(ti[i]));
    }
    int total = 0;
    int sinceDeflation = 0;
    int hi = n - 1;
    double[] cs = new double[n];
    double[] sr = new double[n];
    double[] si = new double[n];
    while (hi > 0) {
      int l = hi;
      while (l > 0) {
        double sub = abs1(l, l - 1);
        double diag = abs1(l - 1, l - 1) + abs1(l, l);
        if (diag == 0) {
          diag = hnorm;
        }
        if (sub <= EPS * diag || sub <= SAFE_MIN) {
          tr[l * n + l - 1] = 0;
          ti[l * n + l - 1] = 0;
          break;
        }
        l--;
      }
      if (l == hi) {
        hi--;
        sinceDeflation = 0;
        continue;
      }
      if (++total > limit) {
        throw new ArithmeticException(
            fn
                + ": the complex QR algorithm did not converge after "
                + limit
                + " iterations ("
                + (hi + 1)
                + " of "
                + n
                + " eigenvalues left)"
                + where
                + "; the matrix may be badly scaled, rescale it or check it for huge entries");
      }
      sinceDeflation++;
      double mur;
      double mui;
      if (sinceDeflation % EXCEPTIONAL_EVERY == 0) {
        // exceptional shift: move off the Wilkinson shift by 3/4 of the last subdiagonal
        mur =
            tr[hi * n + hi]
                + 0.75 * Math.abs(tr[hi * n + hi - 1])
                + 0.5 * Math.abs(ti[hi * n + hi - 1]);
        mui = ti[hi * n + hi];
      } else {
        double[] mu = wilkinson(hi);
        mur = mu[0];
        mui = mu[1];
      }
      qrStep(l, hi, mur, mui, cs, sr, si);
    }
  }

  /** The eigenvalue of the trailing 2x2 block ending at {@code hi} closer to T[hi][hi]. */
  private double[] wilkinson(int hi) {
    int a = (hi - 1) * n + hi - 1;
    int b = (hi - 1) * n + hi;
    int c = hi * n + hi - 1;
    int d = hi * n + hi;
    // p = (a - d) / 2, bc = b c, disc = sqrt(p^2 + bc); mu = d - bc / (p + disc), |p + disc| max
    double pr = (tr[a] - tr[d]) / 2;
    double pi = (ti[a] - ti[d]) / 2;
    double bcr = tr[b] * tr[c] - ti[b] * ti[c];
    double bci = tr[b] * ti[c] + ti[b] * tr[c];
    double[] disc = sqrt(pr * pr - pi * pi + bcr, 2 * pr * pi + bci);
    double er = pr + disc[0];
    double ei = pi + disc[1];
    double fr = pr - disc[0];
    double fi = pi - disc[1];
    if (Math.hypot(fr, fi) > Math.hypot(er, ei)) {
      er = fr;
      ei = fi;
    }
    double den = er * er + ei * ei;
    if (den == 0) {
      return new double[] {tr[d], ti[d]};
    }
    // bc / e
    double qr = (bcr * er + bci * ei) / den;
    double qi = (bci * er - bcr * ei) / den;
    return new double[] {tr[d] - qr, ti[d] - qi};
  }

  /** Principal square root of re + i im. */
  private static double[] sqrt(double re, double im) {
    double m = Math.hypot(re, im);
    if (m == 0) {
      return new double[] {0, 0};
    }
    double r = Math.sqrt((m + Math.abs(re)) / 2);
    if (re >= 0) {
      return new double[] {r, im / (2 * r)};
    }
    return new double[] {Math.abs(im) / (2 * r), Math.copySign(r, im)};
  }

  /**
   * One explicitly shifted QR step on the unreduced block [l, hi]: T - mu I = Q R by Givens
   * rotations, T = R Q + mu I, applied to the whole rows/columns so T stays a Schur form of A.
   */
  private void qrStep(
      int l, int hi, double mur, double mui, double[] cs, double[] sr, double[] si) {
    for (int i = l; i <= hi; i++) {
      tr[i * n + i] -= mur;
      ti[i * n + i] -= mui;
    }
    for (int k = l; k < hi; k++) {
      double ar = tr[k * n + k];
      double ai = ti[k * n + k];
      double br = tr[(k + 1) * n + k];
      double bi = ti[(k + 1) * n + k];
      double a = Math.hypot(ar, ai);
      double b = Math.hypot(br, bi);
      double norm = Math.hypot(a, b);
      double c;
      double s1;
      double s2;
      if (b == 0) {
        c = 1;
        s1 = 0;
        s2 = 0;
      } else if (a == 0) {
        c = 0;
        s1 = br / b;
        s2 = -bi / b;
      } else {
        // c = |a| / norm, s = (a / |a|) conj(b) / norm
        c = a / norm;
        double ur = ar / a;
        double ui = ai / a;
        s1 = (ur * br + ui * bi) / norm;
        s2 = (ui * br - ur * bi) / norm;
      }
      cs[k] = c;
      sr[k] = s1;
      si[k] = s2;
      // rows k, k+1: x' = c x + s y, y' = -conj(s) x + c y
      for (int j = k; j < n; j++) {
        int x = k * n + j;
        int y = (k + 1) * n + j;
        double xr = tr[x];
        double xi = ti[x];
        double yr = tr[y];
        double yi = ti[y];
        tr[x] = c * xr + s1 * yr - s2 * yi;
        ti[x] = c * xi + s1 * yi + s2 * yr;
        tr[y] = c * yr - (s1 * xr + s2 * xi);
        ti[y] = c * yi - (s1 * xi - s2 * xr);
      }
      tr[(k + 1) * n + k] = 0;
      ti[(k + 1) * n + k] = 0;
    }
    for (int k = l; k < hi; k++) {
      rotateColumns(tr, ti, k, Math.min(k + 1, hi), cs[k], sr[k], si[k]);
      if (zr != null) {
        rotateColumns(zr, zi, k, n - 1, cs[k], sr[k], si[k]);
      }
    }
    for (int i = l; i <= hi; i++) {
      tr[i * n + i] += mur;
      ti[i * n + i] += mui;
    }
  }

  /** Columns k, k+1 of rows 0..last times G^H: p' = c p + conj(s) q, q' = -s p + c q. */
  private void rotateColumns(
      double[] mr, double[] mi, int k, int last, double c, double s1, double s2) {
    for (int i = 0; i <= last; i++) {
      int p = i * n + k;
      int q = p + 1;
      double pr = mr[p];
      double pim = mi[p];
      double qr = mr[q];
      double qi = mi[q];
      mr[p] = c * pr + s1 * qr + s2 * qi;
      mi[p] = c * pim + s1 * qi - s2 * qr;
      mr[q] = c * qr - (s1 * pr - s2 * pim);
      mi[q] = c * qi - (s1 * pim + s2 * pr);
    }
  }

  /**
   * Right eigenvectors as columns of a row-major interleaved n x n matrix: for each k, solve (T -
   * T[k][k] I) x = 0 with x_k = 1 by back-substitution (pivots smaller than max(eps |T[k][k]|, safe
   * minimum) are replaced by that bound), then v = Z x scaled to unit 2-norm with its
   * largest-modulus component real and positive.
   */
  double[] eigenvectors() {
    double[] out = new double[2 * n * n];
    double[] xr = new double[n];
    double[] xi = new double[n];
    for (int k = 0; k < n; k++) {
      double lr = tr[k * n + k];
      double li = ti[k * n + k];
      double smin = Math.max(EPS * (Math.abs(lr) + Math.abs(li)), SAFE_MIN);
      Arrays.fill(xr, 0);
      Arrays.fill(xi, 0);
      xr[k] = 1;
      for (int i = k - 1; i >= 0; i--) {
        double sr = tr[i * n + k];
        double si = ti[i * n + k];
        for (int j = i + 1; j < k; j++) {
          sr += tr[i * n + j] * xr[j] - ti[i * n + j] * xi[j];
          si += tr[i * n + j] * xi[j] + ti[i * n + j] * xr[j];
        }
        double dr = tr[i * n + i] - lr;
        double di = ti[i * n + i] - li;
        if (Math.abs(dr) + Math.abs(di) < smin) {
          dr = smin;
          di = 0;
        }
        double den = dr * dr + di * di;
        xr[i] = -(sr * dr + si * di) / den;
        xi[i] = -(si * dr - sr * di) / den;
        double big = Math.abs(xr[i]) + Math.abs(xi[i]);
        if (big > 1e100) {
          for (int j = i; j <= k; j++) {
            xr[j] /= big;
            xi[j] /= big;
          }
        }
      }
      double norm = 0;
      double best = -1;
      int bestRow = 0;
      double br = 1;
      double bi = 0;
      double[] vr = new double[n];
      double[] vi = new double[n];
      for (int i = 0; i < n; i++) {
        double s = 0;
        double t = 0;
        for (int j = 0; j <= k; j++) {
          s += zr[i * n + j] * xr[j] - zi[i * n + j] * xi[j];
          t += zr[i * n + j] * xi[j] + zi[i * n + j] * xr[j];
        }
        vr[i] = s;
        vi[i] = t;
        double m = Math.hypot(s, t);
        norm = Math.hypot(norm, m);
        if (m > best) {
          best = m;
          bestRow = i;
          br = s;
          bi = t;
        }
      }
      // divide by norm and by the phase of the largest component: multiply by conj(b) / |b|
      double pr = br / (best * norm);
      double pi = -bi / (best * norm);
      for (int i = 0; i < n; i++) {
        out[2 * (i * n + k)] = vr[i] * pr - vi[i] * pi;
        out[2 * (i * n + k) + 1] = vr[i] * pi + vi[i] * pr;
      }
      out[2 * (bestRow * n + k) + 1] = 0;
    }
    return out;
  }
}
