package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the arrays of {@link ChainFunction}s: one task per row of blocks along the chain's axis
 * walks the row in order, carrying only the chain's carry from block to block.
 *
 * <p>Only the carry runs in order. With one lane, while a task computes and writes block {@code j},
 * a helper thread reads the inputs of block {@code j + 1}. With {@code n} lanes, a pool of {@code
 * n} threads reads and decodes up to {@code n} blocks ahead and encodes and writes up to {@code n}
 * blocks behind, while the task's own thread computes each block from the carry: reading, decoding,
 * encoding and writing, the bulk of a step, then run on {@code n} cores for one row. The blocks a
 * task holds at once (the current block's inputs and output, those read ahead, those being written,
 * two carries) are what its projected memory counts ({@link ChainFunction}).
 */
public final class ChainWalks {
  private ChainWalks() {}

  /** Receives each block of a row as it is computed. */
  public interface Sink {
    /**
     * Takes block {@code key}: writes or copies it before returning, keeping no reference to it
     * (the walk may decode a later block into its array).
     */
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
   * Walks the row of task {@code row}: computes each block from its inputs and the carry, in order,
   * hands it to {@code sink}, and keeps the new carry. The inputs of the blocks ahead are read
   * meanwhile on other threads: with {@link ChainFunction#lanes()} 1, the next block's on one
   * helper thread while this thread computes and writes a block; with {@code n > 1} lanes, up to
   * {@code n} blocks ahead on a pool of {@code n} threads, which also runs {@code sink} for up to
   * {@code n} blocks behind, so this thread only computes. {@code sink} is called once per block,
   * from any of these threads, never twice at once for one key; every call has returned when this
   * method returns normally, and the first failure of a read, a step or a sink call is thrown.
   */
  public static void walk(ArrayNode.Computed c, Evaluator ev, long[] row, Sink sink)
      throws Exception {
    ChainFunction cf = (ChainFunction) c.op().function();
    List<long[]> blocks = rowBlocks(c.numBlocks(), cf.axis(), row);
    int n = blocks.size();
    if (n == 0) {
      return;
    }
    if (n == 1) {
      long[] key = blocks.get(0);
      sink.accept(key, Evaluator.check(c, key, cf.step(ev.args(c, key), key.clone(), null)));
      return;
    }
    // each block read for this step alone: the step may write into it (no block per step), and
    // the array of a block written and no longer the carry takes a later block's read
    boolean owned = ev.freshArgs(c);
    Queue<NDArray> spare = owned ? new ConcurrentLinkedQueue<>() : null;
    int lanes = Math.max(1, cf.lanes());
    int ahead = lanes;
    int behind = lanes > 1 ? lanes : 0;
    ExecutorService pool = Executors.newFixedThreadPool(lanes, threads("chain-" + c.name()));
    ArrayDeque<Future<List<Object>>> reads = new ArrayDeque<>();
    ArrayDeque<Written> writes = new ArrayDeque<>();
    boolean done = false;
    try {
      int read = 0;
      for (; read < Math.min(n, ahead + 1); read++) {
        long[] k = blocks.get(read);
        reads.add(pool.submit(() -> ev.args(c, k, spare)));
      }
      NDArray carry = null;
      NDArray previous = null; // the block before this one: the carry may be it
      for (int j = 0; j < n; j++) {
        long[] key = blocks.get(j);
        List<Object> args = await(reads.poll(), c, key);
        NDArray out = Evaluator.check(c, key, cf.step(args, key.clone(), carry, owned));
        args = null;
        if (behind == 0) {
          offer(spare, previous, lanes); // written before this step, which took its carry
        } else {
          while (!writes.isEmpty() && writes.peek().done().isDone()) {
            Written w = writes.poll();
            await(w.done(), c, key);
            offer(spare, w.block(), lanes);
          }
        }
        if (read < n) {
          long[] k = blocks.get(read++);
          reads.add(pool.submit(() -> ev.args(c, k, spare)));
        }
        carry = j + 1 < n ? cf.carry(out) : null;
        if (behind == 0) {
          sink.accept(key, out);
          previous = out;
          continue;
        }
        while (writes.size() >= behind) {
          Written w = writes.poll();
          await(w.done(), c, key);
          offer(spare, w.block(), lanes);
        }
        NDArray block = out;
        // recycled only once a later step has run: until then it may be the carry
        writes.add(
            new Written(
                pool.submit(
                    () -> {
                      sink.accept(key, block);
                      return null;
                    }),
                block));
        out = null;
      }
      while (!writes.isEmpty()) {
        await(writes.poll().done(), c, blocks.get(n - 1));
      }
      done = true;
    } finally {
      pool.shutdownNow();
      if (!done && behind > 0) {
        // a failed walk returns once no write of it is running: a retry of the task must not race
        // with a write left over from this attempt
        try {
          pool.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** A block being written, and its array. */
  private record Written(Future<?> done, NDArray block) {}

  /**
   * Offers a written block's array for a later block's read, keeping at most {@code lanes}: each is
   * a block no longer written, in place of one of the {@code lanes} blocks being written (with
   * their write copies) that the op's memory counts.
   */
  private static void offer(Queue<NDArray> spare, NDArray block, int lanes) {
    if (spare != null && block != null && spare.size() < lanes) {
      spare.offer(block);
    }
  }

  private static ThreadFactory threads(String name) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private static <T> T await(Future<T> f, ArrayNode c, long[] key) throws Exception {
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
          c.name() + ": reading or writing block " + Arrays.toString(key) + " of its row", e);
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
