package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Child JVM of {@link CommitKillTest} (main class on the test classpath): {@code TARGET WORK BASE
 * OVERWRITE RESUME HALT_AT} writes {@link #data} into the Zarr array at the root of the directory
 * {@code TARGET}; with {@code HALT_AT} k &gt; 0 the JVM halts ({@code Runtime.halt}: no cleanup, as
 * kill -9) right before step k of the commit, printing {@code halt <step>}; a run that ends prints
 * {@code steps N} (the commit's step count) and {@code done}.
 */
public final class CommitKillChild {
  private CommitKillChild() {}

  static Spec spec(Path work) {
    return Spec.builder().workDir(work).allowedMem(10_000_000).reservedMem(1000).build();
  }

  /** An 8 x 8 float64 array in 4 x 4 chunks whose element at flat index i is base + i. */
  static CubedArray data(double base, Spec spec) {
    return Cubed.fromFunction(
        new long[] {8, 8},
        new long[] {4, 4},
        DType.FLOAT64,
        (b, i, flat, in, bc) -> b.setDouble(i, base + flat),
        spec);
  }

  static ZarrArray target(Path dir, boolean overwrite) {
    ZarrArrayBuilder b =
        ZarrArray.create(new FileSystemStore(dir), "")
            .shape(8, 8)
            .chunks(4, 4)
            .dtype(DType.FLOAT64);
    if (overwrite) {
      b.overwrite();
    }
    return b.buildDeferred();
  }

  public static void main(String[] args) {
    Path target = Path.of(args[0]);
    Path work = Path.of(args[1]);
    double base = Double.parseDouble(args[2]);
    boolean overwrite = Boolean.parseBoolean(args[3]);
    boolean resume = Boolean.parseBoolean(args[4]);
    int haltAt = Integer.parseInt(args[5]);
    AtomicInteger steps = new AtomicInteger();
    StagedWrite.onCommitStep(
        s -> {
          if (steps.incrementAndGet() == haltAt) {
            System.out.println("halt " + s);
            System.out.flush();
            Runtime.getRuntime().halt(137);
          }
        });
    ComputeOptions opts = ComputeOptions.executor(new ThreadsExecutor(2, 1)).withResume(resume);
    Cubed.store(List.of(data(base, spec(work))), List.of(target(target, overwrite)), opts);
    System.out.println("steps " + steps.get());
    System.out.println("done");
    System.out.flush();
    System.exit(0);
  }
}
