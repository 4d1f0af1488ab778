package dev.cubed.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed bench} and {@code cubed bench-user} as the command line finds them: through {@link
 * BenchCommands} (a {@code dev.cubed.cli.CommandProvider} service of this module), with the command
 * line's help, one-line usage errors and diagnostics options.
 */
class BenchCliTest {

  record Result(int code, String out, String err) {
    /** The one-line usage error of {@code cubed bench}, exit code 2. */
    String usageError() {
      assertThat(code).as(err).isEqualTo(2);
      assertThat(err.lines().toList()).as(err).hasSize(1);
      assertThat(err)
          .startsWith("cubed bench: ")
          .contains("see 'cubed bench --help'")
          .doesNotContain("Exception");
      return err.strip();
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), false, args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void theCommandLineFindsBothCommands() {
    Result r = run("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Usage: cubed").contains("bench").contains("bench-user");
    for (String cmd : List.of("bench", "bench-user")) {
      Result h = run("help", cmd);
      assertThat(h.code()).as(cmd).isZero();
      assertThat(h.out()).contains("Usage: cubed " + cmd);
    }
    assertThat(run("bench", "--help").out()).contains("--executor").contains("--history");
  }

  @Test
  void usageErrorsAreOneLine() {
    assertThat(run("bench").usageError()).contains("missing WORKLOAD").contains("quadratic_means");
    assertThat(run("bench", "add", "--allowed-mem", "-1").usageError())
        .contains("--allowed-mem: '-1' is not a memory size");
    assertThat(run("bench", "add", "--workers", "-1").usageError())
        .contains("--workers: -1 must be 0 (one per processor) or more");
    assertThat(run("bench", "add", "--executor", "gpu").usageError())
        .contains("--executor: unknown executor 'gpu'; available: threads, processes");
  }

  @Test
  void benchLeavesHistoryAndCharts(@TempDir Path dir) throws Exception {
    Path h = dir.resolve("h");
    Path p = dir.resolve("p");
    Result r =
        run(
            "bench",
            "reduce",
            "--set",
            "n=6",
            "--set",
            "m=5",
            "--set",
            "c=2",
            "--allowed-mem",
            "300MB",
            "--work-dir",
            dir.resolve("w").toString(),
            "--history",
            h.toString(),
            "--plots",
            p.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    List<String> rows = Files.readAllLines(h.resolve("tasks.csv"));
    assertThat(rows.get(0)).startsWith("compute,op,key,start_ms,end_ms");
    assertThat((long) rows.size() - 1).isEqualTo(j.get("tasks").asLong());
    assertThat(Files.readString(p.resolve("timeline.svg"))).contains("<svg");
    assertThat(Files.readString(p.resolve("memory.svg"))).contains("<svg");
  }
}
