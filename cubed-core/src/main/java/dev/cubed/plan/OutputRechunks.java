package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.RechunkPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Rechunks at a plan's outputs that need no copy stages: the in-memory rechunk.
 *
 * <p>An output of a plan without a user target is read back whole, as one array, by the run (the
 * caller's {@code compute}); its chunks do not exist in that result. So an output that is a rechunk
 * gives the caller exactly the values of its input, in the same C order: planning it as its input
 * gives one op of the input's blocks, each task copying its block into the result (written straight
 * into memory where the run allows it, see {@code MemoryOutputs}), with no stored intermediate and
 * no copy stage, where the rechunk would have stored its input, copied it into the new chunks and
 * read the new chunks back.
 *
 * <p>Chosen only when all of these hold (else the rechunk keeps its stored stages):
 *
 * <ul>
 *   <li>the rechunk has no target (a write to a Zarr array keeps its chunks);
 *   <li>its input is a computed array without a target (an in-memory array's blocks, arithmetic,
 *       ...): a stored input is copied by the rechunk's own stages as before;
 *   <li>the whole array fits the memory allowed to one task ({@code allowedMem - reservedMem}) and
 *       the rechunk planner copies it directly (no intermediate array): a rechunk larger than that
 *       keeps its bounded, stored multistage path, as the planner chose it.
 * </ul>
 *
 * Each task of the op holds one block of the input, computed as the plan's memory check projects,
 * so the op is bounded as any blockwise op; the check runs on the plan as it is made here.
 */
final class OutputRechunks {
  private OutputRechunks() {}

  /**
   * {@code outputs} with every rechunk the in-memory rechunk applies to replaced by its input, in
   * the same positions (the results keep their order).
   */
  static List<ArrayNode> planned(List<ArrayNode> outputs, PlanConfig cfg) {
    List<ArrayNode> out = new ArrayList<>(outputs.size());
    for (ArrayNode o : outputs) {
      out.add(inMemory(o, cfg) ? o.inputs().get(0) : o);
    }
    return out;
  }

  /** Whether output {@code o} is a rechunk planned as its input (the class's conditions). */
  static boolean inMemory(ArrayNode o, PlanConfig cfg) {
    if (!(o instanceof ArrayNode.Rechunked r)
        || r.target() != null
        || !(r.inputs().get(0) instanceof ArrayNode.Computed in)
        || in.target() != null
        || !in.isRegular()) {
      return false;
    }
    int item = r.dtype().itemSize();
    long bytes = ByteCounts.satMul(Shapes.size(r.shape()), item);
    if (bytes > cfg.allowedMem() - cfg.reservedMem()) {
      return false;
    }
    return RechunkPlanner.plan(
            r.shape(), in.chunks(), r.chunks(), item, cfg.rechunkBudget(), cfg.rechunkOpBytes())
        .intermediates()
        .isEmpty();
  }
}
