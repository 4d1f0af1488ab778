package dev.cubed.plan.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.runtime.TileJitOptions;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TileJitOptionsTest {
  /** The method pattern names the tile drivers' class (a rename would silently drop the option). */
  @Test
  void thePatternNamesTheTileDriversAndTheirNestedClasses() {
    String opt = TileJitOptions.OPTIONS.get(1);
    String pattern = opt.split(",")[1];
    assertThat(pattern).endsWith("*::*");
    String prefix = pattern.substring(0, pattern.length() - "*::*".length());
    assertThat(TiledEvaluation.class.getName()).isEqualTo(prefix);
    // the per-tile methods live in the nested Run class, which the trailing * covers
    assertThat(TiledEvaluation.class.getDeclaredClasses())
        .extracting(Class::getName)
        .anySatisfy(n -> assertThat(n).startsWith(prefix + "$"));
    assertThat(TileJitOptions.OPTIONS.get(0)).isEqualTo("-XX:CompileCommand=quiet");
  }

  /**
   * A JVM accepts the options (a malformed value, such as an integer where the option's type is
   * double, makes the JVM refuse to start) and prints nothing on standard output for them.
   */
  @Test
  void aJvmStartsWithTheOptionsAndEchoesNothing() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>();
    cmd.add(java.toString());
    cmd.addAll(TileJitOptions.OPTIONS);
    cmd.add("-version");
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = readBounded(p.getInputStream(), 1 << 16);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("java -version finished").isTrue();
    assertThat(p.exitValue()).as("exit code of " + cmd).isZero();
    assertThat(out).as("standard output").isEmpty();
  }

  private static String readBounded(InputStream in, int max) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    int n;
    while ((n = in.read(buf)) >= 0) {
      if (b.size() + n > max) {
        throw new AssertionError("more than " + max + " bytes on standard output");
      }
      b.write(buf, 0, n);
    }
    return b.toString(StandardCharsets.UTF_8);
  }
}
