package dev.cubed;

import dev.cubed.plan.Plan;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Child JVM of the resume tests (main class on the test classpath).
 *
 * <ul>
 *   <li>{@code names WORK}: prints the compute id, resumable flag and op names of {@link #program}.
 *   <li>{@code run WORK TARGET toZarr|store RESUME SLEEP_MS}: computes {@link #program} into {@code
 *       TARGET/out} (toZarr recreates the target; store opens it if it exists), printing {@code
 *       task-done <op> <key>} after each task (then sleeping), and {@code done} at the end.
 *   <li>{@code hold WORK ID}: opens and locks compute directory {@code ID}, prints {@code locked},
 *       holds it until a line arrives on stdin.
 * </ul>
 */
public final class ResumeChild {
  private ResumeChild() {}

  static Spec spec(Path work) {
    return Spec.builder().workDir(work).allowedMem(10_000_000).reservedMem(1000).build();
  }

  /** Elementwise chain, a rechunk stage, a reduction, a broadcast subtract: ~45 tasks. */
  static CubedArray program(Spec spec) {
    CubedArray x = Cubed.random(new long[] {200, 200}, new long[] {10, 200}, 7, spec);
    CubedArray y = Xp.add(Xp.multiply(Xp.sin(x), x), x);
    CubedArray z = Xp.rechunk(y, 200, 10);
    CubedArray m = Xp.mean(z, 0);
    return Xp.subtract(z, m);
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "names" -> {
        Plan p = Cubed.plan(List.of(program(spec(Path.of(args[1])))));
        System.out.println("id " + p.computeId());
        System.out.println("resumable " + p.resumable());
        for (PlanSummary.OpInfo o : p.summary().ops()) {
          System.out.println("op " + o.name());
        }
      }
      case "run" ->
          run(
              Path.of(args[1]),
              Path.of(args[2]),
              args[3],
              Boolean.parseBoolean(args[4]),
              Long.parseLong(args[5]));
      case "hold" -> {
        try (ComputeDir d = ComputeDir.open(Path.of(args[1]), args[2], "held by a test\n", false)) {
          System.out.println("locked " + d.path());
          System.out.flush();
          new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
      }
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    System.out.flush();
    System.exit(0);
  }

  private static void run(Path work, Path targetDir, String how, boolean resume, long sleepMs) {
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
    CubedArray w = program(spec(work));
    FileSystemStore store = new FileSystemStore(targetDir);
    if (how.equals("toZarr")) {
      Cubed.toZarr(w, store, "out", opts);
    } else {
      ZarrArray target =
          Files.exists(targetDir.resolve("out").resolve("zarr.json"))
              ? ZarrArray.open(store, "out")
              : ZarrArray.create(store, "out")
                  .shape(w.shape())
                  .chunks(w.chunkShape())
                  .dtype(w.dtype())
                  .build();
      Cubed.store(List.of(w), List.of(target), opts);
    }
    System.out.println("done");
  }
}
