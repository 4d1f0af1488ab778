package dev.cubed.bench.workload;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.NDArray;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * reduce: the mean over axis 0 and the argmax over axis 1 of A (n, m) with chunks (c, c), generated
 * chunk by chunk (or read from zarr-python's input set), in one compute: {@code Xp.mean(a, 0)} and
 * {@code Xp.argmax(a, 1)} with the default splits. Checksums: sum and sum of squares of the mean
 * vector, sum of the argmax vector and sum(argmax[i] * (i % 1000)).
 */
final class Reduce implements Workload {
  @Override
  public String name() {
    return "reduce";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(
        name(),
        size,
        Workloads.params("n", 3500, "m", 3500, "c", 700),
        Workloads.params("n", 20000, "m", 20000, "c", 2000));
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    Workloads.warmZarrPython(this, p, ctx);
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long c = p.get("c");
    Engine engine = new Engine(ctx);
    CubedArray a =
        engine.input(
            ctx, this, p, "A", new long[] {p.get("n"), p.get("m")}, new long[] {c, c}, Inputs.A);
    List<NDArray> r = engine.compute(Xp.mean(a, 0), Xp.argmax(a, 1));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("mean_sum", Checksums.sum(r.get(0)));
    sums.put("mean_sumsq", Checksums.sumSquares(r.get(0)));
    sums.put("argmax_sum", Checksums.sumLong(r.get(1)));
    sums.put("argmax_weighted", Checksums.weightedLong(r.get(1)));
    return engine.outcome(sums);
  }
}
