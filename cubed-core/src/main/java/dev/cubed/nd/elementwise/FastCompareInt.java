package dev.cubed.nd.elementwise;

/**
 * Row loops on native backing arrays for the six comparisons of int32 and int64 (signed types only;
 * unsigned ones go through the generic loops).
 *
 * <p>Each loop has three plain indexed cases (same-shape row; array with a broadcast scalar; scalar
 * with array), simple enough for HotSpot C2 to auto-vectorize. Strides are 0 or 1 (see {@link
 * Loops.Binary}); a row with both strides 0 has length 1, which the second case covers.
 */
final class FastCompareInt {
  private FastCompareInt() {}

  static final Loops.Binary EQUAL_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] == b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] == s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s == b[yo + i];
          }
        }
      };

  static final Loops.Binary EQUAL_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] == b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] == s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s == b[yo + i];
          }
        }
      };

  static final Loops.Binary NOT_EQUAL_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] != b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] != s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s != b[yo + i];
          }
        }
      };

  static final Loops.Binary NOT_EQUAL_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] != b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] != s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s != b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] < b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] < s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s < b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] < b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] < s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s < b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_EQUAL_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] <= b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] <= s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s <= b[yo + i];
          }
        }
      };

  static final Loops.Binary LESS_EQUAL_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] <= b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] <= s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s <= b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] > b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] > s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s > b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] > b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] > s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s > b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_EQUAL_I32 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        int[] a = (int[]) x;
        int[] b = (int[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] >= b[yo + i];
          }
        } else if (ys == 0) {
          int s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] >= s;
          }
        } else {
          int s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s >= b[yo + i];
          }
        }
      };

  static final Loops.Binary GREATER_EQUAL_I64 =
      (x, xo, xs, y, yo, ys, out, oo, n) -> {
        long[] a = (long[]) x;
        long[] b = (long[]) y;
        boolean[] o = (boolean[]) out;
        if (xs == 1 && ys == 1) {
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i] >= b[yo + i];
          }
        } else if (ys == 0) {
          long s = b[yo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = a[xo + i * xs] >= s;
          }
        } else {
          long s = a[xo];
          for (int i = 0; i < n; i++) {
            o[oo + i] = s >= b[yo + i];
          }
        }
      };
}
