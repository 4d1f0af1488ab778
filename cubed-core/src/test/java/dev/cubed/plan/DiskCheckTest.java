package dev.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.NDArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk check: a plan whose intermediate arrays exceed the usable space of the work directory's
 * file system is refused before anything runs, with both figures in one line; {@code disk_check}
 * turns it off. With a fake usable-space figure, and on a real 8 MB tmpfs where mounting is
 * allowed.
 */
class DiskCheckTest {
  @TempDir Path dir;
  private final ToLongFunction<Path> real = DiskCheck.usableSpace;

  @AfterEach
  void restore() {
    DiskCheck.usableSpace = real;
  }

  private static Spec spec(Path work, boolean check) {
    return Spec.builder()
        .workDir(work)
        .allowedMem(200_000_000L)
        .reservedMem(1000)
        .set("inline_max_bytes", "0")
        .diskCheck(check)
        .build();
  }

  /** A rechunk between transposed chunkings: its intermediate is the array's size (8 MB). */
  private static CubedArray planWithIntermediates(Spec spec) {
    CubedArray x =
        Cubed.fromArray(NDArray.arange(1_000_000).reshape(1000, 1000), new long[] {1000, 10}, spec);
    return Xp.sum(Xp.add(Xp.rechunk(x, 10, 1000), 1L), dev.cubed.nd.Axes.of(1), 4);
  }

  @Test
  void aPlanLargerThanTheFreeSpaceIsRefusedBeforeAnythingRuns() throws IOException {
    Path work = dir.resolve("work");
    CubedArray r = planWithIntermediates(spec(work, true));
    long need = Cubed.summary(List.of(r)).intermediateBytes();
    assertThat(need).isGreaterThan(1_000_000L);
    DiskCheck.usableSpace = p -> need - 1;
    assertThatThrownBy(() -> Cubed.compute(r))
        .isInstanceOf(DiskSpaceExceededException.class)
        .hasMessageContaining("of intermediate arrays to work directory " + work)
        .hasMessageContaining("(" + need + " B)")
        .hasMessageContaining("(" + (need - 1) + " B) usable")
        .hasMessageContaining("work_dir with more space, larger chunks, or fewer")
        .hasMessageContaining("nothing was run")
        .message()
        .doesNotContain("\n");
    // nothing ran: no compute directory was made
    assertThat(Files.exists(work) ? Files.list(work).count() : 0).isZero();
    DiskCheck.usableSpace = p -> need;
    assertThat(Cubed.compute(r).get(0).size()).isEqualTo(1000);
  }

  @Test
  void theSettingTurnsItOff() {
    CubedArray r = planWithIntermediates(spec(dir.resolve("w"), false));
    DiskCheck.usableSpace = p -> 1;
    assertThat(Cubed.compute(r).get(0).size()).isEqualTo(1000);
    assertThat(Spec.builder().set("disk_check", "false").build().diskCheck()).isFalse();
  }

  @Test
  void theRealFigureIsTheFileStoresUsableSpace() throws IOException {
    long usable = Files.getFileStore(dir).getUsableSpace();
    long got = DiskCheck.fileStoreUsable(dir.resolve("not/yet/made"));
    assertThat(got).isBetween(usable / 2, usable * 2);
  }

  @Test
  void aSmallTmpfsRefusesThePlan() throws Exception {
    Path mnt = dir.resolve("tmpfs");
    Files.createDirectories(mnt);
    Process p =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt.toString())
            .redirectErrorStream(true)
            .start();
    boolean mounted = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    Assumptions.assumeTrue(
        mounted,
        "mounting a tmpfs is not allowed here: " + new String(p.getInputStream().readAllBytes()));
    try {
      CubedArray r = planWithIntermediates(spec(mnt.resolve("work"), true));
      assertThatThrownBy(() -> Cubed.compute(r))
          .isInstanceOf(DiskSpaceExceededException.class)
          .hasMessageContaining("to work directory " + mnt.resolve("work"));
    } finally {
      new ProcessBuilder("umount", mnt.toString()).start().waitFor(20, TimeUnit.SECONDS);
    }
  }
}
