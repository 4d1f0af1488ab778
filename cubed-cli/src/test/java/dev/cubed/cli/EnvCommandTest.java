package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class EnvCommandTest {

  private static int run(StringWriter out, StringWriter err, String... args) {
    return Main.execute(new PrintWriter(out), new PrintWriter(err), false, args);
  }

  @Test
  void printsTheRuntimeOneKeyPerLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env")).as(err.toString()).isZero();
    String text = out.toString();
    assertThat(text.lines().map(l -> l.substring(0, l.indexOf(':'))).toList())
        .containsExactly("cubed", "java", "processors", "max heap", "collector", "huge pages",
            "vector api",
            "blas", "executors", "work dir");
    assertThat(text).contains("processors: " + Runtime.getRuntime().availableProcessors())
        .contains("max heap: " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB")
        .containsPattern("executors: threads processes");
    // the test JVM runs with --add-modules jdk.incubator.vector (the build's argLine)
    assertThat(text).contains("vector api: in use");
  }

  @Test
  void printsTheHeapTheLauncherDerivesFromAllowedMemAndWorkers() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env", "--allowed-mem", "1GB", "--workers", "3")).isZero();
    // 3 x 1e9 B = 2861 MiB, plus 192
    assertThat(out.toString()).contains("heap for --allowed-mem 1GB on 3 workers: 3053 MiB");
  }

  @Test
  void aMalformedAllowedMemIsAUsageError() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env", "--allowed-mem", "lots")).isEqualTo(2);
    assertThat(err.toString()).contains("cubed env: --allowed-mem").contains("lots")
        .contains("see 'cubed env --help'");
  }

  /**
   * Every JVM the launcher starts gets FastTrig's JIT options (the script keeps a copy of the list;
   * the processes executor's workers take it from FastTrig itself).
   */
  @Test
  void theLauncherStartsItsJvmsWithFastTrigsJitOptions() throws Exception {
    String script = java.nio.file.Files.readString(java.nio.file.Path.of("src", "dist", "lib",
        "cubed-jvm.sh"));
    String fixed = script.substring(script.indexOf("jvm_fixed=("));
    fixed = fixed.substring(0, fixed.indexOf(')') + 1);
    for (String o : dev.cubed.nd.FastTrig.JIT_OPTIONS) {
      assertThat(fixed).as("jvm_fixed in cubed-jvm.sh").contains(o);
    }
  }
}
