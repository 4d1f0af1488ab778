package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overwrite is a commit: a child JVM ({@link OverwriteChild}) replaces a valid Zarr array (v2 and
 * v3, at a store root as {@code ./cubed rechunk SRC DST} writes it) and is killed with {@link
 * Process#destroyForcibly()} early, mid-way and near the end of its 64 tasks (points chosen by the
 * task lines it prints, not by time). After each kill the old array must read back whole, through
 * the engine and through zarr-python (v2, when a python3 with zarr is installed); a resume must
 * then leave the new array and no staging or backup directory. A new target killed half-way must be
 * refused by zarr-python and by {@link Cubed#fromZarr}.
 */
class OverwriteKillTest {
  private static final int TASKS = 64;
  private static final double OLD = 1;
  private static final double NEW = 100_000;
  @TempDir Path tmp;

  record Run(int tasks, boolean done, int exit) {}

  /** Runs the child; kills it after {@code killAfter} task lines (never if negative). */
  private Run run(
      Path target,
      Path work,
      int format,
      double base,
      boolean overwrite,
      boolean resume,
      int killAfter)
      throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                OverwriteChild.class.getName(),
                "write",
                target.toString(),
                work.toString(),
                String.valueOf(format),
                String.valueOf(base),
                String.valueOf(overwrite),
                String.valueOf(resume),
                killAfter >= 0 ? "25" : "0"));
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(tmp.resolve("child-err-" + System.nanoTime() + ".txt").toFile())
            .start();
    int tasks = 0;
    boolean done = false;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("task-done ")) {
          tasks++;
          if (tasks == killAfter) {
            p.destroyForcibly();
            break;
          }
        } else if (line.equals("done")) {
          done = true;
        }
      }
    } finally {
      p.destroyForcibly();
    }
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Run(tasks, done, p.exitValue());
  }

  private NDArray expected(double base) {
    return OverwriteChild.data(base, OverwriteChild.spec(tmp.resolve("expected-work"))).compute();
  }

  /** Names in the target's parent that a staged write leaves (staging, backup). */
  private static List<String> leftovers(Path target) throws IOException {
    try (Stream<Path> s = Files.list(target.getParent())) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("." + target.getFileName() + ".cubed-"))
          .toList();
    }
  }

  @Test
  void anOverwriteKilledAtAnyPointLeavesTheOldArrayAndAResumeCommitsTheNewOne() throws Exception {
    String py = ZarrPython.find();
    for (int format : new int[] {2, 3}) {
      for (int killAfter : new int[] {2, TASKS / 2, TASKS - 3}) {
        String what = "v" + format + " killed after " + killAfter + " of " + TASKS + " tasks";
        Path target = tmp.resolve("v" + format + "-k" + killAfter).resolve("out.zarr");
        Path work = target.getParent().resolve("work");
        Run old = run(target, work, format, OLD, false, false, -1);
        assertThat(old.done()).as(what).isTrue();
        assertThat(ZarrArray.open(target.toString()).read()).isEqualTo(expected(OLD));

        Run killed = run(target, work, format, NEW, true, false, killAfter);
        assertThat(killed.done()).as(what).isFalse();
        // the old array is whole: read by the engine (not marked incomplete) and by zarr-python
        ZarrArray after = ZarrArray.open(target.toString());
        assertThat(after.isIncomplete()).as(what).isFalse();
        assertThat(Cubed.fromZarr(target.toString(), OverwriteChild.spec(work)).compute())
            .as(what)
            .isEqualTo(expected(OLD));
        if (py != null && format == 2) {
          assertThat(ZarrPython.read(py, target))
              .as(what + " (zarr-python)")
              .isEqualTo(ZarrPython.flat(expected(OLD)));
        }
        assertThat(leftovers(target)).as(what).anyMatch(n -> n.contains(".cubed-staging-"));

        Run resumed = run(target, work, format, NEW, true, true, -1);
        assertThat(resumed.done()).as(what).isTrue();
        assertThat(ZarrArray.open(target.toString()).read()).as(what).isEqualTo(expected(NEW));
        assertThat(ZarrArray.open(target.toString()).isIncomplete()).isFalse();
        if (py != null && format == 2) {
          assertThat(ZarrPython.read(py, target))
              .as(what + " (zarr-python)")
              .isEqualTo(ZarrPython.flat(expected(NEW)));
        }
        if (killAfter > 2) { // tasks whose chunks were in the staging array were not rerun
          assertThat(resumed.tasks()).as(what).isLessThan(TASKS);
        }
        assertThat(leftovers(target)).as(what).isEmpty();
      }
    }
  }

  @Test
  void aNewTargetKilledHalfWayIsNotAnArrayToAnyReader() throws Exception {
    String py = ZarrPython.find();
    for (int format : new int[] {2, 3}) {
      Path target = tmp.resolve("new-v" + format).resolve("out.zarr");
      Path work = target.getParent().resolve("work");
      Run killed = run(target, work, format, NEW, false, false, TASKS / 2);
      assertThat(killed.done()).isFalse();
      assertThatThrownBy(() -> Cubed.fromZarr(target.toString(), OverwriteChild.spec(work)))
          .isInstanceOf(IllegalArgumentException.class);
      if (py != null && format == 2) {
        assertThat(ZarrPython.open(py, target)).startsWith("REFUSED");
      }
      // a plain rerun (no overwrite needed: nothing valid is there) writes it
      assertThat(run(target, work, format, NEW, false, false, -1).done()).isTrue();
      assertThat(ZarrArray.open(target.toString()).read()).isEqualTo(expected(NEW));
      assertThat(leftovers(target)).isEmpty();
    }
  }
}
