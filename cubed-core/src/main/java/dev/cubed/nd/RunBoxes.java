package dev.cubed.nd;

import java.util.ArrayList;
import java.util.List;

/**
 * A run of consecutive elements of a C-order block as boxes of that block: the few regions that
 * together are elements {@code [start, start + count)}, so code that makes or reads regions (a
 * generator, a chunk copy) can produce a run of a block without the block.
 */
public final class RunBoxes {
  private RunBoxes() {}

  /** A box of a block (start and shape, relative to the block) and its first element's position. */
  public record Box(long[] start, long[] shape, long flat) {}

  /**
   * The boxes that together are elements {@code [start, start + count)} of a C-order block of shape
   * {@code block}, in order: at most {@code 2 * ndim - 1} (a partial row, whole rows, whole planes,
   * ..., then the partial ones at the end); one empty-shaped box for a 0-d block.
   *
   * @throws IllegalArgumentException if the run leaves the block
   */
  public static List<Box> of(long[] block, long start, long count) {
    int nd = block.length;
    long total = Shapes.size(block);
    if (start < 0 || count < 0 || start > total - count) {
      throw new IllegalArgumentException(
          "run ["
              + start
              + ", "
              + (start + count)
              + ") is outside"
              + " a block of shape "
              + Shapes.format(block)
              + " ("
              + total
              + " elements)");
    }
    List<Box> out = new ArrayList<>();
    if (nd == 0) {
      if (count > 0) {
        out.add(new Box(new long[0], new long[0], 0));
      }
      return out;
    }
    long[] stride = new long[nd];
    long s = 1;
    for (int d = nd - 1; d >= 0; d--) {
      stride[d] = s;
      s *= block[d];
    }
    long p = start;
    long end = start + count;
    while (p < end) {
      long[] idx = Shapes.unravel(block, p);
      // the outermost axis k after which the position is at the start of every inner axis
      int k = nd - 1;
      while (k > 0 && idx[k] == 0) {
        k--;
      }
      // as many whole steps along axis k as remain, going inward while none fits
      long m = Math.min(block[k] - idx[k], (end - p) / stride[k]);
      while (m == 0) {
        k++;
        m = Math.min(block[k] - idx[k], (end - p) / stride[k]);
      }
      long[] bs = new long[nd];
      long[] st = new long[nd];
      for (int d = 0; d < nd; d++) {
        st[d] = d <= k ? idx[d] : 0;
        bs[d] = d < k ? 1 : d == k ? m : block[d];
      }
      out.add(new Box(st, bs, p));
      p += m * stride[k];
    }
    return out;
  }
}
