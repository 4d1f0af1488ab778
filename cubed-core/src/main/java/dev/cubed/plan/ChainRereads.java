package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Recomputation deep inside a fused chain. A fused array is computed inside each task of the op it
 * is fused into, once per block that task needs; when the op's tasks together need some block of a
 * fused array more than once (counting each block once per task), that block, and everything read
 * to make it, is computed again in each such task. {@link dev.cubed.plan.Plan} already stores a
 * direct input that is re-read this way; this finds it deeper in the chain, e.g. the row {@code
 * B[0, :]} broadcast over {@code A} in {@code sum(A * B[0, :])}: fused, each of the row's blocks
 * would decode a whole stored chunk of {@code B} once per block-row of {@code A}.
 */
final class ChainRereads {
  /**
   * The most input blocks {@link #nearest} walks for one op (summed over its tasks and the chain):
   * planning stays linear in the ops, not in tasks x chain depth, for arrays of millions of blocks.
   */
  static final long MAX_VISITS = 1L << 16;

  private ChainRereads() {}

  /**
   * The fused computed array nearest to {@code c} (breadth first through c's fused inputs, its
   * direct inputs excluded) some block of which c's tasks need more than once in total, or null.
   *
   * <p>Walks c's tasks in order and stops at the first reread found or after {@link #MAX_VISITS}
   * blocks of the chain: a reread that first shows after that many (a broadcast over more than
   * about 65,000 blocks of the chain) is not found, and its blocks are recomputed per task (a cost
   * in time, never a wrong result).
   *
   * @param fused true for a computed array fused into its consumers (not stored)
   */
  static ArrayNode.Computed nearest(ArrayNode.Computed c, Predicate<ArrayNode> fused) {
    return nearest(c, fused, n -> false, MAX_VISITS);
  }

  /**
   * {@link #nearest(ArrayNode.Computed, Predicate)} where the arrays {@code accepted} holds may be
   * recomputed (a halo op's elementwise inputs, see {@link dev.cubed.plan.Plan}): they are walked
   * through, never returned.
   */
  static ArrayNode.Computed nearest(
      ArrayNode.Computed c, Predicate<ArrayNode> fused, Predicate<ArrayNode> accepted) {
    return nearest(c, fused, accepted, MAX_VISITS);
  }

  /** {@link #nearest(ArrayNode.Computed, Predicate)} with a given walk budget (blocks visited). */
  static ArrayNode.Computed nearest(
      ArrayNode.Computed c, Predicate<ArrayNode> fused, long maxVisits) {
    return nearest(c, fused, n -> false, maxVisits);
  }

  private static ArrayNode.Computed nearest(
      ArrayNode.Computed c,
      Predicate<ArrayNode> fused,
      Predicate<ArrayNode> accepted,
      long maxVisits) {
    List<ArrayNode.Computed> deep = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Deque<ArrayNode.Computed> queue = new ArrayDeque<>();
    queue.add(c);
    while (!queue.isEmpty()) {
      ArrayNode.Computed n = queue.poll();
      for (ArrayNode in : n.inputs()) {
        if (fused.test(in) && seen.add(in.name())) {
          ArrayNode.Computed f = (ArrayNode.Computed) in;
          if (n != c && !accepted.test(f)) {
            deep.add(f);
          }
          queue.add(f);
        }
      }
    }
    if (deep.isEmpty()) {
      return null;
    }
    Map<String, long[]> need = new HashMap<>();
    long tasks = Shapes.size(c.numBlocks());
    long visits = 0;
    for (long t = 0; t < tasks && visits < maxVisits; t++) {
      List<ArrayNode> blocks = blocksOfOneTask(c, Shapes.unravel(c.numBlocks(), t), fused);
      visits += blocks.size() + 1;
      for (ArrayNode n : blocks) {
        need.computeIfAbsent(n.name(), k -> new long[1])[0]++;
      }
      for (ArrayNode.Computed f : deep) {
        long[] count = need.get(f.name());
        if (count != null && count[0] > Shapes.size(f.numBlocks())) {
          return f;
        }
      }
    }
    return null;
  }

  /** The fused arrays c's task needs a block of, one entry per distinct block. */
  private static List<ArrayNode> blocksOfOneTask(
      ArrayNode.Computed c, long[] task, Predicate<ArrayNode> fused) {
    Set<Block> visited = new HashSet<>();
    List<ArrayNode> blocks = new ArrayList<>();
    Deque<Block> todo = new ArrayDeque<>();
    todo.add(new Block(c, task));
    while (!todo.isEmpty()) {
      Block item = todo.poll();
      ArrayNode.Computed n = (ArrayNode.Computed) item.node;
      List<BlockKeys> keys = n.op().keys().keys(item.key);
      for (int i = 0; i < n.inputs().size(); i++) {
        ArrayNode in = n.inputs().get(i);
        if (!fused.test(in)) {
          continue;
        }
        for (long[] k : list(keys.get(i))) {
          Block b = new Block(in, k);
          if (visited.add(b)) {
            blocks.add(in);
            todo.add(b);
          }
        }
      }
    }
    return blocks;
  }

  /**
   * One block of one array (the array by name, as the plan names it; the block by its coordinates).
   */
  private static final class Block {
    final ArrayNode node;
    final long[] key;
    private final int hash;

    Block(ArrayNode node, long[] key) {
      this.node = node;
      this.key = key;
      this.hash = 31 * node.name().hashCode() + Arrays.hashCode(key);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Block b && b.node.name().equals(node.name()) && Arrays.equals(b.key, key);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static List<long[]> list(BlockKeys k) {
    if (k instanceof BlockKeys.One o) {
      return List.of(o.key());
    }
    return k instanceof BlockKeys.Many m ? m.keys() : ((BlockKeys.Stream) k).keys();
  }
}
