package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.runtime.ExecutorUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's shared secret comes from a file (auth_secret_file, SparkExecutor.Builder
 * authSecretFile): it turns spark.authenticate on and is never shown in the settings or messages.
 */
class SparkAuthSecretTest {
  @TempDir Path dir;

  @Test
  void theSecretFileTurnsAuthenticationOnAndStaysOutOfTheSettings() throws Exception {
    Path f = dir.resolve("secret");
    Files.writeString(f, "  s3cr3t-value\n");
    SparkExecutor e =
        (SparkExecutor)
            new SparkExecutorFactory()
                .create(
                    new ExecutorSettings(
                        1,
                        1,
                        100_000_000L,
                        1_000_000L,
                        Map.of(
                            "auth_secret_file",
                            f.toString(),
                            "spark.master",
                            "spark://127.0.0.1:7077")));
    assertThat(e.settings())
        .containsEntry("spark.authenticate", "true")
        .doesNotContainKey("spark.authenticate.secret");
    assertThat(e.settings().toString()).doesNotContain("s3cr3t-value");
  }

  @Test
  void aMissingOrEmptySecretFileIsRefusedNamingTheFileOnly() throws Exception {
    Path missing = dir.resolve("nope");
    assertThatThrownBy(() -> SparkExecutor.builder().authSecretFile(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read the authentication secret file " + missing);
    Path empty = Files.writeString(dir.resolve("empty"), " \n");
    assertThatThrownBy(() -> SparkExecutor.builder().authSecretFile(empty))
        .hasMessageContaining("secret file " + empty + " is empty");
    assertThatThrownBy(
            () -> new SparkExecutorFactory().checkOptions(Map.of("auth_secret_file", " ")))
        .hasMessageContaining("auth_secret_file needs a path");
  }

  @Test
  void aContextStoppedByAnUnansweringMasterNamesTheSecretOption() {
    IllegalStateException cause = new IllegalStateException("SparkContext was shut down");
    ExecutorUnavailableException without =
        SparkExecutor.contextStopped("spark://127.0.0.1:7077", false, cause);
    assertThat(without)
        .hasMessageContaining("could not register with the master at" + " spark://127.0.0.1:7077")
        .hasMessageContaining("auth_secret_file=PATH")
        .hasMessageContaining("SparkContext was shut down")
        .hasCause(cause);
    assertThat(SparkExecutor.contextStopped("spark://127.0.0.1:7077", true, cause))
        .hasMessageContaining("is auth_secret_file the secret this master was started with?");
    assertThat(SparkExecutor.contextStopped("local[2]", false, cause))
        .hasMessageNotContaining("auth_secret_file");
  }
}
