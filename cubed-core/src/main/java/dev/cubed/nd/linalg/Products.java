package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import java.util.Arrays;

/**
 * The products behind {@link Linalg}'s {@code matmul}, {@code tensordot}, {@code vecdot}, {@code
 * matrix_transpose} and {@code outer} (the standard's linear algebra functions of the main
 * namespace, also in its {@code linalg} extension), for in-memory arrays.
 *
 * <p>All products need numeric dtypes (bool is rejected) and return the promoted dtype ({@link
 * DType#resultType(DType, DType)}). float64/float32 products run on BLAS dgemm/sgemm (see {@code
 * Blas} for how the native OpenBLAS is selected); integer products wrap on overflow like NumPy's;
 * complex64 products are computed in complex128 and rounded once.
 *
 * <p>Errors are {@link IllegalArgumentException}s naming the function and the shapes or dtypes.
 */
final class Products {
  private Products() {}

  /** {@link Linalg#blasImplementation}. */
  static String blasImplementation() {
    return Blas.describe();
  }

  /** {@link Linalg#matmul}. */
  static NDArray matmul(NDArray x1, NDArray x2) {
    String f = "matmul";
    DType dt = numericResult(f, x1, x2);
    if (x1.ndim() == 0 || x2.ndim() == 0) {
      throw new IllegalArgumentException(
          f
              + ": operands must have at least one dimension, got shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape()));
    }
    long[] s1 = x1.shape();
    long[] s2 = x2.shape();
    boolean vec1 = s1.length == 1;
    boolean vec2 = s2.length == 1;
    long[] a = vec1 ? new long[] {1, s1[0]} : s1;
    long[] b = vec2 ? new long[] {s2[0], 1} : s2;
    int ka = a.length - 1;
    int kb = b.length - 2;
    if (a[ka] != b[kb]) {
      throw new IllegalArgumentException(
          f
              + ": shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2)
              + " are not aligned: dimension "
              + (s1.length - 1)
              + " of x1 ("
              + a[ka]
              + ") != dimension "
              + (vec2 ? 0 : s2.length - 2)
              + " of x2 ("
              + b[kb]
              + ")");
    }
    long[] batch1 = Arrays.copyOf(a, a.length - 2);
    long[] batch2 = Arrays.copyOf(b, b.length - 2);
    long[] batch;
    try {
      batch = Shapes.broadcast(f, batch1, batch2);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          f
              + ": batch dimensions "
              + Shapes.format(batch1)
              + " and "
              + Shapes.format(batch2)
              + " of shapes "
              + Shapes.format(s1)
              + " and "
              + Shapes.format(s2)
              + " do not broadcast",
          e);
    }
    int m = (int) a[a.length - 2];
    int k = (int) a[ka];
    int n = (int) b[b.length - 1];
    long[] outShape = Arrays.copyOf(batch, batch.length + 2);
    outShape[batch.length] = m;
    outShape[batch.length + 1] = n;
    NDArray out = batchedProduct(dt, x1, batch1, x2, batch2, batch, m, k, n, outShape);
    if (vec1 || vec2) {
      long[] finalShape = new long[batch.length + (vec1 ? 0 : 1) + (vec2 ? 0 : 1)];
      System.arraycopy(batch, 0, finalShape, 0, batch.length);
      int p = batch.length;
      if (!vec1) {
        finalShape[p++] = m;
      }
      if (!vec2) {
        finalShape[p] = n;
      }
      out = out.reshape(finalShape);
    }
    return out;
  }

  /** {@link Linalg#matmulAccumulate}. */
  static NDArray matmulAccumulate(NDArray acc, NDArray x1, NDArray x2) {
    DType dt = numericResult("matmul", x1, x2);
    if ((dt == DType.FLOAT64 || dt == DType.FLOAT32)
        && acc.dtype() == dt
        && x1.ndim() == 2
        && x2.ndim() == 2
        && acc.ndim() == 2
        && x1.shape(1) == x2.shape(0)
        && acc.shape(0) == x1.shape(0)
        && acc.shape(1) == x2.shape(1)) {
      int m = (int) x1.shape(0);
      int k = (int) x1.shape(1);
      int n = (int) x2.shape(1);
      Object a = Compute.operand(x1, dt);
      Object b = Compute.operand(x2, dt);
      if (dt == DType.FLOAT64) {
        MatmulKernels.dgemm(
            (double[]) a, 0, (double[]) b, 0, (double[]) acc.data(), 0, m, k, n, true);
      } else {
        MatmulKernels.sgemm((float[]) a, 0, (float[]) b, 0, (float[]) acc.data(), 0, m, k, n, true);
      }
      return acc;
    }
    return Elementwise.add(acc, matmul(x1, x2));
  }

  /** {@link Linalg#tensordot}. */
  static NDArray tensordot(NDArray x1, NDArray x2, int n) {
    if (n < 0 || n > x1.ndim() || n > x2.ndim()) {
      throw new IllegalArgumentException(
          "tensordot: axes="
              + n
              + " must be between 0 and the ndim"
              + " of both operands, got shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape()));
    }
    int[] a1 = new int[n];
    int[] a2 = new int[n];
    for (int i = 0; i < n; i++) {
      a1[i] = x1.ndim() - n + i;
      a2[i] = i;
    }
    return tensordot(x1, x2, a1, a2);
  }

  /** {@link Linalg#tensordot}. */
  static NDArray tensordot(NDArray x1, NDArray x2, int[] axes1, int[] axes2) {
    String f = "tensordot";
    DType dt = numericResult(f, x1, x2);
    if (axes1.length != axes2.length) {
      throw new IllegalArgumentException(
          f
              + ": axes "
              + Arrays.toString(axes1)
              + " and "
              + Arrays.toString(axes2)
              + " must have the same length");
    }
    int[] c1 = normalizeUnsorted(f, axes1, x1.ndim());
    int[] c2 = normalizeUnsorted(f, axes2, x2.ndim());
    long[] s1 = x1.shape();
    long[] s2 = x2.shape();
    long kk = 1;
    for (int i = 0; i < c1.length; i++) {
      if (s1[c1[i]] != s2[c2[i]]) {
        throw new IllegalArgumentException(
            f
                + ": shapes "
                + Shapes.format(s1)
                + " and "
                + Shapes.format(s2)
                + " are not aligned: dimension "
                + c1[i]
                + " of x1 ("
                + s1[c1[i]]
                + ") != dimension "
                + c2[i]
                + " of x2 ("
                + s2[c2[i]]
                + ")");
      }
      kk *= s1[c1[i]];
    }
    int[] free1 = complement(c1, x1.ndim());
    int[] free2 = complement(c2, x2.ndim());
    int[] perm1 = concat(free1, c1);
    int[] perm2 = concat(c2, free2);
    long m = 1;
    long[] outShape = new long[free1.length + free2.length];
    int p = 0;
    for (int a : free1) {
      m *= s1[a];
      outShape[p++] = s1[a];
    }
    long n = 1;
    for (int a : free2) {
      n *= s2[a];
      outShape[p++] = s2[a];
    }
    int lead = c2.length == 0 ? 0 : c2[0];
    if (free1.length == 0 && isIdentity(perm1) && lead > 0 && isRun(c2)) {
      // x2 is (P, K, Q) with x1's axes K: a stack of P row-vector products, x2 not transposed
      long p1 = 1;
      for (int d = 0; d < lead; d++) {
        p1 *= s2[d];
      }
      long q = n / Math.max(1, p1);
      if (dt == DType.FLOAT64 && x1.dtype() == dt && x2.dtype() == dt) {
        double[] r =
            rowVectorStack(
                (double[]) Compute.operand(x1, dt),
                (double[]) Compute.operand(x2.reshape(p1, kk, q), dt),
                Shapes.intSize(f, new long[] {p1}),
                (int) kk,
                (int) q);
        return new NDArray(dt, outShape, r);
      }
      NDArray r =
          batchedProduct(
              dt,
              x1.reshape(1, kk),
              new long[] {1},
              x2.reshape(p1, kk, q),
              new long[] {p1},
              new long[] {p1},
              1,
              (int) kk,
              (int) q,
              new long[] {p1, 1, q});
      return r.reshape(outShape);
    }
    NDArray a = isIdentity(perm1) ? x1 : x1.permuteDims(perm1);
    NDArray b = isIdentity(perm2) ? x2 : x2.permuteDims(perm2);
    a = a.reshape(m, kk);
    b = b.reshape(kk, n);
    NDArray r =
        batchedProduct(
            dt,
            a,
            new long[0],
            b,
            new long[0],
            new long[0],
            (int) m,
            (int) kk,
            (int) n,
            new long[] {m, n});
    return r.reshape(outShape);
  }

  /**
   * {@code out[i, j] = sum_l v[l] * b[i, l, j]} for a float64 vector {@code v} of length k and
   * {@code b} laid out (p, k, q): for each i, q-long multiply-adds of b's rows into out's row,
   * which the JIT vectorizes. A BLAS call per i costs more than it computes at these sizes (a 1 x k
   * by k x q product: the call and the array pinning of JNI dominate).
   */
  private static double[] rowVectorStack(double[] v, double[] b, int p, int k, int q) {
    double[] out = new double[Math.multiplyExact(p, q)];
    for (int i = 0; i < p; i++) {
      int o = i * q;
      int base = i * k * q;
      for (int l = 0; l < k; l++) {
        double s = v[l];
        int r = base + l * q;
        for (int j = 0; j < q; j++) {
          out[o + j] += s * b[r + j];
        }
      }
    }
    return out;
  }

  /** Whether the axes are consecutive and ascending. */
  private static boolean isRun(int[] axes) {
    for (int i = 1; i < axes.length; i++) {
      if (axes[i] != axes[0] + i) {
        return false;
      }
    }
    return true;
  }

  /** {@link Linalg#vecdot}. */
  static NDArray vecdot(NDArray x1, NDArray x2) {
    return vecdot(x1, x2, -1);
  }

  /** {@link Linalg#vecdot}. */
  static NDArray vecdot(NDArray x1, NDArray x2, int axis) {
    String f = "vecdot";
    DType dt = numericResult(f, x1, x2);
    if (x1.ndim() == 0 || x2.ndim() == 0) {
      throw new IllegalArgumentException(
          f
              + ": operands must have at least one dimension, got shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape()));
    }
    long[] full = Shapes.broadcast(f, x1.shape(), x2.shape());
    int ax = Shapes.normalizeAxis(f, axis, full.length);
    long d1 = dimFromEnd(x1.shape(), full.length - ax);
    long d2 = dimFromEnd(x2.shape(), full.length - ax);
    if (d1 != d2) {
      throw new IllegalArgumentException(
          f
              + ": shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape())
              + " differ along the contracted axis "
              + axis
              + " ("
              + d1
              + " != "
              + d2
              + ")");
    }
    return VecdotKernel.vecdot(dt, x1, x2, full, ax);
  }

  /** {@link Linalg#matrixTranspose}. */
  static NDArray matrixTranspose(NDArray x) {
    int nd = x.ndim();
    if (nd < 2) {
      throw new IllegalArgumentException(
          "matrix_transpose: x must have at least 2 dimensions, got"
              + " shape "
              + Shapes.format(x.shape()));
    }
    int[] perm = new int[nd];
    for (int i = 0; i < nd; i++) {
      perm[i] = i;
    }
    perm[nd - 2] = nd - 1;
    perm[nd - 1] = nd - 2;
    return x.permuteDims(perm);
  }

  /** {@link Linalg#outer}. */
  static NDArray outer(NDArray x1, NDArray x2) {
    String f = "outer";
    numericResult(f, x1, x2);
    if (x1.ndim() != 1 || x2.ndim() != 1) {
      throw new IllegalArgumentException(
          f
              + ": operands must be 1-d, got shapes "
              + Shapes.format(x1.shape())
              + " and "
              + Shapes.format(x2.shape()));
    }
    return Elementwise.multiply(x1.reshape(x1.shape(0), 1), x2.reshape(1, x2.shape(0)));
  }

  // ------------------------------------------------------------------ helpers

  static DType numericResult(String f, NDArray x1, NDArray x2) {
    if (!x1.dtype().isNumeric()) {
      throw new IllegalArgumentException(
          f
              + ": x1 has dtype "
              + x1.dtype()
              + ", but "
              + f
              + " is defined for numeric dtypes only");
    }
    if (!x2.dtype().isNumeric()) {
      throw new IllegalArgumentException(
          f
              + ": x2 has dtype "
              + x2.dtype()
              + ", but "
              + f
              + " is defined for numeric dtypes only");
    }
    return DType.resultType(x1.dtype(), x2.dtype());
  }

  private static long dimFromEnd(long[] shape, int fromEnd) {
    int i = shape.length - fromEnd;
    return i < 0 ? 1 : shape[i];
  }

  private static NDArray batchedProduct(
      DType dt,
      NDArray x1,
      long[] batch1,
      NDArray x2,
      long[] batch2,
      long[] batch,
      int m,
      int k,
      int n,
      long[] outShape) {
    Object a = Compute.operand(x1, dt);
    Object b = Compute.operand(x2, dt);
    Object c = Compute.allocate(dt, Shapes.intSize("matmul", outShape));
    int nb = Shapes.intSize("matmul", batch);
    long[] st1 = batchStrides(batch1, batch.length, (long) m * k);
    long[] st2 = batchStrides(batch2, batch.length, (long) k * n);
    long[] idx = new long[batch.length];
    for (int bi = 0; bi < nb; bi++) {
      long o1 = 0;
      long o2 = 0;
      for (int d = 0; d < batch.length; d++) {
        o1 += idx[d] * st1[d];
        o2 += idx[d] * st2[d];
      }
      int oc = bi * m * n;
      Compute.gemm(dt, a, (int) o1, b, (int) o2, c, oc, m, k, n);
      for (int d = batch.length - 1; d >= 0; d--) {
        if (++idx[d] < batch[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
    return Compute.result(dt, c, outShape);
  }

  /**
   * Element strides of each broadcast batch dimension (0 where the operand has size 1 or lacks it).
   */
  private static long[] batchStrides(long[] own, int nd, long matrixSize) {
    long[] st = new long[nd];
    long s = matrixSize;
    for (int i = own.length - 1; i >= 0; i--) {
      st[nd - own.length + i] = own[i] == 1 ? 0 : s;
      s *= own[i];
    }
    return st;
  }

  private static int[] normalizeUnsorted(String f, int[] axes, int nd) {
    int[] out = new int[axes.length];
    boolean[] seen = new boolean[nd];
    for (int i = 0; i < axes.length; i++) {
      out[i] = Shapes.normalizeAxis(f, axes[i], nd);
      if (seen[out[i]]) {
        throw new IllegalArgumentException(
            f + ": axis " + axes[i] + " is repeated in " + Arrays.toString(axes));
      }
      seen[out[i]] = true;
    }
    return out;
  }

  private static int[] complement(int[] axes, int nd) {
    boolean[] used = new boolean[nd];
    for (int a : axes) {
      used[a] = true;
    }
    int[] out = new int[nd - axes.length];
    int p = 0;
    for (int i = 0; i < nd; i++) {
      if (!used[i]) {
        out[p++] = i;
      }
    }
    return out;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static boolean isIdentity(int[] perm) {
    for (int i = 0; i < perm.length; i++) {
      if (perm[i] != i) {
        return false;
      }
    }
    return true;
  }
}
