package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.ExecutorUnavailableException;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad command lines and bad input through the CLI: exit code 2 for usage errors and 1 for runtime
 * errors, exactly one line on standard error naming the option as typed (--allowed-mem, not
 * allowedMem), no stack trace, and nothing written. The rows of docs/reliability.md's "Bad input
 * refused" table point here.
 */
class CliErrorsTest {
  @TempDir Path dir;
  String src;
  String dst;

  record Result(int code, String out, String err) {
    /** Asserts the one-line error contract and returns the line. */
    String oneLineError(int expectedCode, String command) {
      assertThat(code).as(err).isEqualTo(expectedCode);
      List<String> lines = err.lines().toList();
      assertThat(lines).as(err).hasSize(1);
      assertThat(err)
          .doesNotContain("at dev.cubed")
          .doesNotContain("Exception")
          .startsWith("cubed " + command + ": ");
      if (expectedCode == 2) {
        assertThat(err).contains("see 'cubed " + command + " --help'").doesNotContain("Usage:");
      }
      return lines.get(0);
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), false, args);
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeEach
  void source() {
    ZarrArray a =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(40, 30, 20)
            .chunks(40, 30, 20)
            .dtype(DType.INT16)
            .build();
    a.write(new long[3], NDArray.full(DType.INT16, 3, 40, 30, 20));
    src = dir.resolve("src.zarr").toString();
    dst = dir.resolve("dst.zarr").toString();
  }

  Result rechunk(String... opts) {
    List<String> a =
        new ArrayList<>(List.of("rechunk", src, dst, "--work-dir", dir.resolve("work").toString()));
    a.addAll(List.of(opts));
    Result r = run(a.toArray(String[]::new));
    if (r.code() != 0) {
      assertThat(dir.resolve("dst.zarr")).as("nothing written on error").doesNotExist();
    }
    return r;
  }

  @Test
  void helpForEverySubcommand() {
    for (String cmd : new String[] {"info", "demo", "rechunk", "clean", "env"}) {
      Result r = run(cmd, "--help");
      assertThat(r.code()).as(cmd + ": " + r.err()).isZero();
      assertThat(r.out()).contains("Usage: cubed " + cmd).contains("--help");
      assertThat(r.err()).isEmpty();
      r = run("help", cmd);
      assertThat(r.code()).as(cmd).isZero();
      assertThat(r.out()).contains("Usage: cubed " + cmd);
    }
    Result r = run("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Usage: cubed").contains("rechunk");
  }

  /**
   * The command line stands alone: bench and bench-user come from cubed-bench at run time
   * (dev.cubed.cli.CommandProvider), which is not on this module's class path.
   */
  @Test
  void benchIsNotACommandOfTheCommandLineAlone() {
    assertThat(run("--help").out()).doesNotContain("bench");
    Result r = run("bench", "add");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("Unmatched argument").contains("'bench'");
  }

  @Test
  void malformedChunks() {
    assertThat(rechunk("--chunks", "1000,abc").oneLineError(2, "rechunk"))
        .contains("--chunks: '1000,abc' is not a list of positive integers")
        .contains("e.g. --chunks 1000,100,100");
    assertThat(rechunk("--chunks", "0,10,10").oneLineError(2, "rechunk"))
        .contains("--chunks: '0,10,10' has size 0 for axis 0")
        .contains(">= 1, or -1");
    assertThat(rechunk("--chunks", "-5").oneLineError(2, "rechunk"))
        .contains("--chunks: '-5' has size -5 for axis 0");
    assertThat(rechunk("--chunks", "10,10").oneLineError(2, "rechunk"))
        .contains(
            "--chunks: '10,10' gives 2 sizes but the source array has 3 dimensions"
                + " (shape (40, 30, 20))");
    assertThat(rechunk("--chunks", "10,10,10,10").oneLineError(2, "rechunk"))
        .contains("gives 4 sizes but the source array has 3 dimensions");
    assertThat(rechunk().oneLineError(2, "rechunk")).contains("--chunks");
  }

  @Test
  void malformedAllowedMem() {
    assertThat(rechunk("--chunks", "40,7,5", "--allowed-mem", "lots").oneLineError(2, "rechunk"))
        .contains("--allowed-mem: 'lots' is not a memory size (e.g. --allowed-mem 2GB");
    assertThat(rechunk("--chunks", "40,7,5", "--allowed-mem", "-1GB").oneLineError(2, "rechunk"))
        .contains("--allowed-mem: '-1GB' is not a memory size");
    assertThat(rechunk("--chunks", "40,7,5", "--allowed-mem", "0").oneLineError(2, "rechunk"))
        .contains("--allowed-mem: '0' must be more than 0 bytes");
    assertThat(
            rechunk("--chunks", "40,7,5", "--allowed-mem", "10MB", "--reserved-mem", "20MB")
                .oneLineError(2, "rechunk"))
        .contains("--allowed-mem 10.0 MB is not more than" + " --reserved-mem 20.0 MB")
        .contains("raise --allowed-mem or lower --reserved-mem");
    assertThat(rechunk("--chunks", "40,7,5", "--reserved-mem", "1.2.3").oneLineError(2, "rechunk"))
        .contains("--reserved-mem: '1.2.3' is not a memory size");
    assertThat(run("demo", "--allowed-mem", "lots").oneLineError(2, "demo"))
        .contains("--allowed-mem: 'lots'");
  }

  @Test
  void malformedZarrFormat() {
    assertThat(rechunk("--chunks", "40,7,5", "--zarr-format", "5").oneLineError(2, "rechunk"))
        .contains("--zarr-format: 5 is not a Zarr format")
        .contains("--zarr-format 2");
    assertThat(rechunk("--chunks", "40,7,5", "--zarr-format", "three").oneLineError(2, "rechunk"))
        .contains("--zarr-format")
        .contains("three");
  }

  @Test
  void unknownOptionAndMissingParameter() {
    assertThat(rechunk("--chunks", "4,4,4", "--chunkz", "4").oneLineError(2, "rechunk"))
        .contains("Unknown options: '--chunkz'");
    assertThat(run("info").oneLineError(2, "info")).contains("PATH");
    assertThat(run("demo", "--workers", "-1").oneLineError(2, "demo"))
        .contains("--workers: -1 must be 0 (one per processor) or more");
  }

  @Test
  void planOverMemoryBudgetInCliWords() {
    // one 48 kB source chunk cannot be read within a 20 kB budget
    String line =
        rechunk("--chunks", "40,7,5", "--allowed-mem", "20kB", "--reserved-mem", "1kB")
            .oneLineError(1, "rechunk");
    assertThat(line)
        .contains("more than --allowed-mem 20.0 kB")
        .contains("--reserved-mem 1.0 kB")
        .contains("raise --allowed-mem")
        .doesNotContain("allowedMem")
        .doesNotContain("Spec.builder")
        .contains("nothing was run");
  }

  @Test
  void badZarrInputIsOneLine() throws Exception {
    Files.writeString(dir.resolve("src.zarr/zarr.json"), "{\"zarr_format\": 3, \"shape\": [");
    assertThat(run("info", src).oneLineError(1, "info"))
        .contains("zarr.json")
        .contains("not valid JSON");
    assertThat(rechunk("--chunks", "40,7,5").oneLineError(1, "rechunk")).contains("zarr.json");
    assertThat(run("info", dir + "#../../etc").oneLineError(1, "info"))
        .contains("may not escape the store root");
    assertThat(run("info", dir.resolve("missing").toString()).oneLineError(1, "info"))
        .contains("no Zarr array or group");
  }

  @Test
  void corruptSourceChunkIsOneLine() throws Exception {
    Path chunk = dir.resolve("src.zarr/c/0/0/0");
    byte[] b = Files.readAllBytes(chunk);
    Files.write(chunk, Arrays.copyOf(b, b.length / 2));
    Result r =
        run(
            "rechunk",
            src,
            dst,
            "--chunks",
            "40,7,5",
            "--allowed-mem",
            "500kB",
            "--reserved-mem",
            "1kB",
            "--work-dir",
            dir.resolve("work").toString());
    assertThat(r.oneLineError(1, "rechunk"))
        .contains("chunk 'c/0/0/0' in ")
        .contains("src.zarr")
        .contains("truncated or corrupt")
        .contains("of operation rechunk");
  }

  @Test
  void internalErrorsNameCubedDebug() {
    // a setup problem of the executor (e.g. a Spark master refusing a driver without its
    // secret) is the user's to fix: one line, no "internal error"
    assertThat(
            Main.describe(
                new ExecutorUnavailableException(
                    "spark executor: the Spark context stopped", new IllegalStateException("x")),
                false))
        .isEqualTo("spark executor: the Spark context stopped");
    assertThat(Main.describe(new NullPointerException("boom"), false))
        .startsWith("internal error: java.lang.NullPointerException: boom")
        .contains("CUBED_DEBUG=1");
    assertThat(Main.describe(new IllegalArgumentException("bad\n  value"), false))
        .isEqualTo("bad value");
  }

  /** The real launcher path: a child JVM, its exit code and its standard error. */
  @Test
  void childJvmExitCodesAndStackTraceOnlyWithCubedDebug() throws Exception {
    Result usage = child(false, "rechunk", src, dst, "--chunks", "1000,abc");
    usage.oneLineError(2, "rechunk");
    Files.writeString(dir.resolve("src.zarr/zarr.json"), "[]");
    Result quiet = child(false, "info", src);
    assertThat(quiet.oneLineError(1, "info")).contains("expected a JSON object");
    Result debug = child(true, "info", src);
    assertThat(debug.code()).isEqualTo(1);
    assertThat(debug.err()).contains("expected a JSON object").contains("at dev.cubed");
  }

  static Result child(boolean debug, String... args) throws Exception {
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
    pb.environment().remove("CUBED_DEBUG");
    if (debug) {
      pb.environment().put("CUBED_DEBUG", "1");
    }
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Result(
        p.exitValue(),
        new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }
}
