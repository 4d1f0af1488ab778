package dev.cubed.plan.eval;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
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

  /** The blocks of {@code data} on {@code grid} (of {@code data}'s shape). */
  public HeldBlocks(NDArray data, ChunkGrid grid) {
    this(data, grid, null);
  }

  /**
   * The blocks of {@code data} on {@code grid}, named {@code name} in node digests instead of by a
   * hash of the data (which then is not read): for data that is the computed value of an array
   * whose digest is in {@code name}, so the same name never stands for different data.
   */
  public static HeldBlocks named(NDArray data, ChunkGrid grid, String name) {
    return new HeldBlocks(data, grid, java.util.Objects.requireNonNull(name));
  }

  private HeldBlocks(NDArray data, ChunkGrid grid, String name) {
    this.name = name;
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

  /** The whole array the blocks are cut from (the held array itself, not a copy: read only). */
  public NDArray data() {
    return data;
  }

  @Override
  public NDArray generate(long[] coords, long[] blockShape) {
    return data.getRegion(grid.blockOffset(coords), blockShape);
  }

  @Override
  public Serializable shippedForm() {
    return new Shipped(data.dtype(), data.shape());
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
