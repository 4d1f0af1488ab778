package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./cubed rechunk} never destroys data: each case of issue 9's data-loss report. */
class RechunkTargetSafetyTest {
  @TempDir Path dir;

  private static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String rel = root.relativize(p).toString();
        m.put(
            rel,
            Files.isSymbolicLink(p)
                ? "link->" + Files.readSymbolicLink(p)
                : Files.isRegularFile(p)
                    ? Base64.getEncoder().encodeToString(Files.readAllBytes(p))
                    : "dir");
      }
    }
    return m;
  }

  private Path source() {
    Path p = dir.resolve("data/src.zarr");
    NDArray a = NDArray.zeros(DType.INT32, 30, 20);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, i + 1);
    }
    ZarrArray.create(new FileSystemStore(p), "")
        .shape(30, 20)
        .chunks(3, 20)
        .dtype(DType.INT32)
        .build()
        .write(new long[2], a);
    return p;
  }

  /** Runs the command; returns its exit code and the text it printed on stderr. */
  private Object[] rechunk(Path src, Path dst, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                src.toString(),
                dst.toString(),
                "--chunks",
                "30,2",
                "--reserved-mem",
                "1kB",
                "--work-dir",
                dir.resolve("work").toString()));
    args.addAll(List.of(extra));
    if (!args.contains("--allowed-mem")) {
      args.addAll(List.of("--allowed-mem", "10MB"));
    }
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new RechunkCommand());
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args.toArray(String[]::new));
    return new Object[] {code, err.toString()};
  }

  @Test
  void nonZarrDirectoryIsRefusedAndEveryFileStays() throws IOException {
    Path src = source();
    Path dst = Files.createDirectories(dir.resolve("home/sub"));
    Files.writeString(dir.resolve("home/thesis.tex"), "years of work");
    Files.writeString(dst.resolve("notes"), "n");
    Map<String, String> before = snapshot(dir.resolve("home"));
    for (String[] extra : new String[][] {{}, {"--overwrite"}}) {
      Object[] r = rechunk(src, dir.resolve("home"), extra);
      assertThat((int) r[0]).isNotZero();
      assertThat((String) r[1]).contains("is not a Zarr array").contains("refusing to delete");
      assertThat(snapshot(dir.resolve("home"))).isEqualTo(before);
    }
  }

  @Test
  void targetEqualToOrContainingTheSourceIsRefusedAndTheSourceUnchanged() throws IOException {
    Path src = source();
    Map<String, String> before = snapshot(src);
    for (Path dst : new Path[] {src, dir.resolve("data"), src.resolve("inner")}) {
      Object[] r = rechunk(src, dst, "--overwrite");
      assertThat((int) r[0]).as(dst.toString()).isNotZero();
      assertThat((String) r[1]).contains("the source array");
      assertThat(snapshot(src)).isEqualTo(before);
    }
  }

  @Test
  void tooSmallAllowedMemLeavesAnExistingTargetUntouched() throws IOException {
    Path src = source();
    Path dst = dir.resolve("dst.zarr");
    assertThat((int) rechunk(src, dst)[0]).isZero();
    Map<String, String> before = snapshot(dst);
    Object[] r = rechunk(src, dst, "--overwrite", "--allowed-mem", "1100");
    assertThat((int) r[0]).isNotZero();
    assertThat((String) r[1]).contains("needs a projected").contains("nothing was run");
    assertThat(snapshot(dst)).isEqualTo(before);
  }

  @Test
  void symlinkInsideTheTargetIsRefusedAndNothingIsWrittenOutside() throws IOException {
    Path src = source();
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path dst = Files.createDirectories(dir.resolve("dst.zarr"));
    Files.createSymbolicLink(dst.resolve("c"), outside);
    Object[] r = rechunk(src, dst, "--overwrite");
    assertThat((int) r[0]).isNotZero();
    assertThat((String) r[1]).contains("symbolic link leading outside the store root");
    try (Stream<Path> s = Files.list(outside)) {
      assertThat(s.count()).isZero();
    }
  }

  @Test
  void existingTargetNeedsOverwrite() throws IOException {
    Path src = source();
    Path dst = dir.resolve("dst.zarr");
    assertThat((int) rechunk(src, dst)[0]).isZero();
    Map<String, String> before = snapshot(dst);
    Object[] r = rechunk(src, dst);
    assertThat((int) r[0]).isNotZero();
    assertThat((String) r[1]).contains("already exists").contains("--overwrite");
    assertThat(snapshot(dst)).isEqualTo(before);
    assertThat((int) rechunk(src, dst, "--overwrite")[0]).isZero();
    ZarrArray out = ZarrArray.open(new FileSystemStore(dst), "");
    assertThat(out.isIncomplete()).isFalse();
    assertThat(out.read()).isEqualTo(ZarrArray.open(new FileSystemStore(src), "").read());
  }

  @Test
  void aSecondWriterIsRefusedInOneLineNamingTheHolder() throws IOException {
    Path src = source();
    Path dst = dir.resolve("dst.zarr");
    // another compute holds the target's write lock (beside it; also where versions before
    // staged writes kept it, inside the target directory)
    List<Path> lockFiles =
        List.of(
            dir.resolve(".dst.zarr" + FileSystemStore.WRITE_LOCK),
            Files.createDirectories(dst).resolve(FileSystemStore.WRITE_LOCK));
    List<FileChannel> channels = new ArrayList<>();
    try {
      for (Path f : lockFiles) {
        Files.writeString(f, "pid 4242 since 2026-01-01T00:00:00Z (test)\n");
        FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE);
        channels.add(ch);
        assertThat(ch.tryLock()).isNotNull();
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          Main.execute(
              new PrintWriter(out),
              new PrintWriter(err),
              false,
              "rechunk",
              src.toString(),
              dst.toString(),
              "--chunks",
              "30,2",
              "--reserved-mem",
              "1kB",
              "--allowed-mem",
              "10MB",
              "--work-dir",
              dir.resolve("work").toString());
      assertThat(code).isEqualTo(1);
      String msg = err.toString();
      assertThat(msg.strip().lines()).hasSize(1);
      assertThat(msg)
          .startsWith("cubed rechunk: ")
          .doesNotContain("internal error")
          .contains("being written by another compute")
          .contains("pid 4242")
          .contains("wait for it to finish, or choose another target");
    } finally {
      for (FileChannel ch : channels) {
        ch.close();
      }
    }
    assertThat(dst.resolve("zarr.json")).doesNotExist();
  }

  @Test
  void infoShowsAnIncompleteArray() {
    Path p = dir.resolve("inc.zarr");
    ZarrArray.create(new FileSystemStore(p), "")
        .shape(4)
        .chunks(2)
        .dtype(DType.INT32)
        .attributes(Map.of(ZarrArray.INCOMPLETE_ATTRIBUTE, ZarrArray.INCOMPLETE_TEXT))
        .build();
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(new InfoCommand());
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute(p.toString())).isZero();
    assertThat(out.toString())
        .contains("Zarr array  INCOMPLETE")
        .contains("compute that has not finished");
  }
}
