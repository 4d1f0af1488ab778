package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import java.util.Arrays;

/**
 * A stack of matrices: the last two axes of an array, batched over the leading ones. Reads one
 * matrix at a time into a double buffer (real: {@code m*n} values, complex: {@code 2*m*n}
 * interleaved re,im) and writes results back into arrays of any floating dtype. Package-private
 * plumbing for {@link Linalg}.
 */
final class MatrixStack {
  final String function;
  final NDArray array;
  final long[] batch;
  final int count;
  final int rows;
  final int cols;
  final boolean complex;

  private MatrixStack(String function, NDArray array) {
    this.function = function;
    this.array = array;
    long[] s = array.shape();
    this.batch = Arrays.copyOf(s, s.length - 2);
    this.count = Shapes.intSize(function, batch);
    this.rows = (int) s[s.length - 2];
    this.cols = (int) s[s.length - 1];
    this.complex = array.dtype().isComplex();
  }

  /** A stack over {@code x}, which must have at least two dimensions. */
  static MatrixStack of(String function, NDArray x) {
    if (x.ndim() < 2) {
      throw new IllegalArgumentException(
          function
              + ": x must have at least 2 dimensions (a stack of"
              + " matrices (..., M, N)), got shape "
              + Shapes.format(x.shape()));
    }
    return new MatrixStack(function, x);
  }

  /** A stack whose matrices must be square. */
  static MatrixStack square(String function, NDArray x) {
    MatrixStack s = of(function, x);
    if (s.rows != s.cols) {
      throw new IllegalArgumentException(
          function
              + ": x must be a stack of square matrices"
              + " (..., M, M), got shape "
              + Shapes.format(x.shape()));
    }
    return s;
  }

  /**
   * The floating dtype a float-only linalg function computes in for input dtype {@code dt}: floats
   * and complex stay, integers promote to float64 (as NumPy); bool is rejected.
   */
  static DType floating(String function, DType dt) {
    if (dt.isBool()) {
      throw new IllegalArgumentException(
          function
              + ": x has dtype bool; expected a floating-point"
              + " (or integer, promoted to float64) dtype");
    }
    return dt.defaultFloating();
  }

  /** Rejects bool for functions defined on numeric dtypes. */
  static void requireNumeric(String function, DType dt) {
    if (!dt.isNumeric()) {
      throw new IllegalArgumentException(
          function + ": x has dtype " + dt + "; expected a numeric dtype");
    }
  }

  int matSize() {
    return rows * cols;
  }

  /** Matrix {@code b} as doubles (real) or interleaved pairs (complex). */
  double[] get(int b) {
    return read(array, b * matSize(), matSize());
  }

  /**
   * {@code n} elements of {@code a} from flat offset {@code off} as doubles (complex interleaved).
   */
  static double[] read(NDArray a, int off, int n) {
    Object d = a.data();
    switch (a.dtype()) {
      case FLOAT64:
        return Arrays.copyOfRange((double[]) d, off, off + n);
      case COMPLEX128:
        return Arrays.copyOfRange((double[]) d, 2 * off, 2 * off + 2 * n);
      case FLOAT32:
        {
          float[] f = (float[]) d;
          double[] r = new double[n];
          for (int i = 0; i < n; i++) {
            r[i] = f[off + i];
          }
          return r;
        }
      case COMPLEX64:
        {
          float[] f = (float[]) d;
          double[] r = new double[2 * n];
          for (int i = 0; i < 2 * n; i++) {
            r[i] = f[2 * off + i];
          }
          return r;
        }
      default:
        {
          double[] r = new double[n];
          for (int i = 0; i < n; i++) {
            r[i] = a.getDouble(off + i);
          }
          return r;
        }
    }
  }

  /**
   * Writes {@code n} elements into {@code out} from flat offset {@code off}: {@code src} holds
   * interleaved pairs when {@code srcComplex}, real values otherwise (a real source into a complex
   * array gets imaginary parts 0, a complex source into a real array keeps the real part).
   */
  static void write(NDArray out, int off, int n, double[] src, boolean srcComplex) {
    Object d = out.data();
    DType dt = out.dtype();
    if (dt.isComplex()) {
      if (srcComplex && dt == DType.COMPLEX128) {
        System.arraycopy(src, 0, d, 2 * off, 2 * n);
      } else if (srcComplex) {
        float[] f = (float[]) d;
        for (int i = 0; i < 2 * n; i++) {
          f[2 * off + i] = (float) src[i];
        }
      } else {
        for (int i = 0; i < n; i++) {
          out.setComplex(off + i, src[i], 0);
        }
      }
      return;
    }
    int step = srcComplex ? 2 : 1;
    if (dt == DType.FLOAT64) {
      double[] t = (double[]) d;
      for (int i = 0; i < n; i++) {
        t[off + i] = src[i * step];
      }
    } else if (dt == DType.FLOAT32) {
      float[] t = (float[]) d;
      for (int i = 0; i < n; i++) {
        t[off + i] = (float) src[i * step];
      }
    } else {
      for (int i = 0; i < n; i++) {
        out.setDouble(off + i, src[i * step]);
      }
    }
  }

  /** The batch shape followed by {@code tail}. */
  long[] shapeWith(long... tail) {
    long[] s = Arrays.copyOf(batch, batch.length + tail.length);
    System.arraycopy(tail, 0, s, batch.length, tail.length);
    return s;
  }

  /** "" for a single matrix, " (matrix [i, j] of the stack)" for a batch. */
  String where(int b) {
    if (batch.length == 0) {
      return "";
    }
    return " (matrix " + Arrays.toString(Shapes.unravel(batch, b)) + " of the stack)";
  }

  // ---------------------------------------------------------------- small dense helpers

  /** Transpose of a real row-major r x c matrix. */
  static double[] transpose(double[] a, int r, int c) {
    double[] t = new double[a.length];
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < c; j++) {
        t[j * r + i] = a[i * c + j];
      }
    }
    return t;
  }

  /** Conjugate transpose of a complex (interleaved) row-major r x c matrix. */
  static double[] conjTranspose(double[] a, int r, int c) {
    double[] t = new double[a.length];
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < c; j++) {
        t[2 * (j * r + i)] = a[2 * (i * c + j)];
        t[2 * (j * r + i) + 1] = -a[2 * (i * c + j) + 1];
      }
    }
    return t;
  }

  /** (Conjugate) transpose according to {@code complex}. */
  static double[] adjoint(double[] a, int r, int c, boolean complex) {
    return complex ? conjTranspose(a, r, c) : transpose(a, r, c);
  }

  /** Product of a (r x k) and b (k x c), real or complex interleaved. */
  static double[] matmul(double[] a, double[] b, int r, int k, int c, boolean complex) {
    if (!complex) {
      double[] o = new double[r * c];
      for (int i = 0; i < r; i++) {
        for (int p = 0; p < k; p++) {
          double v = a[i * k + p];
          if (v == 0) {
            continue;
          }
          int bo = p * c;
          int oo = i * c;
          for (int j = 0; j < c; j++) {
            o[oo + j] += v * b[bo + j];
          }
        }
      }
      return o;
    }
    double[] o = new double[2 * r * c];
    for (int i = 0; i < r; i++) {
      for (int p = 0; p < k; p++) {
        double vr = a[2 * (i * k + p)];
        double vi = a[2 * (i * k + p) + 1];
        int bo = 2 * p * c;
        int oo = 2 * i * c;
        for (int j = 0; j < c; j++) {
          double br = b[bo + 2 * j];
          double bi = b[bo + 2 * j + 1];
          o[oo + 2 * j] += vr * br - vi * bi;
          o[oo + 2 * j + 1] += vr * bi + vi * br;
        }
      }
    }
    return o;
  }

  /** Identity n x n, real or complex. */
  static double[] identity(int n, boolean complex) {
    double[] o = new double[(complex ? 2 : 1) * n * n];
    for (int i = 0; i < n; i++) {
      o[(complex ? 2 : 1) * (i * n + i)] = 1;
    }
    return o;
  }
}
