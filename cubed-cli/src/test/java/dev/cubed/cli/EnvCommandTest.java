package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.JvmOptions;
import dev.cubed.Spec;
import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.runtime.TileJitOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
        .containsExactly(
            "cubed",
            "java",
            "processors",
            "max heap",
            "collector",
            "huge pages",
            "vector api",
            "blas",
            "executors",
            "work dir");
    assertThat(text)
        .contains("processors: " + Runtime.getRuntime().availableProcessors())
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
  void printsTheJvmOptionsOfTheSpecForALibraryUser() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env", "--allowed-mem", "500MB", "--workers", "2"))
        .as(err.toString())
        .isZero();
    // 2 x (500 MB - 100 MB reserved) + 192 MiB = 1001326592 B = 955 MiB
    String line =
        out.toString().lines().filter(l -> l.startsWith("jvm options: ")).findFirst().orElseThrow();
    assertThat(line)
        .isEqualTo(
            "jvm options: -Xmx955m -XX:+UseG1GC -Xms32m"
                + " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=70 -XX:G1PeriodicGCInterval=250"
                + " -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=85"
                + " --add-modules=jdk.incubator.vector -XX:CompileCommand=quiet"
                + " -XX:CompileCommand=option,dev.cubed.nd.elementwise.VectorTrig::eval,double,"
                + "CompileThresholdScaling,0.01"
                + " -XX:CompileCommand=option,dev.cubed.plan.eval.TiledEvaluation*::*,double,"
                + "CompileThresholdScaling,20.0 -Djdk.nio.maxCachedBufferSize=1048576");
    assertThat(line.substring("jvm options: ".length()))
        .isEqualTo(JvmOptions.line(Spec.builder().allowedMem("500MB").workers(2).build()));
    StringWriter out2 = new StringWriter();
    assertThat(
            run(
                out2,
                new StringWriter(),
                "env",
                "--allowed-mem",
                "2GiB",
                "--workers",
                "3",
                "--reserved-mem",
                "48MiB"))
        .isZero();
    // 3 x (2048 - 48) MiB + 192 MiB
    assertThat(out2.toString()).contains("jvm options: -Xmx6192m ");
  }

  @Test
  void badValuesAreRefusedWithOneLine() {
    String[][] cases = {
      {"--allowed-mem 0", "--allowed-mem: '0' must be more than 0 bytes"},
      {"--allowed-mem 500MB --workers -1", "--workers: -1 is negative"},
      {
        "--allowed-mem 100MB --reserved-mem 200MB",
        "--allowed-mem 100.0 MB is not more than" + " --reserved-mem 200.0 MB"
      },
      {"--reserved-mem 10MB", "--reserved-mem needs --allowed-mem"},
      {"--allowed-mem 500MB --reserved-mem x", "--reserved-mem: 'x' is not a memory size"},
      {"--allowed-mem 500MB --workers two", "Invalid value for option '--workers'"}
    };
    for (String[] c : cases) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertThat(run(out, err, ("env " + c[0]).split(" "))).as(c[0]).isEqualTo(2);
      assertThat(err.toString()).as(c[0]).startsWith("cubed env: ").contains(c[1]);
      assertThat(err.toString().strip().lines().count()).as(err.toString()).isEqualTo(1);
      assertThat(out.toString()).as(c[0]).doesNotContain("jvm options");
    }
  }

  /**
   * Without --reserved-mem the launcher's heap line is printed whatever the size (the CLI measures
   * its workers' reserved memory); the library line explains why there is none when the Spec's
   * default reservedMem leaves no room.
   */
  @Test
  void anAllowedMemAtTheSpecDefaultReservedStillPrintsTheLaunchersHeap() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env", "--allowed-mem", "100MB", "--workers", "2"))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("on 2 workers: 382 MiB")
        .contains(
            "jvm options: none: a library Spec with allowedMem 100.0 MB and the default"
                + " reservedMem 100.0 MB leaves tasks no room");
  }

  /** The launcher starts its JVMs with the collector options JvmOptions gives library users. */
  @Test
  void theLauncherUsesTheLibrarysCollectorOptions() throws Exception {
    String script = Files.readString(Path.of("src", "dist", "lib", "cubed-jvm.sh"));
    String gc = script.substring(script.indexOf("gc_opts=\"${CUBED_GC_OPTS:-") + 26);
    gc = gc.substring(0, gc.indexOf('}'));
    assertThat(gc).isEqualTo(String.join(" ", JvmOptions.GC_OPTIONS));
  }

  @Test
  void aMalformedAllowedMemIsAUsageError() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "env", "--allowed-mem", "lots")).isEqualTo(2);
    assertThat(err.toString())
        .contains("cubed env: --allowed-mem")
        .contains("lots")
        .contains("see 'cubed env --help'");
  }

  /**
   * Every JVM the launcher starts gets FastTrig's and the tile drivers' JIT options (the script
   * keeps a copy of the lists; the processes executor's workers take them from the classes).
   */
  @Test
  void theLauncherStartsItsJvmsWithTheJitOptions() throws Exception {
    String script = Files.readString(Path.of("src", "dist", "lib", "cubed-jvm.sh"));
    String fixed = script.substring(script.indexOf("jvm_fixed=("));
    fixed = fixed.substring(0, fixed.indexOf(')') + 1);
    for (String o : FastTrig.JIT_OPTIONS) {
      assertThat(fixed).as("jvm_fixed in cubed-jvm.sh").contains(o);
    }
    for (String o : TileJitOptions.OPTIONS) {
      assertThat(fixed).as("jvm_fixed in cubed-jvm.sh").contains(o);
    }
  }
}
