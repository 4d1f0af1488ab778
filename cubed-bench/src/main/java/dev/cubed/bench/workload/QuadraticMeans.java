package dev.cubed.bench.workload;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * quadratic_means: U and V stored in Zarr with chunks (tchunk, 1, Y, X); the means over time of
 * U*U, V*V and U*V (three arrays of shape (1, Y, X)) in one compute, as a user writes it: {@code
 * Xp.mean(Xp.multiply(u, u), 0)} and so on with the default split. Checksums: the sum of each.
 */
final class QuadraticMeans implements Workload {
  @Override
  public String name() {
    return "quadratic_means";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(
        name(),
        size,
        Workloads.params("T", 50, "Y", 247, "X", 480, "tchunk", 10),
        Workloads.params("T", 100, "Y", 987, "X", 1920, "tchunk", 10));
  }

  private Path inputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    long[] shape = {p.get("T"), 1, p.get("Y"), p.get("X")};
    long[] chunks = {p.get("tchunk"), 1, p.get("Y"), p.get("X")};
    InputCache.ChunkMaker u =
        (s, b) -> Inputs.txyBlock(false, 4, s[0], s[2], s[3], (int) b[0], (int) b[2], (int) b[3]);
    InputCache.ChunkMaker v =
        (s, b) -> Inputs.txyBlock(true, 4, s[0], s[2], s[3], (int) b[0], (int) b[2], (int) b[3]);
    return InputCache.ensure(
        ctx.inputsDir(),
        InputCache.key(name(), "in", p),
        List.of(
            new InputCache.StoredInput("U", shape, chunks, u),
            new InputCache.StoredInput("V", shape, chunks, v)),
        ctx.workers());
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    if (ctx.inputSet().isZarrPython()) {
      ctx.inputSet().warm(this, p);
    } else {
      InputCache.warm(inputs(p, ctx));
    }
  }

  @Override
  public void prepare(Map<String, Long> p, BenchContext ctx) throws Exception {
    if (!ctx.inputSet().isZarrPython()) {
      inputs(p, ctx);
    }
  }

  /** U and V as stored arrays of the context's input set (the engine's written first if absent). */
  List<ZarrArray> storedInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    if (ctx.inputSet().isZarrPython()) {
      long[] shape = {p.get("T"), 1, p.get("Y"), p.get("X")};
      long[] chunks = {p.get("tchunk"), 1, p.get("Y"), p.get("X")};
      return List.of(
          ctx.inputSet().open(this, p, "U", shape, chunks),
          ctx.inputSet().open(this, p, "V", shape, chunks));
    }
    Path dir = inputs(p, ctx);
    return List.of(InputCache.open(dir, "U"), InputCache.open(dir, "V"));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    Engine engine = new Engine(ctx);
    List<ZarrArray> uv = storedInputs(p, ctx);
    CubedArray u = engine.stored(uv.get(0));
    CubedArray v = engine.stored(uv.get(1));
    List<NDArray> r =
        engine.compute(
            Xp.mean(Xp.multiply(u, u), 0),
            Xp.mean(Xp.multiply(v, v), 0),
            Xp.mean(Xp.multiply(u, v), 0));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum_uu", Checksums.sum(r.get(0)));
    sums.put("sum_vv", Checksums.sum(r.get(1)));
    sums.put("sum_uv", Checksums.sum(r.get(2)));
    return engine.outcome(sums);
  }
}
