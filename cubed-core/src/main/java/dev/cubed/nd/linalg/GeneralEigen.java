package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.ludovic.netlib.lapack.LAPACK;
import org.netlib.util.intW;

/**
 * Eigenvalues and right eigenvectors of general (non-symmetric) matrices, the standard's {@code
 * eig} and {@code eigvals}: real matrices by LAPACK {@code dgeev} (Hessenberg QR), complex ones by
 * {@link ComplexEigen} (Householder Hessenberg reduction and the shifted complex QR algorithm in
 * float64; the netlib binding has no {@code zgeev}).
 */
final class GeneralEigen {
  private GeneralEigen() {}

  /**
   * {@code eig} or {@code eigvals} of each matrix of x (..., M, M): eigenvalues (..., M) and, when
   * {@code vectors}, eigenvectors as columns (..., M, M), both complex (complex64 for float32 and
   * complex64 input, complex128 otherwise), each vector of unit 2-norm; real input in LAPACK's
   * order (NumPy's), complex input in the order the QR iteration deflates them.
   */
  static NDArray[] eig(String fn, NDArray x, boolean vectors) {
    MatrixStack st = MatrixStack.square(fn, x);
    DType fl = MatrixStack.floating(fn, x.dtype());
    DType out = fl == DType.FLOAT32 || fl == DType.COMPLEX64 ? DType.COMPLEX64 : DType.COMPLEX128;
    int n = st.rows;
    NDArray w = NDArray.zeros(out, st.shapeWith(n));
    NDArray v = vectors ? NDArray.zeros(out, x.shape()) : null;
    if (fl.isComplex()) {
      for (int b = 0; b < st.count && n > 0; b++) {
        double[] a = finite(fn, st, b);
        ComplexEigen e = ComplexEigen.of(fn, st.where(b), a, n, vectors);
        MatrixStack.write(w, b * n, n, e.eigenvalues(), true);
        if (vectors) {
          MatrixStack.write(v, b * n * n, n * n, e.eigenvectors(), true);
        }
      }
      return new NDArray[] {w, v};
    }
    LAPACK lapack = LAPACK.getInstance();
    for (int b = 0; b < st.count && n > 0; b++) {
      double[] a = finite(fn, st, b);
      double[] cm = MatrixStack.transpose(a, n, n); // column-major
      double[] wr = new double[n];
      double[] wi = new double[n];
      double[] vr = new double[vectors ? n * n : 1];
      double[] vl = new double[1];
      intW info = new intW(0);
      double[] wq = new double[1];
      String jobvr = vectors ? "V" : "N";
      lapack.dgeev("N", jobvr, n, cm, n, wr, wi, vl, 1, vr, vectors ? n : 1, wq, -1, info);
      double[] work = new double[Math.max(1, (int) wq[0])];
      lapack.dgeev(
          "N", jobvr, n, cm, n, wr, wi, vl, 1, vr, vectors ? n : 1, work, work.length, info);
      if (info.val != 0) {
        throw new Linalg.LinAlgException(
            fn + ": eigenvalue computation did not converge" + st.where(b));
      }
      double[] wc = new double[2 * n];
      for (int i = 0; i < n; i++) {
        wc[2 * i] = wr[i];
        wc[2 * i + 1] = wi[i];
      }
      MatrixStack.write(w, b * n, n, wc, true);
      if (vectors) {
        MatrixStack.write(v, b * n * n, n * n, vectorsRowMajor(vr, wi, n), true);
      }
    }
    return new NDArray[] {w, v};
  }

  /** Matrix b of the stack, refused when it holds NaN or infinity. */
  private static double[] finite(String fn, MatrixStack st, int b) {
    double[] a = st.get(b);
    for (double d : a) {
      if (!Double.isFinite(d)) {
        throw new Linalg.LinAlgException(fn + ": the matrix holds NaN or infinity" + st.where(b));
      }
    }
    return a;
  }

  /**
   * dgeev's packed column-major right eigenvectors as a row-major complex matrix (interleaved): a
   * complex pair (j, j+1) is stored as columns re, im; vector j = re + i im, vector j+1 its
   * conjugate.
   */
  private static double[] vectorsRowMajor(double[] vr, double[] wi, int n) {
    double[] z = new double[2 * n * n];
    for (int j = 0; j < n; j++) {
      if (wi[j] != 0 && j + 1 < n) {
        for (int i = 0; i < n; i++) {
          double re = vr[j * n + i];
          double im = vr[(j + 1) * n + i];
          z[2 * (i * n + j)] = re;
          z[2 * (i * n + j) + 1] = im;
          z[2 * (i * n + j + 1)] = re;
          z[2 * (i * n + j + 1) + 1] = -im;
        }
        j++;
      } else {
        for (int i = 0; i < n; i++) {
          z[2 * (i * n + j)] = vr[j * n + i];
        }
      }
    }
    return z;
  }
}
