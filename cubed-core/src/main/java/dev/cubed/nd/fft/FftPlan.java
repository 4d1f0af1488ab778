package dev.cubed.nd.fft;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A precomputed 1-d complex DFT of one length, computed in double precision on split real and
 * imaginary arrays, in place and unnormalized. Two strategies, both O(n log n):
 *
 * <ul>
 *   <li>lengths whose prime factors are all at most {@link #MAX_DIRECT_PRIME}, powers of two
 *       included: depth-first mixed-radix Cooley-Tukey decimation in time (radix 4 while 4 divides
 *       the length, then radix 2 and a generic odd-prime butterfly) with one table of n exact
 *       {@code cos/sin} twiddles. The depth-first order keeps sub-transforms in cache; it measured
 *       faster here than an iterative bit-reversed radix-2 for long powers of two;
 *   <li>any other length: Bluestein's chirp-z algorithm through a power-of-two plan of length
 *       {@code m >= 2n - 1}, the chirp angles reduced exactly with integer arithmetic.
 * </ul>
 *
 * Plans are immutable and thread-safe; {@link #of} keeps a small LRU cache of recent lengths.
 */
final class FftPlan {
  /** Largest prime factor handled by the direct mixed-radix path; larger ones use Bluestein. */
  static final int MAX_DIRECT_PRIME = 23;

  private static final int CACHE_SIZE = 32;
  private static final Map<Integer, FftPlan> CACHE =
      new LinkedHashMap<>(CACHE_SIZE, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, FftPlan> e) {
          return size() > CACHE_SIZE;
        }
      };

  private enum Kind {
    TRIVIAL,
    MIXED,
    BLUESTEIN
  }

  final int n;
  private final Kind kind;
  private final double[] twRe;
  private final double[] twIm;
  private final int[] factors;
  private final int[] rest;
  // Bluestein
  private final FftPlan sub;
  private final double[] chirpRe;
  private final double[] chirpIm;
  private final double[] kernRe;
  private final double[] kernIm;

  /** The (cached) plan for length {@code n >= 1}. */
  static FftPlan of(int n) {
    synchronized (CACHE) {
      FftPlan p = CACHE.get(n);
      if (p != null) {
        return p;
      }
    }
    FftPlan p = new FftPlan(n);
    synchronized (CACHE) {
      CACHE.put(n, p);
    }
    return p;
  }

  private FftPlan(int n) {
    if (n < 1) {
      throw new IllegalArgumentException(
          "fft: invalid number of data points " + n + "; it must be >= 1");
    }
    this.n = n;
    int[][] f = factorize(n);
    int[] fac = f[0];
    int maxPrime = f[1][0];
    FftPlan subPlan = null;
    double[] cRe = null, cIm = null, kRe = null, kIm = null;
    int[] rst = null;
    if (n <= 1) {
      kind = Kind.TRIVIAL;
      twRe = twIm = null;
    } else if (maxPrime <= MAX_DIRECT_PRIME) {
      kind = Kind.MIXED;
      twRe = new double[n];
      twIm = new double[n];
      for (int k = 0; k < n; k++) {
        twRe[k] = cosPi(2L * k, n);
        twIm[k] = -sinPi(2L * k, n);
      }
      rst = new int[fac.length];
      int r = n;
      for (int i = 0; i < fac.length; i++) {
        r /= fac[i];
        rst[i] = r;
      }
    } else {
      kind = Kind.BLUESTEIN;
      twRe = twIm = null;
      int m = Integer.highestOneBit(2 * n - 1);
      if (m < 2 * n - 1) {
        m <<= 1;
      }
      subPlan = of(m);
      cRe = new double[n];
      cIm = new double[n];
      long twoN = 2L * n;
      for (int k = 0; k < n; k++) {
        // exp(-i pi k^2 / n), k^2 reduced mod 2n so the angle is exact
        long q = ((long) k * k) % twoN;
        cRe[k] = cosPi(q, n);
        cIm[k] = -sinPi(q, n);
      }
      kRe = new double[m];
      kIm = new double[m];
      double inv = 1.0 / m;
      kRe[0] = cRe[0] * inv;
      kIm[0] = -cIm[0] * inv;
      for (int k = 1; k < n; k++) {
        kRe[k] = kRe[m - k] = cRe[k] * inv;
        kIm[k] = kIm[m - k] = -cIm[k] * inv;
      }
      subPlan.forward(kRe, kIm);
    }
    factors = fac;
    rest = rst;
    sub = subPlan;
    chirpRe = cRe;
    chirpIm = cIm;
    kernRe = kRe;
    kernIm = kIm;
  }

  /** cos(pi * num / den) with the angle folded into the first octant for accuracy. */
  static double cosPi(long num, long den) {
    return trig(num, den)[0];
  }

  /** sin(pi * num / den), folded like {@link #cosPi}. */
  static double sinPi(long num, long den) {
    return trig(num, den)[1];
  }

  private static double[] trig(long num, long den) {
    // angle = pi * num / den, reduce num into [0, 2 den)
    long twoDen = 2 * den;
    long a = num % twoDen;
    if (a < 0) {
      a += twoDen;
    }
    // work with 4*a vs den multiples: quadrant q = floor(2a / den) in 0..3
    boolean negSin = false;
    if (a >= den) { // angle in [pi, 2pi): cos(x) = cos(2pi - x), sin = -sin(2pi - x)
      a = twoDen - a;
      negSin = true;
    }
    // now angle in [0, pi]
    boolean negCos = false;
    if (2 * a > den) { // (pi/2, pi]: cos(x) = -cos(pi - x), sin(x) = sin(pi - x)
      a = den - a;
      negCos = true;
    }
    // now angle in [0, pi/2]
    double c;
    double s;
    if (4 * a > den) { // (pi/4, pi/2]: swap via complement
      double t = Math.PI * (double) (den - 2 * a) / (2.0 * den);
      c = Math.sin(t);
      s = Math.cos(t);
    } else {
      double t = Math.PI * (double) a / den;
      c = Math.cos(t);
      s = Math.sin(t);
    }
    return new double[] {negCos ? -c : c, negSin ? -s : s};
  }

  /** Factors (4s first, then 2, then odd primes ascending) and the largest prime factor. */
  private static int[][] factorize(int n) {
    int[] buf = new int[32];
    int k = 0;
    int r = n;
    int maxPrime = 1;
    while (r % 4 == 0) {
      buf[k++] = 4;
      r /= 4;
      maxPrime = 2;
    }
    if (r % 2 == 0) {
      buf[k++] = 2;
      r /= 2;
      maxPrime = 2;
    }
    for (int p = 3; (long) p * p <= r; p += 2) {
      while (r % p == 0) {
        buf[k++] = p;
        r /= p;
        maxPrime = p;
      }
    }
    if (r > 1) {
      buf[k++] = r;
      maxPrime = Math.max(maxPrime, r);
    }
    return new int[][] {Arrays.copyOf(buf, k), {maxPrime}};
  }

  /**
   * Scratch space of one plan for one thread: allocate once with {@link #newWork()} and reuse it
   * across the lines of a transform.
   */
  static final class Work {
    private static final Work EMPTY = new Work(null, null, null, null);
    final double[] a;
    final double[] b;
    final double[] s;
    final Work sub;

    private Work(double[] a, double[] b, double[] s, Work sub) {
      this.a = a;
      this.b = b;
      this.s = s;
      this.sub = sub;
    }
  }

  /** Fresh scratch space for this plan (two arrays of n, or of the convolution length m). */
  Work newWork() {
    return switch (kind) {
      case TRIVIAL -> Work.EMPTY;
      case MIXED -> {
        int maxP = 0;
        for (int p : factors) {
          maxP = Math.max(maxP, p);
        }
        yield new Work(new double[n], new double[n], new double[2 * maxP], null);
      }
      case BLUESTEIN -> new Work(new double[sub.n], new double[sub.n], null, sub.newWork());
    };
  }

  /** In-place forward DFT: X[k] = sum_j x[j] exp(-2 pi i j k / n). Arrays of length >= n. */
  void forward(double[] re, double[] im) {
    forward(re, im, newWork());
  }

  /** {@link #forward(double[], double[])} using scratch space from {@link #newWork()}. */
  void forward(double[] re, double[] im, Work w) {
    switch (kind) {
      case TRIVIAL -> {}
      case MIXED -> mixed(re, im, w);
      case BLUESTEIN -> bluestein(re, im, w);
    }
  }

  /** In-place unnormalized inverse DFT (positive exponent), via conjugation of the forward one. */
  void backward(double[] re, double[] im) {
    backward(re, im, newWork());
  }

  /** {@link #backward(double[], double[])} using scratch space from {@link #newWork()}. */
  void backward(double[] re, double[] im, Work w) {
    for (int i = 0; i < n; i++) {
      im[i] = -im[i];
    }
    forward(re, im, w);
    for (int i = 0; i < n; i++) {
      im[i] = -im[i];
    }
  }

  // ------------------------------------------------------------------ mixed radix

  private void mixed(double[] re, double[] im, Work w) {
    System.arraycopy(re, 0, w.a, 0, n);
    System.arraycopy(im, 0, w.b, 0, n);
    work(re, im, 0, w.a, w.b, 0, 1, 0, w.s);
  }

  private void work(
      double[] oR,
      double[] oI,
      int oOff,
      double[] iR,
      double[] iI,
      int iOff,
      int fstride,
      int fi,
      double[] scratch) {
    int p = factors[fi];
    int m = rest[fi];
    if (m == 1) {
      for (int q = 0; q < p; q++) {
        oR[oOff + q] = iR[iOff + q * fstride];
        oI[oOff + q] = iI[iOff + q * fstride];
      }
    } else {
      for (int q = 0; q < p; q++) {
        work(oR, oI, oOff + q * m, iR, iI, iOff + q * fstride, fstride * p, fi + 1, scratch);
      }
    }
    switch (p) {
      case 2 -> bfly2(oR, oI, oOff, fstride, m);
      case 4 -> bfly4(oR, oI, oOff, fstride, m);
      default -> bflyGeneric(oR, oI, oOff, fstride, p, m, scratch);
    }
  }

  private void bfly2(double[] r, double[] i, int off, int fstride, int m) {
    for (int u = 0; u < m; u++) {
      int a = off + u;
      int b = a + m;
      int t = u * fstride;
      double wr = twRe[t];
      double wi = twIm[t];
      double xr = r[b] * wr - i[b] * wi;
      double xi = r[b] * wi + i[b] * wr;
      r[b] = r[a] - xr;
      i[b] = i[a] - xi;
      r[a] += xr;
      i[a] += xi;
    }
  }

  private void bfly4(double[] r, double[] i, int off, int fstride, int m) {
    for (int u = 0; u < m; u++) {
      int a0 = off + u;
      int a1 = a0 + m;
      int a2 = a1 + m;
      int a3 = a2 + m;
      int t1 = u * fstride;
      int t2 = 2 * t1;
      int t3 = 3 * t1;
      double s0r = r[a0];
      double s0i = i[a0];
      double s1r = r[a1] * twRe[t1] - i[a1] * twIm[t1];
      double s1i = r[a1] * twIm[t1] + i[a1] * twRe[t1];
      double s2r = r[a2] * twRe[t2] - i[a2] * twIm[t2];
      double s2i = r[a2] * twIm[t2] + i[a2] * twRe[t2];
      double s3r = r[a3] * twRe[t3] - i[a3] * twIm[t3];
      double s3i = r[a3] * twIm[t3] + i[a3] * twRe[t3];
      double p02r = s0r + s2r;
      double p02i = s0i + s2i;
      double m02r = s0r - s2r;
      double m02i = s0i - s2i;
      double p13r = s1r + s3r;
      double p13i = s1i + s3i;
      double m13r = s1r - s3r;
      double m13i = s1i - s3i;
      r[a0] = p02r + p13r;
      i[a0] = p02i + p13i;
      r[a2] = p02r - p13r;
      i[a2] = p02i - p13i;
      // X1 = m02 - i*m13, X3 = m02 + i*m13
      r[a1] = m02r + m13i;
      i[a1] = m02i - m13r;
      r[a3] = m02r - m13i;
      i[a3] = m02i + m13r;
    }
  }

  private void bflyGeneric(
      double[] r, double[] i, int off, int fstride, int p, int m, double[] scratch) {
    int baseStep = fstride * m; // tw[baseStep] = exp(-2 pi i / p)
    for (int u = 0; u < m; u++) {
      for (int q = 0; q < p; q++) {
        int a = off + u + q * m;
        int t = q * u * fstride;
        scratch[2 * q] = r[a] * twRe[t] - i[a] * twIm[t];
        scratch[2 * q + 1] = r[a] * twIm[t] + i[a] * twRe[t];
      }
      for (int k = 0; k < p; k++) {
        double accR = scratch[0];
        double accI = scratch[1];
        int e = 0;
        for (int q = 1; q < p; q++) {
          e += k;
          if (e >= p) {
            e -= p;
          }
          int t = e * baseStep;
          double sr = scratch[2 * q];
          double si = scratch[2 * q + 1];
          accR += sr * twRe[t] - si * twIm[t];
          accI += sr * twIm[t] + si * twRe[t];
        }
        r[off + u + k * m] = accR;
        i[off + u + k * m] = accI;
      }
    }
  }

  // ------------------------------------------------------------------ Bluestein

  private void bluestein(double[] re, double[] im, Work w) {
    int m = sub.n;
    double[] ar = w.a;
    double[] ai = w.b;
    Arrays.fill(ar, n, m, 0.0);
    Arrays.fill(ai, n, m, 0.0);
    for (int k = 0; k < n; k++) {
      ar[k] = re[k] * chirpRe[k] - im[k] * chirpIm[k];
      ai[k] = re[k] * chirpIm[k] + im[k] * chirpRe[k];
    }
    sub.forward(ar, ai, w.sub);
    for (int k = 0; k < m; k++) {
      double xr = ar[k] * kernRe[k] - ai[k] * kernIm[k];
      double xi = ar[k] * kernIm[k] + ai[k] * kernRe[k];
      ar[k] = xr;
      ai[k] = xi;
    }
    sub.backward(ar, ai, w.sub);
    for (int k = 0; k < n; k++) {
      re[k] = ar[k] * chirpRe[k] - ai[k] * chirpIm[k];
      im[k] = ar[k] * chirpIm[k] + ai[k] * chirpRe[k];
    }
  }
}
