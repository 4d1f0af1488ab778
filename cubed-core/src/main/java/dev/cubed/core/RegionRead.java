package dev.cubed.core;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.plan.node.NamedContent;
import dev.cubed.zarr.ZarrArray;
import java.util.Arrays;

/**
 * Blocks of a virtual array read as boxes of a stored Zarr array: block {@code k} of {@code grid}
 * is the box at {@code origin + grid.blockOffset(k)} of that shape, read in the task that needs it
 * ({@link ZarrArray#read(long[], long[])}: a local {@code bytes} + zstd, gzip or zlib chunk is
 * decoded only up to the box's last byte and only the box's elements are copied, straight into the
 * block; other chunks are read whole and cut). Used for stored inputs on other chunks ({@link
 * Core#readRegions}) and for unit-step slices of stored arrays ({@link BasicIndexing}): {@code B[0,
 * :]} of chunks (2000, 2000) reads each chunk's first row, not the chunk.
 *
 * <p>Generating a block holds, beside it, what {@link ZarrArray#regionReadBytes()} says.
 */
final class RegionRead implements ArrayNode.ChunkViews, NamedContent {
  private static final long serialVersionUID = 1L;

  private final ZarrArray array;
  private final ChunkGrid grid;
  private final long[] origin;

  /** The step per axis, or null: 1 on every axis. */
  private final long[] step;

  /** The name in node digests (null: hashed from the generator's serialized form). */
  private final String name;

  /**
   * {@link #viewsChunks()} once known (asked for every task's chain; derived, so not serialized).
   */
  private transient volatile Boolean viewsChunks;

  private RegionRead(ZarrArray array, ChunkGrid grid, long[] origin, long[] step, String name) {
    this.array = array;
    this.grid = grid;
    this.origin = origin;
    this.step = step;
    this.name = name;
  }

  /** The stored array on {@code grid} (its shape). */
  static RegionRead regrid(ZarrArray array, ChunkGrid grid) {
    return new RegionRead(array, grid, new long[grid.shape().length], null, null);
  }

  /**
   * The box of stored array {@code array} at {@code start} of {@code grid}'s shape, on {@code
   * grid}; {@code arrayName} names the array's content (its node's digest), from which the window's
   * name in node digests is made.
   *
   * @throws IllegalArgumentException when the box is not inside the array
   */
  static RegionRead window(ZarrArray array, String arrayName, long[] start, ChunkGrid grid) {
    long[] shape = grid.shape();
    Shapes.checkBoxInside("window", start, shape, array.shape());
    String name =
        "zarr-window-of:" + arrayName + "@" + Arrays.toString(start) + "/" + Shapes.format(shape);
    return new RegionRead(array, grid, start.clone(), null, name);
  }

  /**
   * The selection of stored array {@code array} from {@code start} every {@code step[i]} (at least
   * 1) along axis {@code i}, of {@code grid}'s shape, on {@code grid}; named from {@code arrayName}
   * as {@link #window}.
   *
   * @throws IllegalArgumentException when a step is below 1 or the selection is not inside the
   *     array
   */
  static RegionRead strided(
      ZarrArray array, String arrayName, long[] start, long[] step, ChunkGrid grid) {
    long[] shape = grid.shape();
    long[] full = array.shape();
    long[] extent = new long[shape.length];
    for (int i = 0; i < shape.length && i < step.length; i++) {
      if (step[i] < 1) {
        throw new IllegalArgumentException(
            "strided: steps must be at least 1, got " + Arrays.toString(step));
      }
      extent[i] = shape[i] == 0 ? 0 : (shape[i] - 1) * step[i] + 1;
    }
    Shapes.checkBoxInside("strided", start, extent, full);
    String name =
        "zarr-strided-of:"
            + arrayName
            + "@"
            + Arrays.toString(start)
            + "/"
            + Arrays.toString(step)
            + "/"
            + Shapes.format(shape);
    return new RegionRead(array, grid, start.clone(), step.clone(), name);
  }

  @Override
  public NDArray generate(long[] coords, long[] blockShape) {
    long[] at = grid.blockOffset(coords);
    for (int i = 0; i < at.length; i++) {
      at[i] = origin[i] + at[i] * (step == null ? 1 : step[i]);
    }
    return step == null ? array.read(at, blockShape) : array.readStrided(at, step, blockShape);
  }

  /**
   * True if every block lies inside one chunk of the array with a step of 1 along the last axis (so
   * a tiled chain can read its tiles' rows from the chunk: {@link ArrayNode.ChunkViews}).
   */
  @Override
  public boolean viewsChunks() {
    Boolean v = viewsChunks;
    if (v == null) {
      v = eachBlockInOneChunk();
      viewsChunks = v;
    }
    return v;
  }

  /** {@link #viewsChunks()}, computed (a pass over the blocks along each axis). */
  private boolean eachBlockInOneChunk() {
    int nd = origin.length;
    if (nd == 0 || nd != array.shape().length || (step != null && step[nd - 1] != 1)) {
      return false;
    }
    long[] c = array.chunks();
    long[] nb = grid.numBlocks();
    for (int d = 0; d < nd; d++) {
      long[] k = new long[nd];
      for (long b = 0; b < nb[d]; b++) {
        k[d] = b;
        long first = origin[d] + grid.blockOffset(k)[d] * step(d);
        long size = grid.blockShape(k)[d];
        if (size == 0 || first / c[d] != (first + (size - 1) * step(d)) / c[d]) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public ZarrArray viewedArray() {
    return array;
  }

  @Override
  public ArrayNode.ChunkView view(long[] coords) {
    long[] at = grid.blockOffset(coords);
    long[] c = array.chunks();
    int nd = at.length;
    long[] key = new long[nd];
    long[] lo = new long[nd];
    long[] st = new long[nd];
    for (int d = 0; d < nd; d++) {
      long p = origin[d] + at[d] * step(d);
      key[d] = p / c[d];
      lo[d] = p - key[d] * c[d];
      st[d] = step(d);
    }
    return new ArrayNode.ChunkView(array, key, lo, st);
  }

  private long step(int d) {
    return step == null ? 1 : step[d];
  }

  @Override
  public long heldBesideBlock() {
    return array.regionReadBytes();
  }

  /** A block's bytes: the box is read (the stream decoded up to its last byte is not counted). */
  @Override
  public long readBytes(long blockBytes) {
    return blockBytes;
  }

  @Override
  public String contentName() {
    return name;
  }
}
