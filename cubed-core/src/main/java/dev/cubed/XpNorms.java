package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.StackMap;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.linalg.Linalg;
import java.util.Arrays;

/**
 * The norms of {@link XpLinalg} ({@code vector_norm}, {@code matrix_norm}; reached as {@code
 * XpLinalg.vectorNorm}; this class is not public) and the helpers that map a kernel over whole
 * matrices.
 */
class XpNorms {
  XpNorms() {}

  static StackMap.Budget budgetOf(CubedArray x) {
    return new StackMap.Budget(x.spec().allowedMem(), x.spec().reservedMem());
  }

  static long[] batch(CubedArray x) {
    return Arrays.copyOf(x.shape(), x.ndim() - 2);
  }

  /** Checks the stack shape as the kernel does (on a sample; nothing of x's size). */
  static NDArray sample(CubedArray x, boolean square) {
    long[] s = x.shape();
    if (s.length >= 2 && square && s[s.length - 1] != s[s.length - 2]) {
      return NDArray.ones(x.dtype(), 1, 2);
    }
    return NDArray.ones(x.dtype(), 1, 1);
  }

  static String matrix(CubedArray x) {
    long[] s = x.shape();
    return "one " + StackMap.dims(s[s.length - 2], s[s.length - 1]) + " " + x.dtype() + " matrix";
  }

  /**
   * Maps a kernel over whole matrices. {@code work} counts the kernel's doubles per matrix element.
   */
  static CubedArray perMatrix(
      String fn,
      CubedArray x,
      DType out,
      long[] outCore,
      int work,
      Core.BlocksFunction k,
      CubedArray... more) {
    long[] s = x.shape();
    long elems = s[s.length - 2] * s[s.length - 1];
    long ws = work * elems * 8L * (out.isComplex() ? 2 : 1);
    long conv = elems * 8L * (out.isComplex() ? 2 : 1);
    StackMap.Spec sp = new StackMap.Spec(fn, matrix(x), k, out, outCore, conv, ws);
    dev.cubed.plan.ArrayNode[] ns = new dev.cubed.plan.ArrayNode[1 + more.length];
    ns[0] = x.node();
    for (int i = 0; i < more.length; i++) {
      ns[i + 1] = more[i].node();
    }
    return XpUnary.wrap(StackMap.map(sp, budgetOf(x), batch(x), ns), x);
  }

  static void stack(String fn, CubedArray x, boolean square) {
    long[] s = x.shape();
    if (s.length < 2) {
      throw new IllegalArgumentException(
          fn
              + ": x must have at least 2 dimensions (a stack of"
              + " matrices (..., M, N)), got shape "
              + Shapes.format(s));
    }
    if (square && s[s.length - 1] != s[s.length - 2]) {
      throw new IllegalArgumentException(
          fn
              + ": x must be a stack of square matrices"
              + " (..., M, M), got shape "
              + Shapes.format(s));
    }
  }

  static long n(CubedArray x) {
    return x.shape()[x.ndim() - 1];
  }

  static long[] cat(long[] a, long... b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  // ------------------------------------------------------------------ norms

  /** {@code vector_norm(x)}: the 2-norm over all elements. */
  public static CubedArray vectorNorm(CubedArray x) {
    return vectorNorm(x, Axes.all(), 2);
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
    String fn = "vector_norm";
    DType out = Linalg.vectorNorm(NDArray.ones(x.dtype(), 1), Axes.all(), ord).dtype();
    int[] red = axes.resolve(fn, x.ndim());
    long inner = 1;
    for (int a : red) {
      inner *= x.shape()[a];
    }
    if (inner == 0 && Double.isInfinite(ord)) {
      throw new IllegalArgumentException(
          fn
              + ": ord="
              + (ord > 0 ? "inf" : "-inf")
              + " is undefined for an empty reduction (shape "
              + Xp.shapeOf(x)
              + ")");
    }
    CubedArray m = magnitudes(x);
    CubedArray r;
    if (ord == Double.POSITIVE_INFINITY) {
      r = Xp.reduce(m, dev.cubed.core.Reductions.Op.MAX, axes, Xp.DEFAULT_SPLIT_EVERY, 0);
    } else if (ord == Double.NEGATIVE_INFINITY) {
      r = Xp.reduce(m, dev.cubed.core.Reductions.Op.MIN, axes, Xp.DEFAULT_SPLIT_EVERY, 0);
    } else if (ord == 0) {
      r = Xp.sum(Xp.astype(Xp.notEqual(m, 0.0), DType.FLOAT64), axes, Xp.DEFAULT_SPLIT_EVERY);
    } else if (ord == 1) {
      r = Xp.sum(m, axes, Xp.DEFAULT_SPLIT_EVERY);
    } else if (ord == 2) {
      r = Xp.sqrt(Xp.sum(Xp.multiply(m, m), axes, Xp.DEFAULT_SPLIT_EVERY));
    } else {
      r = Xp.pow(Xp.sum(Xp.pow(m, ord), axes, Xp.DEFAULT_SPLIT_EVERY), 1 / ord);
    }
    return r.dtype() == out ? r : Xp.astype(r, out);
  }

  /** |x| in float64 (integers converted first, so that the most negative value has no overflow). */
  private static CubedArray magnitudes(CubedArray x) {
    return x.dtype().isComplex()
        ? Xp.astype(Xp.abs(x), DType.FLOAT64)
        : Xp.abs(Xp.astype(x, DType.FLOAT64));
  }

  /** {@code matrix_norm(x)}: Frobenius norms, reduced axes dropped. */
  public static CubedArray matrixNorm(CubedArray x) {
    return matrixNorm(x, Linalg.MatrixNormOrder.FRO, Linalg.KeepDims.DROP);
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
    String fn = "matrix_norm";
    stack(fn, x, false);
    DType out = Linalg.matrixNorm(NDArray.ones(x.dtype(), 1, 1)).dtype();
    int nd = x.ndim();
    long[] s = x.shape();
    long count = 1;
    for (int d = 0; d < nd - 2; d++) {
      count *= s[d];
    }
    if (s[nd - 1] * s[nd - 2] == 0
        && ord != Linalg.MatrixNormOrder.FRO
        && ord != Linalg.MatrixNormOrder.NUC
        && count > 0) {
      throw new IllegalArgumentException(
          fn
              + ": ord "
              + ord
              + " is undefined for empty matrices"
              + " (shape "
              + Shapes.format(s)
              + ")");
    }
    boolean keepdims = kd == Linalg.KeepDims.KEEP;
    Axes both = keepdims ? Axes.of(nd - 2, nd - 1).keepDims() : Axes.of(nd - 2, nd - 1);
    CubedArray r;
    switch (ord) {
      case FRO -> r = vectorNorm(x, both, 2);
      case NUC, TWO, NEG_TWO -> {
        long[] core = keepdims ? new long[] {1, 1} : new long[0];
        return perMatrix(fn, x, out, core, 8, b -> Linalg.matrixNorm(b[0], ord, kd));
      }
      default -> {
        boolean cols = ord == Linalg.MatrixNormOrder.ONE || ord == Linalg.MatrixNormOrder.NEG_ONE;
        boolean max = ord == Linalg.MatrixNormOrder.ONE || ord == Linalg.MatrixNormOrder.INF;
        int sumAxis = cols ? nd - 2 : nd - 1;
        CubedArray m = magnitudes(x);
        CubedArray sums = Xp.sum(m, Axes.of(sumAxis).keepDims(), Xp.DEFAULT_SPLIT_EVERY);
        Axes other = keepdims ? Axes.of(nd - 2, nd - 1).keepDims() : Axes.of(nd - 2, nd - 1);
        r =
            Xp.reduce(
                sums,
                max ? dev.cubed.core.Reductions.Op.MAX : dev.cubed.core.Reductions.Op.MIN,
                other,
                Xp.DEFAULT_SPLIT_EVERY,
                0);
      }
    }
    return r.dtype() == out ? r : Xp.astype(r, out);
  }
}
