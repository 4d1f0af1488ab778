package dev.cubed.nd.linalg;

import static dev.cubed.nd.linalg.LinalgGolden.assertNormClose;
import static dev.cubed.nd.linalg.LinalgGolden.tol;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decompositions whose results are not unique (eigenvectors, SVD, QR): the defining properties
 * (reconstruction, orthonormality, triangularity) on the golden matrices and on larger seeded
 * random ones, plus NumPy's unique parts (eigenvalues, singular values, |diag R|). Residuals are
 * measured normwise relative to max(1, max |a_ij|) with {@link LinalgGolden#tol} scaled by the
 * matrix size for the random matrices.
 */
class LinalgDecompositionTest {

  static List<String> eigh() {
    return LinalgGolden.names("eigh");
  }

  static List<String> svd() {
    return LinalgGolden.names("svd");
  }

  static List<String> qr() {
    return LinalgGolden.names("qr");
  }

  /** Matrix b of a stack as interleaved complex doubles (real inputs get zero imaginary parts). */
  static double[] cmat(NDArray a, int b, int r, int c) {
    double[] v = MatrixStack.read(a, b * r * c, r * c);
    if (a.dtype().isComplex()) {
      return v;
    }
    double[] z = new double[2 * r * c];
    for (int i = 0; i < r * c; i++) {
      z[2 * i] = v[i];
    }
    return z;
  }

  static double scale(double[] a) {
    double s = 1;
    for (double v : a) {
      s = Math.max(s, Math.abs(v));
    }
    return s;
  }

  /** max |Q^H Q - I| for an r x c matrix with orthonormal columns. */
  static double orthoError(double[] q, int r, int c) {
    double[] g = MatrixStack.matmul(MatrixStack.conjTranspose(q, r, c), q, c, r, c, true);
    return LinalgGolden.maxDiff(g, MatrixStack.identity(c, true));
  }

  static int count(NDArray x, int tail) {
    long n = 1;
    for (int i = 0; i < x.ndim() - tail; i++) {
      n *= x.shape(i);
    }
    return (int) n;
  }

  static void checkEigh(NDArray x, Linalg.EighResult r, double tol, String what) {
    DType dt = x.dtype().defaultFloating();
    assertThat(r.eigenvectors().dtype()).as(what).isEqualTo(dt);
    assertThat(r.eigenvalues().dtype()).as(what).isEqualTo(dt.realPart());
    int n = (int) x.shape(x.ndim() - 1);
    for (int b = 0; b < count(x, 2); b++) {
      double[] a = cmat(x, b, n, n);
      for (int i = 0; i < n; i++) { // Hermitian from the lower triangle, as eigh reads it
        a[2 * (i * n + i) + 1] = 0;
        for (int j = i + 1; j < n; j++) {
          a[2 * (i * n + j)] = a[2 * (j * n + i)];
          a[2 * (i * n + j) + 1] = -a[2 * (j * n + i) + 1];
        }
      }
      double[] v = cmat(r.eigenvectors(), b, n, n);
      double[] w = MatrixStack.read(r.eigenvalues(), b * n, n);
      double[] vw = v.clone();
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          vw[2 * (i * n + j)] *= w[j];
          vw[2 * (i * n + j) + 1] *= w[j];
        }
        if (i > 0) {
          assertThat(w[i]).as(what + " ascending").isGreaterThanOrEqualTo(w[i - 1]);
        }
      }
      double[] av = MatrixStack.matmul(a, v, n, n, n, true);
      assertThat(LinalgGolden.maxDiff(av, vw)).as(what + " A V = V W").isLessThan(tol * scale(a));
      assertThat(orthoError(v, n, n)).as(what + " V^H V = I").isLessThan(tol);
    }
  }

  static void checkSvd(NDArray x, Linalg.SvdMode mode, double tol, String what) {
    Linalg.SvdResult r = Linalg.svd(x, mode);
    DType dt = x.dtype().defaultFloating();
    int m = (int) x.shape(x.ndim() - 2);
    int n = (int) x.shape(x.ndim() - 1);
    int k = Math.min(m, n);
    int uc = mode == Linalg.SvdMode.FULL ? m : k;
    int vr = mode == Linalg.SvdMode.FULL ? n : k;
    assertThat(r.U().dtype()).isEqualTo(dt);
    assertThat(r.Vh().dtype()).isEqualTo(dt);
    assertThat(r.S().dtype()).isEqualTo(dt.realPart());
    assertThat(r.U().shape()[x.ndim() - 1]).isEqualTo(uc);
    assertThat(r.U().shape()[x.ndim() - 2]).isEqualTo(m);
    assertThat(r.Vh().shape()[x.ndim() - 2]).isEqualTo(vr);
    assertThat(r.S().shape()[x.ndim() - 2]).isEqualTo(k);
    for (int b = 0; b < count(x, 2); b++) {
      double[] a = cmat(x, b, m, n);
      double[] u = cmat(r.U(), b, m, uc);
      double[] vh = cmat(r.Vh(), b, vr, n);
      double[] s = MatrixStack.read(r.S(), b * k, k);
      double[] us = new double[2 * m * k];
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < k; j++) {
          us[2 * (i * k + j)] = u[2 * (i * uc + j)] * s[j];
          us[2 * (i * k + j) + 1] = u[2 * (i * uc + j) + 1] * s[j];
        }
      }
      double[] vhk = Arrays.copyOf(vh, 2 * k * n);
      double[] rec = MatrixStack.matmul(us, vhk, m, k, n, true);
      assertThat(LinalgGolden.maxDiff(rec, a)).as(what + " U S Vh = A").isLessThan(tol * scale(a));
      assertThat(orthoError(u, m, uc)).as(what + " U^H U = I").isLessThan(tol);
      assertThat(orthoError(MatrixStack.conjTranspose(vh, vr, n), n, vr))
          .as(what + " Vh Vh^H = I")
          .isLessThan(tol);
      for (int i = 1; i < k; i++) {
        assertThat(s[i]).as(what + " descending").isLessThanOrEqualTo(s[i - 1]);
      }
    }
  }

  static void checkQr(NDArray x, Linalg.QrMode mode, double tol, String what) {
    Linalg.QrResult r = Linalg.qr(x, mode);
    int m = (int) x.shape(x.ndim() - 2);
    int n = (int) x.shape(x.ndim() - 1);
    int k = Math.min(m, n);
    int qc = mode == Linalg.QrMode.REDUCED ? k : m;
    assertThat(r.Q().shape()[x.ndim() - 1]).isEqualTo(qc);
    assertThat(r.R().shape()[x.ndim() - 2]).isEqualTo(qc);
    assertThat(r.R().dtype()).isEqualTo(x.dtype().defaultFloating());
    for (int b = 0; b < count(x, 2); b++) {
      double[] a = cmat(x, b, m, n);
      double[] q = cmat(r.Q(), b, m, qc);
      double[] rr = cmat(r.R(), b, qc, n);
      for (int i = 0; i < qc; i++) {
        for (int j = 0; j < Math.min(i, n); j++) {
          assertThat(rr[2 * (i * n + j)]).as(what + " R upper").isZero();
          assertThat(rr[2 * (i * n + j) + 1]).as(what + " R upper").isZero();
        }
      }
      double[] rec = MatrixStack.matmul(q, rr, m, qc, n, true);
      assertThat(LinalgGolden.maxDiff(rec, a)).as(what + " Q R = A").isLessThan(tol * scale(a));
      assertThat(orthoError(q, m, qc)).as(what + " Q^H Q = I").isLessThan(tol);
    }
  }

  @ParameterizedTest
  @MethodSource
  void eigh(String name) {
    Map<String, NDArray> c = LinalgGolden.cases("eigh").get(name);
    NDArray x = c.get("x");
    NDArray w = c.get("w");
    Linalg.EighResult r = Linalg.eigh(x);
    assertNormClose(w, r.eigenvalues(), tol(w.dtype()), "eigh eigenvalues " + name);
    checkEigh(x, r, tol(w.dtype()), "eigh " + name);
  }

  @ParameterizedTest
  @MethodSource
  void svd(String name) {
    Map<String, NDArray> c = LinalgGolden.cases("svd").get(name);
    NDArray x = c.get("x");
    NDArray s = c.get("s");
    for (Linalg.SvdMode mode : Linalg.SvdMode.values()) {
      assertNormClose(s, Linalg.svd(x, mode).S(), tol(s.dtype()), "svd S " + mode + " " + name);
      checkSvd(x, mode, tol(s.dtype()), "svd " + mode + " " + name);
    }
  }

  @ParameterizedTest
  @MethodSource
  void qr(String name) {
    Map<String, NDArray> c = LinalgGolden.cases("qr").get(name);
    NDArray x = c.get("x");
    NDArray absdiag = c.get("absdiag");
    NDArray r = Linalg.qr(x).R();
    NDArray d = Linalg.diagonal(r, 0);
    NDArray abs = NDArray.zeros(absdiag.dtype(), d.shape());
    for (int i = 0; i < d.size(); i++) {
      abs.setDouble(i, Math.hypot(d.getDouble(i), d.getImag(i)));
    }
    assertNormClose(absdiag, abs, tol(absdiag.dtype()), "qr |diag R| " + name);
    for (Linalg.QrMode mode : Linalg.QrMode.values()) {
      checkQr(x, mode, tol(absdiag.dtype()), "qr " + mode + " " + name);
    }
  }

  static NDArray random(DType dt, long seed, long... shape) {
    Random rnd = new Random(seed);
    NDArray a = NDArray.zeros(dt, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setComplex(i, rnd.nextGaussian(), rnd.nextGaussian());
    }
    return a;
  }

  static List<Arguments> randomCases() {
    List<Arguments> out = new ArrayList<>();
    DType[] dts = {DType.FLOAT64, DType.COMPLEX128, DType.FLOAT32, DType.COMPLEX64};
    int[][] shapes = {{24, 24}, {30, 17}, {11, 29}, {1, 7}, {6, 1}};
    long seed = 1;
    for (DType dt : dts) {
      for (int[] s : shapes) {
        out.add(Arguments.of(dt, s[0], s[1], seed++));
      }
    }
    return out;
  }

  /** Larger random matrices (Jacobi methods for complex, LAPACK for real): properties only. */
  @ParameterizedTest
  @MethodSource("randomCases")
  void randomMatrices(DType dt, int m, int n, long seed) {
    double t = tol(dt) * Math.max(m, n);
    NDArray x = random(dt, seed, 2, m, n);
    for (Linalg.SvdMode mode : Linalg.SvdMode.values()) {
      checkSvd(x, mode, t, "svd " + dt + " " + m + "x" + n);
    }
    for (Linalg.QrMode mode : Linalg.QrMode.values()) {
      checkQr(x, mode, t, "qr " + dt + " " + m + "x" + n);
    }
    NDArray sq = random(dt, seed + 100, 2, m, m);
    checkEigh(sq, Linalg.eigh(sq), t, "eigh " + dt + " " + m);
    // eigvalsh agrees with eigh, svdvals with svd
    assertNormClose(Linalg.eigh(sq).eigenvalues(), Linalg.eigvalsh(sq), t, "eigvalsh");
    assertNormClose(Linalg.svd(x).S(), Linalg.svdvals(x), t, "svdvals");
  }

  /** A rank-deficient complex matrix: zero singular values still give orthonormal U and Vh. */
  @ParameterizedTest
  @MethodSource("randomCases")
  void rankDeficient(DType dt, int m, int n, long seed) {
    NDArray x = random(dt, seed, 1, m, n);
    for (int i = 0; i < m; i++) { // column 0 := 0, last column := first-but-one
      x.setComplex(i * n, 0, 0);
      if (n > 2) {
        x.setComplex(i * n + n - 1, x.getDouble(i * n + 1), x.getImag(i * n + 1));
      }
    }
    double t = tol(dt) * Math.max(m, n);
    for (Linalg.SvdMode mode : Linalg.SvdMode.values()) {
      checkSvd(x, mode, t, "deficient svd " + dt + " " + m + "x" + n);
    }
    long expected = Math.min(m, Math.max(0, n - (n > 2 ? 2 : 1)));
    assertThat(Linalg.matrixRank(x).getLong(0)).isEqualTo(expected);
  }

  /**
   * LU-based functions on larger random matrices: inv(A) A = I and A solve(A, B) = B (tolerance
   * scaled by n and by 100 for the condition number of a random Gaussian matrix), and for a
   * Hermitian positive-definite H = A A^H + n I: det(H) = prod(eigvalsh(H)), slogdet consistent,
   * cholesky(H) L L^H = H.
   */
  @ParameterizedTest
  @MethodSource("randomCases")
  void luRandom(DType dt, int m, int n, long seed) {
    NDArray a = random(dt, seed, 2, m, m);
    double t = tol(dt) * m * 100;
    NDArray inv = Linalg.inv(a);
    NDArray rhs = random(dt, seed + 1, 2, m, 3);
    NDArray x = Linalg.solve(a, rhs);
    for (int b = 0; b < 2; b++) {
      double[] am = cmat(a, b, m, m);
      double[] prod = MatrixStack.matmul(cmat(inv, b, m, m), am, m, m, m, true);
      assertThat(LinalgGolden.maxDiff(prod, MatrixStack.identity(m, true)))
          .as("inv " + dt)
          .isLessThan(t);
      double[] ax = MatrixStack.matmul(am, cmat(x, b, m, 3), m, m, 3, true);
      assertThat(LinalgGolden.maxDiff(ax, cmat(rhs, b, m, 3)))
          .as("solve " + dt)
          .isLessThan(t * scale(am));
    }
    // Hermitian positive definite
    double[] am = cmat(a, 0, m, m);
    double[] h = MatrixStack.matmul(am, MatrixStack.conjTranspose(am, m, m), m, m, m, true);
    for (int i = 0; i < m; i++) {
      h[2 * (i * m + i)] += m;
      h[2 * (i * m + i) + 1] = 0;
    }
    NDArray hx = NDArray.zeros(dt, m, m);
    MatrixStack.write(hx, 0, m * m, h, true);
    NDArray w = Linalg.eigvalsh(hx);
    double logProd = 0;
    for (int i = 0; i < m; i++) {
      logProd += Math.log(w.getDouble(i));
    }
    Linalg.SlogdetResult sd = Linalg.slogdet(hx);
    assertThat(sd.logabsdet().getDouble(0))
        .as("slogdet vs eigvalsh " + dt)
        .isCloseTo(logProd, Offset.offset(t * Math.abs(logProd) + t));
    assertThat(sd.sign().getDouble(0)).isCloseTo(1.0, Offset.offset(t));
    double det = Linalg.det(hx).getDouble(0);
    if (logProd > Math.log(dt.realPart().finfo().max())) {
      assertThat(det).as("det overflows the dtype, as in NumPy").isInfinite();
    } else {
      assertThat(Math.log(det)).isCloseTo(logProd, Offset.offset(t * Math.abs(logProd) + t));
    }
    double[] hm = cmat(hx, 0, m, m);
    double[] l = cmat(Linalg.cholesky(hx), 0, m, m);
    double[] llh = MatrixStack.matmul(l, MatrixStack.conjTranspose(l, m, m), m, m, m, true);
    assertThat(LinalgGolden.maxDiff(llh, hm)).as("cholesky " + dt).isLessThan(t * scale(hm));
  }
}
