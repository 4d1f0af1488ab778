package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credential step of {@code scripts/spark-local-cluster.sh} ({@code --make-credentials DIR}),
 * run as a shell command on a copy of the script: the S3 test server's secret, like the Spark
 * secret, is random at each start, kept in a file only its owner can read (0600, in a 0700
 * directory), and the script prints where it is, never the secret.
 */
class LocalClusterCredentialsTest {
  private static final Pattern SECRET =
      Pattern.compile("(?m)^export AWS_SECRET_ACCESS_KEY=([0-9a-f]{64})$");
  private static final Pattern ACCESS = Pattern.compile("(?m)^export AWS_ACCESS_KEY_ID=(\\S+)$");

  @TempDir Path tmp;

  /** Runs the copied script with {@code args}; returns its exit code and output. */
  private Object[] run(Path script, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    Path out = tmp.resolve("out-" + System.nanoTime());
    Process p =
        new ProcessBuilder(cmd)
            .directory(tmp.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the script did not finish within 60 s");
    }
    return new Object[] {p.exitValue(), Files.readString(out, StandardCharsets.UTF_8)};
  }

  private Path copyScript() throws IOException {
    Path repo = Path.of("..").toAbsolutePath().normalize();
    Path scripts = Files.createDirectories(tmp.resolve("checkout/scripts"));
    for (String f : List.of("spark-local-cluster.sh", "spark-local-cluster.properties")) {
      Files.copy(
          repo.resolve("scripts").resolve(f),
          scripts.resolve(f),
          StandardCopyOption.REPLACE_EXISTING);
    }
    return scripts.resolve("spark-local-cluster.sh");
  }

  private static String group(Pattern p, String text) {
    Matcher m = p.matcher(text);
    assertThat(m.find()).as("a line matching " + p + " in:\n" + text).isTrue();
    return m.group(1);
  }

  @Test
  void theS3SecretIsRandomOwnerOnlyAndNeverPrinted() throws Exception {
    Path script = copyScript();
    String[] secrets = new String[2];
    String[] keys = new String[2];
    for (int i = 0; i < 2; i++) {
      Path state = tmp.resolve("state-" + i);
      Object[] r = run(script, "--make-credentials", state.toString());
      String out = (String) r[1];
      assertThat((int) r[0]).as("exit code; output:\n" + out).isZero();
      Path creds = state.resolve("s3-credentials");
      assertThat(out).contains(creds.toString()).contains(state.resolve("spark-secret").toString());
      assertThat(Files.getPosixFilePermissions(state))
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));
      for (String f : List.of("s3-credentials", "spark-secret", "spark.properties")) {
        assertThat(Files.getPosixFilePermissions(state.resolve(f)))
            .as(f)
            .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      }
      String text = Files.readString(creds);
      secrets[i] = group(SECRET, text);
      keys[i] = group(ACCESS, text);
      String sparkSecret = Files.readString(state.resolve("spark-secret")).strip();
      assertThat(out).doesNotContain(secrets[i]).doesNotContain(sparkSecret);
    }
    assertThat(secrets[0]).isNotEqualTo(secrets[1]);
    assertThat(keys[0]).isNotEqualTo(keys[1]).isNotEqualTo("cubed-test-access");
    // the script itself carries no fixed credential to print or pass on a command line
    assertThat(Files.readString(script)).doesNotContain("cubed-test-secret");
  }
}
