package dev.cubed.runtime.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs one pytest file of the Python package ({@code python/tests}) as a client of an engine that
 * the calling Java test started (a Spark or Flink cluster): the Python package from this checkout's
 * source ({@code PYTHONPATH=python}), its bridge started with the caller's class path ({@code
 * CUBED_JAVA_CLASSPATH}, so the bridge has the caller's executor module and the engine's classes),
 * and the caller's environment for the file (the cluster's address). Used by the executor modules'
 * tests of Python functions (cubed-spark's {@code SparkPythonClusterTest}, cubed-beam's {@code
 * FlinkPythonTest}).
 *
 * <p>The Python: {@code CUBED_TEST_PYTHON} if set, else the virtual environment cubed-python's
 * {@code PythonSuiteTest} made ({@code cubed-python/target/py-venv}, with the package's {@code
 * [test]} extra), else {@code python3} on PATH; the first that imports NumPy, SciPy, xarray,
 * cloudpickle and pytest. None: the test is skipped with the reason (it fails on CI, {@code
 * CI=true}, when the suite's venv exists but lacks them).
 */
public final class PythonClientRun {
  /** How long the pytest run may take (cluster start-up is the caller's). */
  public static final long DEADLINE_SECONDS = 300;

  private static final List<String> NEEDS =
      List.of("numpy", "scipy.special", "xarray", "cloudpickle", "pytest");

  private PythonClientRun() {}

  /** The repository's root: the parent of the module directory tests run in. */
  public static Path repo() {
    return Path.of("").toAbsolutePath().getParent();
  }

  /**
   * Runs {@code python/tests/<file>} with pytest and asserts that {@code passed} tests passed and
   * none failed; returns pytest's output.
   *
   * @param classpath the bridge JVM's class path
   * @param env extra environment of the Python client (the engine's address, ...)
   */
  public static String pytest(String file, int passed, String classpath, Map<String, String> env)
      throws IOException, InterruptedException {
    String python = python();
    Path log = Files.createTempFile("cubed-pytest", ".log");
    try {
      List<String> cmd =
          List.of(
              python,
              "-m",
              "pytest",
              "-q",
              "-rs",
              "-p",
              "no:cacheprovider",
              repo().resolve("python/tests").resolve(file).toString());
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .directory(repo().toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      Map<String, String> e = pb.environment();
      e.put("PYTHONPATH", repo().resolve("python").toString());
      e.put("CUBED_JAVA_CLASSPATH", classpath);
      e.putIfAbsent("CUBED_JAVA_OPTS", "-Xmx768m -XX:+UseSerialGC");
      e.remove("CUBED_JAVA_HOME");
      e.putAll(env);
      Process p = pb.start();
      if (!p.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError(
            "pytest " + file + " did not end within " + DEADLINE_SECONDS + " s:\n" + tail(log));
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      System.out.println("pytest " + file + ": " + lastLine(out));
      assertThat(p.exitValue()).as("pytest %s exited %d:%n%s", file, p.exitValue(), out).isZero();
      Matcher m = Pattern.compile("(\\d+) passed").matcher(lastLine(out));
      assertThat(m.find() ? Integer.parseInt(m.group(1)) : 0)
          .as("passed:%n%s", out)
          .isEqualTo(passed);
      return out;
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** The Python to run (see the class's text), or the test is skipped. */
  static String python() throws InterruptedException {
    List<String> tried = new ArrayList<>();
    List<String> candidates = new ArrayList<>();
    String given = System.getenv("CUBED_TEST_PYTHON");
    if (given != null && !given.isBlank()) {
      candidates.add(given);
    }
    candidates.add(repo().resolve("cubed-python/target/py-venv/bin/python").toString());
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, "python3");
      if (Files.isExecutable(p)) {
        candidates.add(p.toString());
        break;
      }
    }
    String check = "import " + String.join(", ", NEEDS);
    for (String c : candidates) {
      if (!Files.isExecutable(Path.of(c))) {
        continue;
      }
      try {
        Process p =
            new ProcessBuilder(c, "-c", check)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor(2, TimeUnit.MINUTES) && p.exitValue() == 0) {
          return c;
        }
        tried.add(c);
      } catch (IOException e) {
        tried.add(c + " (" + e.getMessage() + ")");
      }
    }
    String why =
        "no Python with "
            + String.join(", ", NEEDS)
            + " (tried "
            + (tried.isEmpty() ? "none" : String.join(", ", tried))
            + "): set CUBED_TEST_PYTHON, or run cubed-python's PythonSuiteTest first (its venv has"
            + " the package's [test] extra)";
    if ("true".equals(System.getenv("CI")) && Files.exists(Path.of(candidates.get(0)))) {
      throw new AssertionError(why); // the suite's venv is there but lacks them
    }
    Assumptions.abort(why);
    return null;
  }

  private static String lastLine(String out) {
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1];
  }

  private static String tail(Path log) throws IOException {
    String s = Files.readString(log, StandardCharsets.UTF_8);
    return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
  }
}
