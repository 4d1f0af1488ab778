package dev.cubed.nd.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Linalg.eig} / {@code eigvals} of complex matrices ({@link ComplexEigen}): NumPy 2.4's
 * eigenvalues for three fixed matrices (compared as sets, the order is not NumPy's), seeded random
 * stacks by A v = w v with unit v, repeated eigenvalues, Hermitian and real input.
 */
class ComplexEigenTest {
  /** Random complex (..., n, n) matrix with Gaussian parts. */
  private static NDArray random(Random r, DType t, long... shape) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      a.setComplex(i, r.nextGaussian(), r.nextGaussian());
    }
    return a;
  }

  private static double[] values(NDArray w, int off, int n) {
    return MatrixStack.read(w, off, n);
  }

  /** Asserts the interleaved eigenvalue lists are equal as multisets within tol (greedy match). */
  private static void assertSameSet(double[] want, double[] got, double tol, String what) {
    int n = want.length / 2;
    boolean[] used = new boolean[n];
    for (int i = 0; i < n; i++) {
      int best = -1;
      double bd = Double.MAX_VALUE;
      for (int j = 0; j < n; j++) {
        double d = Math.hypot(want[2 * i] - got[2 * j], want[2 * i + 1] - got[2 * j + 1]);
        if (!used[j] && d < bd) {
          bd = d;
          best = j;
        }
      }
      assertTrue(
          bd <= tol,
          what
              + ": eigenvalue "
              + want[2 * i]
              + "+"
              + want[2 * i + 1]
              + "i not found (closest off by "
              + bd
              + ")");
      used[best] = true;
    }
  }

  /** Max over columns j of ||A v_j - w_j v_j|| / ||A||_F, and checks each |v_j| = 1. */
  private static double residual(NDArray a, NDArray w, NDArray v, int b, int n, double tol) {
    double[] m = MatrixStack.read(a, b * n * n, n * n);
    double[] ev = MatrixStack.read(w, b * n, n);
    double[] vv = MatrixStack.read(v, b * n * n, n * n);
    double an = 0;
    for (double d : m) {
      an = Math.hypot(an, d);
    }
    double worst = 0;
    for (int j = 0; j < n; j++) {
      double res = 0;
      double norm = 0;
      for (int i = 0; i < n; i++) {
        double re = 0;
        double im = 0;
        for (int k = 0; k < n; k++) {
          double ar = m[2 * (i * n + k)];
          double ai = m[2 * (i * n + k) + 1];
          double xr = vv[2 * (k * n + j)];
          double xi = vv[2 * (k * n + j) + 1];
          re += ar * xr - ai * xi;
          im += ar * xi + ai * xr;
        }
        double xr = vv[2 * (i * n + j)];
        double xi = vv[2 * (i * n + j) + 1];
        re -= ev[2 * j] * xr - ev[2 * j + 1] * xi;
        im -= ev[2 * j] * xi + ev[2 * j + 1] * xr;
        res = Math.hypot(res, Math.hypot(re, im));
        norm = Math.hypot(norm, Math.hypot(xr, xi));
      }
      assertEquals(1, norm, tol, "unit eigenvector " + j);
      worst = Math.max(worst, an == 0 ? res : res / an);
    }
    return worst;
  }

  @Test
  void matchesNumpyEigenvalues() {
    double[][] mats = {
      {1, 2, 2, 0, 0, 0, 0, -3, 1, 0, 4, 1, 0.5, 0, 1, -1, 0, 2},
      {2, 0, 0, 1, 0, -1, 3, 0},
      {
        0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0,
        0
      }
    };
    int[] sizes = {3, 2, 4};
    double[][] numpy = {
      {
        3.479461441342555,
        -0.6982074094420456,
        0.4345634080020886,
        1.8827785050990549,
        -1.9140248493446435,
        2.8154289043429928
      },
      {1.3819660112501047, 0, 3.618033988749895, 0},
      {
        -0.923879532511287,
        -0.3826834323650894,
        -0.38268343236509017,
        0.923879532511287,
        0.3826834323650898,
        -0.9238795325112871,
        0.9238795325112868,
        0.3826834323650898
      }
    };
    for (int c = 0; c < 3; c++) {
      int n = sizes[c];
      NDArray a = NDArray.zeros(DType.COMPLEX128, n, n);
      MatrixStack.write(a, 0, n * n, mats[c], true);
      Linalg.EigResult e = Linalg.eig(a);
      assertEquals(DType.COMPLEX128, e.eigenvalues().dtype());
      assertSameSet(numpy[c], values(e.eigenvalues(), 0, n), 1e-12, "matrix " + c);
      assertTrue(residual(a, e.eigenvalues(), e.eigenvectors(), 0, n, 1e-12) <= 1e-13);
      assertEquals(e.eigenvalues().toString(), Linalg.eigvals(a).toString());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void randomMatricesSatisfyAvEqualsWv(int n) {
    Random r = new Random(700 + n);
    for (int round = 0; round < 4; round++) {
      NDArray a = random(r, DType.COMPLEX128, n, n);
      Linalg.EigResult e = Linalg.eig(a);
      assertArrayEquals(new long[] {n}, e.eigenvalues().shape());
      double res = residual(a, e.eigenvalues(), e.eigenvectors(), 0, n, 1e-12);
      assertTrue(res <= 1e-10, "n=" + n + " round " + round + ": residual " + res);
      for (int j = 0; j < n; j++) { // the largest component of each vector is real, as zgeev's
        int arg = 0;
        for (int i = 1; i < n; i++) {
          if (Math.hypot(e.eigenvectors().getDouble(i * n + j), e.eigenvectors().getImag(i * n + j))
              > Math.hypot(
                      e.eigenvectors().getDouble(arg * n + j),
                      e.eigenvectors().getImag(arg * n + j))
                  + 1e-12) {
            arg = i;
          }
        }
        assertEquals(0, e.eigenvectors().getImag(arg * n + j), 1e-12);
        assertTrue(e.eigenvectors().getDouble(arg * n + j) > 0);
      }
      assertEquals(e.eigenvalues().toString(), Linalg.eigvals(a).toString());
    }
  }

  @Test
  void batchesAndComplex64() {
    Random r = new Random(710);
    NDArray a = random(r, DType.COMPLEX128, 2, 3, 5, 5);
    Linalg.EigResult e = Linalg.eig(a);
    assertArrayEquals(new long[] {2, 3, 5}, e.eigenvalues().shape());
    assertArrayEquals(new long[] {2, 3, 5, 5}, e.eigenvectors().shape());
    for (int b = 0; b < 6; b++) {
      assertTrue(residual(a, e.eigenvalues(), e.eigenvectors(), b, 5, 1e-12) <= 1e-10);
      NDArray one = NDArray.zeros(DType.COMPLEX128, 5, 5);
      MatrixStack.write(one, 0, 25, MatrixStack.read(a, b * 25, 25), true);
      assertArrayEquals(
          MatrixStack.read(Linalg.eigvals(one), 0, 5),
          MatrixStack.read(e.eigenvalues(), b * 5, 5),
          "matrix " + b + " alone as in the stack");
    }
    NDArray f = random(r, DType.COMPLEX64, 3, 4, 4);
    Linalg.EigResult g = Linalg.eig(f);
    assertEquals(DType.COMPLEX64, g.eigenvalues().dtype());
    assertEquals(DType.COMPLEX64, g.eigenvectors().dtype());
    for (int b = 0; b < 3; b++) {
      assertTrue(residual(f, g.eigenvalues(), g.eigenvectors(), b, 4, 1e-5) <= 1e-5);
    }
    assertEquals(DType.COMPLEX64, Linalg.eigvals(f).dtype());
    assertArrayEquals(
        new long[] {0, 3}, Linalg.eigvals(NDArray.zeros(DType.COMPLEX128, 0, 3, 3)).shape());
    assertArrayEquals(
        new long[] {0}, Linalg.eigvals(NDArray.zeros(DType.COMPLEX128, 0, 0)).shape());
  }

  @Test
  void repeatedEigenvalues() {
    // identity: every eigenvalue 1, eigenvectors the unit vectors
    NDArray id = NDArray.zeros(DType.COMPLEX128, 6, 6);
    for (int i = 0; i < 6; i++) {
      id.setComplex(i * 7, 1, 0);
    }
    Linalg.EigResult e = Linalg.eig(id);
    assertTrue(residual(id, e.eigenvalues(), e.eigenvectors(), 0, 6, 1e-12) <= 1e-14);
    assertSameSet(
        new double[] {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0},
        values(e.eigenvalues(), 0, 6),
        1e-14,
        "identity");
    // Jordan-like: (2+i) I + superdiagonal of ones (and a 2x2 block of 3-i) under a unitary-ish
    // similarity S J S^-1; defective, so only the eigenvalues are checked, loosely
    Random r = new Random(720);
    int n = 5;
    NDArray j = NDArray.zeros(DType.COMPLEX128, n, n);
    for (int i = 0; i < n; i++) {
      j.setComplex(i * n + i, i < 3 ? 2 : 3, i < 3 ? 1 : -1);
      if (i < n - 1 && i != 2) {
        j.setComplex(i * n + i + 1, 1, 0);
      }
    }
    NDArray s = random(r, DType.COMPLEX128, n, n);
    NDArray a = Linalg.matmul(Linalg.matmul(s, j), Linalg.inv(s));
    double[] want = {2, 1, 2, 1, 2, 1, 3, -1, 3, -1};
    assertSameSet(want, values(Linalg.eigvals(a), 0, n), 1e-4, "jordan");
    assertSameSet(want, values(Linalg.eigvals(j), 0, n), 1e-12, "jordan itself");
    Linalg.EigResult je = Linalg.eig(j);
    for (int c = 0; c < n; c++) {
      double norm = 0;
      for (int i = 0; i < n; i++) {
        norm =
            Math.hypot(
                norm,
                Math.hypot(
                    je.eigenvectors().getDouble(i * n + c), je.eigenvectors().getImag(i * n + c)));
      }
      assertEquals(1, norm, 1e-12, "defective matrix: still unit vectors");
    }
  }

  @Test
  void hermitianInputHasRealEigenvaluesAsEigvalsh() {
    Random r = new Random(730);
    for (int n = 1; n <= 8; n++) {
      NDArray b = random(r, DType.COMPLEX128, n, n);
      NDArray h = NDArray.zeros(DType.COMPLEX128, n, n);
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < n; k++) {
          h.setComplex(
              i * n + k,
              b.getDouble(i * n + k) + b.getDouble(k * n + i),
              b.getImag(i * n + k) - b.getImag(k * n + i));
        }
      }
      NDArray w = Linalg.eigvals(h);
      double[] vals = values(w, 0, n);
      double[] sorted = new double[n];
      for (int i = 0; i < n; i++) {
        assertEquals(0, vals[2 * i + 1], 1e-12 * n, "Hermitian: imaginary part of eigenvalue");
        sorted[i] = vals[2 * i];
      }
      Arrays.sort(sorted);
      NDArray eh = Linalg.eigvalsh(h);
      for (int i = 0; i < n; i++) {
        assertEquals(eh.getDouble(i), sorted[i], 1e-11, "eigvalsh agrees, n=" + n);
      }
    }
  }

  @Test
  void realMatrixAsComplexMatchesTheRealPath() {
    Random r = new Random(740);
    for (int n = 1; n <= 9; n++) {
      NDArray a = NDArray.zeros(DType.FLOAT64, n, n);
      NDArray c = NDArray.zeros(DType.COMPLEX128, n, n);
      for (int i = 0; i < n * n; i++) {
        double d = r.nextGaussian();
        a.setDouble(i, d);
        c.setComplex(i, d, 0);
      }
      assertSameSet(
          values(Linalg.eigvals(a), 0, n), values(Linalg.eigvals(c), 0, n), 1e-10, "n=" + n);
      Linalg.EigResult e = Linalg.eig(c);
      assertTrue(residual(c, e.eigenvalues(), e.eigenvectors(), 0, n, 1e-12) <= 1e-10);
    }
  }

  @Test
  void nanAndNonConvergenceAreReported() {
    NDArray nan = NDArray.zeros(DType.COMPLEX128, 2, 3, 3);
    nan.setComplex(12, 0, Double.NaN);
    Linalg.LinAlgException x = assertThrows(Linalg.LinAlgException.class, () -> Linalg.eig(nan));
    assertTrue(x.getMessage().contains("NaN"), x.getMessage());
    // a huge-range matrix still converges (no overflow in the shifts)
    NDArray big = NDArray.zeros(DType.COMPLEX128, 3, 3);
    double[] vals = {1e150, 1, 0, 1, 1e-150, 1, 0, 1, 1};
    for (int i = 0; i < 9; i++) {
      big.setComplex(i, vals[i], vals[i] / 2);
    }
    NDArray w = Linalg.eigvals(big);
    for (int i = 0; i < 3; i++) {
      assertTrue(Double.isFinite(w.getDouble(i)) && Double.isFinite(w.getImag(i)));
    }
    double[] a = MatrixStack.read(random(new Random(750), DType.COMPLEX128, 6, 6), 0, 36);
    ArithmeticException nc =
        assertThrows(
            ArithmeticException.class,
            () -> ComplexEigen.of("eig", " (matrix 4 of the stack)", a, 6, true, 2));
    assertTrue(
        nc.getMessage()
            .startsWith("eig: the complex QR algorithm did not converge after 2 " + "iterations"),
        nc.getMessage());
    assertTrue(nc.getMessage().contains("matrix 4 of the stack"), nc.getMessage());
  }
}
