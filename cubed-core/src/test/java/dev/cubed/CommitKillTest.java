package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An overwrite of a filesystem target killed at every step of its commit (each journal record,
 * rename and delete, the backup's files included): a child JVM ({@link CommitKillChild}) halts
 * right before step k, for k = 1, 2, ... until a run completes. After each kill the target is the
 * old array whole, the new one whole, or (between the two renames) no array, with the old array
 * whole in the backup and the new one whole in the staging array beside it, and a reader told the
 * commit was interrupted; the rerun with resume finishes the commit first, checks the task markers
 * against the array really there (every task done), and leaves the new array and nothing else.
 */
class CommitKillTest {
  @TempDir Path tmp;

  record Run(int exit, List<String> out) {}

  private Run child(Path target, Path work, double base, boolean resume, int haltAt)
      throws Exception {
    List<String> cmd =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            CommitKillChild.class.getName(),
            target.toString(),
            work.toString(),
            String.valueOf(base),
            "true",
            String.valueOf(resume),
            String.valueOf(haltAt));
    Path err = tmp.resolve("child-err-" + System.nanoTime() + ".txt");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    List<String> out =
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    List<String> all = new ArrayList<>(out);
    all.addAll(Files.readAllLines(err));
    return new Run(p.exitValue(), all);
  }

  private NDArray expected(double base) {
    return CommitKillChild.data(base, CommitKillChild.spec(tmp.resolve("expected-work"))).compute();
  }

  private static List<Path> beside(Path target) throws IOException {
    try (Stream<Path> s = Files.list(target.getParent())) {
      return s.filter(p -> p.getFileName().toString().startsWith("." + target.getFileName()))
          .sorted()
          .toList();
    }
  }

  @Test
  void anOverwriteKilledAtEveryCommitStepIsOldOrNewAndItsResumeCommitsTheNewOne() throws Exception {
    NDArray oldData = expected(1);
    NDArray newData = expected(1000);
    int kills = 0;
    boolean between = false;
    boolean inBackupDelete = false;
    for (int k = 1; k < 100; k++) {
      Path parent = Files.createDirectory(tmp.resolve("k" + k));
      Path target = parent.resolve("t.zarr");
      Path work = tmp.resolve("work-" + k);
      Cubed.store(
          List.of(CommitKillChild.data(1, CommitKillChild.spec(work))),
          List.of(CommitKillChild.target(target, false)),
          ComputeOptions.defaults());
      Run r = child(target, work, 1000, false, k);
      String what = "killed at commit step " + k + " " + r.out();
      if (r.exit() == 0) {
        assertThat(r.out()).as(what).contains("done");
        assertThat(ZarrArray.open(target.toString()).read()).isEqualTo(newData);
        assertThat(kills).as("steps: " + r.out()).isGreaterThan(8);
        break;
      }
      assertThat(r.exit()).as(what).isEqualTo(137);
      String step = r.out().stream().filter(l -> l.startsWith("halt ")).findFirst().orElseThrow();
      kills++;
      inBackupDelete |= step.contains("cubed-backup-") && step.startsWith("halt delete");
      // after the kill: old or new, whole; or no array and both whole beside it
      if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        ZarrArray seen = ZarrArray.open(target.toString());
        assertThat(seen.isIncomplete()).as(what).isFalse();
        assertThat(seen.read()).as(what).isIn(oldData, newData);
      } else {
        between = true;
        try {
          ZarrArray.open(target.toString());
          throw new AssertionError(what + ": opened a missing target");
        } catch (ZarrFormatException e) {
          assertThat(e.getMessage()).as(what).contains("interrupted", "--resume");
        }
        List<Path> b = beside(target);
        Path backup =
            b.stream()
                .filter(p -> p.toString().contains(".cubed-backup-"))
                .findFirst()
                .orElseThrow();
        Path staging =
            b.stream()
                .filter(p -> p.toString().contains(".cubed-staging-"))
                .findFirst()
                .orElseThrow();
        assertThat(ZarrArray.open(backup.toString()).read()).as(what).isEqualTo(oldData);
        assertThat(ZarrArray.open(staging.toString()).read()).as(what).isEqualTo(newData);
      }
      // the resume finishes the commit: every task was done, the target is the new array
      Run resumed = child(target, work, 1000, true, 0);
      assertThat(resumed.exit()).as(what + " resume: " + resumed.out()).isZero();
      assertThat(resumed.out()).as(what).anyMatch(l -> l.contains("running 0"));
      assertThat(ZarrArray.open(target.toString()).read()).as(what).isEqualTo(newData);
      assertThat(ZarrArray.open(target.toString()).isIncomplete()).as(what).isFalse();
      assertThat(beside(target)).as(what).isEmpty();
      try (Stream<Path> s = Files.list(work)) {
        assertThat(s.filter(p -> p.getFileName().toString().startsWith("compute-")))
            .as(what)
            .isEmpty();
      }
    }
    assertThat(between).as("a kill landed between the two renames").isTrue();
    assertThat(inBackupDelete).as("a kill landed while the backup was deleted").isTrue();
  }
}
