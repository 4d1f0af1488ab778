package dev.cubed.plan.eval;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.RunBoxes;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.plan.node.NamedContent;
import dev.cubed.runtime.processes.ClientData;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The blocks of an in-memory array given to a plan ({@code Cubed.fromArray}): each block is cut
 * from the array where a task reads it.
 *
 * <p>Where the tasks run matters. On an executor running tasks in this JVM (threads) they read the
 * array directly. On one running them in other JVMs (the processes executor), {@link
 * dev.cubed.plan.RunArrays} first writes the array's blocks to the compute's intermediate store,
 * once, in the client (holding one block copy at a time beside the array), and the tasks read the
 * blocks they need from there: the array itself is not shipped (this generator travels as a
 * stand-in without the data, {@link #shippedForm}), so a worker's heap holds only the blocks of its
 * task, never the whole array, and its size does not depend on the array's. The cost is one write
 * of the array to the work directory per compute and one read of each block.
 *
 * <p>In a plan's digest (its names) and in a plan's pickle (the Python package) the array is
 * written as its content hash and as its data, by those streams' own rules for {@link NDArray}.
 *
 * <p>A <i>window</i> ({@link #window}) is a unit-step box of such an array (a slice of it, or
 * adjacent slices concatenated back): its blocks are cut from the held array at the box's origin,
 * so a task copies only its block's elements, and nothing is copied when the window is made.
 */
public final class HeldBlocks implements ArrayNode.BlockGenerator, ClientData, NamedContent {
  private static final long serialVersionUID = 1L;

  private final NDArray data;
  private final ChunkGrid grid;

  /**
   * The name of the data when it is known without hashing it (the value of a computed array, see
   * {@link #named}); null: the data's hash names it.
   */
  private final transient String name;

  /** Where the blocks' box starts in {@code data} (null: at 0, the whole array). */
  private final long[] origin;

  /** The blocks of {@code data} on {@code grid} (of {@code data}'s shape). */
  public HeldBlocks(NDArray data, ChunkGrid grid) {
    this(data, grid, null, null);
  }

  /**
   * The blocks of {@code data} on {@code grid}, named {@code name} in node digests instead of by a
   * hash of the data (which then is not read): for data that is the computed value of an array
   * whose digest is in {@code name}, so the same name never stands for different data.
   */
  public static HeldBlocks named(NDArray data, ChunkGrid grid, String name) {
    return new HeldBlocks(data, grid, java.util.Objects.requireNonNull(name), null);
  }

  /**
   * The box of {@code of}'s blocks that starts at {@code start} (in {@code of}'s coordinates) and
   * has {@code grid}'s shape, on {@code grid}: the same held array, cut at another origin (no copy
   * now). {@code ofName} names {@code of}'s content (its node's digest); the window's name in node
   * digests is made from it and the box, so the held array is not hashed again.
   *
   * @throws IllegalArgumentException when the box does not lie inside {@code of}
   */
  public static HeldBlocks window(HeldBlocks of, String ofName, long[] start, ChunkGrid grid) {
    long[] shape = grid.shape();
    Shapes.checkBoxInside("window", start, shape, of.grid.shape());
    long[] at = of.origin();
    for (int i = 0; i < start.length; i++) {
      at[i] += start[i];
    }
    String name = "window-of:" + ofName + "@" + Arrays.toString(start) + "/" + Shapes.format(shape);
    return new HeldBlocks(of.data, grid, name, at);
  }

  /**
   * {@code parts} joined along {@code axis} (a concatenation) as one window on {@code grid}, when
   * they are boxes of the same held array that follow each other along {@code axis} and coincide on
   * the other axes (e.g. {@code x[:10]} and {@code x[10:]}): the concatenation is then that array's
   * box itself, and no task copies a block to join it. Null when they are not. {@code partNames}
   * name the parts' contents (their nodes' digests).
   */
  public static HeldBlocks joined(
      java.util.List<HeldBlocks> parts,
      java.util.List<String> partNames,
      int axis,
      ChunkGrid grid) {
    if (parts.isEmpty()) {
      return null;
    }
    HeldBlocks first = parts.get(0);
    long[] at = first.origin();
    long next = at[axis];
    for (HeldBlocks h : parts) {
      long[] o = h.origin();
      long[] shape = h.grid.shape();
      if (h.data != first.data || o.length != at.length || o[axis] != next) {
        return null;
      }
      for (int i = 0; i < o.length; i++) {
        if (i != axis && (o[i] != at[i] || shape[i] != grid.shape()[i])) {
          return null;
        }
      }
      next += shape[axis];
    }
    if (next - at[axis] != grid.shape()[axis]) {
      return null;
    }
    String name = "joined:" + axis + ":" + String.join(",", partNames);
    return new HeldBlocks(first.data, grid, name, at);
  }

  private HeldBlocks(NDArray data, ChunkGrid grid, String name, long[] origin) {
    this.name = name;
    this.origin = origin;
    if (origin != null) {
      this.data = data;
      this.grid = grid;
      return;
    }
    if (!Arrays.equals(data.shape(), grid.shape())) {
      throw new IllegalArgumentException(
          "from_array: a chunk grid of shape "
              + Shapes.format(grid.shape())
              + " for an array of shape "
              + Shapes.format(data.shape()));
    }
    this.data = data;
    this.grid = grid;
  }

  @Override
  public String contentName() {
    return name;
  }

  /**
   * The array of these blocks: the held array itself (not a copy: read only), or for a window a
   * copy of its box.
   */
  public NDArray data() {
    return origin == null ? data : data.getRegion(origin, grid.shape());
  }

  /** Whether this is a window of a held array (then {@link #data} copies). */
  public boolean isWindow() {
    return origin != null;
  }

  /** The held array the blocks are cut from (the whole of it, also for a window; read only). */
  public NDArray source() {
    return data;
  }

  /** Where the blocks' box starts in {@link #source} (zeros unless a window); a copy. */
  public long[] origin() {
    return origin == null ? new long[data.shape().length] : origin.clone();
  }

  @Override
  public NDArray generate(long[] coords, long[] blockShape) {
    return data.getRegion(blockStart(coords), blockShape);
  }

  /** Where block {@code coords} starts in the held array (the window's origin added). */
  private long[] blockStart(long[] coords) {
    long[] at = grid.blockOffset(coords);
    if (origin != null) {
      for (int i = 0; i < at.length; i++) {
        at[i] += origin[i];
      }
    }
    return at;
  }

  /**
   * Copies the box {@code [start, start + shape)} of block {@code coords} (C order) into {@code
   * dst}, an array of the dtype's backing type holding {@code shape}'s elements, straight from the
   * held array: a tile of a block without the block's copy.
   */
  public void copyBoxInto(long[] coords, long[] start, long[] shape, Object dst) {
    long[] at = blockStart(coords);
    for (int i = 0; i < at.length; i++) {
      at[i] += start[i];
    }
    NDArray.copyBox(
        data.data(),
        data.shape(),
        at,
        dst,
        shape,
        new long[shape.length],
        shape,
        data.dtype().isComplex() ? 2 : 1);
  }

  /**
   * Copies elements {@code [start, start + count)} (C order) of block {@code coords} of shape
   * {@code blockShape} into {@code dst} from index 0, a row of the held array at a time: a run of a
   * block without the block's copy.
   */
  public void copyRunInto(long[] coords, long[] blockShape, long start, int count, Object dst) {
    long[] off = blockStart(coords);
    long[] src = data.shape();
    int nd = src.length;
    int mult = data.dtype().isComplex() ? 2 : 1;
    for (RunBoxes.Box b : RunBoxes.of(blockShape, start, count)) {
      long[] bs = b.shape();
      long[] bst = b.start();
      int rowLen = (int) bs[nd - 1];
      int at = (int) (b.flat() - start);
      long[] idx = new long[nd];
      long rows = Shapes.size(bs) / Math.max(1, rowLen);
      for (long r = 0; r < rows && rowLen > 0; r++) {
        long s = 0;
        for (int d = 0; d < nd; d++) {
          s = s * src[d] + off[d] + bst[d] + idx[d];
        }
        System.arraycopy(data.data(), (int) s * mult, dst, at * mult, rowLen * mult);
        at += rowLen;
        for (int d = nd - 2; d >= 0; d--) {
          if (++idx[d] < bs[d]) {
            break;
          }
          idx[d] = 0;
        }
      }
    }
  }

  @Override
  public Serializable shippedForm() {
    return new Shipped(data.dtype(), grid.shape());
  }

  /**
   * The stand-in a worker gets: the plan stored the data, so its tasks read the stored blocks and
   * never ask this for one.
   */
  private record Shipped(DType dtype, long[] shape) implements ArrayNode.BlockGenerator {
    @Override
    public NDArray generate(long[] coords, long[] blockShape) {
      throw new IllegalStateException(
          "from_array: block "
              + Arrays.toString(coords)
              + " of an in-memory "
              + dtype
              + " array of shape "
              + Shapes.format(shape)
              + " was asked for in a worker process, but the array stays in the client: the plan"
              + " should have stored it before the tasks ran (an engine bug; the threads executor"
              + " avoids it)");
    }
  }
}
