package dev.cubed.bench.workload;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * add: C = A + B of shape (n, m) with chunks (c, c), generated chunk by chunk (or read from
 * zarr-python's input set) and written to Zarr (under {@code workDir/outputs}) with {@code
 * Cubed.store}; then sum(C) read back in a second compute. Checksum: sum. A stale C is removed
 * before timing and C itself after it.
 */
final class Add implements Workload {
  @Override
  public String name() {
    return "add";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(
        name(),
        size,
        Workloads.params("n", 2500, "m", 2500, "c", 500),
        Workloads.params("n", 14000, "m", 14000, "c", 2000));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    long c = p.get("c");
    long[] shape = {p.get("n"), p.get("m")};
    long[] chunks = {c, c};
    Engine engine = new Engine(ctx);
    CubedArray a = engine.input(ctx, this, p, "A", shape, chunks, Inputs.A);
    CubedArray b = engine.input(ctx, this, p, "B", shape, chunks, Inputs.B);
    Path out = outDir(p, ctx);
    Files.createDirectories(out);
    ZarrArray target =
        ZarrArray.create(new FileSystemStore(out), "C")
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .overwrite()
            .build();
    engine.store(List.of(Xp.add(a, b)), List.of(target));
    CubedArray stored = engine.stored(ZarrArray.open(new FileSystemStore(out), "C"));
    List<NDArray> r = engine.compute(Xp.sum(stored, Axes.all(), 4));
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", Checksums.sum(r.get(0)));
    return engine.outcome(sums);
  }

  private Path outDir(Map<String, Long> p, BenchContext ctx) {
    return ctx.outputsDir().resolve(InputCache.key(name(), "out", p));
  }

  @Override
  public void warmInputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    Workloads.warmZarrPython(this, p, ctx);
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
