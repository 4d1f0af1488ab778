package dev.cubed.bench.workload;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * rechunk: X (T, Y, X) stored with chunks (1, Y, X), rechunked to (T, yc, xc) and written to Zarr
 * (under {@code workDir/outputs}) by {@code Cubed.store} of X into a target with those chunks (the
 * engine's rechunk writes the target directly); the timed phase ends when it is written. Checksums,
 * read back chunk by chunk after timing: sum(out), sum(out[t,y,x] * ((t + 2y + 3x) % 7)) and the
 * target's chunk shape.
 */
final class Rechunk implements Workload {
  @Override
  public String name() {
    return "rechunk";
  }

  @Override
  public Map<String, Long> params(String size) {
    return Workloads.pick(
        name(),
        size,
        Workloads.params("T", 200, "Y", 250, "X", 250, "yc", 50, "xc", 50),
        Workloads.params("T", 1000, "Y", 600, "X", 600, "yc", 100, "xc", 100));
  }

  private Path inputs(Map<String, Long> p, BenchContext ctx) throws Exception {
    long[] shape = {p.get("T"), p.get("Y"), p.get("X")};
    long[] chunks = {1, p.get("Y"), p.get("X")};
    InputCache.ChunkMaker x =
        (s, b) -> Inputs.txyBlock(false, 3, s[0], s[1], s[2], (int) b[0], (int) b[1], (int) b[2]);
    return InputCache.ensure(
        ctx.inputsDir(),
        InputCache.key(name(), "in", p),
        List.of(new InputCache.StoredInput("X", shape, chunks, x)),
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
    InputCache.deleteTree(ctx.outputsDir().resolve(InputCache.key(name(), "out", p)));
  }

  @Override
  public Outcome run(Map<String, Long> p, BenchContext ctx) throws Exception {
    ZarrArray src =
        ctx.inputSet().isZarrPython()
            ? ctx.inputSet()
                .open(
                    this,
                    p,
                    "X",
                    new long[] {p.get("T"), p.get("Y"), p.get("X")},
                    new long[] {1, p.get("Y"), p.get("X")})
            : InputCache.open(inputs(p, ctx), "X");
    long[] chunks = {p.get("T"), p.get("yc"), p.get("xc")};
    Path out = ctx.outputsDir().resolve(InputCache.key(name(), "out", p));
    Files.createDirectories(out);
    Engine engine = new Engine(ctx);
    ZarrArray target =
        ZarrArray.create(new FileSystemStore(out), "out")
            .shape(src.shape())
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .overwrite()
            .build();
    engine.store(List.of(engine.stored(src)), List.of(target));
    return engine.outcome(Map.of());
  }

  @Override
  public Map<String, Object> checksumsAfterTiming(Map<String, Long> p, BenchContext ctx)
      throws Exception {
    Path out = ctx.outputsDir().resolve(InputCache.key(name(), "out", p));
    ZarrArray written = ZarrArray.open(new FileSystemStore(out), "out");
    double sum = 0;
    double weighted = 0;
    long[] grid = written.chunkGridShape();
    long total = grid[0] * grid[1] * grid[2];
    long[] c = written.chunks();
    for (long f = 0; f < total; f++) {
      long[] k = InputCache.unravel(grid, f);
      NDArray block = written.readChunk(k);
      sum += Checksums.sum(block);
      weighted += Checksums.rechunkWeighted(block, k[0] * c[0], k[1] * c[1], k[2] * c[2]);
    }
    List<Long> chunkShape = new ArrayList<>();
    for (long v : c) {
      chunkShape.add(v);
    }
    Map<String, Object> sums = new LinkedHashMap<>();
    sums.put("sum", sum);
    sums.put("weighted_sum", weighted);
    sums.put("chunks", chunkShape);
    InputCache.deleteTree(out);
    return sums;
  }
}
