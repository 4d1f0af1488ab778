package dev.cubed.nd.elementwise;

/**
 * Row loops on native backing arrays for the six comparisons of float64 and float32 (IEEE
 * semantics: NaN compares unequal to everything).
 *
 * <p>Each loop has three plain indexed cases (same-shape row; array with a broadcast scalar; scalar
 * with array), simple enough for HotSpot C2 to auto-vectorize. Strides are 0 or 1 (see {@link
 * Loops.Binary}); a row with both strides 0 has length 1, which the second case covers.
 */
final class FastCompareFloat {
  private FastCompareFloat() {}

  static final Loops.Binary EQUAL_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] == b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] == s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s == b[yo + i];
          }
        }
      };

  static final Loops.Binary EQUAL_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] == b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] == s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s == b[yo + i];
          }
        }
      };

  static final Loops.Binary NOT_EQUAL_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] != b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] != s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s != b[yo + i];
          }
        }
      };

  static final Loops.Binary NOT_EQUAL_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] != b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] != s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s != b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] < b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] < s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s < b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] < b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] < s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s < b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_EQUAL_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] <= b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] <= s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s <= b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_EQUAL_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] <= b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] <= s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s <= b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] > b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] > s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s > b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] > b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] > s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s > b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_EQUAL_F64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        double[] a = (double[]) x;
        double[] b = (double[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] >= b[yo + i];
          }
        } else if (ys == 0) {
          double s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] >= s;
          }
        } else {
          double s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s >= b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_EQUAL_F32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        float[] a = (float[]) x;
        float[] b = (float[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] >= b[yo + i];
          }
        } else if (ys == 0) {
          float s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] >= s;
          }
        } else {
          float s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s >= b[yo + i];
          }
        }
      };
}
