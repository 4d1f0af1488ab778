package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the arrays of {@link ChainFunction}s: one task per row of blocks along the chain's axis
 * walks the row in order, carrying only the chain's carry from block to block.
 *
 * <p>While a task computes and writes block {@code j}, a helper thread of the task reads the inputs
 * of block {@code j + 1} (reading and decoding are about half of a step), so one row keeps two
 * cores busy. A task therefore holds two blocks' inputs at once, which its projected memory counts
 * ({@link dev.cubed.plan.Plan}).
 */
public final class ChainWalks {
  private ChainWalks() {}

  /** Receives each block of a row as it is computed. */
  public interface Sink {
    void accept(long[] key, NDArray block) throws Exception;
  }

  /** The chain's tasks: one key per row, its coordinate along the axis 0 (none if empty). */
  public static List<long[]> rows(ArrayNode.Computed c, int axis) {
    long[] nb = c.numBlocks();
    List<long[]> keys = new ArrayList<>();
    if (nb[axis] == 0) {
      return keys;
    }
    long[] rowGrid = nb.clone();
    rowGrid[axis] = 1;
    long total = Shapes.size(rowGrid);
    for (long f = 0; f < total; f++) {
      keys.add(Shapes.unravel(rowGrid, f));
    }
    return keys;
  }

  /** Number of tasks of the chain: the blocks off the axis. */
  public static long tasks(long[] nb, int axis) {
    if (nb[axis] == 0) {
      return 0;
    }
    long[] rowGrid = nb.clone();
    rowGrid[axis] = 1;
    return Shapes.size(rowGrid);
  }

  /** The blocks of the row of task {@code row}, in order along the axis. */
  public static List<long[]> rowBlocks(long[] nb, int axis, long[] row) {
    List<long[]> keys = new ArrayList<>();
    for (long j = 0; j < nb[axis]; j++) {
      long[] k = row.clone();
      k[axis] = j;
      keys.add(k);
    }
    return keys;
  }

  /**
   * Walks the row of task {@code row}: computes each block from its inputs and the carry, hands it
   * to {@code sink}, and keeps the new carry; the next block's inputs are read meanwhile.
   */
  public static void walk(ArrayNode.Computed c, Evaluator ev, long[] row, Sink sink)
      throws Exception {
    ChainFunction cf = (ChainFunction) c.op().function();
    List<long[]> blocks = rowBlocks(c.numBlocks(), cf.axis(), row);
    if (blocks.isEmpty()) {
      return;
    }
    ExecutorService reader =
        blocks.size() > 1
            ? Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "chain-read-" + c.name());
                  t.setDaemon(true);
                  return t;
                })
            : null;
    try {
      NDArray carry = null;
      List<Object> args = ev.args(c, blocks.get(0));
      for (int j = 0; j < blocks.size(); j++) {
        long[] key = blocks.get(j);
        Future<List<Object>> next = null;
        if (j + 1 < blocks.size()) {
          long[] nk = blocks.get(j + 1);
          next = reader.submit(() -> ev.args(c, nk));
        }
        NDArray out = Evaluator.check(c, key, cf.step(args, key.clone(), carry));
        args = null;
        carry = j + 1 < blocks.size() ? cf.carry(out) : null;
        sink.accept(key, out);
        out = null;
        if (next != null) {
          args = await(next, c, blocks.get(j + 1));
        }
      }
    } finally {
      if (reader != null) {
        reader.shutdownNow();
      }
    }
  }

  private static List<Object> await(Future<List<Object>> f, ArrayNode c, long[] key)
      throws Exception {
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(
          c.name() + ": reading the inputs of block " + Arrays.toString(key), e);
    }
  }

  /**
   * The block at {@code coords} computed from the first block of its row (a plan evaluated in
   * memory, where the chain's array is not stored).
   */
  static NDArray walkTo(ArrayNode.Computed c, ChainFunction cf, Evaluator ev, long[] coords)
      throws Exception {
    NDArray carry = null;
    NDArray out = null;
    long[] key = coords.clone();
    for (long j = 0; j <= coords[cf.axis()]; j++) {
      key[cf.axis()] = j;
      out = Evaluator.check(c, key, cf.step(ev.args(c, key), key.clone(), carry));
      if (j < coords[cf.axis()]) {
        carry = cf.carry(out);
      }
    }
    return out;
  }
}
