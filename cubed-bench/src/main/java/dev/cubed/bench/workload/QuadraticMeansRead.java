package dev.cubed.bench.workload;

import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
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
    List<ZarrArray> uv = qm.storedInputs(p, ctx);
    Engine engine = new Engine(ctx);
    List<NDArray> r =
        engine.compute(
            Xp.sum(engine.stored(uv.get(0)), Axes.all(), 4),
            Xp.sum(engine.stored(uv.get(1)), Axes.all(), 4));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum_u", Checksums.sum(r.get(0)));
    sums.put("sum_v", Checksums.sum(r.get(1)));
    return engine.outcome(sums);
  }
}
