package dev.cubed.bench.workload;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.ElementwiseInto;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * quadratic_means: U and V stored in Zarr with chunks (tchunk, 1, Y, X); the means over time of
 * U*U, V*V and U*V (three arrays of shape (1, Y, X)) in one compute. Checksums: the sum of each.
 */
final class QuadraticMeans implements Workload {
  @Override
  public String name() {
    return "quadratic_means";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(name(), size,
        Workloads.params("T", 50, "Y", 247, "X", 480, "tchunk", 10),
        Workloads.params("T", 100, "Y", 987, "X", 1920, "tchunk", 10));
  }

  private Path inputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    long[] shape = {p.get("T"), 1, p.get("Y"), p.get("X")};
    long[] chunks = {p.get("tchunk"), 1, p.get("Y"), p.get("X")};
    InputCache.ChunkMaker u = (s, b) -> Inputs.txyBlock(false, 4, s[0], s[2], s[3], (int) b[0],
        (int) b[2], (int) b[3]);
    InputCache.ChunkMaker v = (s, b) -> Inputs.txyBlock(true, 4, s[0], s[2], s[3], (int) b[0],
        (int) b[2], (int) b[3]);
    return InputCache.ensure(ctx.inputsDir(), InputCache.key(name(), "in", p),
        List.of(new InputCache.StoredInput("U", shape, chunks, u),
            new InputCache.StoredInput("V", shape, chunks, v)), ctx.workers());
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    InputCache.warm(inputs(p, ctx));
  }

  @Override
  public void prepare(Map<String, Long> p, BenchContext ctx) throws Exception {
    inputs(p, ctx);
  }

  /** U and V as stored arrays (written first if not cached). */
  List<ArrayNode> storedInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    Path dir = inputs(p, ctx);
    return List.of(new ArrayNode.Stored(InputCache.open(dir, "U")),
        new ArrayNode.Stored(InputCache.open(dir, "V")));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    List<ArrayNode> uv = storedInputs(p, ctx);
    ArrayNode u = uv.get(0);
    ArrayNode v = uv.get(1);
    Engine engine = new Engine(ctx);
    // the split Xp.mean uses by default (Xp.AUTO_SPLIT) for this executor's workers
    int split = Reductions.balancedSplit(u.numBlocks(), new int[] {0}, ctx.workers(),
        dev.cubed.Xp.DEFAULT_SPLIT_EVERY);
    List<NDArray> r = engine.compute(meanOfProduct(u, u, split), meanOfProduct(v, v, split),
        meanOfProduct(u, v, split));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum_uu", Checksums.sum(r.get(0)));
    sums.put("sum_vv", Checksums.sum(r.get(1)));
    sums.put("sum_uv", Checksums.sum(r.get(2)));
    return engine.outcome(sums);
  }

  private static ArrayNode meanOfProduct(ArrayNode a, ArrayNode b, int split) {
    Core.PointwiseInto multiply = (buf, bl) -> ElementwiseInto.multiply(bl[0], bl[1], buf);
    ArrayNode prod = Core.pointwise("multiply", multiply, DType.FLOAT64, a, b);
    return Reductions.reduce(prod, Reductions.Op.MEAN, new int[] {0}, false, split, 0);
  }
}
