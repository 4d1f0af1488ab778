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
import java.util.Arrays;

/**
 * Loads and initializes, once per JVM and before any timed phase, the libraries a workload uses:
 * the JSON mapper and codec of Zarr metadata and chunks (a 4x4 array written and read back), and
 * the engine's plan and executor classes (a 4x4 sum run through the engine). This is the JVM's
 * counterpart of a Python benchmark's imports, which run before its timer starts; it runs no
 * workload code on workload-sized data, so the JIT compilation of the workload's loops stays inside
 * the timed figure (use {@code --warmup} to separate that too).
 */
final class LibraryInit {
  private static volatile boolean done;

  private LibraryInit() {}

  /** Runs the initialization unless it ran in this JVM already. */
  static synchronized void ensure(BenchContext ctx) throws Exception {
    if (done) {
      return;
    }
    Path dir = Files.createTempDirectory(Files.createDirectories(ctx.workDir()), "init-");
    try {
      ZarrArray z =
          ZarrArray.create(new FileSystemStore(dir), "probe")
              .shape(4, 4)
              .chunks(2, 2)
              .dtype(DType.FLOAT64)
              .overwrite()
              .build();
      NDArray block = NDArray.full(DType.FLOAT64, 1.5, 2, 2);
      z.writeChunk(new long[] {0, 0}, block);
      ZarrArray.open(new FileSystemStore(dir), "probe").read();
      BenchContext small =
          new BenchContext(
              ctx.executor(),
              ctx.workers(),
              ctx.allowedMem(),
              dir,
              ctx.fusion(),
              ctx.attempts(),
              ctx.executorOptions());
      Engine engine = new Engine(small);
      CubedArray ones =
          engine.generated(
              new long[] {4, 4},
              new long[] {2, 2},
              (start, shape, dst, at) ->
                  Arrays.fill((double[]) dst, at, at + (int) (shape[0] * shape[1]), 1.0));
      engine.compute(Xp.sum(ones, Axes.all(), 4));
    } finally {
      InputCache.deleteTree(dir);
    }
    done = true;
  }
}
