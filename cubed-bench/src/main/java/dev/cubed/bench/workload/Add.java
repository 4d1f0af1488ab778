package dev.cubed.bench.workload;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.DType;
import dev.cubed.nd.ElementwiseInto;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import dev.cubed.zarr.FileSystemStore;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * add: C = A + B of shape (n, m) with chunks (c, c), generated chunk by chunk and written to Zarr
 * (under {@code workDir/outputs}); then sum(C) read back in a second compute. Checksum: sum. A
 * stale C is removed before timing and C itself after it.
 */
final class Add implements Workload {
  @Override
  public String name() {
    return "add";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(name(), size, Workloads.params("n", 2500, "m", 2500, "c", 500),
        Workloads.params("n", 14000, "m", 14000, "c", 2000));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long n = p.get("n");
    long m = p.get("m");
    long c = p.get("c");
    long[] shape = {n, m};
    long[] chunks = {c, c};
    ArrayNode a = Engine.generated("A", shape, chunks,
        Inputs.A);
    ArrayNode b = Engine.generated("B", shape, chunks,
        Inputs.B);
    Core.PointwiseInto add = (buf, bl) -> ElementwiseInto.add(bl[0], bl[1], buf);
    ArrayNode sum = Core.pointwise("add", add, DType.FLOAT64, a, b);
    Path out = outDir(p, ctx);
    Files.createDirectories(out);
    ZarrArray target = ZarrArray.create(new FileSystemStore(out), "C").shape(shape).chunks(chunks)
        .dtype(DType.FLOAT64).overwrite().build();
    Engine engine = new Engine(ctx);
    engine.run(Core.store(sum, target));
    ArrayNode stored = new ArrayNode.Stored(ZarrArray.open(new FileSystemStore(out), "C"));
    List<NDArray> r = engine.compute(Reductions.reduce(stored, Reductions.Op.SUM,
        new int[] {0, 1}, false, 4, 0));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", Checksums.sum(r.get(0)));
    return engine.outcome(sums);
  }

  private Path outDir(Map<String, Long> p, BenchContext ctx) {
    return ctx.outputsDir().resolve(InputCache.key(name(), "out", p));
  }

  /** Removes a stale C of an earlier run (not timed). */
  @Override
  public void prepare(Map<String, Long> p, BenchContext ctx) throws Exception {
    InputCache.deleteTree(outDir(p, ctx));
  }

  /** Removes C after the timed phase; no further checksums. */
  @Override
  public Map<String, Object> checksumsAfterTiming(Map<String, Long> p, BenchContext ctx)
      throws Exception {
    InputCache.deleteTree(outDir(p, ctx));
    return Map.of();
  }
}
