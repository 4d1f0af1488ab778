package dev.cubed.nd.elementwise;

/**
 * Row loops on native backing arrays for add, subtract, multiply (float64, float32, int32, int64)
 * and divide (float64, float32). Java's float arithmetic rounds and its int/long arithmetic wraps
 * exactly as NumPy's does for these dtypes.
 *
 * <p>Each loop has three plain indexed cases (same-shape row; array with a broadcast scalar; scalar
 * with array), simple enough for HotSpot C2 to auto-vectorize. Strides are 0 or 1 (see {@link
 * Loops.Binary}); a row with both strides 0 has length 1, which the second case covers.
 */
final class FastArithmetic {
  private FastArithmetic() {}

  static final Loops.Binary ADD_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        double[] o = (double[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] + b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] + s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s + b[yo + i];
          }
        }
      };

  static final Loops.Binary ADD_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        float[] o = (float[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] + b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] + s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s + b[yo + i];
          }
        }
      };

  static final Loops.Binary ADD_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        int[] o = (int[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] + b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] + s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s + b[yo + i];
          }
        }
      };

  static final Loops.Binary ADD_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        long[] o = (long[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] + b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] + s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s + b[yo + i];
          }
        }
      };

  static final Loops.Binary SUBTRACT_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        double[] o = (double[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] - b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] - s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s - b[yo + i];
          }
        }
      };

  static final Loops.Binary SUBTRACT_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        float[] o = (float[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] - b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] - s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s - b[yo + i];
          }
        }
      };

  static final Loops.Binary SUBTRACT_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        int[] o = (int[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] - b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] - s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s - b[yo + i];
          }
        }
      };

  static final Loops.Binary SUBTRACT_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        long[] o = (long[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] - b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] - s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s - b[yo + i];
          }
        }
      };

  static final Loops.Binary MULTIPLY_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        double[] o = (double[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] * b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] * s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s * b[yo + i];
          }
        }
      };

  static final Loops.Binary MULTIPLY_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        float[] o = (float[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] * b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] * s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s * b[yo + i];
          }
        }
      };

  static final Loops.Binary MULTIPLY_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        int[] o = (int[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] * b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] * s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s * b[yo + i];
          }
        }
      };

  static final Loops.Binary MULTIPLY_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        long[] o = (long[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] * b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] * s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s * b[yo + i];
          }
        }
      };

  static final Loops.Binary DIVIDE_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        double[] o = (double[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] / b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] / s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s / b[yo + i];
          }
        }
      };

  static final Loops.Binary DIVIDE_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        float[] o = (float[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] / b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] / s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s / b[yo + i];
          }
        }
      };

  /**
   * pow on float64: {@code x ** 2} (a broadcast exponent of 2) as {@code x * x}, which is what
   * NumPy computes for it (its power of a scalar exponent 2 is a square); every other exponent
   * through {@link RealMath#pow}, as the generic loop.
   */
  static final Loops.Binary POW_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        double[] o = (double[]) out;
        if (ys == 0 && b[yo] == 2.0) {
          if (xs == 1) {
            for (int i = 0; i < n; i++) {
              double v = a[xo + i];
              o[oo + i] = v * v;
            }
          } else {
            double v = a[xo];
            for (int i = 0; i < n; i++) {
              o[oo + i] = v * v;
            }
          }
        } else {
          for (int i = 0; i < n; i++) {
            o[oo + i] = RealMath.pow(a[xo + i * xs], b[yo + i * ys]);
          }
        }
      };

  /**
   * pow on float32: a broadcast exponent of 2 as {@code x * x} in float32 (the float of the exact
   * double square, as the generic loop gives); other exponents in double, rounded to float32 as the
   * generic loop does.
   */
  static final Loops.Binary POW_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        float[] o = (float[]) out;
        if (ys == 0 && b[yo] == 2.0f) {
          for (int i = 0; i < n; i++) {
            float v = a[xo + i * xs];
            o[oo + i] = v * v;
          }
        } else {
          for (int i = 0; i < n; i++) {
            o[oo + i] = (float) RealMath.pow(a[xo + i * xs], b[yo + i * ys]);
          }
        }
      };
}
