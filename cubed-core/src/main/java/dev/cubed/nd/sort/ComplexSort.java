package dev.cubed.nd.sort;

/**
 * Stable argsort of complex values in NumPy's lexicographic order (an extension: the standard does
 * not define sorting of complex numbers). Values fall in four groups, in this order: both parts
 * finite-or-infinite ({@code R + Rj}), imaginary part NaN ({@code R + nanj}), real part NaN ({@code
 * nan + Rj}), both NaN. Within a group values compare by real part, then imaginary part, ignoring
 * the NaN parts; {@code -0.0 == 0.0}. Descending order reverses the comparison inside each group
 * but keeps the NaN groups last; ties keep their input order either way.
 */
final class ComplexSort {
  private ComplexSort() {}

  /**
   * Fills {@code perm[0, n)} with the stable sorted order of the complex lane whose real parts are
   * {@code re[i]} and imaginary parts {@code im[i]}.
   */
  static void argsort(double[] re, double[] im, int n, boolean descending, int[] perm) {
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    int[] tmp = new int[n];
    mergeSort(re, im, descending, perm, tmp, 0, n);
  }

  private static int group(double re, double im) {
    return (Double.isNaN(re) ? 2 : 0) + (Double.isNaN(im) ? 1 : 0);
  }

  /** Negative, zero or positive as element a sorts before, with or after element b. */
  static int compare(double[] re, double[] im, int a, int b, boolean descending) {
    int ga = group(re[a], im[a]);
    int gb = group(re[b], im[b]);
    if (ga != gb) {
      return ga < gb ? -1 : 1;
    }
    int c = 0;
    if (ga < 2) {
      c = cmp(re[a], re[b]);
    }
    if (c == 0 && (ga & 1) == 0) {
      c = cmp(im[a], im[b]);
    }
    return descending ? -c : c;
  }

  private static int cmp(double x, double y) {
    return x < y ? -1 : (x > y ? 1 : 0);
  }

  private static void mergeSort(
      double[] re, double[] im, boolean desc, int[] a, int[] tmp, int lo, int hi) {
    if (hi - lo <= 16) {
      for (int i = lo + 1; i < hi; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= lo && compare(re, im, a[j], v, desc) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(re, im, desc, a, tmp, lo, mid);
    mergeSort(re, im, desc, a, tmp, mid, hi);
    if (compare(re, im, a[mid - 1], a[mid], desc) <= 0) {
      return;
    }
    System.arraycopy(a, lo, tmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    int k = lo;
    while (i < mid && j < hi) {
      a[k++] = compare(re, im, tmp[j], tmp[i], desc) < 0 ? tmp[j++] : tmp[i++];
    }
    while (i < mid) {
      a[k++] = tmp[i++];
    }
    while (j < hi) {
      a[k++] = tmp[j++];
    }
  }
}
