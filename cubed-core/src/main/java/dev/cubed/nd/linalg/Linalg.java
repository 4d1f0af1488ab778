package dev.cubed.nd.linalg;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The Array API {@code linalg} extension on in-memory arrays. Every function works on stacks of
 * matrices: the last two axes hold the matrices and any leading axes are batch axes (a batch may be
 * empty, giving an empty result). The matrix products ({@code matmul}, {@code matrix_transpose},
 * {@code outer}, {@code tensordot}, {@code vecdot}: the standard's main namespace and its {@code
 * linalg} extension) are here too: one class for the whole of linear algebra.
 *
 * <p>Dtypes: the factorization functions are defined for float32, float64, complex64 and complex128
 * and return the input's precision; integer inputs are promoted to float64 (as NumPy), bool is
 * rejected. All arithmetic runs in double precision (float32 inputs are widened and the results
 * rounded back). Real matrices use LAPACK; complex matrices use Java implementations (LU, Cholesky,
 * Householder QR, Jacobi eigensolver and one-sided Jacobi SVD).
 *
 * <p>Errors: bad shapes or dtypes raise {@link IllegalArgumentException} naming the function;
 * singular or non-positive-definite matrices raise {@link LinAlgException} naming the function and
 * the position of the matrix in the stack.
 */
public final class Linalg {
  private Linalg() {}

  /** A matrix that a function cannot handle: singular, not positive definite, no convergence. */
  public static final class LinAlgException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** An error with the given message. */
    public LinAlgException(String message) {
      super(message);
    }
  }

  /** Which Cholesky factor to return: lower L (A = L L^H) or upper U = L^H (A = U^H U). */
  public enum Triangle {
    LOWER,
    UPPER
  }

  /** QR mode: reduced (Q m x k, R k x n, k = min(m, n)) or complete (Q m x m, R m x n). */
  public enum QrMode {
    REDUCED,
    COMPLETE
  }

  /** SVD shape: full (U m x m, Vh n x n) or reduced (U m x k, Vh k x n). */
  public enum SvdMode {
    FULL,
    REDUCED
  }

  /** Whether reduced axes stay as length-1 dimensions. */
  public enum KeepDims {
    DROP,
    KEEP
  }

  /** The {@code ord} of {@code matrix_norm}: "fro", "nuc", 1, -1, 2, -2, inf, -inf. */
  public enum MatrixNormOrder {
    FRO,
    NUC,
    ONE,
    NEG_ONE,
    TWO,
    NEG_TWO,
    INF,
    NEG_INF
  }

  /**
   * Result of {@link #eigh}: eigenvalues ascending (..., M), eigenvectors as columns (..., M, M).
   */
  public record EighResult(NDArray eigenvalues, NDArray eigenvectors) {}

  /** Result of {@link #qr}: Q with orthonormal columns and upper-triangular R, A = Q R. */
  public record QrResult(NDArray Q, NDArray R) {}

  /** Result of {@link #slogdet}: det = sign * exp(logabsdet); sign 0 and -inf for singular. */
  public record SlogdetResult(NDArray sign, NDArray logabsdet) {}

  /** Result of {@link #svd}: A = U diag(S) Vh, S descending. */
  public record SvdResult(NDArray U, NDArray S, NDArray Vh) {}

  /** Result of {@link #eig}: complex eigenvalues (..., M) and unit eigenvectors as columns. */
  public record EigResult(NDArray eigenvalues, NDArray eigenvectors) {}

  // ------------------------------------------------------------------ factorizations

  /** {@code cholesky(x)}: the lower factor. See {@link #cholesky(NDArray, Triangle)}. */
  public static NDArray cholesky(NDArray x) {
    return cholesky(x, Triangle.LOWER);
  }

  /**
   * Cholesky factor of each Hermitian positive-definite matrix of {@code x} (..., M, M), read from
   * its lower triangle. Result: same shape, floating dtype of x.
   *
   * @throws LinAlgException if a matrix is not positive definite
   */
  public static NDArray cholesky(NDArray x, Triangle upper) {
    String fn = "cholesky";
    MatrixStack st = MatrixStack.square(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int n = st.rows;
    NDArray out = NDArray.zeros(dt, x.shape());
    for (int b = 0; b < st.count; b++) {
      double[] l = Factorizations.choleskyLower(st.get(b), n, st.complex);
      if (l == null) {
        throw new LinAlgException(fn + ": matrix is not positive definite" + st.where(b));
      }
      if (upper == Triangle.UPPER) {
        l = MatrixStack.adjoint(l, n, n, st.complex);
      }
      MatrixStack.write(out, b * n * n, n * n, l, st.complex);
    }
    return out;
  }

  /** {@code qr(x)} in reduced mode. */
  public static QrResult qr(NDArray x) {
    return qr(x, QrMode.REDUCED);
  }

  /**
   * QR decomposition of each matrix of {@code x} (..., M, N); Q has orthonormal columns, R is upper
   * triangular (signs of R's diagonal are not unique). Shapes by {@link QrMode}.
   */
  public static QrResult qr(NDArray x, QrMode mode) {
    String fn = "qr";
    MatrixStack st = MatrixStack.of(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int m = st.rows;
    int n = st.cols;
    int k = Math.min(m, n);
    boolean reduced = mode == QrMode.REDUCED;
    int qc = reduced ? k : m;
    int rr = reduced ? k : m;
    NDArray q = NDArray.zeros(dt, st.shapeWith(m, qc));
    NDArray r = NDArray.zeros(dt, st.shapeWith(rr, n));
    for (int b = 0; b < st.count; b++) {
      Factorizations.QrParts p = Factorizations.qr(st.get(b), m, n, st.complex, reduced);
      MatrixStack.write(q, b * m * qc, m * qc, p.q(), st.complex);
      MatrixStack.write(r, b * rr * n, rr * n, p.r(), st.complex);
    }
    return new QrResult(q, r);
  }

  /**
   * Eigenvalues (ascending, real dtype of x's precision) and eigenvectors (columns, x's floating
   * dtype) of each Hermitian matrix of {@code x} (..., M, M), read from its lower triangle.
   */
  public static EighResult eigh(NDArray x) {
    return eighImpl("eigh", x, true);
  }

  /** Eigenvalues only (ascending, shape (..., M), real dtype); see {@link #eigh}. */
  public static NDArray eigvalsh(NDArray x) {
    return eighImpl("eigvalsh", x, false).eigenvalues();
  }

  private static EighResult eighImpl(String fn, NDArray x, boolean vectors) {
    MatrixStack st = MatrixStack.square(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int n = st.rows;
    NDArray w = NDArray.zeros(dt.realPart(), st.shapeWith(n));
    NDArray v = vectors ? NDArray.zeros(dt, x.shape()) : null;
    for (int b = 0; b < st.count; b++) {
      Spectral.Eig e = Spectral.eigh(fn, st.where(b), st.get(b), n, st.complex, vectors);
      MatrixStack.write(w, b * n, n, e.w(), false);
      if (vectors) {
        MatrixStack.write(v, b * n * n, n * n, e.v(), st.complex);
      }
    }
    return new EighResult(w, v);
  }

  /**
   * Eigenvalues and right eigenvectors (columns, unit 2-norm) of each general real or complex
   * matrix of {@code x} (..., M, M), complex (complex64 for float32 and complex64, complex128
   * otherwise; integers promote to float64), not sorted: real input in LAPACK's order by {@code
   * dgeev}; complex input by Householder Hessenberg reduction and the shifted complex QR algorithm
   * in float64, each vector's largest component real (as {@code zgeev}).
   *
   * @throws LinAlgException if a matrix holds NaN or infinity, or the real QR iteration fails
   * @throws ArithmeticException if the complex QR iteration does not converge
   */
  public static EigResult eig(NDArray x) {
    NDArray[] r = GeneralEigen.eig("eig", x, true);
    return new EigResult(r[0], r[1]);
  }

  /** Eigenvalues only of each general real or complex matrix (..., M); see {@link #eig}. */
  public static NDArray eigvals(NDArray x) {
    return GeneralEigen.eig("eigvals", x, false)[0];
  }

  /** {@code svd(x)} with full matrices (the standard's default). */
  public static SvdResult svd(NDArray x) {
    return svd(x, SvdMode.FULL);
  }

  /**
   * Singular value decomposition of each matrix of {@code x} (..., M, N): U (..., M, M or K), S
   * (..., K) descending in the real dtype, Vh (..., N or K, N); K = min(M, N).
   */
  public static SvdResult svd(NDArray x, SvdMode mode) {
    String fn = "svd";
    MatrixStack st = MatrixStack.of(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int m = st.rows;
    int n = st.cols;
    int k = Math.min(m, n);
    Spectral.Job job = mode == SvdMode.FULL ? Spectral.Job.FULL : Spectral.Job.REDUCED;
    int uc = mode == SvdMode.FULL ? m : k;
    int vr = mode == SvdMode.FULL ? n : k;
    NDArray u = NDArray.zeros(dt, st.shapeWith(m, uc));
    NDArray s = NDArray.zeros(dt.realPart(), st.shapeWith(k));
    NDArray vh = NDArray.zeros(dt, st.shapeWith(vr, n));
    for (int b = 0; b < st.count; b++) {
      Spectral.Svd r = Spectral.svd(fn, st.where(b), st.get(b), m, n, st.complex, job);
      MatrixStack.write(u, b * m * uc, m * uc, r.u(), st.complex);
      MatrixStack.write(s, b * k, k, r.s(), false);
      MatrixStack.write(vh, b * vr * n, vr * n, r.vh(), st.complex);
    }
    return new SvdResult(u, s, vh);
  }

  /** Singular values (..., K), descending, real dtype of x's precision. */
  public static NDArray svdvals(NDArray x) {
    return svdvals("svdvals", x);
  }

  private static NDArray svdvals(String fn, NDArray x) {
    MatrixStack st = MatrixStack.of(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int k = Math.min(st.rows, st.cols);
    NDArray s = NDArray.zeros(dt.realPart(), st.shapeWith(k));
    for (int b = 0; b < st.count; b++) {
      Spectral.Svd r =
          Spectral.svd(
              fn, st.where(b), st.get(b), st.rows, st.cols, st.complex, Spectral.Job.VALUES);
      MatrixStack.write(s, b * k, k, r.s(), false);
    }
    return s;
  }

  // ------------------------------------------------------------------ LU-based

  /** Determinant of each matrix of {@code x} (..., M, M): shape (...), x's floating dtype. */
  public static NDArray det(NDArray x) {
    String fn = "det";
    MatrixStack st = MatrixStack.square(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    NDArray out = NDArray.zeros(dt, st.shapeWith());
    for (int b = 0; b < st.count; b++) {
      double[] d = LuKernel.det(LuKernel.factor(st.get(b), st.rows, st.complex));
      out.setComplex(b, d[0], d[1]);
    }
    return out;
  }

  /**
   * Sign (x's floating dtype; unit modulus for complex, 0 if singular) and natural log of |det|
   * (real dtype, -inf if singular) of each matrix of {@code x} (..., M, M).
   */
  public static SlogdetResult slogdet(NDArray x) {
    String fn = "slogdet";
    MatrixStack st = MatrixStack.square(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    NDArray sign = NDArray.zeros(dt, st.shapeWith());
    NDArray log = NDArray.zeros(dt.realPart(), st.shapeWith());
    for (int b = 0; b < st.count; b++) {
      double[] d = LuKernel.slogdet(LuKernel.factor(st.get(b), st.rows, st.complex));
      sign.setComplex(b, d[0], d[1]);
      log.setDouble(b, d[2]);
    }
    return new SlogdetResult(sign, log);
  }

  /**
   * Inverse of each matrix of {@code x} (..., M, M).
   *
   * @throws LinAlgException naming the matrix if one is singular
   */
  public static NDArray inv(NDArray x) {
    String fn = "inv";
    MatrixStack st = MatrixStack.square(fn, x);
    DType dt = MatrixStack.floating(fn, x.dtype());
    int n = st.rows;
    NDArray out = NDArray.zeros(dt, x.shape());
    for (int b = 0; b < st.count; b++) {
      LuKernel.Factor f = LuKernel.factor(st.get(b), n, st.complex);
      if (f.zeroPivot() >= 0) {
        throw new LinAlgException(fn + ": singular matrix" + st.where(b));
      }
      MatrixStack.write(out, b * n * n, n * n, LuKernel.inverse(f), st.complex);
    }
    return out;
  }

  /**
   * Solves x1 @ X = x2. {@code x1} is (..., M, M). If {@code x2} is 1-D (M,) it is one right-hand
   * side vector for every matrix and the result is (..., M); otherwise x2 is (..., M, K), the batch
   * dimensions broadcast against x1's and the result is (broadcast..., M, K). Result dtype: the
   * promoted floating dtype of x1 and x2.
   *
   * @throws LinAlgException naming the matrix if one is singular
   */
  public static NDArray solve(NDArray x1, NDArray x2) {
    return MatrixOps.solve(x1, x2);
  }

  /**
   * {@code x} to the integer power {@code n} for each square matrix (..., M, M): n = 0 gives the
   * identity, n &lt; 0 the power of the inverse. Floating dtypes keep their dtype; integer dtypes
   * (beyond the standard, as NumPy) multiply exactly with wraparound for n &ge; 0 and are promoted
   * to float64 for n &lt; 0.
   *
   * @throws LinAlgException if n &lt; 0 and a matrix is singular
   */
  public static NDArray matrixPower(NDArray x, int n) {
    return MatrixOps.matrixPower(x, n);
  }

  // ------------------------------------------------------------------ SVD-based

  /** {@code matrix_rank(x)} with the default rtol max(M, N) * eps. */
  public static NDArray matrixRank(NDArray x) {
    return matrixRank(x, Double.NaN);
  }

  /**
   * Number of singular values of each matrix (..., M, N) greater than {@code rtol * max(S)}; a NaN
   * rtol means the default max(M, N) * eps of x's floating dtype. Result int64, shape (...).
   */
  public static NDArray matrixRank(NDArray x, double rtol) {
    return matrixRankImpl(x, MatrixOps.rtols("matrix_rank", x, rtol, null));
  }

  /**
   * {@code matrix_rank} with a per-matrix relative tolerance: {@code rtol} is a real array that
   * broadcasts against the batch shape (...) of x.
   */
  public static NDArray matrixRank(NDArray x, NDArray rtol) {
    return matrixRankImpl(x, MatrixOps.rtols("matrix_rank", x, Double.NaN, rtol));
  }

  private static NDArray matrixRankImpl(NDArray x, double[] tol) {
    String fn = "matrix_rank";
    NDArray s = svdvals(fn, x);
    MatrixStack st = MatrixStack.of(fn, x);
    int k = Math.min(st.rows, st.cols);
    NDArray out = NDArray.zeros(DType.INT64, st.shapeWith());
    for (int b = 0; b < st.count; b++) {
      double max = k == 0 ? 0 : s.getDouble(b * k);
      long cnt = 0;
      for (int i = 0; i < k; i++) {
        if (s.getDouble(b * k + i) > tol[b] * max) {
          cnt++;
        }
      }
      out.setLong(b, cnt);
    }
    return out;
  }

  /** {@code pinv(x)} with the default rtol max(M, N) * eps. */
  public static NDArray pinv(NDArray x) {
    return pinv(x, Double.NaN);
  }

  /**
   * Moore-Penrose pseudo-inverse of each matrix (..., M, N), shape (..., N, M): singular values at
   * or below {@code rtol * max(S)} count as zero (NaN rtol: max(M, N) * eps).
   */
  public static NDArray pinv(NDArray x, double rtol) {
    return MatrixOps.pinv(x, MatrixOps.rtols("pinv", x, rtol, null));
  }

  /**
   * {@code pinv} with a per-matrix relative tolerance: {@code rtol} is a real array that broadcasts
   * against the batch shape (...) of x.
   */
  public static NDArray pinv(NDArray x, NDArray rtol) {
    return MatrixOps.pinv(x, MatrixOps.rtols("pinv", x, Double.NaN, rtol));
  }

  // ------------------------------------------------------------------ norms

  /** {@code matrix_norm(x)}: Frobenius norm, reduced dimensions dropped. */
  public static NDArray matrixNorm(NDArray x) {
    return matrixNorm(x, MatrixNormOrder.FRO, KeepDims.DROP);
  }

  /**
   * Norm of each matrix (..., M, N): shape (...) or (..., 1, 1) with {@link KeepDims#KEEP}; real
   * floating dtype of x's precision.
   */
  public static NDArray matrixNorm(NDArray x, MatrixNormOrder ord, KeepDims keepdims) {
    return Norms.matrixNorm(x, ord, keepdims);
  }

  /** {@code vector_norm(x)}: 2-norm over all elements. */
  public static NDArray vectorNorm(NDArray x) {
    return vectorNorm(x, Axes.all(), 2);
  }

  /**
   * p-norm over {@code axes} (with its keepdims) for any real {@code ord}: inf is max |x|, -inf min
   * |x|, 0 the count of non-zeros, otherwise (sum |x|^ord)^(1/ord). Real floating dtype of x's
   * precision (integers give float64).
   *
   * @throws IllegalArgumentException for NaN ord, bad axes, or inf/-inf over an empty reduction
   */
  public static NDArray vectorNorm(NDArray x, Axes axes, double ord) {
    return Norms.vectorNorm(x, axes, ord);
  }

  // ------------------------------------------------------------------ elementwise-ish

  /** {@code trace(x)}: main diagonal, default dtype. */
  public static NDArray trace(NDArray x) {
    return trace(x, 0, null);
  }

  /**
   * Sum along the diagonal at {@code offset} of each matrix (..., M, N), shape (...). {@code dtype}
   * null means x's dtype, except that integers narrower than 64 bits widen to int64 (signed) or
   * uint64 (unsigned); otherwise x is cast to dtype before summing. Numeric dtypes only.
   */
  public static NDArray trace(NDArray x, int offset, DType dtype) {
    return MatrixOps.trace(x, offset, dtype);
  }

  /** {@code diagonal(x)}: the main diagonal. */
  public static NDArray diagonal(NDArray x) {
    return diagonal(x, 0);
  }

  /**
   * The diagonal at {@code offset} (positive: above the main one) of each matrix (..., M, N), shape
   * (..., L); any dtype.
   */
  public static NDArray diagonal(NDArray x, int offset) {
    return MatrixOps.diagonal(x, offset);
  }

  /** {@code cross(x1, x2)} along the last axis. */
  public static NDArray cross(NDArray x1, NDArray x2) {
    return cross(x1, x2, -1);
  }

  /**
   * Cross product of 3-element vectors along {@code axis} (negative, in [-N, -1] with N the smaller
   * rank; non-negative only when both ranks are equal); the other dimensions broadcast. Numeric
   * dtypes, result the promoted dtype (integers wrap).
   */
  public static NDArray cross(NDArray x1, NDArray x2, int axis) {
    return MatrixOps.cross(x1, x2, axis);
  }

  // ------------------------------------------------------------------ products

  /**
   * Which BLAS the float32/float64 matmul uses, e.g. {@code "BLAS implementation
   * dev.ludovic.netlib.blas.JNIBLAS (native /usr/lib/x86_64-linux-gnu/libopenblas.so.0), OpenBLAS
   * selected automatically"}; a pure-Java implementation when no native BLAS loaded.
   */
  public static String blasImplementation() {
    return Products.blasImplementation();
  }

  /**
   * The matrix product with NumPy/standard rules: a 1-d {@code x1} is a row vector and a 1-d {@code
   * x2} a column vector (the added dimension is removed from the result); for ndim &gt; 2 the
   * leading (batch) dimensions broadcast. Result shape {@code broadcast(batch1, batch2) + (m, n)}.
   *
   * @throws IllegalArgumentException for a 0-d or bool operand, misaligned inner dimensions or
   *     batch dimensions that do not broadcast
   */
  public static NDArray matmul(NDArray x1, NDArray x2) {
    return Products.matmul(x1, x2);
  }

  /**
   * {@code acc + x1 @ x2} for 2-D operands, the running sum of a chunked contraction. When the
   * product's dtype is float64 or float32 and {@code acc} already has that dtype and the product's
   * shape (m, n), the product is added into {@code acc}'s own storage by one BLAS call ({@code C =
   * A B + C}: no product array, no separate add) and {@code acc} itself is returned; otherwise the
   * result is {@code add(acc, matmul(x1, x2))}, a new array. The caller must own {@code acc}: it
   * may be overwritten. Sums agree with the two-step form to rounding (BLAS adds its partial dot
   * products into C as it goes).
   *
   * @throws IllegalArgumentException as {@link #matmul(NDArray, NDArray)}, or if {@code acc} does
   *     not broadcast with the product
   */
  public static NDArray matmulAccumulate(NDArray acc, NDArray x1, NDArray x2) {
    return Products.matmulAccumulate(acc, x1, x2);
  }

  /**
   * {@code tensordot(x1, x2, axes=n)}: contracts the last {@code n} axes of {@code x1} with the
   * first {@code n} of {@code x2}; result shape is the free axes of x1 then those of x2.
   *
   * @throws IllegalArgumentException if n is negative or exceeds either ndim, or a contracted pair
   *     of dimensions differs (contracted axes do not broadcast)
   */
  public static NDArray tensordot(NDArray x1, NDArray x2, int n) {
    return Products.tensordot(x1, x2, n);
  }

  /**
   * {@code tensordot(x1, x2, axes=(axes1, axes2))}: contracts axis {@code axes1[i]} of x1 with axis
   * {@code axes2[i]} of x2 (negative axes count from the end). The result has the remaining axes of
   * x1 in order, then those of x2.
   *
   * @throws IllegalArgumentException if the lists differ in length, repeat or exceed axes, or a
   *     contracted pair of dimensions differs
   */
  public static NDArray tensordot(NDArray x1, NDArray x2, int[] axes1, int[] axes2) {
    return Products.tensordot(x1, x2, axes1, axes2);
  }

  /** {@code vecdot(x1, x2, axis=-1)}. */
  public static NDArray vecdot(NDArray x1, NDArray x2) {
    return Products.vecdot(x1, x2);
  }

  /**
   * The dot product {@code sum(conj(x1) * x2)} along {@code axis} of the broadcast operands (x1 is
   * conjugated for complex dtypes). {@code axis} refers to the broadcast shape; the two operands
   * must have the same size along it (that dimension does not broadcast). The result has the
   * broadcast shape without that axis and the promoted dtype.
   *
   * @throws IllegalArgumentException for bool or 0-d operands, shapes that do not broadcast, an
   *     out-of-range axis or different sizes along it
   */
  public static NDArray vecdot(NDArray x1, NDArray x2, int axis) {
    return Products.vecdot(x1, x2, axis);
  }

  /**
   * Swaps the last two axes (a copy); defined for every dtype.
   *
   * @throws IllegalArgumentException if {@code x} has fewer than two dimensions
   */
  public static NDArray matrixTranspose(NDArray x) {
    return Products.matrixTranspose(x);
  }

  /**
   * {@code linalg.outer}: {@code out[i, j] = x1[i] * x2[j]} for 1-d operands, promoted dtype.
   *
   * @throws IllegalArgumentException unless both operands are 1-d and numeric
   */
  public static NDArray outer(NDArray x1, NDArray x2) {
    return Products.outer(x1, x2);
  }
}
