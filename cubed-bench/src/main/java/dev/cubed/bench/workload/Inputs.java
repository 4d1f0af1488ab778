package dev.cubed.bench.workload;

import dev.cubed.FillFunction;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.FastTrig;

/**
 * The inputs of docs/benchmarks.md, computed from index arithmetic (no random generator), evaluated
 * left to right with the indices converted to double first:
 *
 * <pre>
 *   A[i, j]       = 0.5 + 0.5*sin(G*i + j)
 *   B[i, j]       = 0.5 + 0.5*cos(G*i - j)
 *   X[t, y, x]    = 0.5 + 0.5*sin(G*t + S*y + x)
 *   U[t, 0, y, x] = 0.5 + 0.5*sin(G*t + S*y + x)
 *   V[t, 0, y, x] = 0.5 + 0.5*cos(G*t - S*y + x)
 * </pre>
 *
 * <p>Element functions give one value; block functions give a float64 {@link NDArray} block whose
 * first element has the given global indices (origin) and the given shape.
 */
public final class Inputs {
  /** The golden-ratio constant G. */
  public static final double G = 0.6180339887498949;

  /** The silver-ratio constant S. */
  public static final double S = 0.41421356237309515;

  private Inputs() {}

  /** {@code A[i, j]}. */
  public static double a(long i, long j) {
    return 0.5 + 0.5 * Math.sin(G * (double) i + (double) j);
  }

  /** {@code B[i, j]}. */
  public static double b(long i, long j) {
    return 0.5 + 0.5 * Math.cos(G * (double) i - (double) j);
  }

  /** {@code X[t, y, x]}, also {@code U[t, 0, y, x]}. */
  public static double x(long t, long y, long x) {
    return 0.5 + 0.5 * Math.sin(G * (double) t + S * (double) y + (double) x);
  }

  /** {@code V[t, 0, y, x]}. */
  public static double v(long t, long y, long x) {
    return 0.5 + 0.5 * Math.cos(G * (double) t - S * (double) y + (double) x);
  }

  /** The block of A starting at (i0, j0) of shape (rows, cols). */
  public static NDArray aBlock(long i0, long j0, int rows, int cols) {
    return block2d(false, i0, j0, rows, cols);
  }

  /** The block of B starting at (i0, j0) of shape (rows, cols). */
  public static NDArray bBlock(long i0, long j0, int rows, int cols) {
    return block2d(true, i0, j0, rows, cols);
  }

  /** A's boxes (2-D global start and shape), written in place. */
  static final FillFunction A = new TwoD(false);

  /** B's boxes (2-D global start and shape), written in place. */
  static final FillFunction B = new TwoD(true);

  /** The boxes of A (sin) or B (cos). */
  private record TwoD(boolean cosine) implements FillFunction {
    @Override
    public void fill(long[] start, long[] shape, Object dst, int at) {
      fill2d(cosine, start[0], start[1], (int) shape[0], (int) shape[1], (double[]) dst, at);
    }
  }

  private static NDArray block2d(boolean cosine, long i0, long j0, int rows, int cols) {
    double[] d = new double[Math.multiplyExact(rows, cols)];
    fill2d(cosine, i0, j0, rows, cols, d, 0);
    return new NDArray(DType.FLOAT64, new long[] {rows, cols}, d);
  }

  /**
   * A (sin, {@code G*i + j}) or B (cos, {@code G*i - j}) from (i0, j0), (rows, cols) of it, into
   * {@code d} from {@code at}: each row's arguments are written, then sin/cos runs over the row in
   * place ({@link FastTrig}: the Vector API when present), then {@code 0.5 + 0.5*v}.
   */
  private static void fill2d(
      boolean cosine, long i0, long j0, int rows, int cols, double[] d, int at) {
    for (int r = 0; r < rows; r++) {
      double gi = G * (double) (i0 + r);
      int off = at + r * cols;
      for (int c = 0; c < cols; c++) {
        d[off + c] = cosine ? gi - (double) (j0 + c) : gi + (double) (j0 + c);
      }
      trigThenScale(cosine, d, off, cols);
    }
  }

  /** {@code d[off..off+n) = 0.5 + 0.5*sin(d)} (or cos), in place. */
  private static void trigThenScale(boolean cosine, double[] d, int off, int n) {
    if (cosine) {
      FastTrig.cos(d, off, d, off, n);
    } else {
      FastTrig.sin(d, off, d, off, n);
    }
    for (int i = off; i < off + n; i++) {
      d[i] = 0.5 + 0.5 * d[i];
    }
  }

  /**
   * The block of X (3-D, {@code dims} = 3) or U/V (4-D with a unit axis 1, {@code dims} = 4)
   * starting at time t0 and spatial origin (y0, x0), of extent (nt, ny, nx) in (t, y, x).
   *
   * @param cosine false for X and U (sin, {@code + S*y}), true for V (cos, {@code - S*y})
   */
  public static NDArray txyBlock(
      boolean cosine, int dims, long t0, long y0, long x0, int nt, int ny, int nx) {
    double[] d = new double[Math.multiplyExact(Math.multiplyExact(nt, ny), nx)];
    int k = 0;
    for (int t = 0; t < nt; t++) {
      double gt = G * (double) (t0 + t);
      for (int y = 0; y < ny; y++) {
        double sy = S * (double) (y0 + y);
        double base = cosine ? gt - sy : gt + sy;
        int row = k;
        for (int x = 0; x < nx; x++) {
          d[k++] = base + (double) (x0 + x);
        }
        trigThenScale(cosine, d, row, nx);
      }
    }
    long[] shape = dims == 4 ? new long[] {nt, 1, ny, nx} : new long[] {nt, ny, nx};
    return new NDArray(DType.FLOAT64, shape, d);
  }
}
