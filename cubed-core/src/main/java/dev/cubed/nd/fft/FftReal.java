package dev.cubed.nd.fft;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Real-input forward and real-output inverse DFTs of one length. Even lengths {@code n = 2h} pack
 * the real line into a complex line of length {@code h} ({@code z_j = x_2j + i x_2j+1}), run one
 * half-length {@link FftPlan} and untangle the even and odd spectra with the twiddles {@code exp(-2
 * pi i k / n)}; odd lengths run the full complex transform. Both directions are unnormalized, like
 * {@link FftPlan}. Immutable and thread-safe; {@link #of} caches recent lengths.
 */
final class FftReal {
  private static final int CACHE_SIZE = 32;
  private static final Map<Integer, FftReal> CACHE =
      new LinkedHashMap<>(CACHE_SIZE, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, FftReal> e) {
          return size() > CACHE_SIZE;
        }
      };

  final int n;
  private final FftPlan plan; // length n / 2 when packed, n otherwise
  private final boolean packed;
  private final double[] wRe; // exp(-2 pi i k / n), k = 0..n/2 (packed only)
  private final double[] wIm;

  static FftReal of(int n) {
    synchronized (CACHE) {
      FftReal p = CACHE.get(n);
      if (p != null) {
        return p;
      }
    }
    FftReal p = new FftReal(n);
    synchronized (CACHE) {
      CACHE.put(n, p);
    }
    return p;
  }

  private FftReal(int n) {
    this.n = n;
    this.packed = n % 2 == 0;
    if (packed) {
      int h = n / 2;
      plan = FftPlan.of(h);
      wRe = new double[h + 1];
      wIm = new double[h + 1];
      for (int k = 0; k <= h; k++) {
        wRe[k] = FftPlan.cosPi(2L * k, n);
        wIm[k] = -FftPlan.sinPi(2L * k, n);
      }
    } else {
      plan = FftPlan.of(n);
      wRe = wIm = null;
    }
  }

  /** Fresh scratch space of the underlying complex plan. */
  FftPlan.Work newWork() {
    return plan.newWork();
  }

  /** Length of the work arrays {@link #forward} and {@link #backward} need. */
  int workLength() {
    return packed ? n / 2 + 1 : n;
  }

  /**
   * Forward transform of {@code x[0..n)}: writes the {@code n/2 + 1} non-negative frequency terms
   * to {@code outRe/outIm} (length >= n/2 + 1). {@code re, im} are work arrays of {@link
   * #workLength()}, {@code w} from {@link #newWork()}.
   */
  void forward(
      double[] x, double[] outRe, double[] outIm, double[] re, double[] im, FftPlan.Work w) {
    if (!packed) {
      System.arraycopy(x, 0, re, 0, n);
      Arrays.fill(im, 0, n, 0.0);
      plan.forward(re, im, w);
      System.arraycopy(re, 0, outRe, 0, n / 2 + 1);
      System.arraycopy(im, 0, outIm, 0, n / 2 + 1);
      return;
    }
    int h = n / 2;
    for (int j = 0; j < h; j++) {
      re[j] = x[2 * j];
      im[j] = x[2 * j + 1];
    }
    plan.forward(re, im, w);
    for (int k = 0; k <= h; k++) {
      int a = k == h ? 0 : k;
      int b = k == 0 ? 0 : h - k;
      // E = (Z_a + conj(Z_b)) / 2 ; O = (Z_a - conj(Z_b)) / (2i)
      double er = 0.5 * (re[a] + re[b]);
      double ei = 0.5 * (im[a] - im[b]);
      double or = 0.5 * (im[a] + im[b]);
      double oi = -0.5 * (re[a] - re[b]);
      outRe[k] = er + wRe[k] * or - wIm[k] * oi;
      outIm[k] = ei + wRe[k] * oi + wIm[k] * or;
    }
  }

  /**
   * Unnormalized inverse: from the half spectrum {@code inRe/inIm[0..n/2]} (imaginary parts of the
   * zero and, for even n, Nyquist terms ignored) writes the real line to {@code y[0..n)}. {@code
   * re, im} are work arrays of {@link #workLength()}, {@code w} from {@link #newWork()}; the inputs
   * are not modified.
   */
  void backward(
      double[] inRe, double[] inIm, double[] y, double[] re, double[] im, FftPlan.Work w) {
    int h = n / 2;
    if (!packed) {
      re[0] = inRe[0];
      im[0] = 0;
      for (int k = 1; k <= h; k++) {
        re[k] = inRe[k];
        im[k] = inIm[k];
        re[n - k] = inRe[k];
        im[n - k] = -inIm[k];
      }
      plan.backward(re, im, w);
      System.arraycopy(re, 0, y, 0, n);
      return;
    }
    for (int k = 0; k < h; k++) {
      int b = h - k;
      double xr = inRe[k];
      double xi = k == 0 ? 0 : inIm[k];
      double cr = inRe[b];
      double ci = b == h ? 0 : -inIm[b]; // conj(X_{h-k}), X_h's imaginary part ignored
      double er = xr + cr;
      double ei = xi + ci;
      double dr = xr - cr;
      double di = xi - ci;
      // O = (X_k - conj(X_{h-k})) * conj(w^k)
      double or = dr * wRe[k] + di * wIm[k];
      double oi = di * wRe[k] - dr * wIm[k];
      // Z = E + i O
      re[k] = er - oi;
      im[k] = ei + or;
    }
    plan.backward(re, im, w);
    for (int j = 0; j < h; j++) {
      y[2 * j] = re[j];
      y[2 * j + 1] = im[j];
    }
  }
}
