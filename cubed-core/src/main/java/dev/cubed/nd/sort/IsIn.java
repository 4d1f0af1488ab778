package dev.cubed.nd.sort;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code isin} by sorted lookup tables built from x2: a sorted {@code double[]} when either side is
 * real floating, sorted {@code long[]}s for integers and bools (uint64 values at or above 2^63 in a
 * table of their own, since they equal no signed value), a hash set of (re, im) for complex.
 */
final class IsIn {
  private IsIn() {}

  static NDArray isin(NDArray x1, NDArray x2, boolean invert) {
    int n = x1.size();
    boolean[] out = new boolean[n];
    DType d1 = x1.dtype();
    DType d2 = x2.dtype();
    if (d1.isComplex() || d2.isComplex()) {
      Set<Pair> set = new HashSet<>();
      for (int i = 0; i < x2.size(); i++) {
        double re = x2.getDouble(i);
        double im = x2.getImag(i);
        if (!Double.isNaN(re) && !Double.isNaN(im)) {
          set.add(new Pair(re + 0.0, im + 0.0));
        }
      }
      for (int i = 0; i < n; i++) {
        out[i] = set.contains(new Pair(x1.getDouble(i) + 0.0, x1.getImag(i) + 0.0)) != invert;
      }
    } else if (d1.isRealFloating() || d2.isRealFloating()) {
      double[] table = new double[x2.size()];
      int m = 0;
      for (int i = 0; i < table.length; i++) {
        double v = x2.getDouble(i);
        if (!Double.isNaN(v)) {
          table[m++] = v + 0.0; // -0.0 becomes 0.0
        }
      }
      table = Arrays.copyOf(table, m);
      Arrays.sort(table);
      for (int i = 0; i < n; i++) {
        double v = x1.getDouble(i);
        boolean found = !Double.isNaN(v) && Arrays.binarySearch(table, v + 0.0) >= 0;
        out[i] = found != invert;
      }
    } else {
      boolean big2 = d2 == DType.UINT64;
      long[] small = new long[x2.size()];
      long[] big = new long[x2.size()];
      int ns = 0;
      int nb = 0;
      for (int i = 0; i < small.length; i++) {
        long v = x2.getLong(i);
        if (big2 && v < 0) {
          big[nb++] = v;
        } else {
          small[ns++] = v;
        }
      }
      small = Arrays.copyOf(small, ns);
      big = Arrays.copyOf(big, nb);
      Arrays.sort(small);
      Arrays.sort(big);
      boolean big1 = d1 == DType.UINT64;
      for (int i = 0; i < n; i++) {
        long v = x1.getLong(i);
        boolean found =
            big1 && v < 0 ? Arrays.binarySearch(big, v) >= 0 : Arrays.binarySearch(small, v) >= 0;
        out[i] = found != invert;
      }
    }
    return new NDArray(DType.BOOL, x1.shape(), out);
  }

  private record Pair(double re, double im) {}
}
