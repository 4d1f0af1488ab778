package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CUBED_DEBUG: only 1, true or yes (any case) turn stack traces on; 0, false, no and empty leave
 * them off (a child JVM, as the launcher runs it).
 */
class LauncherEnvTest {
  @TempDir Path dir;

  @Test
  void onlyOneTrueOrYesTurnDebugOn() {
    for (String on : List.of("1", "true", "TRUE", "Yes", " yes ")) {
      assertThat(Main.debugFrom(on)).as("'" + on + "'").isTrue();
    }
    for (String off : new String[] {null, "", "0", "false", "FALSE", "no", "off", "2", "debug"}) {
      assertThat(Main.debugFrom(off)).as("'" + off + "'").isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "false", "no", ""})
  void cubedDebugZeroFalseNoOrEmptyPrintsNoStackTrace(String value) throws Exception {
    String src = corruptArray();
    CliErrorsTest.Result r = child(value, "info", src);
    assertThat(r.oneLineError(1, "info")).contains("expected a JSON object");
  }

  @Test
  void cubedDebugTruePrintsTheStackTrace() throws Exception {
    CliErrorsTest.Result r = child("True", "info", corruptArray());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("expected a JSON object").contains("at dev.cubed");
  }

  private String corruptArray() throws Exception {
    ZarrArray a =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(4, 3)
            .chunks(4, 3)
            .dtype(DType.INT16)
            .build();
    a.write(new long[2], NDArray.full(DType.INT16, 3, 4, 3));
    Files.writeString(dir.resolve("src.zarr/zarr.json"), "[]");
    return dir.resolve("src.zarr").toString();
  }

  /** Main in a child JVM with CUBED_DEBUG set to {@code debug}. */
  static CliErrorsTest.Result child(String debug, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("CUBED_DEBUG", debug);
    Process p = pb.start();
    p.getOutputStream().close();
    // read standard error on its own thread: neither pipe can fill up and block the child
    CompletableFuture<byte[]> err =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return p.getErrorStream().readAllBytes();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    byte[] out = p.getInputStream().readAllBytes();
    // the streams are at their end: the child has exited or is exiting; a generous bound for
    // a busy machine
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("child exited").isTrue();
    return new CliErrorsTest.Result(
        p.exitValue(),
        new String(out, StandardCharsets.UTF_8),
        new String(err.get(10, TimeUnit.MINUTES), StandardCharsets.UTF_8));
  }
}
