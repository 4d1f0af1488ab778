package dev.cubed.nd.linalg;

import dev.ludovic.netlib.lapack.LAPACK;
import java.util.Arrays;
import org.netlib.util.intW;

/**
 * Hermitian eigendecomposition and singular value decomposition of one matrix. Real matrices use
 * LAPACK ({@code dsyevd}, {@code dgesdd}); complex matrices use the Jacobi methods in {@link
 * Jacobi}.
 */
final class Spectral {
  private Spectral() {}

  /**
   * Eigenvalues ascending ({@code w}) and eigenvectors as columns ({@code v}, null if not asked).
   */
  record Eig(double[] w, double[] v) {}

  /**
   * Eigen-decomposition of the Hermitian matrix given by the lower triangle of {@code a}; {@code
   * where} locates the matrix in its stack for error messages.
   */
  static Eig eigh(
      String function, String where, double[] a, int n, boolean complex, boolean vectors) {
    if (n == 0) {
      return new Eig(new double[0], new double[0]);
    }
    if (complex) {
      return Jacobi.eigh(a, n, vectors);
    }
    LAPACK lapack = LAPACK.getInstance();
    double[] buf = a.clone();
    double[] w = new double[n];
    String jobz = vectors ? "V" : "N";
    intW info = new intW(0);
    double[] wq = new double[1];
    int[] iwq = new int[1];
    // row-major lower triangle = column-major upper triangle
    lapack.dsyevd(jobz, "U", n, buf, n, w, wq, -1, iwq, -1, info);
    double[] work = new double[Math.max(1, (int) wq[0])];
    int[] iwork = new int[Math.max(1, iwq[0])];
    lapack.dsyevd(jobz, "U", n, buf, n, w, work, work.length, iwork, iwork.length, info);
    if (info.val > 0) {
      throw new Linalg.LinAlgException(
          function + ": eigenvalue computation did not converge" + where);
    }
    return new Eig(w, vectors ? MatrixStack.transpose(buf, n, n) : null);
  }

  /**
   * SVD parts: {@code u} m x uc, {@code s} (k = min(m, n), descending), {@code vh} vr x n; u and vh
   * null when only values are asked.
   */
  record Svd(double[] u, double[] s, double[] vh, int uc, int vr) {}

  /** Which parts an SVD returns. */
  enum Job {
    VALUES,
    REDUCED,
    FULL
  }

  /**
   * SVD of the m x n matrix {@code a}.
   *
   * @throws Linalg.LinAlgException if the matrix holds NaN or infinity (NumPy: "SVD did not
   *     converge") or LAPACK does not converge
   */
  static Svd svd(
      String function, String where, double[] a, int m, int n, boolean complex, Job job) {
    int k = Math.min(m, n);
    int uc = job == Job.FULL ? m : k;
    int vr = job == Job.FULL ? n : k;
    if (k == 0) {
      if (job == Job.VALUES) {
        return new Svd(null, new double[0], null, 0, 0);
      }
      int f = complex ? 2 : 1;
      double[] u = new double[f * m * uc];
      for (int i = 0; i < Math.min(m, uc); i++) {
        u[f * (i * uc + i)] = 1;
      }
      double[] vh = new double[f * vr * n];
      for (int i = 0; i < Math.min(vr, n); i++) {
        vh[f * (i * n + i)] = 1;
      }
      return new Svd(u, new double[0], vh, uc, vr);
    }
    for (double v : a) {
      if (!Double.isFinite(v)) {
        throw new Linalg.LinAlgException(
            function + ": SVD did not converge: the matrix contains NaN" + " or infinity" + where);
      }
    }
    if (complex) {
      return Jacobi.svd(a, m, n, job);
    }
    LAPACK lapack = LAPACK.getInstance();
    // The row-major m x n buffer is A^T (n x m) column-major: A^T = U' S V'^T, so
    // U = V' (read VT' row-major) and Vh = U'^T (read U' row-major).
    int lm = n;
    int ln = m;
    String jobz =
        switch (job) {
          case VALUES -> "N";
          case REDUCED -> "S";
          case FULL -> "A";
        };
    double[] buf = a.clone();
    double[] s = new double[k];
    double[] up;
    double[] vtp;
    int ldu;
    int ldvt;
    if (job == Job.VALUES) {
      up = new double[1];
      vtp = new double[1];
      ldu = 1;
      ldvt = 1;
    } else {
      ldu = lm;
      ldvt = uc;
      // netlib-java's bounds check asks for square buffers even for jobz="S"; trimmed below
      up = new double[lm * lm];
      vtp = new double[ln * ln];
    }
    int[] iwork = new int[8 * k];
    intW info = new intW(0);
    double[] wq = new double[1];
    lapack.dgesdd(jobz, lm, ln, buf, lm, s, up, ldu, vtp, ldvt, wq, -1, iwork, info);
    double[] work = new double[Math.max(1, (int) wq[0])];
    lapack.dgesdd(jobz, lm, ln, buf, lm, s, up, ldu, vtp, ldvt, work, work.length, iwork, info);
    if (info.val > 0) {
      throw new Linalg.LinAlgException(function + ": SVD did not converge" + where);
    }
    if (info.val < 0) {
      throw new IllegalStateException("dgesdd: illegal argument " + (-info.val));
    }
    if (job == Job.VALUES) {
      return new Svd(null, s, null, 0, 0);
    }
    return new Svd(Arrays.copyOf(vtp, uc * ln), s, Arrays.copyOf(up, lm * vr), uc, vr);
  }
}
