package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launchers (the source tree's {@code ./cubed} and the distribution's {@code bin/cubed}, both
 * through {@code lib/cubed-jvm.sh}) refuse, before any JVM starts, a heap the machine cannot give:
 * one line naming --workers/--allowed-mem, the heap and the machine's memory, exit code 2. A dry
 * run gets a small heap instead. Each runs with bash on copies of the scripts whose {@code java} is
 * a stand-in that records its arguments.
 */
class LauncherHeapTest {
  @TempDir Path dir;

  record Run(int code, String err, String javaArgs) {}

  /** Lays out the launcher {@code kind} ("source" or "dist") with a recording java. */
  private Path launcher(String kind) throws IOException {
    Path module = Path.of(System.getProperty("user.dir"));
    Path jvmSh = module.resolve("src/dist/lib/cubed-jvm.sh");
    Path fakeJava = dir.resolve("jdk/bin/java");
    Files.createDirectories(fakeJava.getParent());
    Files.writeString(
        fakeJava,
        "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > \"" + dir.resolve("java-args.txt") + "\"\n");
    Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
    if (kind.equals("dist")) {
      Path home = dir.resolve("dist");
      Files.createDirectories(home.resolve("bin"));
      Files.createDirectories(home.resolve("lib"));
      Files.copy(module.resolve("src/dist/bin/cubed"), home.resolve("bin/cubed"));
      Files.copy(jvmSh, home.resolve("lib/cubed-jvm.sh"));
      return home.resolve("bin/cubed");
    }
    Path root = dir.resolve("tree");
    Files.createDirectories(root.resolve("cubed-cli/src/dist/lib"));
    Files.createDirectories(root.resolve("cubed-cli/target"));
    Files.copy(module.resolve("../cubed"), root.resolve("cubed"));
    Files.copy(jvmSh, root.resolve("cubed-cli/src/dist/lib/cubed-jvm.sh"));
    Files.writeString(root.resolve("cubed-cli/target/classpath.txt"), "");
    Files.writeString(root.resolve("cubed-cli/target/cubed-cli-0.jar"), "");
    return root.resolve("cubed");
  }

  private Run run(Path launcher, Map<String, String> extraEnv, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", launcher.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("CUBED_") || k.startsWith("JAVA_TOOL"));
    env.put("JAVA_HOME", dir.resolve("jdk").toString());
    env.put("PATH", dir.resolve("jdk/bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("CUBED_SKIP_BUILD", "1");
    env.put("CUBED_CDS", "0");
    env.putAll(extraEnv);
    Path err = dir.resolve("err.txt");
    pb.redirectErrorStream(false)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile());
    Files.deleteIfExists(dir.resolve("java-args.txt"));
    Process p = pb.start();
    // a shell script and a stand-in java: seconds, but the machine may be busy
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("launcher finished").isTrue();
    Path javaArgs = dir.resolve("java-args.txt");
    return new Run(
        p.exitValue(),
        Files.readString(err, StandardCharsets.UTF_8),
        Files.exists(javaArgs) ? Files.readString(javaArgs) : null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"source", "dist"})
  void workersTimesAllowedMemBeyondTheMachineIsRefusedBeforeAnyJvm(String kind) throws Exception {
    Path l = launcher(kind);
    Run r = run(l, Map.of(), "demo", "--workers", "100000", "--allowed-mem", "1GB");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err().lines().toList())
        .as(r.err())
        .singleElement()
        .asString()
        .startsWith(
            "cubed demo: --workers 100000 x --allowed-mem 1GB needs a 100000 GB heap,"
                + " more than this machine's ")
        .endsWith(" GB of memory; lower --workers or --allowed-mem");
    assertThat(r.javaArgs()).as("no JVM started").isNull();

    r = run(l, Map.of(), "rechunk", "a.zarr", "b.zarr", "--chunks", "10", "--allowed-mem=1000TB");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("cubed rechunk: ")
        .contains("workers (one per processor) x" + " --allowed-mem 1000TB needs a ")
        .contains("lower --workers or --allowed-mem");
    assertThat(r.javaArgs()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"source", "dist"})
  void aDryRunIsNotRefusedAndGetsASmallHeap(String kind) throws Exception {
    Run r =
        run(
            launcher(kind),
            Map.of(),
            "demo",
            "--workers",
            "100000",
            "--allowed-mem",
            "1GB",
            "--dry-run");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.javaArgs()).as("java started").isNotNull();
    assertThat(r.javaArgs().lines()).contains("-Xmx1024m");
  }

  @ParameterizedTest
  @ValueSource(strings = {"source", "dist"})
  void aHeapThatFitsIsAskedFor(String kind) throws Exception {
    Run r = run(launcher(kind), Map.of(), "demo", "--workers", "2", "--allowed-mem", "100MB");
    assertThat(r.code()).as(r.err()).isZero();
    // 2 x 100 MB = 190 MiB, + 192 MB of the engine's own
    assertThat(r.javaArgs().lines()).contains("-Xmx382m");
  }

  @ParameterizedTest
  @ValueSource(strings = {"source", "dist"})
  void theCgroupLimitAndMemTotalBoundTheHeap(String kind) throws Exception {
    Path l = launcher(kind);
    Path meminfo = dir.resolve("meminfo");
    Files.writeString(meminfo, "MemTotal:        2097152 kB\nMemFree:          1000 kB\n");
    Path cgroup = dir.resolve("memory.max");
    Files.writeString(cgroup, "max\n");
    Map<String, String> env =
        Map.of("CUBED_TEST_MEMINFO", meminfo.toString(), "CUBED_TEST_CGROUP", cgroup.toString());
    Run r = run(l, env, "demo", "--workers", "2", "--allowed-mem", "1GB");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("needs a 2.2 GB heap, more than this machine's 2.1 GB");
    assertThat(run(l, env, "demo", "--workers", "1", "--allowed-mem", "600MB").code()).isZero();

    Files.writeString(cgroup, "536870912\n");
    r = run(l, env, "demo", "--workers", "1", "--allowed-mem", "600MB");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("more than this machine's 0.5 GB of memory");

    r =
        run(
            l,
            Map.of(
                "CUBED_TEST_MEMINFO",
                meminfo.toString(),
                "CUBED_TEST_CGROUP",
                cgroup.toString(),
                "CUBED_HEAP",
                "8g"),
            "info",
            "x.zarr");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("cubed info: CUBED_HEAP=8g asks for a 8.6 GB heap")
        .contains("lower CUBED_HEAP");
  }
}
