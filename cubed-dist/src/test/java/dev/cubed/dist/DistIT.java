package dev.cubed.dist;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive ({@code cubed-dist/target/cubed-VERSION-dist.tar.gz}, built in the
 * package phase) unpacked in a temporary directory runs without Maven and without the repository's
 * classes: {@code bin/cubed info}, a small {@code bin/cubed rechunk} whose output this JVM reads
 * back, and {@code java -jar lib/cubed-cli-VERSION.jar}. Run by failsafe after packaging.
 */
class DistIT {
  @TempDir static Path dir;
  static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    Path archive = Path.of(System.getProperty("cubed.dist", "target/missing-dist.tar.gz"));
    assertThat(archive).as("the distribution archive (built by mvn package)").exists();
    Result r = run(dir, List.of("tar", "-xzf", archive.toString(), "-C", dir.toString()));
    assertThat(r.code()).as(r.err()).isZero();
    home = dir.resolve("cubed-" + System.getProperty("cubed.version"));
  }

  record Result(int code, String out, String err) {}

  static Result run(Path cwd, List<String> cmd) throws IOException, InterruptedException {
    return run(cwd, cmd, "256m");
  }

  /** Runs {@code cmd} with CUBED_HEAP set to {@code heap}, or unset when it is null. */
  static Result run(Path cwd, List<String> cmd, String heap)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    env.keySet()
        .removeIf(
            k ->
                k.equals("CLASSPATH")
                    || k.startsWith("CUBED_")
                    || k.startsWith("MAVEN")
                    || k.startsWith("JAVA_TOOL"));
    if (heap != null) {
      env.put("CUBED_HEAP", heap);
    }
    env.put("JAVA_HOME", System.getProperty("java.home"));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("finished: " + cmd).isTrue();
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void layoutHoldsTheLauncherAndEveryJarButNoBenchmarkHarness() throws IOException {
    assertThat(home.resolve("bin/cubed")).isExecutable();
    assertThat(home.resolve("README.txt")).exists();
    List<String> jars;
    try (Stream<Path> s = Files.list(home.resolve("lib"))) {
      jars = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    String v = System.getProperty("cubed.version");
    assertThat(jars)
        .contains(
            "cubed-cli-" + v + ".jar",
            "cubed-core-" + v + ".jar",
            "cubed-s3-" + v + ".jar",
            "cubed-bench-" + v + ".jar");
    assertThat(jars)
        .anyMatch(j -> j.startsWith("picocli-"))
        .noneMatch(
            j ->
                j.startsWith("jmh-")
                    || j.startsWith("progressbar-")
                    || j.startsWith("junit")
                    || j.startsWith("s3proxy")
                    || j.startsWith("assertj"));
  }

  @Test
  void launcherRunsInfoAndRechunkFromTheUnpackedArchive() throws Exception {
    Path work = Files.createDirectories(dir.resolve("job"));
    ZarrArray in =
        ZarrArray.create(new FileSystemStore(work.resolve("in.zarr")), "")
            .shape(6, 8)
            .chunks(2, 8)
            .dtype(DType.INT32)
            .build();
    int[] values = new int[48];
    Arrays.setAll(values, i -> i * 7 - 20);
    in.write(new long[2], NDArray.of(values, 6, 8));
    String cubed = home.resolve("bin/cubed").toString();

    Result info = run(work, List.of(cubed, "info", "in.zarr"));
    assertThat(info.code()).as(info.err()).isZero();
    assertThat(info.out()).contains("(6, 8)").contains("int32");

    Result re =
        run(
            work,
            List.of(
                cubed,
                "rechunk",
                "in.zarr",
                "out.zarr",
                "--chunks",
                "6,2",
                "--allowed-mem",
                "100MB",
                "--reserved-mem",
                "10MB"));
    assertThat(re.code()).as(re.err()).isZero();
    ZarrArray out = ZarrArray.open(new FileSystemStore(work.resolve("out.zarr")), "");
    assertThat(out.chunks()).containsExactly(6, 2);
    NDArray got = out.read(new long[2], new long[] {6, 8});
    List<Integer> gotValues = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      gotValues.add((int) got.getLong(i));
    }
    assertThat(gotValues).containsExactlyElementsOf(Arrays.stream(values).boxed().toList());

    Result jar =
        run(
            work,
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                home.resolve("lib/cubed-cli-" + System.getProperty("cubed.version") + ".jar")
                    .toString(),
                "--version"));
    assertThat(jar.code()).as(jar.err()).isZero();
    assertThat(jar.out().strip()).isEqualTo("cubed " + System.getProperty("cubed.version"));
    assertThat(new String(Files.readAllBytes(home.resolve("bin/cubed")), StandardCharsets.UTF_8))
        .doesNotContain("mvn")
        .doesNotContain("target/classes");
  }

  @Test
  void launcherDerivesTheHeapFromTheSpecAndThePlanAndLoadsTheVectorModule() throws Exception {
    Path work = Files.createDirectories(dir.resolve("env"));
    String cubed = home.resolve("bin/cubed").toString();
    // the heap from the spec: 2 workers x 100 MB + 192 = 382 MiB (the JVM reports a little less)
    Result env = run(work, List.of(cubed, "env", "--allowed-mem", "100MB", "--workers", "2"), null);
    assertThat(env.code()).as(env.err()).isZero();
    // regular pages unless asked for (CUBED_JAVA_OPTS=-XX:+UseTransparentHugePages, docs/cli.md)
    assertThat(env.out()).contains("huge pages: no");
    assertThat(env.out())
        .contains("vector api: in use")
        .contains("processors: ")
        .contains("executors: threads")
        .contains("on 2 workers: 382 MiB");
    assertThat(maxHeapMib(env.out())).isBetween(340L, 382L);
    // CUBED_HEAP wins
    env = run(work, List.of(cubed, "env", "--allowed-mem", "100MB", "--workers", "2"), "600m");
    assertThat(maxHeapMib(env.out())).as(env.err()).isBetween(540L, 600L);

    // bench on the threads executor: the heap its plan needs, found by a probe JVM first
    Result bench =
        run(
            work,
            List.of(
                cubed,
                "bench",
                "add",
                "--size",
                "small",
                "--workers",
                "2",
                "--allowed-mem",
                "200MB",
                "--work-dir",
                work.toString()),
            null);
    assertThat(bench.code()).as(bench.err()).isZero();
    assertThat(bench.err()).containsPattern("cubed: heap [0-9]+m from the plan");
    assertThat(bench.out()).contains("\"workload\":\"add\"");
  }

  private static long maxHeapMib(String envOut) {
    for (String line : envOut.split("\n")) {
      if (line.startsWith("max heap: ")) {
        return Long.parseLong(line.substring(10, line.indexOf(" MiB")));
      }
    }
    throw new AssertionError("no max heap line in: " + envOut);
  }
}
