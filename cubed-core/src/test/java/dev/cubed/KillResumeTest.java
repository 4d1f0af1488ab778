package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 and resume, with real child JVMs: {@link ResumeChild} computes a plan with an elementwise
 * chain, a rechunk stage, a reduction and a final write to a Zarr target; the test kills it with
 * {@link Process#destroyForcibly()} after k finished tasks (k chosen per seed, spread over the
 * whole run, so kills land in every op including the rechunk and the final write), then reruns it
 * with resume and checks: the target equals an uninterrupted run's exactly, the resumed run ran
 * fewer tasks than a fresh run, and the compute directory is gone afterwards.
 */
class KillResumeTest {
  private static final int SEEDS = 22;
  @TempDir Path tmp;

  record Run(List<String> tasks, boolean done, int exit) {}

  private Process start(String... args) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                ResumeChild.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd)
        .redirectError(tmp.resolve("child-err-" + System.nanoTime() + ".txt").toFile())
        .start();
  }

  /** Runs the child; kills it after {@code killAfter} task lines (never if negative). */
  private Run run(Path work, Path target, String how, boolean resume, int killAfter, long sleepMs)
      throws Exception {
    Process p =
        start(
            "run",
            work.toString(),
            target.toString(),
            how,
            String.valueOf(resume),
            String.valueOf(sleepMs));
    List<String> tasks = new ArrayList<>();
    boolean done = false;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("task-done ")) {
          tasks.add(line.substring("task-done ".length()));
          if (tasks.size() == killAfter) {
            p.destroyForcibly();
            break;
          }
        } else if (line.equals("done")) {
          done = true;
        }
      }
    }
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Run(tasks, done, p.exitValue());
  }

  private static String op(String taskLine) {
    return taskLine.substring(0, taskLine.indexOf(' '));
  }

  private static List<Path> computeDirs(Path work) throws IOException {
    if (!Files.isDirectory(work)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(work)) {
      return s.filter(d -> d.getFileName().toString().startsWith("compute-")).toList();
    }
  }

  @Test
  void killedComputesResumeToTheExactResultWithFewerTasks() throws Exception {
    Path refTarget = tmp.resolve("ref-target");
    Run fresh = run(tmp.resolve("ref-work"), refTarget, "store", false, -1, 0);
    assertThat(fresh.done()).as("uninterrupted run finished").isTrue();
    assertThat(fresh.exit()).isZero();
    int total = fresh.tasks().size();
    List<String> opOrder = new ArrayList<>();
    fresh
        .tasks()
        .forEach(
            t -> {
              if (!opOrder.contains(op(t))) {
                opOrder.add(op(t));
              }
            });
    // the final write's op is named store-<hash>; the hash covers the target, so it differs per run
    assertThat(op(fresh.tasks().get(total - 1))).startsWith("store-");
    assertThat(opOrder).anyMatch(o -> o.startsWith("rechunk-"));
    assertThat(total).isGreaterThan(40);
    NDArray expected = ZarrArray.open(new FileSystemStore(refTarget), "out").read();
    assertThat(computeDirs(tmp.resolve("ref-work")))
        .as("success deletes the compute dir")
        .isEmpty();

    Set<String> killedIn = new HashSet<>();
    for (int seed = 0; seed < SEEDS; seed++) {
      Path work = tmp.resolve("work-" + seed);
      Path target = tmp.resolve("target-" + seed);
      String how = seed % 2 == 0 ? "store" : "toZarr";
      int k = 1 + seed * (total - 2) / (SEEDS - 1); // 1 .. total-1, spread over every op
      Run killed = run(work, target, how, false, k, 8);
      String where = killed.tasks().isEmpty() ? "?" : op(killed.tasks().get(k - 1));
      String ctx =
          "seed " + seed + " (" + how + ", killed after " + k + " tasks, in " + where + ")";
      assertThat(killed.done()).as(ctx).isFalse();
      killedIn.add(where.startsWith("rechunk-") ? "rechunk" : isFinal(where) ? "final" : "other");
      assertThat(computeDirs(work)).as(ctx + ": the killed compute left its directory").hasSize(1);
      Run resumed = run(work, target, how, true, -1, 0);
      assertThat(resumed.done()).as(ctx + ": resumed run finished").isTrue();
      NDArray got = ZarrArray.open(new FileSystemStore(target), "out").read();
      assertThat(got).as(ctx + ": resumed target equals the uninterrupted one").isEqualTo(expected);
      long doneBeforeFinal = killed.tasks().stream().filter(t -> !isFinal(op(t))).count();
      assertThat(resumed.tasks().size())
          .as(ctx + ": resumed run skips the finished tasks")
          .isLessThan(total)
          .isLessThanOrEqualTo(total - (int) doneBeforeFinal);
      if (how.equals("store")) { // target kept: finished final-write tasks are skipped too
        assertThat(resumed.tasks().size()).as(ctx).isLessThanOrEqualTo(total - k);
      }
      assertThat(computeDirs(work)).as(ctx + ": success deletes the compute dir").isEmpty();
    }
    assertThat(killedIn)
        .as("kills landed in a rechunk stage and in the final write")
        .contains("rechunk", "final");
  }

  private static boolean isFinal(String op) {
    return op.startsWith("store-");
  }
}
