package dev.cubed.bench.workload;

import dev.cubed.core.Reductions;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * reduce: the mean over axis 0 and the argmax over axis 1 of A (n, m) with chunks (c, c),
 * generated chunk by chunk, in one compute. Checksums: sum and sum of squares of the mean vector,
 * sum of the argmax vector and sum(argmax[i] * (i % 1000)).
 */
final class Reduce implements Workload {
  @Override
  public String name() {
    return "reduce";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(name(), size, Workloads.params("n", 3500, "m", 3500, "c", 700),
        Workloads.params("n", 20000, "m", 20000, "c", 2000));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long c = p.get("c");
    ArrayNode a = Engine.generated("A", new long[] {p.get("n"), p.get("m")}, new long[] {c, c},
        Inputs.A);
    // the splits Xp uses by default (Xp.AUTO_SPLIT) for this executor's workers
    int base = dev.cubed.Xp.DEFAULT_SPLIT_EVERY;
    ArrayNode mean = Reductions.reduce(a, Reductions.Op.MEAN, new int[] {0}, false,
        Reductions.balancedSplit(a.numBlocks(), new int[] {0}, ctx.workers(), base), 0);
    ArrayNode argmax = Reductions.reduce(a, Reductions.Op.ARGMAX, new int[] {1}, false,
        Reductions.balancedSplit(a.numBlocks(), new int[] {1}, ctx.workers(), base), 0);
    Engine engine = new Engine(ctx);
    List<NDArray> r = engine.compute(mean, argmax);
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("mean_sum", Checksums.sum(r.get(0)));
    sums.put("mean_sumsq", Checksums.sumSquares(r.get(0)));
    sums.put("argmax_sum", Checksums.sumLong(r.get(1)));
    sums.put("argmax_weighted", Checksums.weightedLong(r.get(1)));
    return engine.outcome(sums);
  }
}
