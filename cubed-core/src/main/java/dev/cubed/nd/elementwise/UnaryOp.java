package dev.cubed.nd.elementwise;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.WideArrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * One unary elementwise function: accepted dtypes, whether integers promote to float64, the result
 * dtype rule, and a loop per kind on the generic representations of {@link Loops} (plus optional
 * fast loops on native storage).
 */
final class UnaryOp {
  /** How the result dtype follows from the (promoted) input dtype. */
  enum Out {
    SAME,
    BOOL,
    /** The real dtype of the same precision for complex input (abs, real, imag); else the same. */
    REAL_OF_COMPLEX
  }

  final String name;
  private final Accept accept;
  private final Out outRule;
  private boolean toFloat;
  private Loops.Unary real;
  private Loops.Unary ints;
  private Loops.Unary u64;
  private Loops.Unary complex;
  private Loops.Unary bools;
  private final Map<DType, Loops.Unary> fast = new EnumMap<>(DType.class);

  private UnaryOp(String name, Accept accept, Out outRule) {
    this.name = name;
    this.accept = accept;
    this.outRule = outRule;
  }

  static UnaryOp of(String name, Accept accept) {
    return new UnaryOp(name, accept, Out.SAME);
  }

  static UnaryOp of(String name, Accept accept, Out out) {
    return new UnaryOp(name, accept, out);
  }

  UnaryOp toFloat() {
    toFloat = true;
    return this;
  }

  UnaryOp real(Loops.Unary l) {
    real = l;
    return this;
  }

  UnaryOp ints(Loops.Unary l) {
    ints = l;
    return this;
  }

  UnaryOp u64(Loops.Unary l) {
    u64 = l;
    return this;
  }

  UnaryOp complex(Loops.Unary l) {
    complex = l;
    return this;
  }

  UnaryOp bools(Loops.Unary l) {
    bools = l;
    return this;
  }

  UnaryOp fast(DType d, Loops.Unary l) {
    fast.put(d, l);
    return this;
  }

  /**
   * {@link #apply}, writing into {@code buf} when it can take the result without a conversion:
   * {@code buf} non-null, of x's dtype and shape, the result of x's dtype, and a fast loop for it.
   * Returns {@code buf} then, else a new array (as {@link #apply}); the values are the same either
   * way. {@code buf} may be x itself (each element is read before it is written).
   */
  NDArray applyInto(NDArray x, NDArray buf) {
    Loops.Unary f = fast.get(x.dtype());
    DType outType =
        switch (outRule) {
          case SAME -> x.dtype();
          case BOOL -> DType.BOOL;
          case REAL_OF_COMPLEX -> x.dtype().realPart();
        };
    if (f != null
        && buf != null
        && (outRule != Out.REAL_OF_COMPLEX || outType == x.dtype())
        && !(toFloat && !x.dtype().isFloating())
        && buf.dtype() == outType
        && buf.data() != x.data()
        && java.util.Arrays.equals(buf.shape(), x.shape())) {
      accept.check(name, x.dtype(), x.dtype());
      f.run(x.data(), buf.data(), x.size());
      return buf;
    }
    return apply(x);
  }

  NDArray apply(NDArray x) {
    DType in = x.dtype();
    DType r = toFloat && !in.isFloating() ? DType.FLOAT64 : in;
    accept.check(name, r, in);
    x = WideArrays.cast(x, r);
    long[] shape = x.shape();
    int n = x.size();
    DType outType =
        switch (outRule) {
          case SAME -> r;
          case BOOL -> DType.BOOL;
          case REAL_OF_COMPLEX -> r.realPart();
        };
    Loops.Unary f = fast.get(r);
    if (f != null) {
      Object out = NDArray.allocate(outType, n);
      f.run(x.data(), out, n);
      return new NDArray(outType, shape, out);
    }
    boolean boolOut = outType == DType.BOOL;
    switch (r.kind()) {
      case FLOAT -> {
        Object out = boolOut ? new boolean[n] : new double[n];
        need(real, r).run(WideArrays.doubles(x), out, n);
        return boolOut
            ? new NDArray(outType, shape, out)
            : WideArrays.fromDoubles(r, shape, (double[]) out);
      }
      case SIGNED, UNSIGNED -> {
        Loops.Unary l = r == DType.UINT64 && u64 != null ? u64 : ints;
        Object out = boolOut ? new boolean[n] : new long[n];
        need(l, r).run(WideArrays.longs(x), out, n);
        return boolOut
            ? new NDArray(outType, shape, out)
            : WideArrays.fromLongs(r, shape, (long[]) out);
      }
      case COMPLEX -> {
        Object out = boolOut ? new boolean[n] : new double[outType.isComplex() ? 2 * n : n];
        need(complex, r).run(WideArrays.complexes(x), out, n);
        if (boolOut) {
          return new NDArray(outType, shape, out);
        }
        return outType.isComplex()
            ? WideArrays.fromComplexes(outType, shape, (double[]) out)
            : WideArrays.fromDoubles(outType, shape, (double[]) out);
      }
      default -> {
        Object out = NDArray.allocate(outType, n);
        need(bools, r).run(x.data(), out, n);
        return new NDArray(outType, shape, out);
      }
    }
  }

  private Loops.Unary need(Loops.Unary l, DType r) {
    if (l == null) {
      throw new IllegalArgumentException(
          name
              + ": dtype "
              + r
              + " is not supported: "
              + name
              + " is defined for "
              + accept.description());
    }
    return l;
  }
}
