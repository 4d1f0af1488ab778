package dev.cubed;

import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * What computing some arrays together will cost, from their plan: made by {@link
 * Cubed#summary(List)} without running anything, or passed by a compute to the sink of {@link
 * ComputeOptions#withPlanFigures} before its tasks run. The figures a program needs to size its JVM
 * or to report a run.
 *
 * @param tasks tasks of every operation of the plan (after fusion)
 * @param ops operations of the plan (after fusion)
 * @param maxProjectedMem the largest projected memory of one task, bytes (at most the spec's
 *     allowedMem, or planning would have failed)
 * @param intermediateBytes bytes of intermediate arrays the plan writes (uncompressed; deleted
 *     after the compute)
 * @param largestChunkBytes the largest chunk, in bytes, of the arrays and every array they are
 *     computed from (a heap holding a task needs room for one such contiguous array)
 * @param reservedMem the spec's reservedMem, bytes (each worker's baseline beside its task)
 */
public record PlanFigures(
    long tasks,
    int ops,
    long maxProjectedMem,
    long intermediateBytes,
    long largestChunkBytes,
    long reservedMem) {
  static PlanFigures of(PlanSummary s, List<CubedArray> arrays) {
    long max = 0;
    ArrayDeque<ArrayNode> todo = new ArrayDeque<>();
    for (CubedArray a : arrays) {
      todo.add(a.node());
    }
    Set<ArrayNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    while (!todo.isEmpty()) {
      ArrayNode n = todo.pop();
      if (seen.add(n)) {
        max = Math.max(max, n.chunkBytes());
        todo.addAll(n.inputs());
      }
    }
    return new PlanFigures(
        s.totalTasks(),
        s.ops().size(),
        s.maxProjectedMem(),
        s.intermediateBytesWritten(),
        max,
        s.reservedMem());
  }
}
