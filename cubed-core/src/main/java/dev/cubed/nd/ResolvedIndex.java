package dev.cubed.nd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A basic index ({@link Index}[]: integers, slices, new axes, at most one ellipsis) resolved
 * against a shape, as NumPy does it. This is the shared contract for in-memory and chunked
 * indexing.
 *
 * <p>For each axis {@code k} of the indexed array the selection is the arithmetic progression
 * {@code start(k) + i * step(k)} for {@code i < length(k)}; an integer index gives {@code length 1,
 * step 1} and {@link #isDropped(int) drops} the axis from the output. {@link #outputShape()} is the
 * result shape: the kept axes' lengths in order, with a 1 inserted where each new axis stands
 * (missing trailing indices mean full slices; an ellipsis expands to as many full slices as
 * needed).
 */
final class ResolvedIndex {
  private final long[] shape;
  private final long[] start;
  private final long[] step;
  private final long[] length;
  private final boolean[] dropped;
  private final long[] outputShape;

  private ResolvedIndex(
      long[] shape,
      long[] start,
      long[] step,
      long[] length,
      boolean[] dropped,
      long[] outputShape) {
    this.shape = shape;
    this.start = start;
    this.step = step;
    this.length = length;
    this.dropped = dropped;
    this.outputShape = outputShape;
  }

  /**
   * Resolves an index against a shape.
   *
   * @param function the standard name reported in errors (e.g. {@code "__getitem__"})
   * @throws IllegalArgumentException for more than one ellipsis, more integer/slice entries than
   *     dimensions, or an integer outside {@code [-n, n)} (naming the index, axis and size)
   */
  public static ResolvedIndex resolve(String function, Index[] index, long[] shape) {
    int nd = shape.length;
    int consuming = 0;
    int ellipses = 0;
    for (Index e : index) {
      if (e instanceof Index.Ellipsis) {
        ellipses++;
      } else if (!(e instanceof Index.NewAxis)) {
        consuming++;
      }
    }
    if (ellipses > 1) {
      throw new IllegalArgumentException(
          function + ": an index can only have a single ellipsis ('...'), got " + ellipses);
    }
    if (consuming > nd) {
      throw new IllegalArgumentException(
          function
              + ": too many indices for array: array of shape "
              + Shapes.format(shape)
              + " is "
              + nd
              + "-dimensional, but "
              + consuming
              + " were indexed");
    }
    long[] start = new long[nd];
    long[] step = new long[nd];
    long[] length = new long[nd];
    boolean[] dropped = new boolean[nd];
    List<Long> out = new ArrayList<>();
    int axis = 0;
    List<Index> entries = new ArrayList<>(Arrays.asList(index));
    if (ellipses == 0) {
      entries.add(new Index.Ellipsis());
    }
    for (Index e : entries) {
      if (e instanceof Index.NewAxis) {
        out.add(1L);
      } else if (e instanceof Index.Ellipsis) {
        int fill = nd - consuming;
        for (int f = 0; f < fill; f++, axis++) {
          start[axis] = 0;
          step[axis] = 1;
          length[axis] = shape[axis];
          out.add(shape[axis]);
        }
      } else if (e instanceof Index.At at) {
        long n = shape[axis];
        long i = at.index() < 0 ? at.index() + n : at.index();
        if (i < 0 || i >= n) {
          throw new IllegalArgumentException(
              function
                  + ": index "
                  + at.index()
                  + " is out of bounds for axis "
                  + axis
                  + " with size "
                  + n
                  + " (array shape "
                  + Shapes.format(shape)
                  + "); valid indices are -"
                  + n
                  + " to "
                  + (n - 1));
        }
        start[axis] = i;
        step[axis] = 1;
        length[axis] = 1;
        dropped[axis] = true;
        axis++;
      } else if (e instanceof Index.Slice s) {
        long[] r = s.resolve(shape[axis]);
        start[axis] = r[0];
        step[axis] = r[1];
        length[axis] = r[2];
        out.add(r[2]);
        axis++;
      }
    }
    return new ResolvedIndex(
        shape.clone(),
        start,
        step,
        length,
        dropped,
        out.stream().mapToLong(Long::longValue).toArray());
  }

  /** The shape indexed. */
  public long[] shape() {
    return shape.clone();
  }

  /** First selected position along axis {@code k} of the indexed array. */
  public long start(int k) {
    return start[k];
  }

  /** Step between selected positions along axis {@code k} (never 0, may be negative). */
  public long step(int k) {
    return step[k];
  }

  /** Number of selected positions along axis {@code k} (1 for an integer index). */
  public long length(int k) {
    return length[k];
  }

  /** True when axis {@code k} was indexed by an integer and is absent from the output. */
  public boolean isDropped(int k) {
    return dropped[k];
  }

  /** The per-axis selection lengths (one per axis of the indexed array, dropped axes as 1). */
  public long[] selectionShape() {
    return length.clone();
  }

  /** The shape of the result. */
  public long[] outputShape() {
    return outputShape.clone();
  }

  /** The selected positions along axis {@code k}: {@code start + i * step}. */
  public long[] positions(int k) {
    long[] p = new long[(int) length[k]];
    for (int i = 0; i < p.length; i++) {
      p[i] = start[k] + i * step[k];
    }
    return p;
  }

  int[][] intPositions() {
    int[][] p = new int[shape.length][];
    for (int k = 0; k < shape.length; k++) {
      p[k] = new int[(int) length[k]];
      for (int i = 0; i < p[k].length; i++) {
        p[k][i] = (int) (start[k] + i * step[k]);
      }
    }
    return p;
  }
}
