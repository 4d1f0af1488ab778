package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Python package as a user gets it: a fresh virtual environment, a wheel built once with {@code
 * pip wheel ./python} (carrying this module's classes and class path as jars) installed with its
 * {@code [test]} extra (offline from the machine's package index and wheels), then its pytest
 * suite; each pytest case is reported as one test here, so Surefire counts them.
 *
 * <p>Skipped (with the reason) where {@code python3} or its venv module is missing; where pip
 * cannot install the package the test fails on CI ({@code CI=true}) and is skipped elsewhere.
 */
class PythonSuiteTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path REPO = MODULE.getParent();

  @TestFactory
  Stream<DynamicTest> pytestSuite() throws Exception {
    String python = findPython();
    Assumptions.assumeTrue(
        python != null,
        "python3 with the venv module is not on PATH:" + " the cubed_java Python suite is skipped");
    Path venv = MODULE.resolve("target/py-venv");
    deleteTree(venv);
    Path log = MODULE.resolve("target/py-suite.log");
    Files.deleteIfExists(log);
    Result mk = run(log, 300, python, "-m", "venv", venv.toString());
    Assumptions.assumeTrue(
        mk.code == 0,
        "python3 -m venv failed (exit "
            + mk.code
            + "): the"
            + " cubed_java Python suite is skipped; see "
            + log);
    String vpy = venv.resolve("bin/python").toString();
    // the package as a user installs it: a wheel carrying the engine's jars (built from this
    // module's classes and class path as Maven just made them: no Maven inside Maven)
    Path wheels = MODULE.resolve("target/py-wheel");
    deleteTree(wheels);
    Result pip =
        run(
            log,
            600,
            vpy,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            wheels.toString(),
            REPO.resolve("python").toString());
    if (pip.code == 0) {
      Path wheel;
      try (Stream<Path> s = Files.list(wheels)) {
        wheel = s.filter(f -> f.toString().endsWith(".whl")).findFirst().orElseThrow();
      }
      pip = run(log, 600, vpy, "-m", "pip", "install", "-q", wheel + "[test]");
    }
    if (pip.code != 0) {
      String why =
          "pip wheel ./python, or installing it with [test], failed (exit "
              + pip.code
              + "; setuptools, numpy, xarray and pytest must come from the machine's package index"
              + " or wheels): see "
              + log;
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why + "\n" + pip.tail);
      }
      Assumptions.abort(why);
    }
    Path xml = MODULE.resolve("target/pytest-results.xml");
    Files.deleteIfExists(xml);
    Result tests =
        run(
            log,
            900,
            vpy,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--junitxml=" + xml,
            REPO.resolve("python/tests").toString());
    assertThat(xml).as("pytest wrote no report (exit %d): %s", tests.code, tests.tail).exists();
    List<DynamicTest> cases = parse(xml);
    assertThat(cases).as("pytest ran no test: %s", tests.tail).isNotEmpty();
    System.out.println("cubed_java pytest: " + lastLine(tests.tail));
    return cases.stream();
  }

  private static List<DynamicTest> parse(Path xml) throws Exception {
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
    NodeList nodes = doc.getElementsByTagName("testcase");
    List<DynamicTest> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      String name = e.getAttribute("classname") + "." + e.getAttribute("name");
      Element failure = first(e, "failure");
      if (failure == null) {
        failure = first(e, "error");
      }
      Element skipped = first(e, "skipped");
      String failText =
          failure == null
              ? null
              : failure.getAttribute("message") + "\n" + failure.getTextContent();
      String skipText = skipped == null ? null : skipped.getAttribute("message");
      out.add(
          DynamicTest.dynamicTest(
              name,
              () -> {
                if (failText != null) {
                  throw new AssertionError(name + " failed in pytest:\n" + failText);
                }
                Assumptions.assumeTrue(skipText == null, "pytest skipped: " + skipText);
              }));
    }
    return out;
  }

  private static Element first(Element e, String tag) {
    NodeList l = e.getElementsByTagName(tag);
    return l.getLength() == 0 ? null : (Element) l.item(0);
  }

  private static String findPython() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : new String[] {"python3", "python3.12", "python3.11"}) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          try {
            Process pr =
                new ProcessBuilder(p.toString(), "-c", "import venv, ensurepip")
                    .redirectErrorStream(true)
                    .start();
            pr.getInputStream().readAllBytes();
            if (pr.waitFor(5, TimeUnit.MINUTES) && pr.exitValue() == 0) {
              return p.toString();
            }
          } catch (IOException | InterruptedException e) {
            // try the next one
          }
        }
      }
    }
    return null;
  }

  record Result(int code, String tail) {}

  private static Result run(Path log, int timeoutSeconds, String... cmd) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> env = pb.environment();
    env.put("PIP_RETRIES", "0"); // an unreachable index is skipped at once, not retried
    env.put("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    // the JVMs' default work directory (java.io.tmpdir/cubed-<user>) inside target: computes the
    // tests fail on purpose keep their directories for a resume, and must not land in the
    // developer's own default work directory
    Path tmp = MODULE.resolve("target/py-tmp").toAbsolutePath();
    Files.createDirectories(tmp);
    env.put("CUBED_JAVA_OPTS", "-Xmx1g -XX:+UseParallelGC -Djava.io.tmpdir=" + tmp);
    env.put("PYTHONDONTWRITEBYTECODE", "1");
    env.put("CUBED_JAVA_BUILD", "prebuilt"); // the wheel takes this clone's build as it is
    env.put("CUBED_JAVA_EXPECT_JARS", "1"); // test_install.py: the installed wheel carries jars
    env.remove("CUBED_JAVA_HOME");
    env.remove("CUBED_JAVA_CLASSPATH");
    Files.writeString(
        log,
        "$ " + String.join(" ", cmd) + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          String.join(" ", cmd) + " did not finish in " + timeoutSeconds + " s; see " + log);
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    return new Result(p.exitValue(), text.substring(Math.max(0, text.length() - 3000)));
  }

  private static String lastLine(String s) {
    Matcher m = Pattern.compile("([^\\n]+)\\s*$").matcher(s);
    return m.find() ? m.group(1).trim() : "";
  }

  private static void deleteTree(Path p) throws IOException {
    if (Files.exists(p)) {
      try (Stream<Path> s = Files.walk(p)) {
        s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
      }
    }
  }
}
