package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.primitive.BlockKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Recomputation deep inside a fused chain. A fused array is computed inside each task of the op it
 * is fused into, once per block that task needs; when the op's tasks together need some block of a
 * fused array more than once (counting each block once per task), that block, and everything read
 * to make it, is computed again in each such task. {@link Plan} already stores a direct input that
 * is re-read this way; this finds it deeper in the chain, e.g. the row {@code B[0, :]} broadcast
 * over {@code A} in {@code sum(A * B[0, :])}: fused, each of the row's blocks would decode a whole
 * stored chunk of {@code B} once per block-row of {@code A}.
 */
final class ChainRereads {
  /**
   * The most input blocks {@link #nearest} walks for one op (summed over its tasks and the chain):
   * planning stays linear in the ops, not in tasks x chain depth, for arrays of millions of blocks.
   */
  static final long MAX_VISITS = 1L << 20;

  private ChainRereads() {}

  /**
   * The fused computed array nearest to {@code c} (breadth first through c's fused inputs, its
   * direct inputs excluded) some block of which c's tasks need more than once in total, or null.
   *
   * <p>Walks c's tasks in order and stops at the first reread found or after {@link #MAX_VISITS}
   * blocks of the chain: a reread that first shows after that many (a broadcast over more than
   * about a million blocks of the chain) is not found, and its blocks are recomputed per task (a
   * cost in time, never a wrong result).
   *
   * @param fused true for a computed array fused into its consumers (not stored)
   */
  static ArrayNode.Computed nearest(ArrayNode.Computed c, Predicate<ArrayNode> fused) {
    return nearest(c, fused, MAX_VISITS);
  }

  /** {@link #nearest(ArrayNode.Computed, Predicate)} with a given walk budget (blocks visited). */
  static ArrayNode.Computed nearest(
      ArrayNode.Computed c, Predicate<ArrayNode> fused, long maxVisits) {
    List<ArrayNode.Computed> deep = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Deque<ArrayNode.Computed> queue = new ArrayDeque<>();
    queue.add(c);
    while (!queue.isEmpty()) {
      ArrayNode.Computed n = queue.poll();
      for (ArrayNode in : n.inputs()) {
        if (fused.test(in) && seen.add(in.name())) {
          ArrayNode.Computed f = (ArrayNode.Computed) in;
          if (n != c) {
            deep.add(f);
          }
          queue.add(f);
        }
      }
    }
    if (deep.isEmpty()) {
      return null;
    }
    Map<String, Long> need = new HashMap<>();
    long tasks = Shapes.size(c.numBlocks());
    long visits = 0;
    for (long t = 0; t < tasks && visits < maxVisits; t++) {
      List<String> names = blocksOfOneTask(c, Shapes.unravel(c.numBlocks(), t), fused);
      visits += names.size() + 1;
      for (String name : names) {
        need.merge(name, 1L, Long::sum);
      }
      for (ArrayNode.Computed f : deep) {
        if (need.getOrDefault(f.name(), 0L) > Shapes.size(f.numBlocks())) {
          return f;
        }
      }
    }
    return null;
  }

  /** Names of the fused arrays c's task needs a block of, one entry per distinct block. */
  private static List<String> blocksOfOneTask(
      ArrayNode.Computed c, long[] task, Predicate<ArrayNode> fused) {
    Set<String> visited = new LinkedHashSet<>();
    List<String> names = new ArrayList<>();
    Deque<Object[]> todo = new ArrayDeque<>();
    todo.add(new Object[] {c, task});
    while (!todo.isEmpty()) {
      Object[] item = todo.poll();
      ArrayNode.Computed n = (ArrayNode.Computed) item[0];
      List<BlockKeys> keys = n.op().keys().keys((long[]) item[1]);
      for (int i = 0; i < n.inputs().size(); i++) {
        ArrayNode in = n.inputs().get(i);
        if (!fused.test(in)) {
          continue;
        }
        for (long[] k : list(keys.get(i))) {
          if (visited.add(in.name() + Arrays.toString(k))) {
            names.add(in.name());
            todo.add(new Object[] {in, k});
          }
        }
      }
    }
    return names;
  }

  private static List<long[]> list(BlockKeys k) {
    if (k instanceof BlockKeys.One o) {
      return List.of(o.key());
    }
    return k instanceof BlockKeys.Many m ? m.keys() : ((BlockKeys.Stream) k).keys();
  }
}
