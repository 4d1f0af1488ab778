package dev.cubed.plan.node;

import dev.cubed.nd.Shapes;
import java.io.Serializable;
import java.util.Arrays;

/**
 * How an array of a given shape is split into blocks: per axis, the sizes of its blocks in order
 * (Dask's chunks tuple). A grid is regular when on every axis all blocks have one size except a
 * smaller last one; regular grids are stored as that size (no per-block lists), irregular ones as
 * the lists with their running offsets. Immutable and serializable.
 */
public final class ChunkGrid implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long[] shape;

  /** Regular chunk size per axis (as given: may exceed the axis), or null when irregular. */
  private final long[] regular;

  /** Irregular grids: per axis the block sizes. */
  private final long[][] sizes;

  /** Irregular grids: per axis the block starts, with the axis length appended. */
  private final long[][] offsets;

  private ChunkGrid(long[] shape, long[] regular, long[][] sizes) {
    this.shape = shape;
    this.regular = regular;
    this.sizes = sizes;
    if (sizes == null) {
      this.offsets = null;
    } else {
      offsets = new long[sizes.length][];
      for (int i = 0; i < sizes.length; i++) {
        offsets[i] = new long[sizes[i].length + 1];
        for (int j = 0; j < sizes[i].length; j++) {
          offsets[i][j + 1] = offsets[i][j] + sizes[i][j];
        }
      }
    }
  }

  /**
   * The regular grid of {@code chunks}-sized blocks (edge blocks clipped).
   *
   * @throws IllegalArgumentException if the lengths differ or a chunk size is below 1
   */
  public static ChunkGrid regular(long[] shape, long[] chunks) {
    if (shape.length != chunks.length) {
      throw new IllegalArgumentException(
          "chunks "
              + Shapes.format(chunks)
              + " must have one entry per dimension of shape "
              + Shapes.format(shape));
    }
    for (long c : chunks) {
      if (c < 1) {
        throw new IllegalArgumentException(
            "chunk sizes must be >= 1, got " + Shapes.format(chunks));
      }
    }
    return new ChunkGrid(shape.clone(), chunks.clone(), null);
  }

  /**
   * The grid with the given block sizes per axis; a regular one when the lists are regular.
   *
   * @throws IllegalArgumentException naming the axis if a list does not add up to the axis length
   *     or holds a size below 1
   */
  public static ChunkGrid of(long[] shape, long[][] blockSizes) {
    if (blockSizes.length != shape.length) {
      throw new IllegalArgumentException(
          "chunks: "
              + blockSizes.length
              + " lists of block sizes for an array of shape "
              + Shapes.format(shape)
              + "; give one list per axis");
    }
    long[][] s = new long[shape.length][];
    boolean isRegular = true;
    long[] reg = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      s[i] = blockSizes[i].clone();
      long sum = 0;
      for (long b : s[i]) {
        if (b < 1) {
          throw new IllegalArgumentException(
              "chunks: axis "
                  + i
                  + " has a block of size "
                  + b
                  + " in "
                  + Arrays.toString(s[i])
                  + "; block sizes must be >= 1");
        }
        sum += b;
      }
      if (sum != shape[i]) {
        throw new IllegalArgumentException(
            "chunks: the blocks of axis "
                + i
                + " "
                + Arrays.toString(s[i])
                + " add up to "
                + sum
                + " but the axis has length "
                + shape[i]);
      }
      if (s[i].length == 0) {
        reg[i] = 1;
        continue;
      }
      reg[i] = s[i][0];
      for (int j = 1; j < s[i].length; j++) {
        if (s[i][j] > s[i][0] || (s[i][j] != s[i][0] && j != s[i].length - 1)) {
          isRegular = false;
        }
      }
    }
    return isRegular
        ? new ChunkGrid(shape.clone(), reg, null)
        : new ChunkGrid(shape.clone(), null, s);
  }

  /** Whether every axis has equal blocks except a smaller last one. */
  public boolean isRegular() {
    return regular != null;
  }

  /** The array's shape. */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The chunk shape: the regular chunk size per axis, or for an irregular grid the largest block
   * per axis (what the memory model charges for a block).
   */
  public long[] maxChunks() {
    if (regular != null) {
      return regular.clone();
    }
    long[] m = new long[shape.length];
    for (int i = 0; i < m.length; i++) {
      m[i] = 1;
      for (long b : sizes[i]) {
        m[i] = Math.max(m[i], b);
      }
    }
    return m;
  }

  /** Number of blocks along each axis. */
  public long[] numBlocks() {
    long[] g = new long[shape.length];
    for (int i = 0; i < g.length; i++) {
      g[i] =
          regular == null
              ? sizes[i].length
              : shape[i] == 0 ? 0 : (shape[i] - 1) / regular[i] + 1; // no overflow near 2^63
    }
    return g;
  }

  /** The shape of block {@code coords}. */
  public long[] blockShape(long[] coords) {
    long[] s = new long[shape.length];
    for (int i = 0; i < s.length; i++) {
      s[i] =
          regular != null
              ? Math.min(regular[i], shape[i] - coords[i] * regular[i])
              : sizes[i][(int) coords[i]];
    }
    return s;
  }

  /** The index of the first element of block {@code coords}, per axis. */
  public long[] blockOffset(long[] coords) {
    long[] o = new long[shape.length];
    for (int i = 0; i < o.length; i++) {
      o[i] = regular != null ? coords[i] * regular[i] : offsets[i][(int) coords[i]];
    }
    return o;
  }

  /** The block sizes along {@code axis}. */
  public long[] sizes(int axis) {
    if (regular == null) {
      return sizes[axis].clone();
    }
    int n = (int) numBlocks()[axis];
    long[] r = new long[n];
    for (int j = 0; j < n; j++) {
      r[j] = Math.min(regular[axis], shape[axis] - j * regular[axis]);
    }
    return r;
  }

  /** The starts of the blocks along {@code axis}, with the axis length appended. */
  public long[] offsets(int axis) {
    if (regular == null) {
      return offsets[axis].clone();
    }
    long[] s = sizes(axis);
    long[] o = new long[s.length + 1];
    for (int j = 0; j < s.length; j++) {
      o[j + 1] = o[j] + s[j];
    }
    return o;
  }

  /**
   * The block along {@code axis} holding element index {@code index} ({@code 0 <= index < length}).
   */
  public long blockOf(int axis, long index) {
    if (regular != null) {
      return index / regular[axis];
    }
    int j = Arrays.binarySearch(offsets[axis], index);
    return j >= 0 ? Math.min(j, sizes[axis].length - 1) : -j - 2;
  }

  /** The grid with the block sizes of {@code axis} replaced (other axes unchanged). */
  public ChunkGrid withAxis(int axis, long[] blockSizes) {
    long[][] s = new long[shape.length][];
    for (int i = 0; i < s.length; i++) {
      s[i] = i == axis ? blockSizes : sizes(i);
    }
    long[] sh = shape.clone();
    sh[axis] = Arrays.stream(blockSizes).sum();
    return of(sh, s);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ChunkGrid g) || !Arrays.equals(shape, g.shape)) {
      return false;
    }
    for (int i = 0; i < shape.length; i++) {
      if (!Arrays.equals(sizes(i), g.sizes(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(shape);
    for (int i = 0; i < shape.length; i++) {
      h = 31 * h + Arrays.hashCode(sizes(i));
    }
    return h;
  }

  /** Regular grids as the chunk shape {@code (c1, c2)}, irregular ones Dask-style. */
  @Override
  public String toString() {
    if (regular != null) {
      return Shapes.format(regular);
    }
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append('(');
      long[] s = sizes(i);
      for (int j = 0; j < s.length; j++) {
        b.append(j > 0 ? ", " : "").append(s[j]);
      }
      b.append(s.length == 1 ? ",)" : ")");
    }
    return b.append(shape.length == 1 ? ",)" : ")").toString();
  }
}
