package dev.cubed.bench.workload;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.NDArray;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * matmul: sum(A @ B) for square n x n inputs with chunks (c, c), generated chunk by chunk (or read
 * from zarr-python's input set); the product is {@code Xp.matmul} (the engine's streamed
 * contraction), the sum a tree reduction over it.
 */
final class Matmul implements Workload {
  @Override
  public String name() {
    return "matmul";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(
        name(),
        size,
        Workloads.params("n", 2500, "c", 500),
        Workloads.params("n", 12000, "c", 2000));
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    Workloads.warmZarrPython(this, p, ctx);
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long n = p.get("n");
    long c = p.get("c");
    long[] shape = {n, n};
    long[] chunks = {c, c};
    Engine engine = new Engine(ctx);
    CubedArray a = engine.input(ctx, this, p, "A", shape, chunks, Inputs.A);
    CubedArray b = engine.input(ctx, this, p, "B", shape, chunks, Inputs.B);
    List<NDArray> r = engine.compute(Xp.sum(Xp.matmul(a, b), Axes.all(), 4));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", Checksums.sum(r.get(0)));
    return engine.outcome(sums);
  }
}
