package dev.cubed.bench.workload;

import dev.cubed.core.Contraction;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * matmul: sum(A @ B) for square n x n inputs with chunks (c, c), generated chunk by chunk; the
 * product is the engine's streamed contraction ({@link Contraction#matmul}), the sum a tree
 * reduction over it.
 */
final class Matmul implements Workload {
  @Override
  public String name() {
    return "matmul";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(name(), size, Workloads.params("n", 2500, "c", 500),
        Workloads.params("n", 12000, "c", 2000));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long n = p.get("n");
    long c = p.get("c");
    long[] shape = {n, n};
    long[] chunks = {c, c};
    ArrayNode a = Engine.generated("A", shape, chunks,
        Inputs.A);
    ArrayNode b = Engine.generated("B", shape, chunks,
        Inputs.B);
    ArrayNode prod = Contraction.matmul(a, b);
    ArrayNode total = Reductions.reduce(prod, Reductions.Op.SUM, new int[] {0, 1}, false, 4, 0);
    Engine engine = new Engine(ctx);
    List<NDArray> r = engine.compute(total);
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", Checksums.sum(r.get(0)));
    return engine.outcome(sums);
  }
}
