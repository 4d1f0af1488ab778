package dev.cubed.plan;

import dev.cubed.plan.node.ArrayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The fused arrays a task of one stored op keeps once computed: those that two or more paths of the
 * op's fused ops read (an array feeding two consumers fused into the same op, such as the mask
 * {@code notnull(x)} under both the weighted sum and the sum of weights of a weighted mean), where
 * every op on every such path reads one block per task of what it reads. The task then computes
 * each block of such an array once ({@link dev.cubed.plan.eval.Evaluator#forTask(boolean, Set)})
 * and holds at most one block of it per path, which the op's projected memory already counts (a
 * fused input's memory is added once per path). An array some path reads several blocks of per task
 * (a reduction streaming its input) is not kept: holding all of them is not in the projection.
 */
final class SharedBlocks {
  private SharedBlocks() {}

  /**
   * The names of the fused arrays that {@code op}'s tasks keep (empty when no fused array is read
   * by two paths).
   *
   * @param op a stored (materialized) computed array: one op of the plan
   * @param fused true for a computed array fused into its consumers (not stored)
   * @param topo the plan's arrays, inputs before their consumers
   */
  static Set<String> of(ArrayNode.Computed op, Predicate<ArrayNode> fused, List<ArrayNode> topo) {
    Set<String> inOp = new HashSet<>();
    List<ArrayNode> todo = new ArrayList<>(List.of(op));
    while (!todo.isEmpty()) {
      ArrayNode n = todo.remove(todo.size() - 1);
      for (ArrayNode in : n.inputs()) {
        if (fused.test(in) && inOp.add(in.name())) {
          todo.add(in);
        }
      }
    }
    if (inOp.isEmpty()) {
      return Set.of();
    }
    // paths from the op to each fused array (counted up to 2), and whether all of them read one
    // block per task at every step; consumers before their inputs (reverse topological order)
    Map<String, Integer> paths = new HashMap<>();
    Map<String, Boolean> single = new HashMap<>();
    Set<String> shared = new LinkedHashSet<>();
    for (int t = topo.size() - 1; t >= 0; t--) {
      ArrayNode n = topo.get(t);
      boolean isOp = n.name().equals(op.name());
      if (!isOp && !inOp.contains(n.name()) || !(n instanceof ArrayNode.Computed c)) {
        continue;
      }
      int p = isOp ? 1 : paths.getOrDefault(n.name(), 0);
      boolean one = isOp || single.getOrDefault(n.name(), true);
      if (!isOp && p > 1 && one) {
        shared.add(n.name());
      }
      int[] reads = c.op().readsPerInput();
      for (int i = 0; i < c.inputs().size(); i++) {
        ArrayNode in = c.inputs().get(i);
        if (!inOp.contains(in.name())) {
          continue;
        }
        paths.merge(in.name(), p, (a, b) -> Math.min(2, a + b));
        single.merge(in.name(), one && reads[i] == 1, Boolean::logicalAnd);
      }
    }
    return shared;
  }
}
