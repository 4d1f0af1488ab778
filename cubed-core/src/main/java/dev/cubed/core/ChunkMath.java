package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.io.Serializable;

/**
 * Small per-chunk elementwise kernels used by the engine until the kernel classes of dev.cubed.nd
 * cover them. Inputs are converted to the result dtype first; float64/float32 work on the backing
 * arrays directly, integers in long arithmetic (wrapping), bool via long 0/1. Complex dtypes are
 * not supported here (UnsupportedOperationException).
 */
final class ChunkMath {
  private ChunkMath() {}

  /** A binary operation on doubles and on longs (integer dtypes). */
  interface BinOp extends Serializable {
    double d(double a, double b);

    long l(long a, long b);
  }

  /** A unary operation on doubles and on longs. */
  interface UnOp extends Serializable {
    double d(double a);

    long l(long a);
  }

  static final BinOp ADD =
      new BinOp() {
        public double d(double a, double b) {
          return a + b;
        }

        public long l(long a, long b) {
          return a + b;
        }
      };
  static final BinOp SUB =
      new BinOp() {
        public double d(double a, double b) {
          return a - b;
        }

        public long l(long a, long b) {
          return a - b;
        }
      };
  static final BinOp MUL =
      new BinOp() {
        public double d(double a, double b) {
          return a * b;
        }

        public long l(long a, long b) {
          return a * b;
        }
      };
  static final BinOp DIV =
      new BinOp() {
        public double d(double a, double b) {
          return a / b;
        }

        public long l(long a, long b) {
          throw new UnsupportedOperationException("divide of integers gives floats");
        }
      };
  static final UnOp NEG =
      new UnOp() {
        public double d(double a) {
          return -a;
        }

        public long l(long a) {
          return -a;
        }
      };

  static void checkReal(String fn, DType t) {
    if (t.isComplex()) {
      throw new UnsupportedOperationException(
          fn + ": complex dtypes are not supported by the engine" + " kernels yet (got " + t + ")");
    }
  }

  /** {@code op(a, b)} for same-shape a, b, computed in dtype {@code out}. */
  static NDArray binary(String fn, BinOp op, NDArray a, NDArray b, DType out) {
    checkReal(fn, out);
    NDArray x = a.dtype() == out ? a : a.astype(out);
    NDArray y = b.dtype() == out ? b : b.astype(out);
    int n = x.size();
    NDArray r = NDArray.empty(out, x.shape());
    if (out == DType.FLOAT64) {
      double[] xs = (double[]) x.data();
      double[] ys = (double[]) y.data();
      double[] rs = (double[]) r.data();
      for (int i = 0; i < n; i++) {
        rs[i] = op.d(xs[i], ys[i]);
      }
    } else if (out == DType.FLOAT32) {
      float[] xs = (float[]) x.data();
      float[] ys = (float[]) y.data();
      float[] rs = (float[]) r.data();
      for (int i = 0; i < n; i++) {
        rs[i] = (float) op.d(xs[i], ys[i]);
      }
    } else if (out.isBool()) {
      for (int i = 0; i < n; i++) {
        r.setBoolean(i, op.l(x.getLong(i), y.getLong(i)) != 0);
      }
    } else {
      for (int i = 0; i < n; i++) {
        r.setLong(i, op.l(x.getLong(i), y.getLong(i)));
      }
    }
    return r;
  }

  /** {@code op(a)} computed in dtype {@code out}. */
  static NDArray unary(String fn, UnOp op, NDArray a, DType out) {
    checkReal(fn, out);
    NDArray x = a.dtype() == out ? a : a.astype(out);
    int n = x.size();
    NDArray r = NDArray.empty(out, x.shape());
    if (out.isFloating()) {
      for (int i = 0; i < n; i++) {
        r.setDouble(i, op.d(x.getDouble(i)));
      }
    } else {
      for (int i = 0; i < n; i++) {
        r.setLong(i, op.l(x.getLong(i)));
      }
    }
    return r;
  }
}
