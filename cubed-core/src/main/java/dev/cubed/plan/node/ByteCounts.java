package dev.cubed.plan.node;

/**
 * Saturating byte arithmetic and the read volume of a rechunk stage, for {@link
 * dev.cubed.plan.Plan}'s summary.
 */
public final class ByteCounts {
  private ByteCounts() {}

  /**
   * Bytes a copy in regions of {@code region} reads from chunks {@code from}: every region reads
   * the whole source chunks it overlaps (per axis the overlapped extents, multiplied over axes).
   */
  public static long regionReadBytes(long[] shape, long[] from, long[] region, int item) {
    long b = item;
    for (int d = 0; d < shape.length; d++) {
      long extent = 0;
      if (region[d] % from[d] == 0) {
        extent = shape[d];
      } else {
        for (long start = 0; start < shape[d]; start += region[d]) {
          long end = Math.min(start + region[d], shape[d]);
          long first = start / from[d] * from[d];
          long last = Math.min(((end - 1) / from[d] + 1) * from[d], shape[d]);
          extent += last - first;
        }
      }
      b = satMul(b, extent);
    }
    return b;
  }

  /** {@code a * b} for non-negative counts, {@link Long#MAX_VALUE} on overflow. */
  public static long satMul(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
  }

  /** {@code a + b} for non-negative counts, {@link Long#MAX_VALUE} on overflow. */
  public static long satAdd(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE : s;
  }
}
