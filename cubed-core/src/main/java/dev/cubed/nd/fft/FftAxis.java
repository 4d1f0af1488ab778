package dev.cubed.nd.fft;

import java.util.Arrays;

/**
 * One-axis transforms on C-order double work buffers: complex data interleaved (re, im), real data
 * plain. Each method reads lines along {@code axis} of {@code shape}, zero-pads or truncates them
 * to the transform length, runs an {@link FftPlan} and scales by {@code scale}; it returns a new
 * buffer whose shape is {@code shape} with the axis length replaced (see the method).
 */
final class FftAxis {
  private FftAxis() {}

  /** Line geometry of an axis: count of outer blocks, axis length, inner (stride) size. */
  private static long[] geometry(int[] shape, int axis) {
    long outer = 1;
    long inner = 1;
    for (int i = 0; i < axis; i++) {
      outer *= shape[i];
    }
    for (int i = axis + 1; i < shape.length; i++) {
      inner *= shape[i];
    }
    return new long[] {outer, inner};
  }

  private static int outSize(long outer, int len, long inner, String fn) {
    long s = outer * len * inner;
    if (s > Integer.MAX_VALUE - 8 || 2 * s > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          fn + ": result of " + s + " elements is too large for one chunk");
    }
    return (int) s;
  }

  /**
   * Complex to complex along an axis: output axis length {@code n}. {@link Direction#BACKWARD}
   * selects the positive exponent.
   */
  static double[] complex(
      double[] in, int[] shape, int axis, int n, Direction dir, double scale, String fn) {
    long[] g = geometry(shape, axis);
    long outer = g[0];
    int inner = (int) g[1];
    int len = shape[axis];
    double[] out = new double[2 * outSize(outer, n, inner, fn)];
    FftPlan plan = FftPlan.of(n);
    double[] re = new double[n];
    double[] im = new double[n];
    FftPlan.Work w = plan.newWork();
    int copy = Math.min(len, n);
    for (long o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        long inBase = o * len * inner + i;
        long outBase = o * n * inner + i;
        if (inner == 1) { // contiguous lines
          for (int a = 0, src = (int) (2 * inBase); a < copy; a++, src += 2) {
            re[a] = in[src];
            im[a] = in[src + 1];
          }
        } else {
          for (int a = 0; a < copy; a++) {
            int src = (int) (2 * (inBase + (long) a * inner));
            re[a] = in[src];
            im[a] = in[src + 1];
          }
        }
        Arrays.fill(re, copy, n, 0.0);
        Arrays.fill(im, copy, n, 0.0);
        if (dir == Direction.FORWARD) {
          plan.forward(re, im, w);
        } else {
          plan.backward(re, im, w);
        }
        if (inner == 1) {
          for (int a = 0, dst = (int) (2 * outBase); a < n; a++, dst += 2) {
            out[dst] = re[a] * scale;
            out[dst + 1] = im[a] * scale;
          }
        } else {
          for (int a = 0; a < n; a++) {
            int dst = (int) (2 * (outBase + (long) a * inner));
            out[dst] = re[a] * scale;
            out[dst + 1] = im[a] * scale;
          }
        }
      }
    }
    return out;
  }

  /**
   * Real to half spectrum along an axis (forward): output axis length {@code n / 2 + 1}, complex.
   */
  static double[] realForward(double[] in, int[] shape, int axis, int n, double scale, String fn) {
    long[] g = geometry(shape, axis);
    long outer = g[0];
    int inner = (int) g[1];
    int len = shape[axis];
    int h = n / 2 + 1;
    double[] out = new double[2 * outSize(outer, h, inner, fn)];
    FftReal plan = FftReal.of(n);
    double[] line = new double[n];
    double[] hr = new double[h];
    double[] hi = new double[h];
    double[] re = new double[plan.workLength()];
    double[] im = new double[plan.workLength()];
    FftPlan.Work w = plan.newWork();
    int copy = Math.min(len, n);
    for (long o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        long inBase = o * len * inner + i;
        long outBase = o * h * inner + i;
        if (inner == 1) {
          System.arraycopy(in, (int) inBase, line, 0, copy);
        } else {
          for (int a = 0; a < copy; a++) {
            line[a] = in[(int) (inBase + (long) a * inner)];
          }
        }
        Arrays.fill(line, copy, n, 0.0);
        plan.forward(line, hr, hi, re, im, w);
        for (int a = 0; a < h; a++) {
          int dst = (int) (2 * (outBase + (long) a * inner));
          out[dst] = hr[a] * scale;
          out[dst + 1] = hi[a] * scale;
        }
      }
    }
    return out;
  }

  /**
   * Half spectrum to real along an axis (inverse): the input line is truncated or zero-padded to
   * {@code n / 2 + 1} entries, extended Hermitian-symmetrically to {@code n}, transformed with the
   * positive exponent and the real part kept (imaginary parts of the zero and Nyquist terms are
   * ignored, as in NumPy). Output axis length {@code n}, real.
   */
  static double[] realBackward(double[] in, int[] shape, int axis, int n, double scale, String fn) {
    long[] g = geometry(shape, axis);
    long outer = g[0];
    int inner = (int) g[1];
    int len = shape[axis];
    int h = n / 2 + 1;
    double[] out = new double[outSize(outer, n, inner, fn)];
    FftReal plan = FftReal.of(n);
    double[] line = new double[n];
    double[] hr = new double[h];
    double[] hi = new double[h];
    double[] re = new double[plan.workLength()];
    double[] im = new double[plan.workLength()];
    FftPlan.Work w = plan.newWork();
    int copy = Math.min(len, h);
    for (long o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        long inBase = o * len * inner + i;
        long outBase = o * n * inner + i;
        for (int a = 0; a < copy; a++) {
          int src = (int) (2 * (inBase + (long) a * inner));
          hr[a] = in[src];
          hi[a] = in[src + 1];
        }
        Arrays.fill(hr, copy, h, 0.0);
        Arrays.fill(hi, copy, h, 0.0);
        plan.backward(hr, hi, line, re, im, w);
        if (inner == 1) {
          int base = (int) outBase;
          for (int a = 0; a < n; a++) {
            out[base + a] = line[a] * scale;
          }
        } else {
          for (int a = 0; a < n; a++) {
            out[(int) (outBase + (long) a * inner)] = line[a] * scale;
          }
        }
      }
    }
    return out;
  }

  /** Sign of the exponent of a complex transform. */
  enum Direction {
    FORWARD,
    BACKWARD
  }
}
