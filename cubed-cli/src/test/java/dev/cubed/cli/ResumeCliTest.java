package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kill -9 and resume through the command line: the CLI's main in a child JVM runs {@code rechunk}
 * with default options (reserved memory measured afresh by each run, and in one case the default
 * work directory), is killed once some task markers exist, and the same command with {@code
 * --resume} reuses the finished tasks, prints how many, gives the source's data, and leaves no
 * compute directory behind.
 */
class ResumeCliTest {
  @TempDir Path tmp;

  private Process start(Path err, String... args) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:ActiveProcessorCount=1",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + tmp.resolve("tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(false)
            .redirectOutput(Path.of(err + ".out").toFile())
            .redirectError(err.toFile());
    pb.environment().remove("CUBED_DEBUG");
    return pb.start();
  }

  private static long markers(Path work) throws IOException {
    if (!Files.isDirectory(work)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(work)) {
      return s.filter(
              p ->
                  Files.isRegularFile(p)
                      && p.getParent() != null
                      && p.getParent().getParent() != null
                      && p.getParent().getParent().getFileName().toString().equals(".done")
                      && !p.getFileName().toString().startsWith(".tmp-"))
          .count();
    }
  }

  private static List<Path> computeDirs(Path work) throws IOException {
    if (!Files.isDirectory(work)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(work)) {
      return s.filter(d -> d.getFileName().toString().startsWith("compute-")).toList();
    }
  }

  @ParameterizedTest(name = "explicit --work-dir: {0}")
  @ValueSource(booleans = {true, false})
  void killedRechunkResumesWithDefaultOptions(boolean explicitWorkDir) throws Exception {
    Files.createDirectories(tmp.resolve("tmpdir"));
    NDArray a = NDArray.zeros(DType.FLOAT64, 1600, 60, 60);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, (i * 2654435761L % 100003) / 7.0);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(tmp.resolve("src.zarr")), "")
            .shape(a.shape())
            .chunks(1, 60, 60)
            .dtype(DType.FLOAT64)
            .build();
    src.write(new long[3], a);
    Path work =
        explicitWorkDir
            ? tmp.resolve("wd")
            : tmp.resolve("tmpdir")
                .resolve(
                    "cubed-" + System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_"));
    List<String> args =
        new ArrayList<>(
            List.of(
                "rechunk",
                tmp.resolve("src.zarr").toString(),
                tmp.resolve("dst.zarr").toString(),
                "--chunks",
                "200,20,20",
                "--allowed-mem",
                "100MB"));
    if (explicitWorkDir) {
      args.addAll(List.of("--work-dir", work.toString()));
    }

    // run 1: killed (SIGKILL) as soon as some tasks have their completion markers
    Path err1 = tmp.resolve("err1.txt");
    Process p = start(err1, args.toArray(String[]::new));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    long seen = 0;
    while (p.isAlive() && System.nanoTime() < deadline) {
      seen = markers(work);
      if (seen > 0) {
        break;
      }
      p.waitFor(20, TimeUnit.MILLISECONDS); // poll the markers (returns at once if it exits)
    }
    assertThat(p.isAlive())
        .as(
            "the first run is still running when its first task markers"
                + " appear in "
                + work
                + " (stderr: "
                + Files.readString(err1)
                + ")")
        .isTrue();
    assertThat(seen).isPositive();
    p.destroyForcibly(); // kill -9
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(computeDirs(work)).as("the killed run left its compute directory").hasSize(1);
    if (!explicitWorkDir) {
      // issue 24 row 7: what a run without --work-dir leaves is where `clean` looks by default
      Path cleanOut = tmp.resolve("clean.txt");
      Process c = start(cleanOut, "clean", "--dry-run");
      assertThat(c.waitFor(5, TimeUnit.MINUTES)).isTrue();
      assertThat(c.exitValue()).isZero();
      assertThat(Files.readString(tmp.resolve("clean.txt.out")))
          .contains(computeDirs(work).get(0) + ": would remove (dry run)");
    }

    // run 2: the same command with --resume (a new JVM: reserved memory measured again)
    args.add("--resume");
    Path err2 = tmp.resolve("err2.txt");
    Process q = start(err2, args.toArray(String[]::new));
    assertThat(q.waitFor(5, TimeUnit.MINUTES)).isTrue();
    String log = Files.readString(err2, StandardCharsets.UTF_8);
    assertThat(q.exitValue()).as(log).isZero();
    Matcher m =
        Pattern.compile("resume: (\\d+) of (\\d+) tasks already done, running (\\d+)").matcher(log);
    assertThat(m.find()).as("a resume line in: " + log).isTrue();
    long reused = Long.parseLong(m.group(1));
    long total = Long.parseLong(m.group(2));
    assertThat(reused).as(log).isPositive().isLessThan(total);
    assertThat(Long.parseLong(m.group(3))).isEqualTo(total - reused);
    assertThat(ZarrArray.open(new FileSystemStore(tmp.resolve("dst.zarr")), "").read())
        .isEqualTo(a);
    assertThat(computeDirs(work)).as("the resumed run removed its compute directory").isEmpty();
    assertThat(Files.readString(err1))
        .as("the killed run said how to finish it")
        .contains("finish it with: ./cubed " + String.join(" ", args));
  }
}
