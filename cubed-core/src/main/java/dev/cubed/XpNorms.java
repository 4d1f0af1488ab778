package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.core.StackMap;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.ArrayNode;
import java.util.Arrays;

/**
 * The norms of {@link XpLinalg} ({@code vector_norm}, {@code matrix_norm}; reached as {@code
 * XpLinalg.vectorNorm}; this class is not public) and the helpers that map a kernel over whole
 * matrices.
 */
final class XpNorms {
  private XpNorms() {}

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
    ArrayNode[] ns = new ArrayNode[1 + more.length];
    ns[0] = x.node();
    for (int i = 0; i < more.length; i++) {
      ns[i + 1] = more[i].node();
    }
    return XpBlocks.wrap(StackMap.map(sp, budgetOf(x), batch(x), ns), x);
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

  static CubedArray vectorNorm(CubedArray x) {
    return vectorNorm(x, Axes.all(), 2);
  }

  static CubedArray vectorNorm(CubedArray x, Axes axes, double ord) {
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
              + XpBlocks.shapeOf(x)
              + ")");
    }
    CubedArray m = magnitudes(x);
    CubedArray r;
    if (ord == Double.POSITIVE_INFINITY) {
      r = XpReduce.reduce(m, Reductions.Op.MAX, axes, XpReduce.DEFAULT_SPLIT_EVERY, 0);
    } else if (ord == Double.NEGATIVE_INFINITY) {
      r = XpReduce.reduce(m, Reductions.Op.MIN, axes, XpReduce.DEFAULT_SPLIT_EVERY, 0);
    } else if (ord == 0) {
      r =
          XpReduce.sum(
              XpUnary.astype(XpBinary.NOT_EQUAL.apply(m, 0.0), DType.FLOAT64),
              axes,
              XpReduce.DEFAULT_SPLIT_EVERY);
    } else if (ord == 1) {
      r = XpReduce.sum(m, axes, XpReduce.DEFAULT_SPLIT_EVERY);
    } else if (ord == 2) {
      r =
          XpUnary.sqrt(
              XpReduce.sum(XpBinary.MULTIPLY.apply(m, m), axes, XpReduce.DEFAULT_SPLIT_EVERY));
    } else {
      r =
          XpBinary.POW.apply(
              XpReduce.sum(XpBinary.POW.apply(m, ord), axes, XpReduce.DEFAULT_SPLIT_EVERY),
              1 / ord);
    }
    return r.dtype() == out ? r : XpUnary.astype(r, out);
  }

  /** |x| in float64 (integers converted first, so that the most negative value has no overflow). */
  private static CubedArray magnitudes(CubedArray x) {
    return x.dtype().isComplex()
        ? XpUnary.astype(XpUnary.abs(x), DType.FLOAT64)
        : XpUnary.abs(XpUnary.astype(x, DType.FLOAT64));
  }

  static CubedArray matrixNorm(CubedArray x) {
    return matrixNorm(x, Linalg.MatrixNormOrder.FRO, Linalg.KeepDims.DROP);
  }

  static CubedArray matrixNorm(CubedArray x, Linalg.MatrixNormOrder ord, Linalg.KeepDims kd) {
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
        CubedArray sums =
            XpReduce.sum(m, Axes.of(sumAxis).keepDims(), XpReduce.DEFAULT_SPLIT_EVERY);
        Axes other = keepdims ? Axes.of(nd - 2, nd - 1).keepDims() : Axes.of(nd - 2, nd - 1);
        r =
            XpReduce.reduce(
                sums,
                max ? Reductions.Op.MAX : Reductions.Op.MIN,
                other,
                XpReduce.DEFAULT_SPLIT_EVERY,
                0);
      }
    }
    return r.dtype() == out ? r : XpUnary.astype(r, out);
  }
}
