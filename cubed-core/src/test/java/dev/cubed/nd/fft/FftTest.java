package dev.cubed.nd.fft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Properties of {@link Fft} beyond the golden vectors: every plan kind, round trips, errors. */
class FftTest {

  private static NDArray randomComplex(int n, long seed) {
    Random r = new Random(seed);
    double[] d = new double[2 * n];
    for (int i = 0; i < d.length; i++) {
      d[i] = r.nextGaussian();
    }
    return new NDArray(DType.COMPLEX128, new long[] {n}, d);
  }

  private static double maxAbs(double[] d) {
    double m = 0;
    for (int i = 0; i < d.length; i += 2) {
      m = Math.max(m, Math.hypot(d[i], d[i + 1]));
    }
    return m;
  }

  static IntStream smallLengths() {
    return IntStream.rangeClosed(1, 120);
  }

  /**
   * Each length 1..120 (powers of two, mixed radix up to prime 23, Bluestein for primes >= 29)
   * against a naive O(n^2) DFT with exactly reduced twiddles; the naive sum itself carries about n
   * * eps error, hence the 1e-13 bound relative to the largest output.
   */
  @ParameterizedTest
  @MethodSource("smallLengths")
  void matchesNaiveDft(int n) {
    NDArray x = randomComplex(n, 1000 + n);
    double[] in = (double[]) x.data();
    double[] want = new double[2 * n];
    double[] wantInv = new double[2 * n];
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < n; j++) {
        long q = ((long) j * k) % n;
        double c = FftPlan.cosPi(2 * q, n);
        double s = FftPlan.sinPi(2 * q, n);
        want[2 * k] += in[2 * j] * c + in[2 * j + 1] * s;
        want[2 * k + 1] += in[2 * j + 1] * c - in[2 * j] * s;
        wantInv[2 * k] += in[2 * j] * c - in[2 * j + 1] * s;
        wantInv[2 * k + 1] += in[2 * j + 1] * c + in[2 * j] * s;
      }
    }
    double[] got = (double[]) Fft.fft(x).data();
    double[] gotInv = (double[]) Fft.ifft(x, null, 0, Fft.Norm.FORWARD).data();
    double tol = 1e-13 * Math.max(1, maxAbs(want));
    for (int i = 0; i < 2 * n; i++) {
      assertThat(Math.abs(got[i] - want[i])).as("fft n=%d part %d", n, i).isLessThanOrEqualTo(tol);
      assertThat(Math.abs(gotInv[i] - wantInv[i]))
          .as("ifft n=%d part %d", n, i)
          .isLessThanOrEqualTo(tol);
    }
  }

  /**
   * The packed real transforms (even n) and the plain ones (odd n) agree with the complex transform
   * of the same real line, for every length 1..120; irfft recovers the line.
   */
  @ParameterizedTest
  @MethodSource("smallLengths")
  void realTransformsMatchComplex(int n) {
    Random r = new Random(77 + n);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextGaussian();
    }
    NDArray real = NDArray.of(x, n);
    double[] full = (double[]) Fft.fft(real.astype(DType.COMPLEX128)).data();
    double[] half = (double[]) Fft.rfft(real).data();
    assertThat(half).hasSize(2 * (n / 2 + 1));
    double tol = 1e-13 * Math.max(1, maxAbs(full));
    for (int i = 0; i < half.length; i++) {
      assertThat(Math.abs(half[i] - full[i]))
          .as("rfft n=%d part %d", n, i)
          .isLessThanOrEqualTo(tol);
    }
    double[] back = (double[]) Fft.irfft(Fft.rfft(real), n, 0, Fft.Norm.BACKWARD).data();
    for (int i = 0; i < n; i++) {
      assertThat(Math.abs(back[i] - x[i])).as("irfft n=%d at %d", n, i).isLessThanOrEqualTo(1e-13);
    }
  }

  /**
   * Seeded random data of lengths 1000-5000 covering every plan kind (4999 and 2017 are primes, 2 *
   * 1009 has a large prime factor): the inverse round trip recovers the input and Parseval's
   * identity holds, within 8 * eps * log2(n) relative to the data's scale.
   */
  @ParameterizedTest
  @ValueSource(ints = {1000, 1024, 2017, 2018, 2310, 3000, 4096, 4998, 4999})
  void roundTripAndParseval(int n) {
    NDArray x = randomComplex(n, n);
    double[] in = (double[]) x.data();
    NDArray big = Fft.fft(x);
    double[] back = (double[]) Fft.ifft(big).data();
    double tol = 8 * 0x1p-52 * (Math.log(n) / Math.log(2)) * maxAbs(in);
    for (int i = 0; i < 2 * n; i++) {
      assertThat(Math.abs(back[i] - in[i]))
          .as("round trip n=%d part %d", n, i)
          .isLessThanOrEqualTo(tol);
    }
    double e1 = 0;
    double e2 = 0;
    double[] f = (double[]) Fft.fft(x, null, -1, Fft.Norm.ORTHO).data();
    for (int i = 0; i < 2 * n; i++) {
      e1 += in[i] * in[i];
      e2 += f[i] * f[i];
    }
    assertThat(Math.abs(e1 - e2) / e1)
        .as("Parseval n=%d", n)
        .isLessThanOrEqualTo(8 * 0x1p-52 * Math.log(n) / Math.log(2));

    // real round trip: irfft(rfft(x), n) == x
    double[] re = new double[n];
    for (int i = 0; i < n; i++) {
      re[i] = in[2 * i];
    }
    double[] rback =
        (double[]) Fft.irfft(Fft.rfft(NDArray.of(re, n)), n, -1, Fft.Norm.BACKWARD).data();
    for (int i = 0; i < n; i++) {
      assertThat(Math.abs(rback[i] - re[i]))
          .as("real round trip n=%d at %d", n, i)
          .isLessThanOrEqualTo(tol);
    }
  }

  /**
   * A pure tone exp(2 pi i k0 j / n) transforms to n at k0 and 0 elsewhere; the error stays at the
   * eps * log2(n) level relative to n for every plan kind (measured: about 0.04-0.15 eps *
   * log2(n)).
   */
  @ParameterizedTest
  @ValueSource(ints = {4096, 3000, 4999, 1021})
  void pureToneIsAccurate(int n) {
    int k0 = n / 3;
    double[] d = new double[2 * n];
    for (int j = 0; j < n; j++) {
      long q = ((long) j * k0) % n;
      d[2 * j] = FftPlan.cosPi(2 * q, n);
      d[2 * j + 1] = FftPlan.sinPi(2 * q, n);
    }
    double[] f = (double[]) Fft.fft(new NDArray(DType.COMPLEX128, new long[] {n}, d)).data();
    double worst = 0;
    for (int k = 0; k < n; k++) {
      double wr = k == k0 ? n : 0;
      worst = Math.max(worst, Math.hypot(f[2 * k] - wr, f[2 * k + 1]));
    }
    assertThat(worst / n)
        .as("relative error n=%d", n)
        .isLessThanOrEqualTo(0x1p-52 * Math.log(n) / Math.log(2));
  }

  @Test
  void nonFiniteInputsPropagate() {
    NDArray withNan = Fft.fft(NDArray.of(new double[] {1, Double.NaN, 2, 3, 4}, 5));
    NDArray withInf = Fft.fft(NDArray.of(new double[] {Double.POSITIVE_INFINITY, 0, 0, 0}, 4));
    for (int i = 0; i < withNan.size(); i++) {
      assertThat(Double.isNaN(withNan.getDouble(i)) || Double.isNaN(withNan.getImag(i))).isTrue();
    }
    for (int i = 0; i < withInf.size(); i++) {
      assertThat(Double.isFinite(withInf.getDouble(i)) && Double.isFinite(withInf.getImag(i)))
          .isFalse();
    }
  }

  @Test
  void dtypesAndShapes() {
    NDArray f32 = NDArray.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    assertThat(Fft.fft(f32).dtype()).isEqualTo(DType.COMPLEX64);
    assertThat(Fft.rfft(f32).shape()).containsExactly(2, 2);
    assertThat(Fft.irfft(Fft.rfft(f32)).dtype()).isEqualTo(DType.FLOAT32);
    assertThat(Fft.irfft(Fft.rfft(f32), 3, -1, Fft.Norm.BACKWARD).shape()).containsExactly(2, 3);
    assertThat(Fft.rfftn(f32).shape()).containsExactly(2, 2);
    assertThat(Fft.irfftn(Fft.rfftn(f32), new int[] {2, 3}, null, Fft.Norm.BACKWARD).dtype())
        .isEqualTo(DType.FLOAT32);
    assertThat(Fft.fft(NDArray.of(new int[] {1, 2}, 2)).dtype()).isEqualTo(DType.COMPLEX128);
    assertThat(Fft.hfft(NDArray.of(new double[] {1, 2, 3}, 3)).shape()).containsExactly(4);
    assertThat(Fft.ihfft(NDArray.of(new double[] {1, 2, 3, 4}, 4)).shape()).containsExactly(3);
    assertThat(Fft.fftfreq(4, 0.5, DType.FLOAT32).dtype()).isEqualTo(DType.FLOAT32);
    NDArray scalar = NDArray.scalar(DType.FLOAT64, 2.5);
    assertThat(Fft.fftshift(scalar).getDouble(0)).isEqualTo(2.5);
    assertThat(Fft.fftn(scalar).dtype()).isEqualTo(DType.COMPLEX128);
    NDArray x = NDArray.of(new double[] {0, 1, 2, 3, 4, 5, 6}, 7);
    assertThat(Fft.ifftshift(Fft.fftshift(x))).isEqualTo(x);
  }

  @Test
  void errorsNameTheFunctionAndRule() {
    NDArray x = NDArray.of(new double[] {1, 2, 3, 4}, 2, 2);
    NDArray c = Fft.fft(x);
    assertThatThrownBy(() -> Fft.fft(x, 0, -1, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fft:")
        .hasMessageContaining(">= 1");
    assertThatThrownBy(() -> Fft.ifft(x, null, 2, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ifft:")
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> Fft.fftn(x, new int[] {2}, new int[] {0, 1}, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fftn:")
        .hasMessageContaining("same length");
    assertThatThrownBy(() -> Fft.ifftn(x, null, new int[] {0, -2}, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ifftn:")
        .hasMessageContaining("repeated");
    assertThatThrownBy(() -> Fft.fftn(x, new int[] {2, 2, 2}, null, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more entries");
    assertThatThrownBy(() -> Fft.rfftn(x, new int[] {0, 2}, null, Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rfftn:");
    assertThatThrownBy(() -> Fft.rfft(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rfft:")
        .hasMessageContaining("complex128");
    assertThatThrownBy(() -> Fft.ihfft(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ihfft:");
    assertThatThrownBy(() -> Fft.rfftn(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rfftn:");
    assertThatThrownBy(() -> Fft.irfft(NDArray.of(new double[] {1}, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("irfft:")
        .hasMessageContaining("data points 0");
    assertThatThrownBy(() -> Fft.fft(NDArray.scalar(DType.FLOAT64, 1.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fft:");
    assertThatThrownBy(() -> Fft.fft(NDArray.zeros(DType.FLOAT64, 3, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("data points 0");
    assertThatThrownBy(() -> Fft.rfftn(x, null, new int[0], Fft.Norm.BACKWARD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one axis");
    assertThatThrownBy(() -> Fft.fftfreq(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fftfreq:");
    assertThatThrownBy(() -> Fft.rfftfreq(4, 0.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rfftfreq:");
    assertThatThrownBy(() -> Fft.fftfreq(4, 1.0, DType.INT32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dtype");
    assertThatThrownBy(() -> Fft.fftshift(x, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fftshift:");
  }
}
