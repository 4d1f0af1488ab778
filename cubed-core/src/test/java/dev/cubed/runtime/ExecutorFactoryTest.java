package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ExecutorFactory SPI: found by name, given the spec's settings and options. */
class ExecutorFactoryTest {
  @TempDir Path tmp;

  @Test
  void specChoosesAFactoryByNameAndPassesItsSettings() {
    Spec spec =
        Spec.builder()
            .workDir(tmp)
            .executor("recording")
            .workers(3)
            .attempts(2)
            .allowedMem("300MB")
            .reservedMem("10MB")
            .executorOption("engine.master", "local[2]")
            .build();
    RecordingExecutorFactory.CREATED.clear();
    CubedArray x =
        Cubed.fromFunction(
            new long[] {10, 10},
            new long[] {4, 4},
            DType.FLOAT64,
            (b, i, flat, in, bc) -> b.setDouble(i, flat),
            spec);
    double s = Xp.sum(x).compute().getDouble(0);
    assertThat(s).isEqualTo(99.0 * 100 / 2);
    assertThat(RecordingExecutorFactory.CREATED).hasSize(1);
    ExecutorSettings got = RecordingExecutorFactory.CREATED.get(0);
    assertThat(got.workers()).isEqualTo(3);
    assertThat(got.attempts()).isEqualTo(2);
    assertThat(got.allowedMem()).isEqualTo(300_000_000L);
    assertThat(got.reservedMem()).isEqualTo(10_000_000L);
    assertThat(got.options()).isEqualTo(Map.of("engine.master", "local[2]"));
  }

  @Test
  void availableListsBuiltInsAndRegisteredFactories() {
    assertThat(ExecutorFactory.available())
        .startsWith("threads", "processes")
        .contains("recording");
    assertThat(ExecutorFactory.find("recording")).isPresent();
    assertThat(ExecutorFactory.find("nope")).isEmpty();
    assertThatThrownBy(() -> Executor.byName("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown executor 'nope'; available: threads, processes,")
        .hasMessageContaining("recording");
  }

  @Test
  void missingRequiredOptionIsNamed() {
    Spec spec =
        Spec.builder().workDir(tmp).executor("recording").executorOption("fail", "yes").build();
    assertThatThrownBy(() -> Cubed.executor(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("executor option 'required.key' is not set")
        .hasMessageContaining("--executor-option required.key=VALUE");
  }

  @Test
  void specFileCarriesExecutorOptions() throws Exception {
    Path f = tmp.resolve("spec.yaml");
    Files.writeString(
        f,
        "spec:\n  executor: recording\n  executor_option.spark.master: local[2]\n"
            + "  allowed_mem: 1GB\n");
    Spec s = Spec.fromFile(f);
    assertThat(s.executor()).isEqualTo("recording");
    assertThat(s.executorOptions()).containsEntry("spark.master", "local[2]");
    assertThat(s.toBuilder().executorOption("spark.master", null).build().executorOptions())
        .isEmpty();
    assertThat(s.toString()).contains("executorOptions={spark.master=local[2]}");
  }

  @Test
  void settingsAreChecked() {
    assertThatThrownBy(() -> new ExecutorSettings(0, 1, 10, 1, Map.of()))
        .hasMessageContaining("workers must be >= 1");
    assertThatThrownBy(() -> new ExecutorSettings(1, 1, 10, 10, Map.of()))
        .hasMessageContaining("must exceed reservedMem");
    ExecutorSettings s = new ExecutorSettings(1, 1, 10, 1, Map.of("a", "b"));
    assertThat(s.option("a", "z")).isEqualTo("b");
    assertThat(s.option("c", "z")).isEqualTo("z");
  }
}
