package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Diagonal;
import dev.cubed.core.StackMap;
import dev.cubed.core.Tsqr;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.linalg.Linalg;
import java.util.Arrays;

/**
 * The Array API {@code linalg} extension on chunked arrays ({@code xp.linalg.qr(x)} is {@code
 * XpLinalg.qr(x)}; matmul, tensordot, vecdot and matrix_transpose are on {@link Xp}).
 *
 * <p>Memory, by family:
 *
 * <ul>
 *   <li>{@code qr}, {@code svd}, {@code svdvals} of a 2-D array: tall-and-skinny (TSQR, see {@link
 *       Tsqr}): row blocks of whole rows are factored one per task and the stacked R factors in one
 *       task; both must fit (refused when built, naming the function and sizes). Stacks of matrices
 *       (3-D and more) are factored one whole matrix at a time, as below.
 *   <li>The square-matrix functions ({@code cholesky}, {@code det}, {@code inv}, {@code solve},
 *       {@code eigh}, {@code eigvalsh}, {@code eig}, {@code eigvals}, {@code slogdet}, {@code
 *       pinv}, {@code matrix_power}, {@code matrix_rank}, {@code matrix_norm} with ord 2, -2 or
 *       nuc): x is rechunked so that each matrix (the last two axes) is in one block, as many
 *       matrices per block as fit, and the kernel runs per block ({@link StackMap}); when one
 *       matrix does not fit a task the call is refused naming the function and the matrix size.
 *   <li>{@code vector_norm}, {@code matrix_norm} (fro, 1, -1, inf, -inf), {@code trace}: blockwise
 *       magnitudes and the reduction trees of {@link Xp}.
 *   <li>{@code diagonal}: each output block reads only the blocks its stretch of the diagonal
 *       crosses ({@link Diagonal}); {@code outer}: a broadcast multiply; {@code cross}: the axis of
 *       length 3 is made one chunk, then blockwise.
 * </ul>
 *
 * Errors as the kernel's ({@link Linalg}): argument errors when built; a singular or not positive
 * definite matrix fails the task that meets it (the kernel's {@link Linalg.LinAlgException}).
 */
public final class XpLinalg {
  private XpLinalg() {}

  /** QR mode: reduced (Q (M, K), R (K, N)) or R only; complete is not chunked. */
  public enum QrMode {
    REDUCED,
    R,
    COMPLETE
  }

  /** {@code eigh} result: ascending eigenvalues (..., M), eigenvectors as columns (..., M, M). */
  public record Eigh(CubedArray eigenvalues, CubedArray eigenvectors) {}

  /** {@code qr} result; {@code Q} is null for mode R. */
  public record Qr(CubedArray Q, CubedArray R) {}

  /** {@code eig} result: complex eigenvalues (..., M), unit eigenvectors as columns. */
  public record Eig(CubedArray eigenvalues, CubedArray eigenvectors) {}

  /** {@code slogdet} result: det = sign * exp(logabsdet). */
  public record Slogdet(CubedArray sign, CubedArray logabsdet) {}

  /** {@code svd} result (reduced): x = U diag(S) Vh. */
  public record Svd(CubedArray U, CubedArray S, CubedArray Vh) {}

  // ------------------------------------------------------------------ square-matrix functions

  /** {@code cholesky(x)}: lower factors of Hermitian positive-definite matrices (..., M, M). */
  public static CubedArray cholesky(CubedArray x) {
    return cholesky(x, Linalg.Triangle.LOWER);
  }

  /** {@code cholesky(x, upper=...)}: {@link Linalg.Triangle#UPPER} gives U = L^H. */
  public static CubedArray cholesky(CubedArray x, Linalg.Triangle t) {
    XpNorms.stack("cholesky", x, true);
    DType out = Linalg.cholesky(XpNorms.sample(x, true), t).dtype();
    return XpNorms.perMatrix(
        "cholesky",
        x,
        out,
        new long[] {XpNorms.n(x), XpNorms.n(x)},
        3,
        b -> Linalg.cholesky(b[0], t));
  }

  /** {@code det(x)}: determinants (...), x's floating dtype. */
  public static CubedArray det(CubedArray x) {
    XpNorms.stack("det", x, true);
    DType out = Linalg.det(XpNorms.sample(x, true)).dtype();
    return XpNorms.perMatrix("det", x, out, new long[0], 3, b -> Linalg.det(b[0]));
  }

  /** {@code slogdet(x)}: sign and log|det| (two ops reading the same rechunked x). */
  public static Slogdet slogdet(CubedArray x) {
    XpNorms.stack("slogdet", x, true);
    Linalg.SlogdetResult s = Linalg.slogdet(XpNorms.sample(x, true));
    return new Slogdet(
        XpNorms.perMatrix(
            "slogdet", x, s.sign().dtype(), new long[0], 3, b -> Linalg.slogdet(b[0]).sign()),
        XpNorms.perMatrix(
            "slogdet",
            x,
            s.logabsdet().dtype(),
            new long[0],
            3,
            b -> Linalg.slogdet(b[0]).logabsdet()));
  }

  /** {@code inv(x)}: inverses (..., M, M). */
  public static CubedArray inv(CubedArray x) {
    XpNorms.stack("inv", x, true);
    DType out = Linalg.inv(XpNorms.sample(x, true)).dtype();
    return XpNorms.perMatrix(
        "inv", x, out, new long[] {XpNorms.n(x), XpNorms.n(x)}, 4, b -> Linalg.inv(b[0]));
  }

  /**
   * {@code solve(x1, x2)}: X with x1 @ X = x2; x1 (..., M, M); x2 (M,) (one vector for every
   * matrix, result (..., M)) or (..., M, K) with batch axes broadcasting against x1's.
   */
  public static CubedArray solve(CubedArray x1, CubedArray x2) {
    String fn = "solve";
    XpNorms.stack(fn, x1, true);
    long m = XpNorms.n(x1);
    long[] s2 = x2.shape();
    boolean vector = x2.ndim() == 1;
    DType out =
        Linalg.solve(
                NDArray.zeros(x1.dtype(), emptySample(x1.shape(), s2)),
                vector
                    ? NDArray.zeros(x2.dtype(), s2.clone())
                    : NDArray.zeros(x2.dtype(), emptySample(s2, x1.shape())))
            .dtype();
    long[] b1 = XpNorms.batch(x1);
    long[] b = vector ? b1 : Shapes.broadcast(fn, b1, Arrays.copyOf(s2, s2.length - 2));
    long k = vector ? 1 : s2[s2.length - 1];
    CubedArray a = XpManip.broadcastTo(x1, XpNorms.cat(b, m, m));
    CubedArray rhs =
        vector
            ? XpManip.broadcastTo(x2, XpNorms.cat(b, m))
            : XpManip.broadcastTo(x2, XpNorms.cat(b, m, k));
    long[] core = vector ? new long[] {m} : new long[] {m, k};
    return XpNorms.perMatrix(
        fn,
        a,
        out,
        core,
        4,
        blk -> {
          if (!vector) {
            return Linalg.solve(blk[0], blk[1]);
          }
          long[] rs = blk[1].shape();
          NDArray col = blk[1].reshape(XpNorms.cat(Arrays.copyOf(rs, rs.length - 1), m, 1));
          return Linalg.solve(blk[0], col).reshape(rs);
        },
        rhs);
  }

  /**
   * A shape for checking arguments on the kernel without allocating: {@code s} with its batch axes
   * padded to the other's batch rank and a leading 0 (so that it holds nothing).
   */
  private static long[] emptySample(long[] s, long[] other) {
    if (s.length < 2) {
      return s.clone();
    }
    int nb = Math.max(s.length, other.length) - 2;
    long[] r = new long[nb + 3];
    Arrays.fill(r, 1);
    r[0] = 0;
    System.arraycopy(s, 0, r, r.length - s.length, s.length);
    return r;
  }

  /** {@code eigh(x)}: eigenvalues and eigenvectors of Hermitian matrices (two ops). */
  public static Eigh eigh(CubedArray x) {
    XpNorms.stack("eigh", x, true);
    Linalg.EighResult e = Linalg.eigh(XpNorms.sample(x, true));
    return new Eigh(
        XpNorms.perMatrix(
            "eigh",
            x,
            e.eigenvalues().dtype(),
            new long[] {XpNorms.n(x)},
            6,
            b -> Linalg.eigh(b[0]).eigenvalues()),
        XpNorms.perMatrix(
            "eigh",
            x,
            e.eigenvectors().dtype(),
            new long[] {XpNorms.n(x), XpNorms.n(x)},
            6,
            b -> Linalg.eigh(b[0]).eigenvectors()));
  }

  /** {@code eigvalsh(x)}: ascending eigenvalues (..., M), real dtype. */
  public static CubedArray eigvalsh(CubedArray x) {
    XpNorms.stack("eigvalsh", x, true);
    DType out = Linalg.eigvalsh(XpNorms.sample(x, true)).dtype();
    return XpNorms.perMatrix(
        "eigvalsh", x, out, new long[] {XpNorms.n(x)}, 6, b -> Linalg.eigvalsh(b[0]));
  }

  /** {@code pinv(x)} with the default rtol. */
  public static CubedArray pinv(CubedArray x) {
    return pinv(x, Double.NaN);
  }

  /** {@code pinv(x, rtol)}: pseudo-inverses (..., N, M); NaN rtol is the default. */
  public static CubedArray pinv(CubedArray x, double rtol) {
    XpNorms.stack("pinv", x, false);
    long[] s = x.shape();
    DType out = Linalg.pinv(XpNorms.sample(x, false), rtol).dtype();
    return XpNorms.perMatrix(
        "pinv",
        x,
        out,
        new long[] {s[s.length - 1], s[s.length - 2]},
        8,
        b -> Linalg.pinv(b[0], rtol));
  }

  /** {@code matrix_power(x, n)} of square matrices (integers stay exact for n at least 0). */
  public static CubedArray matrixPower(CubedArray x, int n) {
    XpNorms.stack("matrix_power", x, true);
    DType out = Linalg.matrixPower(XpNorms.sample(x, true), n).dtype();
    return XpNorms.perMatrix(
        "matrix_power",
        x,
        out,
        new long[] {XpNorms.n(x), XpNorms.n(x)},
        4,
        b -> Linalg.matrixPower(b[0], n));
  }

  /** {@code matrix_rank(x)} with the default rtol. */
  public static CubedArray matrixRank(CubedArray x) {
    return matrixRank(x, Double.NaN);
  }

  /** {@code matrix_rank(x, rtol)}: int64 ranks (...); NaN rtol is the default. */
  public static CubedArray matrixRank(CubedArray x, double rtol) {
    XpNorms.stack("matrix_rank", x, false);
    Linalg.matrixRank(XpNorms.sample(x, false), rtol);
    return XpNorms.perMatrix(
        "matrix_rank", x, DType.INT64, new long[0], 6, b -> Linalg.matrixRank(b[0], rtol));
  }

  /**
   * {@code eig(x)}: complex eigenvalues (..., M) and unit right eigenvectors (..., M, M) of general
   * real or complex matrices, in the kernel's order; two ops reading the same rechunked x.
   */
  public static Eig eig(CubedArray x) {
    XpNorms.stack("eig", x, true);
    Linalg.EigResult e = Linalg.eig(XpNorms.sample(x, true));
    return new Eig(
        XpNorms.perMatrix(
            "eig",
            x,
            e.eigenvalues().dtype(),
            new long[] {XpNorms.n(x)},
            8,
            b -> Linalg.eig(b[0]).eigenvalues()),
        XpNorms.perMatrix(
            "eig",
            x,
            e.eigenvectors().dtype(),
            new long[] {XpNorms.n(x), XpNorms.n(x)},
            8,
            b -> Linalg.eig(b[0]).eigenvectors()));
  }

  /** {@code eigvals(x)}: complex eigenvalues (..., M) of general real or complex matrices. */
  public static CubedArray eigvals(CubedArray x) {
    XpNorms.stack("eigvals", x, true);
    DType out = Linalg.eigvals(XpNorms.sample(x, true)).dtype();
    return XpNorms.perMatrix(
        "eigvals", x, out, new long[] {XpNorms.n(x)}, 6, b -> Linalg.eigvals(b[0]));
  }

  // ------------------------------------------------------------------ QR and SVD

  /** {@code qr(x)} in reduced mode. */
  public static Qr qr(CubedArray x) {
    return qr(x, QrMode.REDUCED);
  }

  /**
   * {@code qr(x, mode)}: in modes reduced and r a 2-D x is factored tall-and-skinny (TSQR; its
   * columns must fit a task), stacks of matrices one whole matrix at a time. Mode complete (Q of M
   * x M, R of M x N) factors one whole matrix per task, 2-D or stacked: Q grows with M squared, so
   * a matrix whose complete factors do not fit a task is refused when built, naming its size. R's
   * diagonal signs may differ from the kernel's on the same data in TSQR (QR is unique up to them).
   *
   * @throws IllegalArgumentException if x has fewer than 2 dimensions, or one matrix's complete
   *     factors do not fit allowedMem
   */
  public static Qr qr(CubedArray x, QrMode mode) {
    String fn = "qr";
    if (mode == QrMode.COMPLETE) {
      XpNorms.stack(fn, x, false);
      DType out = Linalg.qr(XpNorms.sample(x, false), Linalg.QrMode.COMPLETE).R().dtype();
      long[] s = x.shape();
      long m = s[s.length - 2];
      long n = Math.max(1, s[s.length - 1]);
      // the kernel's doubles per element of one M x N matrix: the copy it factors, tau and R,
      // and Q of M x M (M/N matrices of M x N) with its Householder workspace
      int work = (int) Math.min(1 << 20, 4 + 2 * ((m + n - 1) / n));
      Linalg.QrMode c = Linalg.QrMode.COMPLETE;
      CubedArray q =
          XpNorms.perMatrix(fn, x, out, new long[] {m, m}, work, b -> Linalg.qr(b[0], c).Q());
      CubedArray r =
          XpNorms.perMatrix(
              fn, x, out, new long[] {m, s[s.length - 1]}, work, b -> Linalg.qr(b[0], c).R());
      return new Qr(q, r);
    }
    XpNorms.stack(fn, x, false);
    DType out = Linalg.qr(XpNorms.sample(x, false)).R().dtype();
    long[] s = x.shape();
    long m = s[s.length - 2];
    long n = s[s.length - 1];
    long k = Math.min(m, n);
    if (x.ndim() == 2) {
      Tsqr.Factors f = Tsqr.qr(fn, x.node(), out, XpNorms.budgetOf(x), mode == QrMode.REDUCED);
      return new Qr(f.q() == null ? null : XpBlocks.wrap(f.q(), x), XpBlocks.wrap(f.r(), x));
    }
    CubedArray r = XpNorms.perMatrix(fn, x, out, new long[] {k, n}, 6, b -> Linalg.qr(b[0]).R());
    CubedArray q =
        mode == QrMode.R
            ? null
            : XpNorms.perMatrix(fn, x, out, new long[] {m, k}, 6, b -> Linalg.qr(b[0]).Q());
    return new Qr(q, r);
  }

  /**
   * {@code svd(x)} with reduced matrices (full_matrices=False): a 2-D x through TSQR, then the SVD
   * of R in one task and U = Q @ U_R; stacks of matrices one whole matrix at a time. Singular
   * vectors are unique up to phase.
   */
  public static Svd svd(CubedArray x) {
    String fn = "svd";
    XpNorms.stack(fn, x, false);
    Linalg.SvdResult smp = Linalg.svd(XpNorms.sample(x, false), Linalg.SvdMode.REDUCED);
    long[] s = x.shape();
    long m = s[s.length - 2];
    long n = s[s.length - 1];
    long k = Math.min(m, n);
    if (x.ndim() > 2) {
      Linalg.SvdMode red = Linalg.SvdMode.REDUCED;
      return new Svd(
          XpNorms.perMatrix(
              fn, x, smp.U().dtype(), new long[] {m, k}, 8, b -> Linalg.svd(b[0], red).U()),
          XpNorms.perMatrix(
              fn, x, smp.S().dtype(), new long[] {k}, 8, b -> Linalg.svd(b[0], red).S()),
          XpNorms.perMatrix(
              fn, x, smp.Vh().dtype(), new long[] {k, n}, 8, b -> Linalg.svd(b[0], red).Vh()));
    }
    Tsqr.Factors f = Tsqr.qr(fn, x.node(), smp.U().dtype(), XpNorms.budgetOf(x), true);
    CubedArray r = XpBlocks.wrap(f.r(), x);
    CubedArray ur =
        XpNorms.perMatrix(
            fn,
            r,
            smp.U().dtype(),
            new long[] {k, k},
            8,
            b -> Linalg.svd(b[0], Linalg.SvdMode.REDUCED).U());
    CubedArray sv =
        XpNorms.perMatrix(
            fn,
            r,
            smp.S().dtype(),
            new long[] {k},
            8,
            b -> Linalg.svd(b[0], Linalg.SvdMode.REDUCED).S());
    CubedArray vh =
        XpNorms.perMatrix(
            fn,
            r,
            smp.Vh().dtype(),
            new long[] {k, n},
            8,
            b -> Linalg.svd(b[0], Linalg.SvdMode.REDUCED).Vh());
    CubedArray u = k == 0 ? XpBlocks.wrap(f.q(), x) : XpManip.matmul(XpBlocks.wrap(f.q(), x), ur);
    return new Svd(u, sv, vh);
  }

  /** {@code svdvals(x)}: singular values (..., K) descending; 2-D through TSQR. */
  public static CubedArray svdvals(CubedArray x) {
    String fn = "svdvals";
    XpNorms.stack(fn, x, false);
    DType out = Linalg.svdvals(XpNorms.sample(x, false)).dtype();
    long[] s = x.shape();
    long k = Math.min(s[s.length - 2], s[s.length - 1]);
    CubedArray src = x;
    if (x.ndim() == 2) {
      DType fl = Linalg.qr(XpNorms.sample(x, false)).R().dtype();
      src = XpBlocks.wrap(Tsqr.qr(fn, x.node(), fl, XpNorms.budgetOf(x), false).r(), x);
    }
    return XpNorms.perMatrix(fn, src, out, new long[] {k}, 6, b -> Linalg.svdvals(b[0]));
  }

  // ------------------------------------------------------------------ structure

  /** {@code diagonal(x)}: the main diagonals. */
  public static CubedArray diagonal(CubedArray x) {
    return diagonal(x, 0);
  }

  /** {@code diagonal(x, offset)}: diagonals at offset (positive: above the main one), (..., L). */
  public static CubedArray diagonal(CubedArray x, long offset) {
    return XpBlocks.wrap(Diagonal.diagonal(x.node(), offset), x);
  }

  /** {@code trace(x)} of the main diagonal, default dtype. */
  public static CubedArray trace(CubedArray x) {
    return trace(x, 0, null);
  }

  /**
   * {@code trace(x, offset, dtype)}: sums of the diagonals (...). A null dtype is x's, with signed
   * integers widened to int64 and unsigned to uint64; numeric dtypes only.
   */
  public static CubedArray trace(CubedArray x, long offset, DType dtype) {
    XpNorms.stack("trace", x, false);
    DType rt = Linalg.trace(XpNorms.sample(x, false), 0, dtype).dtype();
    CubedArray d = diagonal(x, offset);
    CubedArray cast = d.dtype() == rt ? d : XpUnary.astype(d, rt);
    CubedArray s = XpReduce.sum(cast, x.ndim() - 2);
    return s.dtype() == rt ? s : XpUnary.astype(s, rt);
  }

  /**
   * {@code outer(x1, x2)}: (M, N) products of 1-d operands, promoted dtype: the broadcast
   * elementwise product of an (M, 1) and a (1, N) view, so each element is one multiplication (a
   * matmul would add it to +0.0 and lose the sign of -0.0 products).
   */
  public static CubedArray outer(CubedArray x1, CubedArray x2) {
    Linalg.outer(NDArray.ones(x1.dtype(), 1), NDArray.ones(x2.dtype(), 1));
    if (x1.ndim() != 1 || x2.ndim() != 1) {
      throw new IllegalArgumentException(
          "outer: operands must be 1-d, got shapes "
              + XpBlocks.shapeOf(x1)
              + " and "
              + XpBlocks.shapeOf(x2));
    }
    return XpBinary.MULTIPLY.apply(XpManip.expandDims(x1, 1), XpManip.expandDims(x2, 0));
  }

  /** {@code cross(x1, x2)} along the last axis. */
  public static CubedArray cross(CubedArray x1, CubedArray x2) {
    return cross(x1, x2, -1);
  }

  /**
   * {@code cross(x1, x2, axis)}: 3-element cross products; the axis is made one chunk (3 values),
   * the rest broadcast blockwise.
   */
  public static CubedArray cross(CubedArray x1, CubedArray x2, int axis) {
    String fn = "cross";
    long[] s1 = x1.shape();
    long[] s2 = x2.shape();
    NDArray k1 = NDArray.ones(x1.dtype(), probe(s1));
    NDArray k2 = NDArray.ones(x2.dtype(), probe(s2));
    DType out = Linalg.cross(k1, k2, axis).dtype();
    Shapes.broadcast(fn, s1, s2);
    int a1 = axis < 0 ? s1.length + axis : axis;
    int a2 = axis < 0 ? s2.length + axis : axis;
    CubedArray r1 = XpBlocks.rechunk(x1, whole(x1, a1));
    CubedArray r2 = XpBlocks.rechunk(x2, whole(x2, a2));
    return XpBlocks.wrap(
        Core.elemwise(fn, b -> Linalg.cross(b[0], b[1], axis), out, r1.node(), r2.node()), x1);
  }

  private static long[] probe(long[] s) {
    long[] p = new long[s.length];
    for (int d = 0; d < s.length; d++) {
      p[d] = s[d] == 3 ? 3 : Math.min(s[d], 1);
    }
    return p;
  }

  private static long[] whole(CubedArray x, int axis) {
    long[] c = x.chunkShape();
    c[axis] = -1;
    return c;
  }

  // ------------------------------------------------------------------ norms

  /** {@code vector_norm(x)}: the 2-norm over all elements. */
  public static CubedArray vectorNorm(CubedArray x) {
    return XpNorms.vectorNorm(x);
  }

  /**
   * {@code vector_norm(x, axis, keepdims, ord)} (the axes and keepdims as an {@link Axes}): inf is
   * max |x|, -inf min |x|, 0 the count of non-zeros, otherwise (sum |x|^ord)^(1/ord); the real
   * floating dtype of x's precision (integers give float64). Memory: blockwise magnitudes in
   * float64, then the reduction tree (sum, max or min) of {@link Xp}. Unlike the kernel, ord 2 is
   * not rescaled: sums of squares beyond about 1e308 overflow to inf.
   *
   * @throws IllegalArgumentException as the kernel: bool, NaN ord, bad axes, inf/-inf over an empty
   *     reduction
   */
  public static CubedArray vectorNorm(CubedArray x, Axes axes, double ord) {
    return XpNorms.vectorNorm(x, axes, ord);
  }

  /** {@code matrix_norm(x)}: Frobenius norms, reduced axes dropped. */
  public static CubedArray matrixNorm(CubedArray x) {
    return XpNorms.matrixNorm(x);
  }

  /**
   * {@code matrix_norm(x, ord, keepdims)} of each matrix (..., M, N): shape (...) or (..., 1, 1).
   * fro, 1, -1, inf and -inf are reductions (blockwise magnitudes, sum and max/min trees: any
   * matrix size); 2, -2 and nuc need the singular values, so each matrix must fit one task (refused
   * when built otherwise, naming matrix_norm and the matrix size).
   *
   * @throws IllegalArgumentException as the kernel (bool, fewer than 2 dimensions, an order other
   *     than fro/nuc on empty matrices)
   */
  public static CubedArray matrixNorm(
      CubedArray x, Linalg.MatrixNormOrder ord, Linalg.KeepDims kd) {
    return XpNorms.matrixNorm(x, ord, kd);
  }
}
