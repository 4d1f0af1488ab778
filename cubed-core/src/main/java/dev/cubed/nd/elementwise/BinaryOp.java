package dev.cubed.nd.elementwise;

import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.WideArrays;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * One binary elementwise function: which dtypes it accepts, how integers promote, and a row loop
 * per kind (generic representations of {@link Loops}) plus optional fast loops on native storage of
 * one dtype. {@link #apply} promotes both operands to the result dtype, broadcasts and runs the
 * loop. Instances are configured once, in static initializers of the implementation classes.
 */
final class BinaryOp {
  final String name;
  private final Accept accept;
  private boolean toFloat;
  private boolean boolOut;
  private Loops.Binary real;
  private Loops.Binary ints;
  private Loops.Binary u64;
  private Loops.Binary complex;
  private Loops.Binary bools;
  private final Map<DType, Loops.Binary> fast = new EnumMap<>(DType.class);

  private BinaryOp(String name, Accept accept) {
    this.name = name;
    this.accept = accept;
  }

  /** A function whose result has the promoted dtype of its operands. */
  static BinaryOp of(String name, Accept accept) {
    return new BinaryOp(name, accept);
  }

  /** A function with a bool result (comparisons, logical functions). */
  static BinaryOp predicate(String name, Accept accept) {
    BinaryOp op = new BinaryOp(name, accept);
    op.boolOut = true;
    return op;
  }

  /** Integer and bool operands are promoted to the default floating dtype (float64) first. */
  BinaryOp toFloat() {
    toFloat = true;
    return this;
  }

  BinaryOp real(Loops.Binary l) {
    real = l;
    return this;
  }

  /** The integer loop; also used for uint64 unless {@link #u64} is set. */
  BinaryOp ints(Loops.Binary l) {
    ints = l;
    return this;
  }

  BinaryOp u64(Loops.Binary l) {
    u64 = l;
    return this;
  }

  BinaryOp complex(Loops.Binary l) {
    complex = l;
    return this;
  }

  BinaryOp bools(Loops.Binary l) {
    bools = l;
    return this;
  }

  /** A loop on the native backing arrays of {@code d} (same-dtype operands, native output). */
  BinaryOp fast(DType d, Loops.Binary l) {
    fast.put(d, l);
    return this;
  }

  /** The dtype both operands are converted to. */
  DType computeType(DType a, DType b) {
    DType r = DType.resultType(a, b);
    if (toFloat && !r.isFloating()) {
      r = DType.FLOAT64;
    }
    accept.check(name, r, a, b);
    return r;
  }

  /**
   * {@link #apply}, writing into {@code buf} when it can hold the result without a conversion:
   * {@code buf} non-null, of the result's dtype and shape, both operands of the result's dtype, and
   * a fast loop for it. Returns {@code buf} then, else a new array (as {@link #apply}); the result
   * is the same either way. {@code buf} may be one of the operands.
   */
  NDArray applyInto(NDArray x, NDArray y, NDArray buf) {
    DType r = computeType(x.dtype(), y.dtype());
    long[] shape = Loops.shape(name, x.shape(), y.shape());
    DType outType = boolOut ? DType.BOOL : r;
    Loops.Binary f = fast.get(r);
    if (f != null) {
      boolean into =
          buf != null
              && buf.dtype() == outType
              && x.dtype() == r
              && y.dtype() == r
              && Arrays.equals(buf.shape(), shape);
      x = WideArrays.cast(x, r);
      y = WideArrays.cast(y, r);
      Object out = into ? buf.data() : NDArray.allocate(outType, Shapes.intSize(name, shape));
      Loops.run(shape, x.shape(), x.data(), y.shape(), y.data(), out, f);
      return into ? buf : new NDArray(outType, shape, out);
    }
    x = WideArrays.cast(x, r);
    y = WideArrays.cast(y, r);
    int n = Shapes.intSize(name, shape);
    switch (r.kind()) {
      case FLOAT -> {
        Object out = boolOut ? new boolean[n] : new double[n];
        Loops.run(
            shape,
            x.shape(),
            WideArrays.doubles(x),
            y.shape(),
            WideArrays.doubles(y),
            out,
            need(real, r));
        return boolOut
            ? new NDArray(outType, shape, out)
            : WideArrays.fromDoubles(r, shape, (double[]) out);
      }
      case SIGNED, UNSIGNED -> {
        Loops.Binary l = r == DType.UINT64 && u64 != null ? u64 : ints;
        Object out = boolOut ? new boolean[n] : new long[n];
        Loops.run(
            shape, x.shape(), WideArrays.longs(x), y.shape(), WideArrays.longs(y), out, need(l, r));
        return boolOut
            ? new NDArray(outType, shape, out)
            : WideArrays.fromLongs(r, shape, (long[]) out);
      }
      case COMPLEX -> {
        Object out = boolOut ? new boolean[n] : new double[2 * n];
        Loops.run(
            shape,
            x.shape(),
            WideArrays.complexes(x),
            y.shape(),
            WideArrays.complexes(y),
            out,
            need(complex, r));
        return boolOut
            ? new NDArray(outType, shape, out)
            : WideArrays.fromComplexes(r, shape, (double[]) out);
      }
      default -> {
        boolean[] out = new boolean[n];
        Loops.run(shape, x.shape(), x.data(), y.shape(), y.data(), out, need(bools, r));
        return new NDArray(DType.BOOL, shape, out);
      }
    }
  }

  /**
   * {@link #applyInto(NDArray, NDArray, NDArray)} where either operand may be a Java scalar, which
   * becomes a 0-d array of the dtype it takes next to the other ({@link DataTypes#scalarOperand}).
   * At least one operand must be an NDArray.
   */
  NDArray applyInto(Object x, Object y, NDArray buf) {
    if (x instanceof NDArray a) {
      return applyInto(
          a, y instanceof NDArray b ? b : DataTypes.scalarOperand(name, a.dtype(), y), buf);
    }
    if (y instanceof NDArray b) {
      return applyInto(DataTypes.scalarOperand(name, b.dtype(), x), b, buf);
    }
    throw new IllegalArgumentException(
        name
            + ": at least one operand must be an NDArray, got "
            + kind(x)
            + " and "
            + kind(y)
            + "; compute two Java scalars in Java, or wrap one with NDArray.scalar");
  }

  /** {@link #applyInto(Object, Object, NDArray)} into a new array. */
  NDArray apply(Object x, Object y) {
    return applyInto(x, y, null);
  }

  private static String kind(Object v) {
    return v == null ? "null" : v.getClass().getSimpleName();
  }

  private Loops.Binary need(Loops.Binary l, DType r) {
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
