package dev.cubed.plan.eval;

import java.util.Random;

/**
 * Test helper: a seeded random shape of 1-3 axes and a chunking of it, drawn in one fixed order
 * (the number of axes, then per axis its length and its chunk), so a seed always gives the same
 * grid.
 */
record RandomGrid(long[] shape, long[] chunks) {
  /** Axes of 1..{@code maxOuter} elements, the last of 1..{@code maxLast}; chunks 1..length. */
  static RandomGrid draw(Random r, int maxOuter, int maxLast) {
    int nd = 1 + r.nextInt(3);
    long[] shape = new long[nd];
    long[] chunks = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = 1 + r.nextInt(d == nd - 1 ? maxLast : maxOuter);
      chunks[d] = 1 + r.nextInt((int) shape[d]);
    }
    return new RandomGrid(shape, chunks);
  }
}
