package dev.cubed.plan;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.primitive.Blockwise;
import dev.cubed.zarr.ZarrArray;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node of the array-level DAG: an array of known shape, dtype and chunk grid (regular, or
 * irregular where an operation produces it: {@link ChunkGrid}), made by one of
 * four means: stored in Zarr ({@link Stored}), generated per block without storage ({@link Virtual}),
 * computed blockwise from other arrays ({@link Computed}) or rechunked from another array
 * ({@link Rechunked}). Nodes are immutable.
 */
public abstract sealed class ArrayNode implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final AtomicLong COUNTER = new AtomicLong();
  private final String name;
  private final long[] shape;
  private final long[] chunks;
  private final ChunkGrid grid;
  private final DType dtype;

  ArrayNode(String prefix, long[] shape, long[] chunks, DType dtype) {
    this(prefix, shape, gridOf(prefix, shape, chunks), dtype);
  }

  ArrayNode(String prefix, long[] shape, ChunkGrid grid, DType dtype) {
    this.name = prefix + "-" + COUNTER.incrementAndGet();
    this.shape = shape.clone();
    this.dtype = Objects.requireNonNull(dtype);
    if (!java.util.Arrays.equals(grid.shape(), shape)) {
      throw new IllegalArgumentException(name + ": chunk grid of shape "
          + Shapes.format(grid.shape()) + " for an array of shape " + Shapes.format(shape));
    }
    this.grid = grid;
    this.chunks = grid.maxChunks();
    Shapes.byteSize(prefix, shape, dtype);
    if (this instanceof Computed || this instanceof Rechunked) {
      checkTaskCount(name, shape, grid);
    }
  }

  /**
   * Refuses a computed or rechunked array with more blocks than an operation may have tasks
   * ({@link PlanSummary#MAX_TASKS_PER_OP}): its op would list that many task keys in memory.
   */
  private static void checkTaskCount(String name, long[] shape, ChunkGrid grid) {
    long[] nb = grid.numBlocks();
    double approx = 1;
    for (long b : nb) {
      approx *= b;
    }
    if (approx > PlanSummary.MAX_TASKS_PER_OP) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
          "%s: array of shape %s in chunks %s has %s blocks, so its operation would have that"
              + " many tasks: more than the %d tasks per operation the engine supports (task"
              + " keys are held in memory); use larger chunks", name, Shapes.format(shape), grid,
          approx < 9.2e18 ? String.valueOf(Shapes.size(nb))
              : String.format(java.util.Locale.ROOT, "about %.1e", approx),
          PlanSummary.MAX_TASKS_PER_OP));
    }
  }

  private static ChunkGrid gridOf(String prefix, long[] shape, long[] chunks) {
    try {
      return ChunkGrid.regular(shape, chunks);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(prefix + ": " + e.getMessage(), e);
    }
  }

  /** Unique name (used for op names and intermediate paths). */
  public String name() {
    return name;
  }

  /** Shape. */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * Chunk shape: the regular chunk size (edge chunks are clipped), or for an irregular grid the
   * largest block per axis.
   */
  public long[] chunks() {
    return chunks.clone();
  }

  /** The block sizes per axis. */
  public ChunkGrid chunkGrid() {
    return grid;
  }

  /** Whether the grid is regular (see {@link ChunkGrid#isRegular()}). */
  public boolean isRegular() {
    return grid.isRegular();
  }

  /** The index of the first element of block {@code coords}, per axis. */
  public long[] blockOffset(long[] coords) {
    return grid.blockOffset(coords);
  }

  /** Element type. */
  public DType dtype() {
    return dtype;
  }

  /** Inputs of this node. */
  public abstract List<ArrayNode> inputs();

  /** Number of blocks along each axis. */
  public long[] numBlocks() {
    return grid.numBlocks();
  }

  /** Bytes of the largest chunk. */
  public long chunkBytes() {
    long n = dtype.itemSize();
    for (int i = 0; i < shape.length; i++) {
      n *= Math.min(chunks[i], Math.max(shape[i], 0));
    }
    return n;
  }

  /** The (edge-clipped) shape of block {@code coords}. */
  public long[] blockShape(long[] coords) {
    return grid.blockShape(coords);
  }

  /** An array stored in Zarr. */
  public static final class Stored extends ArrayNode {
    private final ZarrArray array;

    /** Wraps a Zarr array. */
    public Stored(ZarrArray array) {
      super("zarr", array.shape(), array.chunks(), array.dtype());
      this.array = array;
    }

    /** The Zarr array. */
    public ZarrArray array() {
      return array;
    }

    @Override
    public List<ArrayNode> inputs() {
      return List.of();
    }
  }

  /** Generates one block from its coordinates and clipped shape. */
  @FunctionalInterface
  public interface BlockGenerator extends Serializable {
    /** The block at {@code coords} of shape {@code blockShape}. */
    NDArray generate(long[] coords, long[] blockShape);
  }

  /** An array whose blocks are generated on demand (creation functions, in-memory data). */
  public static final class Virtual extends ArrayNode {
    private final BlockGenerator generator;

    /** A virtual array. */
    public Virtual(String kind, long[] shape, long[] chunks, DType dtype, BlockGenerator generator) {
      super(kind, shape, chunks, dtype);
      this.generator = Objects.requireNonNull(generator);
    }

    /** A virtual array on any chunk grid (the generator gets block coordinates and shapes). */
    public Virtual(String kind, ChunkGrid grid, DType dtype, BlockGenerator generator) {
      super(kind, grid.shape(), grid, dtype);
      this.generator = Objects.requireNonNull(generator);
    }

    /** The generator. */
    public BlockGenerator generator() {
      return generator;
    }

    @Override
    public List<ArrayNode> inputs() {
      return List.of();
    }
  }

  /** An array computed blockwise; optionally written to a user-given target. */
  public static final class Computed extends ArrayNode {
    private final Blockwise op;
    private final List<ArrayNode> inputs;
    private final ZarrArray target;

    /** A computed array (target may be null). */
    public Computed(Blockwise op, List<ArrayNode> inputs, long[] shape, long[] chunks, DType dtype,
        ZarrArray target) {
      this(op, inputs, gridOfComputed(op, shape, chunks), dtype, target);
    }

    /** A computed array on any chunk grid (a user target needs a regular grid). */
    public Computed(Blockwise op, List<ArrayNode> inputs, ChunkGrid grid, DType dtype,
        ZarrArray target) {
      super(op.name(), grid.shape(), grid, dtype);
      this.op = op;
      this.inputs = List.copyOf(inputs);
      this.target = target;
      if (op.heldPerInput().length != inputs.size()) {
        throw new IllegalArgumentException("blockwise " + op.name() + ": " + inputs.size()
            + " inputs but the op describes " + op.heldPerInput().length);
      }
      if (target != null && !grid.isRegular()) {
        throw new IllegalArgumentException("blockwise " + op.name() + ": an irregular chunk grid "
            + grid + " cannot be written to a Zarr target; rechunk to regular chunks first");
      }
    }

    private static ChunkGrid gridOfComputed(Blockwise op, long[] shape, long[] chunks) {
      try {
        return ChunkGrid.regular(shape, chunks);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(op.name() + ": " + e.getMessage(), e);
      }
    }

    /** The blockwise op. */
    public Blockwise op() {
      return op;
    }

    /** The user's target, or null. */
    public ZarrArray target() {
      return target;
    }

    @Override
    public List<ArrayNode> inputs() {
      return inputs;
    }
  }

  /** An array rechunked from another (multistage, bounded memory). */
  public static final class Rechunked extends ArrayNode {
    private final ArrayNode input;
    private final ZarrArray target;

    /** A rechunk of {@code input} to {@code chunks}, written to {@code target} if not null. */
    public Rechunked(ArrayNode input, long[] chunks, ZarrArray target) {
      super("rechunk", input.shape(), chunks, input.dtype());
      this.input = input;
      this.target = target;
    }

    /** The user's target, or null. */
    public ZarrArray target() {
      return target;
    }

    @Override
    public List<ArrayNode> inputs() {
      return List.of(input);
    }
  }
}
