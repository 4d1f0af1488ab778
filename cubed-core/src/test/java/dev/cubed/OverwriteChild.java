package dev.cubed;

import dev.cubed.nd.DType;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Child JVM of {@link OverwriteKillTest} (main class on the test classpath): {@code write TARGET
 * WORK FORMAT BASE OVERWRITE RESUME SLEEP_MS} computes {@link #data} into the Zarr array at the
 * root of the directory {@code TARGET} (as {@code ./cubed rechunk SRC DST} does), printing {@code
 * task-done <op> <key>} after each task (then sleeping {@code SLEEP_MS}) and {@code done} at the
 * end.
 */
public final class OverwriteChild {
  private OverwriteChild() {}

  static final long N = 64;
  static final long CHUNK = 8;

  static Spec spec(Path work) {
    return Spec.builder().workDir(work).allowedMem(10_000_000).reservedMem(1000).build();
  }

  /** An N x N float64 array whose element at flat index i is {@code base + i}: 64 chunks. */
  static CubedArray data(double base, Spec spec) {
    return Cubed.fromFunction(
        new long[] {N, N},
        new long[] {CHUNK, CHUNK},
        DType.FLOAT64,
        (b, i, flat, in, bc) -> b.setDouble(i, base + flat),
        spec);
  }

  /** The deferred target at the root of {@code dir}. */
  static ZarrArray target(Path dir, int format, boolean overwrite) {
    ZarrArrayBuilder b =
        ZarrArray.create(new FileSystemStore(dir), "")
            .shape(N, N)
            .chunks(CHUNK, CHUNK)
            .dtype(DType.FLOAT64)
            .zarrFormat(format);
    if (overwrite) {
      b.overwrite();
    }
    return b.buildDeferred();
  }

  public static void main(String[] args) throws Exception {
    if (!args[0].equals("write")) {
      throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    Path target = Path.of(args[1]);
    Path work = Path.of(args[2]);
    int format = Integer.parseInt(args[3]);
    double base = Double.parseDouble(args[4]);
    boolean overwrite = Boolean.parseBoolean(args[5]);
    boolean resume = Boolean.parseBoolean(args[6]);
    long sleepMs = Long.parseLong(args[7]);
    Callback printer =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            synchronized (System.out) {
              System.out.println("task-done " + e.opName() + " " + Arrays.toString(e.key()));
              System.out.flush();
            }
            if (sleepMs > 0) {
              try {
                Thread.sleep(sleepMs);
              } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
              }
            }
          }
        };
    ComputeOptions opts =
        ComputeOptions.executor(new ThreadsExecutor(2, 1)).withCallback(printer).withResume(resume);
    Cubed.store(List.of(data(base, spec(work))), List.of(target(target, format, overwrite)), opts);
    System.out.println("done");
    System.out.flush();
    System.exit(0);
  }
}
