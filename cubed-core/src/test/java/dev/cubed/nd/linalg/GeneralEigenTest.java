package dev.cubed.nd.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code Linalg.eig} / {@code eigvals} of general real matrices: NumPy 2.4's values for one matrix
 * (same LAPACK order), and seeded random stacks by the defining property A v = w v with unit v.
 */
class GeneralEigenTest {
  @Test
  void matchesNumpyOnAMatrixWithAComplexPair() {
    NDArray a = NDArray.of(new double[] {1, 2, 0, -3, 1, 4, 0.5, 0, 2}, 3, 3);
    Linalg.EigResult e = Linalg.eig(a);
    double[][] w = {{0.75643992, 2.58168253}, {0.75643992, -2.58168253}, {2.48712016, 0}};
    assertEquals(DType.COMPLEX128, e.eigenvalues().dtype());
    for (int i = 0; i < 3; i++) {
      assertEquals(w[i][0], e.eigenvalues().getDouble(i), 1e-7);
      assertEquals(w[i][1], e.eigenvalues().getImag(i), 1e-7);
    }
    // NumPy's first column (LAPACK normalizes each vector to unit norm, largest part real; the
    // sign of that part is not fixed: OpenBLAS and the pure-Java LAPACK give opposite signs)
    double[][] v0 = {{0.05703883, 0.60459887}, {-0.78738736, 0}, {0.09072315, -0.0547469}};
    double sign = Math.signum(e.eigenvectors().getDouble(3)) * Math.signum(v0[1][0]);
    assertEquals(0, e.eigenvectors().getImag(3), 1e-12);
    for (int i = 0; i < 3; i++) {
      assertEquals(sign * v0[i][0], e.eigenvectors().getDouble(3 * i), 1e-7);
      assertEquals(sign * v0[i][1], e.eigenvectors().getImag(3 * i), 1e-7);
    }
    assertEquals(e.eigenvalues().toString(), Linalg.eigvals(a).toString());
  }

  @Test
  void randomStacksSatisfyAvEqualsWv() {
    Random r = new Random(600);
    for (int round = 0; round < 20; round++) {
      int n = r.nextInt(6);
      int batch = 1 + r.nextInt(3);
      DType t = r.nextBoolean() ? DType.FLOAT32 : r.nextBoolean() ? DType.FLOAT64 : DType.INT32;
      NDArray a = NDArray.zeros(t, batch, n, n);
      for (int i = 0; i < a.size(); i++) {
        a.setDouble(i, t == DType.INT32 ? r.nextInt(9) - 4 : r.nextGaussian());
      }
      Linalg.EigResult e = Linalg.eig(a);
      assertEquals(
          t == DType.FLOAT32 ? DType.COMPLEX64 : DType.COMPLEX128, e.eigenvalues().dtype());
      assertArrayEquals(new long[] {batch, n}, e.eigenvalues().shape());
      double tol = t == DType.FLOAT32 ? 1e-4 : 1e-9;
      for (int b = 0; b < batch; b++) {
        for (int j = 0; j < n; j++) {
          double wr = e.eigenvalues().getDouble(b * n + j);
          double wi = e.eigenvalues().getImag(b * n + j);
          double norm = 0;
          for (int i = 0; i < n; i++) {
            int vi = b * n * n + i * n + j;
            double vr = e.eigenvectors().getDouble(vi);
            double vim = e.eigenvectors().getImag(vi);
            norm += vr * vr + vim * vim;
            double re = 0;
            double im = 0;
            for (int k = 0; k < n; k++) {
              double aik = a.getDouble(b * n * n + i * n + k);
              int vk = b * n * n + k * n + j;
              re += aik * e.eigenvectors().getDouble(vk);
              im += aik * e.eigenvectors().getImag(vk);
            }
            assertEquals(wr * vr - wi * vim, re, tol * 10, "A v = w v, round " + round);
            assertEquals(wr * vim + wi * vr, im, tol * 10, "A v = w v, round " + round);
          }
          assertEquals(1, Math.sqrt(norm), tol, "unit eigenvector, round " + round);
        }
      }
    }
  }

  @Test
  void nanAndShapesAreRefused() {
    NDArray nan = NDArray.zeros(DType.FLOAT64, 2, 2);
    nan.setDouble(1, Double.NaN);
    assertThrows(Linalg.LinAlgException.class, () -> Linalg.eigvals(nan));
    assertThrows(
        IllegalArgumentException.class, () -> Linalg.eig(NDArray.zeros(DType.FLOAT64, 2, 3)));
    assertThrows(IllegalArgumentException.class, () -> Linalg.eig(NDArray.zeros(DType.BOOL, 2, 2)));
  }
}
