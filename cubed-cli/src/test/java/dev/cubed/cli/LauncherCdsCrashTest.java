package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source launcher's first run of a command writes a class-data-sharing archive at exit;
 * Debian's JDK 17 can die with SIGSEGV while dumping it after the command has finished (seen with
 * the Azure SDK's lambdas). The launcher must then exit with the command's own status, keep the
 * crash out of stdout, say why in one line and not try to dump that command's archive again. A
 * stand-in {@code java} does what that JVM does: writes the status file it is given, prints the
 * command's output, then kills itself with SIGSEGV when asked to dump.
 */
class LauncherCdsCrashTest {
  @TempDir Path dir;

  record Run(int code, String out, String err, String javaArgs) {}

  @Test
  void aJvmDyingWhileDumpingKeepsTheCommandsStatusAndNeverDumpsAgain() throws Exception {
    Path module = Path.of(System.getProperty("user.dir"));
    Path root = dir.resolve("tree");
    Files.createDirectories(root.resolve("cubed-cli/src/dist/lib"));
    Files.createDirectories(root.resolve("cubed-cli/target"));
    Files.copy(module.resolve("../cubed"), root.resolve("cubed"));
    Files.copy(
        module.resolve("src/dist/lib/cubed-jvm.sh"),
        root.resolve("cubed-cli/src/dist/lib/cubed-jvm.sh"));
    Files.writeString(root.resolve("cubed-cli/target/classpath.txt"), "");
    Files.writeString(root.resolve("cubed-cli/target/cubed-cli-0.jar"), "");
    Path fakeJava = dir.resolve("jdk/bin/java");
    Files.createDirectories(fakeJava.getParent());
    Files.writeString(
        fakeJava,
        String.join(
            "\n",
            "#!/usr/bin/env bash",
            "printf '%s\\n' \"$@\" > \"" + dir.resolve("java-args.txt") + "\"",
            "for a in \"$@\"; do case \"$a\" in -Dcubed.exitStatusFile=*) printf 0 > \"${a#*=}\";;"
                + " esac; done",
            "echo '{\"command\": \"info\"}'",
            "for a in \"$@\"; do case \"$a\" in -XX:ArchiveClassesAtExit=*) kill -SEGV $$;; esac; done",
            "exit 0",
            ""));
    Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));

    Run first = run(root.resolve("cubed"), "info", "a.zarr");
    assertThat(first.javaArgs())
        .as("the first run dumps an archive")
        .contains("-XX:ArchiveClassesAtExit=");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("{\"command\": \"info\"}\n");
    assertThat(first.err().lines().toList())
        .as(first.err())
        .singleElement()
        .asString()
        .startsWith(
            "cubed: note: this JVM crashed while saving its start-up archive after the"
                + " command had finished (exit status 0 kept)");
    try (var files = Files.list(root.resolve("target/cds"))) {
      assertThat(files.map(p -> p.getFileName().toString()).toList())
          .singleElement()
          .asString()
          .startsWith("info-")
          .endsWith(".nodump");
    }

    Run second = run(root.resolve("cubed"), "info", "a.zarr");
    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.javaArgs())
        .as("no second dump")
        .doesNotContain("ArchiveClassesAtExit")
        .doesNotContain("SharedArchiveFile");
    assertThat(second.err()).isEmpty();
  }

  private Run run(Path launcher, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", launcher.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    var env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("CUBED_") || k.startsWith("JAVA_TOOL"));
    env.put("JAVA_HOME", dir.resolve("jdk").toString());
    env.put("PATH", dir.resolve("jdk/bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("CUBED_SKIP_BUILD", "1");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Files.deleteIfExists(dir.resolve("java-args.txt"));
    Process p = pb.start();
    // a shell script and a stand-in java: seconds, but the machine may be busy
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("launcher finished").isTrue();
    Path javaArgs = dir.resolve("java-args.txt");
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8),
        Files.exists(javaArgs) ? Files.readString(javaArgs) : null);
  }
}
