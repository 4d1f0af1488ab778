package dev.cubed.nd.linalg;

/**
 * Row-major matrix products {@code C[m,n] = A[m,k] B[k,n]} on backing arrays, with element offsets
 * into each. float64/float32 call BLAS dgemm/sgemm: a row-major product is the column-major product
 * {@code C^T = B^T A^T}, so the operands are passed swapped with no copies. int64 (used for every
 * integer dtype, wrapping like NumPy) and complex128 (interleaved) use cache-blocked i-k-j loops.
 * {@code C} must be zero-filled before the loops (BLAS calls use beta 0).
 */
final class MatmulKernels {
  private MatmulKernels() {}

  private static final int BI = 64;
  private static final int BK = 256;
  private static final int BJ = 1024;

  static void dgemm(
      double[] a, int offA, double[] b, int offB, double[] c, int offC, int m, int k, int n) {
    dgemm(a, offA, b, offB, c, offC, m, k, n, false);
  }

  /**
   * Row-major {@code c = a @ b} ({@code accumulate}: {@code c += a @ b}, one BLAS call with beta 1)
   * for an m x k {@code a} and a k x n {@code b}. BLAS is column-major, so it computes the
   * transposed product {@code c^T = b^T a^T} on the same storage: no operand is copied.
   */
  static void dgemm(
      double[] a,
      int offA,
      double[] b,
      int offB,
      double[] c,
      int offC,
      int m,
      int k,
      int n,
      boolean accumulate) {
    if (m == 0 || n == 0 || k == 0) {
      return;
    }
    dgemmPanels(a, offA, b, offB, c, offC, m, k, n, accumulate, PANEL_FLOPS);
  }

  /** {@link #dgemm} in row panels of at most {@code panelFlops} operations per BLAS call. */
  static void dgemmPanels(
      double[] a,
      int offA,
      double[] b,
      int offB,
      double[] c,
      int offC,
      int m,
      int k,
      int n,
      boolean accumulate,
      long panelFlops) {
    int rows = panelRows(m, k, n, panelFlops);
    for (int i = 0; i < m; i += rows) {
      int r = Math.min(rows, m - i);
      Blas.INSTANCE.dgemm(
          "N",
          "N",
          n,
          r,
          k,
          1.0,
          b,
          offB,
          n,
          a,
          offA + i * k,
          k,
          accumulate ? 1.0 : 0.0,
          c,
          offC + i * n,
          n);
    }
  }

  /**
   * Floating-point operations of one BLAS call at most (about 50 ms on one core here). The native
   * BLAS binding pins its arrays for the whole call (JNI critical regions), and while any thread
   * holds a pin the collector cannot run: another task thread that needs a collection waits for the
   * call to end. A 2000 x 2000 block product is 16 GFLOP (0.4 s), so it runs as row panels of this
   * many operations each; a panel still multiplies the whole of b at full BLAS rate.
   */
  static final long PANEL_FLOPS = 2_000_000_000L;

  /** Rows of a per BLAS call for an m x k by k x n product (at least 1, at most m). */
  static int panelRows(int m, int k, int n, long panelFlops) {
    long perRow = 2L * k * n;
    return (int) Math.max(1, Math.min(m, panelFlops / Math.max(1, perRow)));
  }

  static void sgemm(
      float[] a, int offA, float[] b, int offB, float[] c, int offC, int m, int k, int n) {
    sgemm(a, offA, b, offB, c, offC, m, k, n, false);
  }

  /**
   * float32 {@link #dgemm(double[], int, double[], int, double[], int, int, int, int, boolean)}.
   */
  static void sgemm(
      float[] a,
      int offA,
      float[] b,
      int offB,
      float[] c,
      int offC,
      int m,
      int k,
      int n,
      boolean accumulate) {
    if (m == 0 || n == 0 || k == 0) {
      return;
    }
    int rows = panelRows(m, k, n, PANEL_FLOPS);
    for (int i = 0; i < m; i += rows) {
      int r = Math.min(rows, m - i);
      Blas.INSTANCE.sgemm(
          "N",
          "N",
          n,
          r,
          k,
          1.0f,
          b,
          offB,
          n,
          a,
          offA + i * k,
          k,
          accumulate ? 1.0f : 0.0f,
          c,
          offC + i * n,
          n);
    }
  }

  /** Integer product with wrapping 64-bit arithmetic (callers narrow the result). */
  static void lgemm(
      long[] a, int offA, long[] b, int offB, long[] c, int offC, int m, int k, int n) {
    for (int i0 = 0; i0 < m; i0 += BI) {
      int i1 = Math.min(m, i0 + BI);
      for (int k0 = 0; k0 < k; k0 += BK) {
        int k1 = Math.min(k, k0 + BK);
        for (int j0 = 0; j0 < n; j0 += BJ) {
          int j1 = Math.min(n, j0 + BJ);
          for (int i = i0; i < i1; i++) {
            int ci = offC + i * n;
            for (int kk = k0; kk < k1; kk++) {
              long av = a[offA + i * k + kk];
              if (av == 0) {
                continue;
              }
              int bk = offB + kk * n;
              for (int j = j0; j < j1; j++) {
                c[ci + j] += av * b[bk + j];
              }
            }
          }
        }
      }
    }
  }

  /** Complex product on interleaved (re, im) arrays; offsets count complex elements. */
  static void zgemm(
      double[] a, int offA, double[] b, int offB, double[] c, int offC, int m, int k, int n) {
    for (int i0 = 0; i0 < m; i0 += BI) {
      int i1 = Math.min(m, i0 + BI);
      for (int k0 = 0; k0 < k; k0 += BK) {
        int k1 = Math.min(k, k0 + BK);
        for (int j0 = 0; j0 < n; j0 += BJ) {
          int j1 = Math.min(n, j0 + BJ);
          for (int i = i0; i < i1; i++) {
            int ci = 2 * (offC + i * n);
            for (int kk = k0; kk < k1; kk++) {
              int ai = 2 * (offA + i * k + kk);
              double ar = a[ai];
              double aim = a[ai + 1];
              int bk = 2 * (offB + kk * n);
              for (int j = j0; j < j1; j++) {
                double br = b[bk + 2 * j];
                double bi = b[bk + 2 * j + 1];
                c[ci + 2 * j] += ar * br - aim * bi;
                c[ci + 2 * j + 1] += ar * bi + aim * br;
              }
            }
          }
        }
      }
    }
  }
}
