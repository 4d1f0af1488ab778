package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON line of a run parses and holds every field of docs/benchmarks.md, in order. */
class BenchResultTest {
  @TempDir Path dir;

  @Test
  void jsonLineHasEveryField() throws Exception {
    BenchResult r =
        Workloads.run(
            new Add(),
            "tiny",
            Workloads.params("n", 5, "m", 4, "c", 2),
            new BenchContext("threads", 2, 300_000_000L, dir));
    String line = r.toJson();
    assertThat(line).doesNotContain("\n");
    JsonNode j = new ObjectMapper().readTree(line);
    List<String> names = new ArrayList<>();
    j.fieldNames().forEachRemaining(names::add);
    assertThat(names).isEqualTo(BenchResult.FIELDS);
    assertThat(j.get("workload").asText()).isEqualTo("add");
    assertThat(j.get("params").get("n").asLong()).isEqualTo(5);
    assertThat(j.get("executor").asText()).isEqualTo("threads");
    assertThat(j.get("workers").asInt()).isEqualTo(2);
    assertThat(j.get("allowed_mem").asLong()).isEqualTo(300_000_000L);
    assertThat(j.get("wall_seconds").isNumber()).isTrue();
    assertThat(j.get("wall_seconds").asDouble()).isPositive();
    assertThat(j.get("peak_rss_bytes").asLong()).isNotZero();
    assertThat(j.get("tasks").asLong()).isPositive();
    assertThat(j.get("max_projected_mem").asLong()).isPositive();
    assertThat(j.get("intermediate_bytes").asLong()).isNotNegative();
    assertThat(j.get("checksums").get("sum").asDouble())
        .isEqualTo(((Number) r.checksums().get("sum")).doubleValue());
  }

  @Test
  void checksumDoublesKeepFullPrecision() throws Exception {
    double x = 0.1 + 0.2;
    BenchResult r =
        new BenchResult(
            "add",
            "small",
            Workloads.params("n", 1),
            "threads",
            2,
            1,
            0.5,
            1,
            0,
            1,
            1,
            Map.of("sum", x));
    assertThat(new ObjectMapper().readTree(r.toJson()).get("checksums").get("sum").asDouble())
        .isEqualTo(x);
  }

  @Test
  void unknownWorkloadAndSizeAreRefused() {
    Assertions.assertThatThrownBy(() -> Workloads.byName("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quadratic_means");
    Assertions.assertThatThrownBy(() -> Workloads.byName("add").params("big"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("small or medium");
  }

  @Test
  void fieldNamesMatchTheNumpyBaselineScript() throws Exception {
    Path script = Path.of("..", "scripts", "perf", "workloads_numpy.py");
    String text = Files.readString(script);
    for (String f : BenchResult.FIELDS) {
      assertThat(text).as("workloads_numpy.py prints %s", f).contains("\"" + f + "\":");
    }
  }
}
