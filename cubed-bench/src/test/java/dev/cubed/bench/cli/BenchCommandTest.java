package dev.cubed.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.cli.Main;
import dev.cubed.runtime.ExecutorFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {

  static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine(new PrintWriter(out), new PrintWriter(err), false);
    int code = cl.execute(args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void printsOneJsonLineWithOverriddenParameters(@TempDir Path dir) throws Exception {
    String[] r =
        run(
            "bench",
            "reduce",
            "--size",
            "small",
            "--set",
            "n=6",
            "--set",
            "m=5",
            "--set",
            "c=2",
            "--allowed-mem",
            "300MB",
            "--work-dir",
            dir.toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1].strip().lines().count()).isEqualTo(1);
    JsonNode j = new ObjectMapper().readTree(r[1]);
    assertThat(j.get("size").asText()).isEqualTo("small+n=6+m=5+c=2");
    assertThat(j.get("params").get("n").asLong()).isEqualTo(6);
    assertThat(j.get("allowed_mem").asLong()).isEqualTo(300_000_000L);
    assertThat(j.get("checksums").has("argmax_weighted")).isTrue();
  }

  /** --plan-heap prints only the heap the run's plans need, below the spec's bound. */
  @Test
  void planHeapPrintsTheHeapThePlanNeeds(@TempDir Path dir) {
    String[] r =
        run(
            "bench",
            "reduce",
            "--size",
            "small",
            "--set",
            "n=60",
            "--set",
            "m=50",
            "--set",
            "c=20",
            "--workers",
            "2",
            "--allowed-mem",
            "300MB",
            "--work-dir",
            dir.toString(),
            "--plan-heap");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1].strip()).matches("plan-heap-bytes \\d+");
    long bytes = Long.parseLong(r[1].strip().split(" ")[1]);
    // the plan's need holds this JVM's live heap plus a slack of 32 MiB (Workloads.planHeap); a
    // fixed 100 MB floor held only after other tests had filled the heap (alone: 74 MB, also
    // before the command moved here from cubed-cli)
    Runtime rt = Runtime.getRuntime();
    System.gc();
    long live = rt.totalMemory() - rt.freeMemory();
    assertThat(bytes).isGreaterThan(live + (32L << 20)).isLessThan(2 * 300_000_000L);
  }

  @Test
  void refusesUnknownWorkloadAndParameter(@TempDir Path dir) {
    String[] r = run("bench", "nope", "--work-dir", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("unknown workload 'nope'").contains("quadratic_means");
    r = run("bench", "add", "--set", "q=3", "--work-dir", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("--set q is not a parameter").contains("n, m, c");
  }

  @Test
  void refusesInputSetsWithoutTheirDirectoryOrUnknown(@TempDir Path dir) {
    String[] r = run("bench", "reduce", "--inputs", "zarr-python", "--work-dir", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("--inputs zarr-python needs --inputs-dir DIR");
    r = run("bench", "reduce", "--inputs", "nope", "--work-dir", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("--inputs: 'nope' is not engine or zarr-python");
    r = run("bench", "reduce", "--inputs-dir", dir.toString(), "--work-dir", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("--inputs-dir is read with --inputs zarr-python only");
    r =
        run(
            "bench",
            "reduce",
            "--inputs",
            "zarr-python",
            "--inputs-dir",
            dir.toString(),
            "--set",
            "n=6",
            "--work-dir",
            dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("the zarr-python inputs have the named sizes only");
  }

  @Test
  void parsesMemorySizes() {
    assertThat(BenchCommand.parseBytes("2GB")).isEqualTo(2_000_000_000L);
    assertThat(BenchCommand.parseBytes("1GiB")).isEqualTo(1L << 30);
    assertThat(BenchCommand.parseBytes("1234")).isEqualTo(1234L);
  }

  @Test
  void listsExecutors() {
    String[] r = run("bench", "add", "--list-executors");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("threads");
  }

  /** --list-executors and the --executor help both come from the executor registry. */
  @Test
  void executorNamesInListAndHelpComeFromTheRegistry() {
    List<String> names = ExecutorFactory.available();
    assertThat(run("bench", "add", "--list-executors")[1].strip())
        .isEqualTo(String.join(" ", names));
    for (String command : new String[] {"bench", "rechunk", "demo"}) {
      String help = run(command, "--help")[1].replaceAll("\\s+", " ");
      assertThat(help)
          .as(command)
          .contains(
              "one of the executors available here: " + String.join(", ", names) + " (threads:");
    }
  }
}
