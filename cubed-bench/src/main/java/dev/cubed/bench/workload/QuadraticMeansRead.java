package dev.cubed.bench.workload;

import dev.cubed.core.Reductions;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * quadratic_means_read: the floor of quadratic_means, not one of the five workloads. It reads and
 * decodes the same stored U and V once each (same sizes, same cached inputs) and sums each, in one
 * compute; summing costs a small fraction of decoding. Checksums: sum(U) and sum(V).
 */
final class QuadraticMeansRead implements Workload {
  private final QuadraticMeans qm = new QuadraticMeans();

  @Override
  public String name() {
    return "quadratic_means_read";
  }

  @Override
  public Map<String, Long> params(String size) {
    return qm.params(size);
  }

  @Override
  public void prepare(Map<String, Long> p, BenchContext ctx) throws Exception {
    qm.prepare(p, ctx);
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    qm.warmInputs(p, ctx);
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    List<ArrayNode> uv = qm.storedInputs(p, ctx);
    Engine engine = new Engine(ctx);
    int[] all = {0, 1, 2, 3};
    List<NDArray> r = engine.compute(
        Reductions.reduce(uv.get(0), Reductions.Op.SUM, all, false, 4, 0),
        Reductions.reduce(uv.get(1), Reductions.Op.SUM, all, false, 4, 0));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum_u", Checksums.sum(r.get(0)));
    sums.put("sum_v", Checksums.sum(r.get(1)));
    return engine.outcome(sums);
  }
}
