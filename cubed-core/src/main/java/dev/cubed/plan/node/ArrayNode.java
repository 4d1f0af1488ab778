package dev.cubed.plan.node;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.primitive.Blockwise;
import dev.cubed.zarr.ZarrArray;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A node of the array-level DAG: an array of known shape, dtype and chunk grid (regular, or
 * irregular where an operation produces it: {@link ChunkGrid}), made by one of four means: stored
 * in Zarr ({@link Stored}), generated per block without storage ({@link Virtual}), computed
 * blockwise from other arrays ({@link Computed}) or rechunked from another array ({@link
 * Rechunked}). Nodes are immutable.
 *
 * <p>Names are derived from content ({@link #name()}), so the same program builds the same names in
 * every run: the basis of resuming a compute ({@code Plan}).
 */
public abstract sealed class ArrayNode implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Hex digits of the content digest in a name. */
  static final int NAME_HEX = 12;

  private final String prefix;
  private String name;
  private String digest;
  private boolean resumable;
  private String notResumableReason;
  private final long[] shape;
  private final long[] chunks;
  private final ChunkGrid grid;
  private final DType dtype;

  ArrayNode(String prefix, long[] shape, long[] chunks, DType dtype) {
    this(prefix, shape, gridOf(prefix, shape, chunks), dtype);
  }

  ArrayNode(String prefix, long[] shape, ChunkGrid grid, DType dtype) {
    this.prefix = Objects.requireNonNull(prefix);
    this.shape = shape.clone();
    this.dtype = Objects.requireNonNull(dtype);
    if (!Arrays.equals(grid.shape(), shape)) {
      throw new IllegalArgumentException(
          prefix
              + ": chunk grid of shape "
              + Shapes.format(grid.shape())
              + " for an array of shape "
              + Shapes.format(shape));
    }
    this.grid = grid;
    this.chunks = grid.maxChunks();
    Shapes.byteSize(prefix, shape, dtype);
    if (this instanceof Computed || this instanceof Rechunked) {
      checkTaskCount(prefix, shape, grid);
    }
  }

  /**
   * Refuses a computed or rechunked array with more blocks than an operation may have tasks ({@link
   * PlanSummary#MAX_TASKS_PER_OP}): its op would list that many task keys in memory.
   */
  private static void checkTaskCount(String name, long[] shape, ChunkGrid grid) {
    long[] nb = grid.numBlocks();
    double approx = 1;
    for (long b : nb) {
      approx *= b;
    }
    if (approx > PlanSummary.MAX_TASKS_PER_OP) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s: array of shape %s in chunks %s has %s blocks, so its operation would have that"
                  + " many tasks: more than the %d tasks per operation the engine supports (task"
                  + " keys are held in memory); use larger chunks",
              name,
              Shapes.format(shape),
              grid,
              approx < 9.2e18
                  ? String.valueOf(Shapes.size(nb))
                  : String.format(Locale.ROOT, "about %.1e", approx),
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

  /**
   * Sets the name from the content; every subclass constructor calls this last. The content is the
   * node kind, prefix, shape, chunk grid, dtype, the inputs' digests and the kind's own parameters
   * ({@link #writeContent}); see {@link NodeDigest}.
   */
  final void initName() {
    NodeDigest.Result r =
        NodeDigest.of(
            out -> {
              out.writeUTF(getClass().getSimpleName());
              out.writeUTF(prefix);
              out.writeObject(shape);
              out.writeObject(grid);
              out.writeUTF(dtype.name());
              for (ArrayNode in : inputs()) {
                out.writeUTF(in.digest());
              }
              writeContent(out);
            });
    this.digest = r.hex();
    this.name = prefix + "-" + r.hex().substring(0, NAME_HEX);
    this.resumable = r.stable();
    this.notResumableReason =
        r.stable()
            ? null
            : name + " (" + prefix + "): its parameters cannot be serialized: " + r.reason();
    for (ArrayNode in : inputs()) {
      if (resumable && !in.resumable) {
        resumable = false;
        notResumableReason = in.notResumableReason;
      }
    }
  }

  /** Writes what distinguishes this node beyond shape, grid, dtype and inputs. */
  abstract void writeContent(ObjectOutputStream out) throws IOException;

  /**
   * The name, used for op names and intermediate paths: {@code <prefix>-<12 hex digits>} of a
   * SHA-256 digest of the node's content, so the same program gives the same names in every run and
   * different arrays different names (a 48-bit prefix of the digest; the plan checks the full
   * digest of nodes sharing a name). A node whose parameters cannot be serialized gets a random
   * name ({@link #resumable()} false).
   */
  public String name() {
    return name;
  }

  /** The full hex SHA-256 content digest (random for a node that is not resumable). */
  public String digest() {
    return digest;
  }

  /**
   * True if this node and all its inputs have content-derived names, so a later run of the same
   * program names them the same and can resume their computation.
   */
  public boolean resumable() {
    return resumable;
  }

  /** Why this node is not resumable (the first node of its graph that is not), or null. */
  public String notResumableReason() {
    return notResumableReason;
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
      initName();
    }

    @Override
    void writeContent(ObjectOutputStream out) throws IOException {
      out.writeUTF(NodeDigest.storeToken(array.store()));
      out.writeUTF(array.path());
      out.writeUTF(array.identityJson());
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

    /**
     * Bytes that generating one block holds beside the block it returns, at most (decode buffers, a
     * stored chunk read whole to cut the block from): the plan's memory model adds them to the
     * block. The default is 0 (the block is made in place, or copied from memory).
     */
    default long heldBesideBlock() {
      return 0;
    }

    /**
     * Bytes of stored data read to generate a block of {@code blockBytes} decoded bytes, for the
     * plan's read figures: 0 (the default) for a generator that makes its blocks or copies them
     * from memory; a reader of a stored array says what it decodes.
     */
    default long readBytes(long blockBytes) {
      return 0;
    }
  }

  /**
   * Where a block lies in a stored array: element {@code i} of the block (per axis) is element
   * {@code lo + i * step} of chunk {@code chunk} of {@code array} (its full, unclipped chunk).
   */
  public record ChunkView(ZarrArray array, long[] chunk, long[] lo, long[] step) {}

  /**
   * A generator whose blocks are strided boxes of single chunks of one stored array (a slice or a
   * strided selection read from the store), so that a chain reading them a tile at a time can read
   * the tile's rows from the chunk ({@link dev.cubed.zarr.ChunkReader}) instead of the block.
   */
  public interface ChunkViews extends BlockGenerator {
    /**
     * True if every block is inside one chunk with a step of 1 along the last axis ({@link #view}
     * answers for every block).
     */
    boolean viewsChunks();

    /** The stored array the blocks come from. */
    ZarrArray viewedArray();

    /** Where block {@code coords} lies (only when {@link #viewsChunks()}). */
    ChunkView view(long[] coords);
  }

  /**
   * A generator that can also make any box of a block, so that a chain computed a run at a time (a
   * chunk written while it is computed) generates only the runs, never the whole block. A region
   * must equal the same box of {@link #generate}'s block.
   */
  public interface RegionGenerator extends BlockGenerator {
    /**
     * The box {@code [start, start + shape)} (relative to the block) of the block at {@code coords}
     * of shape {@code blockShape}: an array of {@code shape}.
     */
    NDArray region(long[] coords, long[] blockShape, long[] start, long[] shape);

    /**
     * Writes the elements of {@link #region} (C order) into {@code dst}, a backing array of {@code
     * dtype}, from element {@code at}. The default copies {@link #region}'s result; a generator
     * that can write in place overrides it, so that a run made a box at a time (a chunk written
     * while it is computed) allocates nothing for its leaves.
     *
     * @throws IllegalStateException if {@link #region} gave another dtype or shape
     */
    default void regionInto(
        long[] coords,
        long[] blockShape,
        long[] start,
        long[] shape,
        DType dtype,
        Object dst,
        int at) {
      NDArray r = region(coords, blockShape, start, shape);
      if (r.dtype() != dtype || !Arrays.equals(r.shape(), shape)) {
        throw new IllegalStateException(
            "region "
                + Arrays.toString(start)
                + " of block "
                + Arrays.toString(coords)
                + " must be "
                + dtype
                + " of shape "
                + Shapes.format(shape)
                + ", the generator gave "
                + r.dtype()
                + " of shape "
                + Shapes.format(r.shape()));
      }
      int slots = dtype.isComplex() ? 2 : 1;
      System.arraycopy(r.data(), 0, dst, at * slots, r.size() * slots);
    }
  }

  /** An array whose blocks are generated on demand (creation functions, in-memory data). */
  public static final class Virtual extends ArrayNode {
    private final BlockGenerator generator;

    /** A virtual array. */
    public Virtual(
        String kind, long[] shape, long[] chunks, DType dtype, BlockGenerator generator) {
      super(kind, shape, chunks, dtype);
      this.generator = Objects.requireNonNull(generator);
      initName();
    }

    /** A virtual array on any chunk grid (the generator gets block coordinates and shapes). */
    public Virtual(String kind, ChunkGrid grid, DType dtype, BlockGenerator generator) {
      super(kind, grid.shape(), grid, dtype);
      this.generator = Objects.requireNonNull(generator);
      initName();
    }

    @Override
    void writeContent(ObjectOutputStream out) throws IOException {
      out.writeObject(generator);
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
    public Computed(
        Blockwise op,
        List<ArrayNode> inputs,
        long[] shape,
        long[] chunks,
        DType dtype,
        ZarrArray target) {
      this(op, inputs, gridOfComputed(op, shape, chunks), dtype, target);
    }

    /** A computed array on any chunk grid (a user target needs a regular grid). */
    public Computed(
        Blockwise op, List<ArrayNode> inputs, ChunkGrid grid, DType dtype, ZarrArray target) {
      super(op.name(), grid.shape(), grid, dtype);
      this.op = op;
      this.inputs = List.copyOf(inputs);
      this.target = target;
      if (op.heldPerInput().length != inputs.size()) {
        throw new IllegalArgumentException(
            "blockwise "
                + op.name()
                + ": "
                + inputs.size()
                + " inputs but the op describes "
                + op.heldPerInput().length);
      }
      if (target != null && !grid.isRegular()) {
        throw new IllegalArgumentException(
            "blockwise "
                + op.name()
                + ": an irregular chunk grid "
                + grid
                + " cannot be written to a Zarr target; rechunk to regular chunks first");
      }
      initName();
    }

    @Override
    void writeContent(ObjectOutputStream out) throws IOException {
      out.writeObject(op);
      out.writeObject(target);
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
      initName();
    }

    @Override
    void writeContent(ObjectOutputStream out) throws IOException {
      out.writeObject(target);
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
