package dev.cubed.nd.fft;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.fft.FftAxis.Direction;
import java.util.Arrays;

/**
 * The Array API {@code fft} extension on in-memory {@link NDArray} chunks.
 *
 * <p>Every transform runs in double precision, for any length in O(n log n) (mixed radix 4/2/odd
 * primes for lengths whose prime factors are at most 23, powers of two included; Bluestein
 * otherwise; real transforms of even length packed into half-length complex ones). Results of
 * {@code float32}/{@code complex64} inputs are computed in double and rounded once to {@code
 * complex64}/{@code float32}.
 *
 * <p>Dtypes follow NumPy: complex transforms ({@code fft, ifft, fftn, ifftn}) accept any numeric or
 * bool input, promoting {@code float32} to {@code complex64} and every other real type to {@code
 * complex128}; {@code rfft, rfftn, ihfft} accept only real (bool, integer, real floating) input,
 * {@code float32} giving {@code complex64} and the rest {@code complex128}; {@code irfft, irfftn,
 * hfft} return {@code float32} for {@code complex64}/{@code float32} input and {@code float64}
 * otherwise.
 *
 * <p>Lengths: {@code n} (or an entry of {@code s}) zero-pads or truncates the input along its axis;
 * {@code null} means the input's length (for {@code irfft}/{@code hfft}: {@code 2 * (m - 1)} where
 * {@code m} is the input length); an entry {@code -1} of {@code s} means the same as absent. Errors
 * (non-positive lengths, axes out of range or repeated, {@code s} and {@code axes} of different
 * lengths, complex input to a real transform) throw {@link IllegalArgumentException} naming the
 * function.
 */
public final class Fft {
  private Fft() {}

  /**
   * Normalization mode of the standard ({@code "backward"}, {@code "ortho"}, {@code "forward"}).
   */
  public enum Norm {
    /** No scaling on the forward transform, {@code 1/n} on the inverse (the default). */
    BACKWARD,
    /** {@code 1/sqrt(n)} on both directions. */
    ORTHO,
    /** {@code 1/n} on the forward transform, none on the inverse. */
    FORWARD;

    Norm swapped() {
      return this == BACKWARD ? FORWARD : this == FORWARD ? BACKWARD : ORTHO;
    }

    double scale(int n, Direction dir) {
      return switch (this) {
        case ORTHO -> 1.0 / Math.sqrt(n);
        case BACKWARD -> dir == Direction.FORWARD ? 1.0 : 1.0 / n;
        case FORWARD -> dir == Direction.FORWARD ? 1.0 / n : 1.0;
      };
    }
  }

  // ------------------------------------------------------------------ 1-d complex

  /** {@code fft(x)} along the last axis, length of the input, {@link Norm#BACKWARD}. */
  public static NDArray fft(NDArray x) {
    return fft(x, null, -1, Norm.BACKWARD);
  }

  /**
   * One-dimensional discrete Fourier transform along {@code axis}.
   *
   * @param n transform length (pad with zeros / truncate); null for the input length
   * @return complex array with the axis of length {@code n}
   */
  public static NDArray fft(NDArray x, Integer n, int axis, Norm norm) {
    return complex1("fft", x, n, axis, norm, Direction.FORWARD);
  }

  /** {@code ifft(x)} along the last axis, length of the input, {@link Norm#BACKWARD}. */
  public static NDArray ifft(NDArray x) {
    return ifft(x, null, -1, Norm.BACKWARD);
  }

  /** One-dimensional inverse discrete Fourier transform; arguments as in {@link #fft}. */
  public static NDArray ifft(NDArray x, Integer n, int axis, Norm norm) {
    return complex1("ifft", x, n, axis, norm, Direction.BACKWARD);
  }

  // ------------------------------------------------------------------ n-d complex

  /** {@code fftn(x)} over every axis. */
  public static NDArray fftn(NDArray x) {
    return fftn(x, null, null, Norm.BACKWARD);
  }

  /**
   * N-dimensional discrete Fourier transform.
   *
   * @param s lengths per transformed axis (-1 keeps the input's); null for the input's
   * @param axes axes to transform; null for the last {@code s.length} axes, or every axis when
   *     {@code s} is null too
   */
  public static NDArray fftn(NDArray x, int[] s, int[] axes, Norm norm) {
    return complexN("fftn", x, s, axes, norm, Direction.FORWARD);
  }

  /** {@code ifftn(x)} over every axis. */
  public static NDArray ifftn(NDArray x) {
    return ifftn(x, null, null, Norm.BACKWARD);
  }

  /** N-dimensional inverse discrete Fourier transform; arguments as in {@link #fftn}. */
  public static NDArray ifftn(NDArray x, int[] s, int[] axes, Norm norm) {
    return complexN("ifftn", x, s, axes, norm, Direction.BACKWARD);
  }

  // ------------------------------------------------------------------ real input / output

  /** {@code rfft(x)} along the last axis. */
  public static NDArray rfft(NDArray x) {
    return rfft(x, null, -1, Norm.BACKWARD);
  }

  /**
   * Discrete Fourier transform of real input: the {@code n/2 + 1} non-negative frequency terms.
   *
   * @throws IllegalArgumentException for complex input
   */
  public static NDArray rfft(NDArray x, Integer n, int axis, Norm norm) {
    return rfft1("rfft", x, n, axis, norm);
  }

  /** {@code irfft(x)} along the last axis, output length {@code 2 * (m - 1)}. */
  public static NDArray irfft(NDArray x) {
    return irfft(x, null, -1, Norm.BACKWARD);
  }

  /**
   * Inverse of {@link #rfft}: real output of length {@code n} (default {@code 2 * (m - 1)}) from
   * the first {@code n/2 + 1} input terms (truncated or zero-padded).
   */
  public static NDArray irfft(NDArray x, Integer n, int axis, Norm norm) {
    return irfft1("irfft", x, n, axis, norm, false);
  }

  /** {@code rfftn(x)} over every axis. */
  public static NDArray rfftn(NDArray x) {
    return rfftn(x, null, null, Norm.BACKWARD);
  }

  /**
   * N-dimensional transform of real input: {@code rfft} on the last listed axis, then {@code fft}
   * on the others. Arguments as in {@link #fftn}; at least one axis.
   */
  public static NDArray rfftn(NDArray x, int[] s, int[] axes, Norm norm) {
    String fn = "rfftn";
    checkReal(fn, x);
    int[][] sa = resolve(fn, x.shape(), s, axes, false);
    int[] ax = sa[1];
    int[] ls = sa[0];
    if (ax.length == 0) {
      throw new IllegalArgumentException(fn + ": at least one axis must be transformed");
    }
    int last = ax.length - 1;
    int[] shape = FftBuffers.intShape(x);
    double[] buf = FftBuffers.realBuffer(x);
    buf =
        FftAxis.realForward(
            buf, shape, ax[last], ls[last], norm.scale(ls[last], Direction.FORWARD), fn);
    shape[ax[last]] = ls[last] / 2 + 1;
    for (int i = last - 1; i >= 0; i--) {
      buf =
          FftAxis.complex(
              buf,
              shape,
              ax[i],
              ls[i],
              Direction.FORWARD,
              norm.scale(ls[i], Direction.FORWARD),
              fn);
      shape[ax[i]] = ls[i];
    }
    return FftBuffers.complexResult(buf, shape, x.dtype());
  }

  /** {@code irfftn(x)} over every axis. */
  public static NDArray irfftn(NDArray x) {
    return irfftn(x, null, null, Norm.BACKWARD);
  }

  /**
   * Inverse of {@link #rfftn}: {@code ifft} over all listed axes but the last, then {@code irfft}
   * on the last, whose output length defaults to {@code 2 * (m - 1)}.
   */
  public static NDArray irfftn(NDArray x, int[] s, int[] axes, Norm norm) {
    String fn = "irfftn";
    int[][] sa = resolve(fn, x.shape(), s, axes, true);
    int[] ax = sa[1];
    int[] ls = sa[0];
    if (ax.length == 0) {
      throw new IllegalArgumentException(fn + ": at least one axis must be transformed");
    }
    int last = ax.length - 1;
    int[] shape = FftBuffers.intShape(x);
    double[] buf = FftBuffers.complexBuffer(x);
    for (int i = last - 1; i >= 0; i--) {
      buf =
          FftAxis.complex(
              buf,
              shape,
              ax[i],
              ls[i],
              Direction.BACKWARD,
              norm.scale(ls[i], Direction.BACKWARD),
              fn);
      shape[ax[i]] = ls[i];
    }
    buf =
        FftAxis.realBackward(
            buf, shape, ax[last], ls[last], norm.scale(ls[last], Direction.BACKWARD), fn);
    shape[ax[last]] = ls[last];
    return FftBuffers.realResult(buf, shape, x.dtype());
  }

  /** {@code hfft(x)} along the last axis, output length {@code 2 * (m - 1)}. */
  public static NDArray hfft(NDArray x) {
    return hfft(x, null, -1, Norm.BACKWARD);
  }

  /**
   * Transform of a Hermitian-symmetric signal given by its first half: real output of length {@code
   * n} (default {@code 2 * (m - 1)}); equals {@code irfft(conj(x))} with the normalization
   * direction swapped.
   */
  public static NDArray hfft(NDArray x, Integer n, int axis, Norm norm) {
    return irfft1("hfft", x, n, axis, norm.swapped(), true);
  }

  /** {@code ihfft(x)} along the last axis. */
  public static NDArray ihfft(NDArray x) {
    return ihfft(x, null, -1, Norm.BACKWARD);
  }

  /**
   * Inverse of {@link #hfft} for real input: {@code conj(rfft(x))} with the normalization direction
   * swapped; {@code n/2 + 1} complex outputs.
   *
   * @throws IllegalArgumentException for complex input
   */
  public static NDArray ihfft(NDArray x, Integer n, int axis, Norm norm) {
    NDArray r = rfft1("ihfft", x, n, axis, norm.swapped());
    FftBuffers.conjugateInPlace(r);
    return r;
  }

  // ------------------------------------------------------------------ frequencies and shifts

  /** {@code fftfreq(n)} with spacing 1, float64. */
  public static NDArray fftfreq(int n) {
    return fftfreq(n, 1.0, DType.FLOAT64);
  }

  /** {@code fftfreq(n, d)}, float64. */
  public static NDArray fftfreq(int n, double d) {
    return fftfreq(n, d, DType.FLOAT64);
  }

  /**
   * Sample frequencies of an {@code fft} of length {@code n} with sample spacing {@code d}: {@code
   * [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d * n)}, shape {@code (n,)}.
   *
   * @param dtype float32 or float64
   * @throws IllegalArgumentException if {@code n < 1}, {@code d == 0} or the dtype is not real
   *     floating
   */
  public static NDArray fftfreq(int n, double d, DType dtype) {
    return FftFreq.fftfreq("fftfreq", n, d, dtype, false);
  }

  /** {@code rfftfreq(n)} with spacing 1, float64. */
  public static NDArray rfftfreq(int n) {
    return rfftfreq(n, 1.0, DType.FLOAT64);
  }

  /** {@code rfftfreq(n, d)}, float64. */
  public static NDArray rfftfreq(int n, double d) {
    return rfftfreq(n, d, DType.FLOAT64);
  }

  /**
   * Sample frequencies of an {@code rfft} of length {@code n}: {@code [0, 1, ..., n/2] / (d * n)},
   * shape {@code (n/2 + 1,)}. Errors as in {@link #fftfreq(int, double, DType)}.
   */
  public static NDArray rfftfreq(int n, double d, DType dtype) {
    return FftFreq.fftfreq("rfftfreq", n, d, dtype, true);
  }

  /** {@code fftshift(x)} over every axis. */
  public static NDArray fftshift(NDArray x) {
    return fftshift(x, (int[]) null);
  }

  /**
   * Moves the zero-frequency term to the middle: rolls each axis in {@code axes} (null: all) by
   * {@code len / 2}. Any dtype; the result is a new array of the same dtype and shape.
   */
  public static NDArray fftshift(NDArray x, int... axes) {
    return FftFreq.shift("fftshift", x, axes, false);
  }

  /** {@code ifftshift(x)} over every axis. */
  public static NDArray ifftshift(NDArray x) {
    return ifftshift(x, (int[]) null);
  }

  /**
   * Inverse of {@link #fftshift}: rolls each axis in {@code axes} (null: all) by {@code -(len /
   * 2)}.
   */
  public static NDArray ifftshift(NDArray x, int... axes) {
    return FftFreq.shift("ifftshift", x, axes, true);
  }

  // ------------------------------------------------------------------ drivers

  private static NDArray complex1(
      String fn, NDArray x, Integer n, int axis, Norm norm, Direction dir) {
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    int len = length(fn, n, (int) x.shape(ax));
    int[] shape = FftBuffers.intShape(x);
    double[] buf =
        FftAxis.complex(FftBuffers.complexBuffer(x), shape, ax, len, dir, norm.scale(len, dir), fn);
    shape[ax] = len;
    return FftBuffers.complexResult(buf, shape, x.dtype());
  }

  private static NDArray complexN(
      String fn, NDArray x, int[] s, int[] axes, Norm norm, Direction dir) {
    int[][] sa = resolve(fn, x.shape(), s, axes, false);
    int[] shape = FftBuffers.intShape(x);
    double[] buf = FftBuffers.complexBuffer(x);
    for (int i = sa[1].length - 1; i >= 0; i--) {
      int a = sa[1][i];
      int len = sa[0][i];
      buf = FftAxis.complex(buf, shape, a, len, dir, norm.scale(len, dir), fn);
      shape[a] = len;
    }
    return FftBuffers.complexResult(buf, shape, x.dtype());
  }

  private static NDArray rfft1(String fn, NDArray x, Integer n, int axis, Norm norm) {
    checkReal(fn, x);
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    int len = length(fn, n, (int) x.shape(ax));
    int[] shape = FftBuffers.intShape(x);
    double[] buf =
        FftAxis.realForward(
            FftBuffers.realBuffer(x), shape, ax, len, norm.scale(len, Direction.FORWARD), fn);
    shape[ax] = len / 2 + 1;
    return FftBuffers.complexResult(buf, shape, x.dtype());
  }

  private static NDArray irfft1(
      String fn, NDArray x, Integer n, int axis, Norm norm, boolean conjugate) {
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    int len = n != null ? length(fn, n, 0) : length(fn, null, 2 * ((int) x.shape(ax) - 1));
    int[] shape = FftBuffers.intShape(x);
    double[] in = FftBuffers.complexBuffer(x);
    if (conjugate) {
      for (int i = 1; i < in.length; i += 2) {
        in[i] = -in[i];
      }
    }
    double[] buf =
        FftAxis.realBackward(in, shape, ax, len, norm.scale(len, Direction.BACKWARD), fn);
    shape[ax] = len;
    return FftBuffers.realResult(buf, shape, x.dtype());
  }

  /** The transform length: {@code n} if given, else the default; must be at least 1. */
  private static int length(String fn, Integer n, int dflt) {
    int len = n != null ? n : dflt;
    if (len < 1) {
      throw new IllegalArgumentException(
          fn
              + ": invalid number of data points "
              + len
              + (n == null ? " (from the input shape)" : "")
              + "; n must be >= 1");
    }
    return len;
  }

  /**
   * Resolves {@code s} and {@code axes} of an n-d transform into {lengths, axes} in the order given
   * (duplicates rejected). {@code lastHalf} marks irfftn, whose last default length is {@code 2 *
   * (m - 1)}.
   */
  public static int[][] resolve(String fn, long[] shape, int[] s, int[] axes, boolean lastHalf) {
    int nd = shape.length;
    int[] ax;
    if (axes == null) {
      int k = s == null ? nd : s.length;
      if (k > nd) {
        throw new IllegalArgumentException(
            fn
                + ": s "
                + Arrays.toString(s)
                + " has more entries than the "
                + nd
                + " dimension(s) of shape "
                + Shapes.format(shape));
      }
      ax = new int[k];
      for (int i = 0; i < k; i++) {
        ax[i] = nd - k + i;
      }
    } else {
      if (s != null && s.length != axes.length) {
        throw new IllegalArgumentException(
            fn
                + ": s "
                + Arrays.toString(s)
                + " and axes "
                + Arrays.toString(axes)
                + " must have the same length");
      }
      ax = new int[axes.length];
      boolean[] seen = new boolean[nd];
      for (int i = 0; i < axes.length; i++) {
        ax[i] = Shapes.normalizeAxis(fn, axes[i], nd);
        if (seen[ax[i]]) {
          throw new IllegalArgumentException(
              fn
                  + ": axis "
                  + axes[i]
                  + " is repeated in axes "
                  + Arrays.toString(axes)
                  + "; each axis may appear once");
        }
        seen[ax[i]] = true;
      }
    }
    int[] ls = new int[ax.length];
    for (int i = 0; i < ax.length; i++) {
      boolean given = s != null && s[i] != -1;
      if (given) {
        if (s[i] < 1) {
          throw new IllegalArgumentException(
              fn
                  + ": invalid number of data points "
                  + s[i]
                  + " in s "
                  + Arrays.toString(s)
                  + "; each entry must be >= 1 (or -1 for the input's length)");
        }
        ls[i] = s[i];
      } else {
        int m = (int) shape[ax[i]];
        ls[i] = lastHalf && i == ax.length - 1 ? 2 * (m - 1) : m;
        if (ls[i] < 1) {
          throw new IllegalArgumentException(
              fn
                  + ": invalid number of data points "
                  + ls[i]
                  + " for axis "
                  + ax[i]
                  + " of shape "
                  + Shapes.format(shape)
                  + "; it must be >= 1");
        }
      }
    }
    return new int[][] {ls, ax};
  }

  // ------------------------------------------------------------------ dtype handling

  private static void checkReal(String fn, NDArray x) {
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException(
          fn
              + ": input dtype "
              + x.dtype()
              + " is complex; "
              + fn
              + " needs a real-valued array (bool, integer, float32 or float64)");
    }
  }
}
