package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CleanCommandTest {
  @TempDir Path dir;

  private String run(String... args) {
    StringWriter sw = new StringWriter();
    CommandLine cl = new CommandLine(new CleanCommand());
    cl.setOut(new PrintWriter(sw));
    assertThat(cl.execute(args)).isZero();
    return sw.toString();
  }

  @Test
  void removesLeftComputeDirsButNotALockedOneNorForeignDirs() throws Exception {
    Path work = dir.resolve("work");
    ComputeDir left = ComputeDir.open(work, "1111111111111111", "plan a\n", false);
    Files.writeString(left.path().resolve("data"), "x");
    left.release(); // what a failed compute leaves
    ComputeDir live = ComputeDir.open(work, "2222222222222222", "plan b\n", false);
    Files.createDirectories(work.resolve("compute-3333333333333333")); // not ours: no lock file
    Files.writeString(work.resolve("notes.txt"), "keep");
    try {
      String dry = run("--work-dir", work.toString(), "--dry-run");
      assertThat(dry)
          .contains("compute-1111111111111111: would remove (dry run)")
          .contains("compute-2222222222222222: in use")
          .doesNotContain("3333");
      assertThat(left.path()).exists();
      String out = run("--work-dir", work.toString());
      assertThat(out)
          .contains("compute-1111111111111111: removed")
          .contains("1 directory removed, 1 in use");
      assertThat(left.path()).doesNotExist();
      assertThat(live.path().resolve(ComputeDir.FINGERPRINT)).exists();
      assertThat(work.resolve("compute-3333333333333333")).exists();
      assertThat(work.resolve("notes.txt")).exists();
    } finally {
      live.release();
    }
    assertThat(run("--work-dir", work.toString())).contains("compute-2222222222222222: removed");
  }

  @Test
  void neverFollowsASymlinkNamedLikeAComputeDir() throws Exception {
    Path work = Files.createDirectories(dir.resolve("work"));
    // a directory outside the work dir that looks like a compute directory, holding a victim file
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve(ComputeDir.FINGERPRINT), "cubed-compute v1\nplan\n");
    Files.writeString(outside.resolve(ComputeDir.LOCK), "");
    Files.writeString(outside.resolve("victim.txt"), "precious");
    Path link = Files.createSymbolicLink(work.resolve("compute-abcdefabcdefabcd"), outside);
    String out = run("--work-dir", work.toString());
    assertThat(out)
        .contains("compute-abcdefabcdefabcd: a symbolic link")
        .contains("not followed, nothing deleted")
        .contains("0 directories removed");
    assertThat(outside.resolve("victim.txt")).hasContent("precious");
    assertThat(outside.resolve(ComputeDir.FINGERPRINT)).exists();
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void rechunkResumeRunsWithAWorkDirAndLeavesNoComputeDir() throws Exception {
    NDArray a = NDArray.zeros(DType.INT32, 30, 20);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, i * 31L % 1000);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(a.shape())
            .chunks(1L, 20)
            .dtype(DType.INT32)
            .build();
    src.write(new long[2], a);
    int code =
        new CommandLine(new RechunkCommand())
            .execute(
                dir.resolve("src.zarr").toString(),
                dir.resolve("dst.zarr").toString(),
                "--chunks",
                "30,5",
                "--allowed-mem",
                "100kB",
                "--reserved-mem",
                "1kB",
                "--work-dir",
                dir.resolve("w").toString(),
                "--resume");
    assertThat(code).isZero();
    assertThat(ZarrArray.open(new FileSystemStore(dir.resolve("dst.zarr")), "").read())
        .isEqualTo(a);
    try (Stream<Path> s = Files.list(dir.resolve("w"))) {
      assertThat(s.toList()).isEmpty();
    }
  }

  /** A target refused (exists, no --overwrite) leaves nothing in the work directory. */
  @Test
  void aRefusedTargetLeavesNothingInTheWorkDir() throws Exception {
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(30, 20)
            .chunks(1L, 20)
            .dtype(DType.INT32)
            .build();
    src.write(new long[2], NDArray.zeros(DType.INT32, 30, 20));
    String[] args = {
      "rechunk",
      dir.resolve("src.zarr").toString(),
      dir.resolve("dst.zarr").toString(),
      "--chunks",
      "30,5",
      "--allowed-mem",
      "100kB",
      "--reserved-mem",
      "1kB",
      "--work-dir",
      dir.resolve("w").toString()
    };
    StringWriter err = new StringWriter();
    assertThat(Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), false, args))
        .isZero();
    assertThat(Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), false, args))
        .isEqualTo(1);
    assertThat(err.toString()).contains("already exists").contains("--overwrite");
    if (Files.exists(dir.resolve("w"))) {
      try (Stream<Path> s = Files.list(dir.resolve("w"))) {
        assertThat(s.toList()).as("nothing left in the work directory").isEmpty();
      }
    }
  }
}
