package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockwiseFunction;
import java.util.List;

/**
 * A block function whose blocks depend on every earlier block along one axis through a small carry
 * (a scan: the running total so far), so the plan runs its array as a chain: one task per row of
 * blocks (the blocks sharing their coordinates off {@link #axis()}) walks the row in order,
 * computing each block from its inputs and the carry of the blocks before it, writing it, and
 * keeping only the new carry. Every input block is read once and nothing but the output is written;
 * the row's blocks are computed one after another in one task, so the op's tasks are independent of
 * each other as for any op.
 *
 * <p>The carry is the only thing that runs in order: a task reads and decodes the blocks ahead of
 * the one it scans, and encodes and writes the blocks behind it, on {@link #lanes()} threads
 * ({@link ChainWalks}), so one row keeps that many cores busy.
 *
 * <p>The array of such a function is always stored (never fused into a consumer). Its op's key
 * function gives, for each output block, the input blocks that block reads (not those of the whole
 * row). The plan counts one block's inputs, the output block with its write copies and one block's
 * inputs read ahead; the op's extra memory must cover the rest: the old and the new carry (held
 * together for a moment) and, with {@code lanes() > 1}, {@code lanes() - 1} more blocks' inputs
 * read ahead and {@code lanes()} output blocks (with their write copies) being written. {@link
 * #apply} computes a block with no carry: the first block of a row.
 */
public interface ChainFunction extends BlockwiseFunction {
  /** The axis the chain walks. */
  int axis();

  /**
   * The output block at {@code outCoords} from its inputs ({@code args} as for {@link #apply}) and
   * the carry of the blocks before it along the axis ({@code carry}, null for the first block).
   * Must not modify its inputs or the carry.
   */
  NDArray step(List<Object> args, long[] outCoords, NDArray carry) throws Exception;

  /**
   * {@link #step}; with {@code owned}, the input blocks in {@code args} were made for this call
   * alone (read from the store, held by nobody else), so the function may write its output into one
   * of them instead of a new block. The default ignores it.
   */
  default NDArray step(List<Object> args, long[] outCoords, NDArray carry, boolean owned)
      throws Exception {
    return step(args, outCoords, carry);
  }

  /** The carry after {@code block} (the output block just computed, which it must not modify). */
  NDArray carry(NDArray block);

  /**
   * The threads a task reads and writes its row's blocks on: 1 (the default) reads the next block's
   * inputs on one helper thread while the task's own thread computes and writes a block; {@code n >
   * 1} reads up to {@code n} blocks ahead and writes up to {@code n} blocks behind on a pool of
   * {@code n} threads, the task's own thread only computing the blocks in order.
   */
  default int lanes() {
    return 1;
  }

  @Override
  default NDArray apply(List<Object> args, long[] outCoords) throws Exception {
    return step(args, outCoords, null);
  }
}
