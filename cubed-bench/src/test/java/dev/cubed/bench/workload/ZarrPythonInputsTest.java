package dev.cubed.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's zarr-python input set: scripts/perf/write_inputs_zarr_python.py run by a real
 * zarr-python (Debian's 2.x: Zarr v2 with Blosc; zarr-python 3 of scripts/perf/make-anchors-env.sh
 * when present at /work/pyenv-anchors: Zarr v3 with zstd) writes reduce's input at size small, and
 * the bench run on it gives the checksums of the run on the engine's own inputs.
 */
class ZarrPythonInputsTest {
  static final Path WRITER = Path.of("..", "scripts", "perf", "write_inputs_zarr_python.py");

  @TempDir Path dir;

  /** Pythons here that import zarr and numpy. */
  static List<String> pythons() throws Exception {
    List<String> found = new ArrayList<>();
    for (String py : List.of("/usr/bin/python3", "/work/pyenv-anchors/bin/python")) {
      if (Files.isExecutable(Path.of(py)) && run(py, "-c", "import zarr, numpy").isEmpty()) {
        found.add(py);
      }
    }
    return found;
  }

  /** Runs a command; "" on success, else its output. */
  static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return "timed out: " + out;
    }
    return p.exitValue() == 0 ? "" : "exit " + p.exitValue() + ": " + out;
  }

  @Test
  void reduceOnZarrPythonsInputsGivesTheChecksumsOfTheEnginesInputs() throws Exception {
    List<String> pys = pythons();
    Assumptions.assumeFalse(pys.isEmpty(), "no python with zarr and numpy here");
    BenchContext engine = new BenchContext("threads", 2, 300_000_000L, dir.resolve("work"));
    Reduce w = new Reduce();
    Map<String, Long> p = w.params("small");
    BenchResult want = Workloads.run(w, "small", p, engine);
    assertThat(want.toMap()).containsEntry("inputs", "engine");
    for (String py : pys) {
      Path out = dir.resolve("zp-" + pys.indexOf(py));
      String err =
          run(
              py,
              WRITER.toString(),
              "--out",
              out.toString(),
              "--size",
              "small",
              "--workload",
              "reduce");
      assertThat(err).as("the writer under %s", py).isEmpty();
      assertThat(out.resolve("reduce-small").resolve("A")).isDirectory();
      BenchResult got = Workloads.run(w, "small", p, engine.withInputSet(InputSet.zarrPython(out)));
      assertThat(got.toMap()).containsEntry("inputs", "zarr-python");
      assertThat(got.checksums().get("argmax_sum")).isEqualTo(want.checksums().get("argmax_sum"));
      assertThat(got.checksums().get("argmax_weighted"))
          .isEqualTo(want.checksums().get("argmax_weighted"));
      for (String k : List.of("mean_sum", "mean_sumsq")) {
        double e = ((Number) want.checksums().get(k)).doubleValue();
        assertThat(((Number) got.checksums().get(k)).doubleValue())
            .as("%s under %s", k, py)
            .isCloseTo(e, within(1e-9 * Math.abs(e)));
      }
    }
  }

  @Test
  void aMissingZarrPythonInputIsRefusedSayingHowToWriteIt() {
    BenchContext ctx =
        new BenchContext("threads", 1, 300_000_000L, dir.resolve("work"))
            .withInputSet(InputSet.zarrPython(dir.resolve("none")));
    Add w = new Add();
    assertThatThrownBy(() -> Workloads.run(w, "small", w.params("small"), ctx))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no zarr-python inputs " + dir.resolve("none/add-small"))
        .hasMessageContaining(
            "write_inputs_zarr_python.py --size small --out " + dir.resolve("none"));
  }

  @Test
  void zarrPythonInputsHaveTheNamedSizesOnly() {
    InputSet s = InputSet.zarrPython(dir);
    Reduce w = new Reduce();
    assertThat(s.workloadDir(w, w.params("medium"))).isEqualTo(dir.resolve("reduce-medium"));
    assertThatThrownBy(() -> s.workloadDir(w, Workloads.params("n", 10, "m", 10, "c", 5)))
        .hasMessageContaining("small and medium sizes only");
    assertThatThrownBy(() -> new InputSet("zarr-python", null))
        .hasMessageContaining("--inputs-dir");
  }
}
