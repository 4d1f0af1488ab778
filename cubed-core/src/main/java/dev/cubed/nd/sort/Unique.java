package dev.cubed.nd.sort;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;

/**
 * The grouping behind the unique functions: a stable sort of the flattened input, then runs of
 * equal neighbours. Real and bool inputs compare by their sort keys (equal keys are equal values,
 * except the NaN key, which never groups); complex inputs compare both parts with {@code ==}.
 */
final class Unique {
  private final NDArray flat;
  private final int[] perm;

  /** Start of each group in sorted order; starts[groups] == n. */
  private final int[] starts;

  private final int groups;

  private Unique(NDArray flat, int[] perm, int[] starts, int groups) {
    this.flat = flat;
    this.perm = perm;
    this.starts = starts;
    this.groups = groups;
  }

  static Unique of(NDArray x) {
    int n = x.size();
    NDArray flat = x.reshape(n);
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    int[] starts = new int[n + 1];
    int g = 0;
    if (x.dtype().isComplex()) {
      double[] re = new double[n];
      double[] im = new double[n];
      Sorting.complexLane(flat, 0, 1, n, re, im);
      ComplexSort.argsort(re, im, n, false, perm);
      for (int i = 0; i < n; i++) {
        int p = perm[i];
        if (i == 0 || !(re[p] == re[perm[i - 1]] && im[p] == im[perm[i - 1]])) {
          starts[g++] = i;
        }
      }
    } else {
      long[] keys = new long[n];
      SortKeys.keys(x.dtype(), flat.data(), 0, 1, n, keys, false);
      RadixSort.sort(keys, perm, n, null, null);
      boolean floating = x.dtype().isRealFloating();
      for (int i = 0; i < n; i++) {
        if (i == 0 || keys[i] != keys[i - 1] || (floating && keys[i] == SortKeys.NAN_KEY)) {
          starts[g++] = i;
        }
      }
    }
    starts[g] = n;
    return new Unique(flat, perm, starts, g);
  }

  NDArray values() {
    NDArray out = NDArray.zeros(flat.dtype(), groups);
    Object src = flat.data();
    Object dst = out.data();
    boolean complex = flat.dtype().isComplex();
    for (int g = 0; g < groups; g++) {
      int from = perm[starts[g]];
      if (complex) {
        System.arraycopy(src, 2 * from, dst, 2 * g, 2);
      } else {
        System.arraycopy(src, from, dst, g, 1);
      }
    }
    return out;
  }

  NDArray indices() {
    long[] r = new long[groups];
    for (int g = 0; g < groups; g++) {
      r[g] = perm[starts[g]];
    }
    return new NDArray(DType.INT64, new long[] {groups}, r);
  }

  NDArray counts() {
    long[] r = new long[groups];
    for (int g = 0; g < groups; g++) {
      r[g] = starts[g + 1] - starts[g];
    }
    return new NDArray(DType.INT64, new long[] {groups}, r);
  }

  NDArray inverse(long[] shape) {
    long[] r = new long[perm.length];
    for (int g = 0; g < groups; g++) {
      for (int i = starts[g]; i < starts[g + 1]; i++) {
        r[perm[i]] = g;
      }
    }
    return new NDArray(DType.INT64, shape, r);
  }
}
