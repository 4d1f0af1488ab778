package dev.cubed.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.Spec;
import dev.cubed.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The docs check: every Markdown page of {@code docs/} and the README describes the code as it is
 * now. It fails on dated history (periods of work, ISO dates in prose, issue numbers outside a
 * known-limitation note), on a {@code ./cubed COMMAND --option} whose command has no such option,
 * on a setting key ({@code --setting K=V}, {@code CUBED_SPEC_*}, the rows of a settings table) that
 * {@link Spec.Builder#set} does not know, and on a {@code cubed_java.NAME} the Python package does
 * not define. It lives in cubed-bench because this module sees every command of {@code ./cubed}
 * (the CLI's and the bench's, through {@code CommandProvider}) and the Spec.
 */
class DocsCheckTest {
  private static Path root;
  private static List<Path> pages;

  @BeforeAll
  static void findPages() throws IOException {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isRegularFile(p.resolve("docs/architecture.md"))) {
      p = p.getParent();
    }
    assertThat(p).as("the repository root (a folder holding docs/architecture.md)").isNotNull();
    root = p;
    try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
      pages = new ArrayList<>(s.filter(f -> f.toString().endsWith(".md")).sorted().toList());
    }
    pages.add(root.resolve("README.md"));
  }

  /** One line of one page, for messages. */
  private record Line(Path page, int number, String text, boolean inCode) {
    String where() {
      return root.relativize(page) + ":" + number;
    }
  }

  private static List<Line> lines() throws IOException {
    List<Line> out = new ArrayList<>();
    for (Path page : pages) {
      boolean code = false;
      int n = 0;
      for (String l : Files.readAllLines(page, StandardCharsets.UTF_8)) {
        n++;
        if (l.strip().startsWith("```")) {
          code = !code;
          continue;
        }
        out.add(new Line(page, n, l, code));
      }
    }
    return out;
  }

  // ---- (a) dated history ----

  private static final Pattern HISTORY =
      Pattern.compile(
          "[Ss]ession [0-9]+|until (session|period)|\\b20[0-9]{2}-[0-9]{2}-[0-9]{2}\\b"
              + "|[Ii]ssue [0-9]+|\\(issue|was the default until|before this session"
              + "|\\bno longer\\b|#[0-9]{2,4}\\)");

  /** The JVM's own version line ({@code openjdk version "17.0.15" 2025-04-15}) is not history. */
  private static final Pattern JAVA_VERSION = Pattern.compile("version \"[^\"]*\" 20[0-9-]{8}");

  static List<String> history(List<Line> lines) {
    List<String> bad = new ArrayList<>();
    for (Line l : lines) {
      String t = JAVA_VERSION.matcher(l.text()).replaceAll("version");
      Matcher m = HISTORY.matcher(t);
      if (m.find() && !t.toLowerCase().contains("known limitation")) {
        bad.add(l.where() + ": '" + m.group() + "' in: " + l.text().strip());
      }
    }
    return bad;
  }

  @Test
  void noDatedHistory() throws IOException {
    assertThat(history(lines()))
        .as(
            "docs/ and README.md say what the code does now; history goes to CHANGELOG.md and git"
                + " log (issue numbers only beside a 'known limitation')")
        .isEmpty();
  }

  // ---- (b) CLI options ----

  private static final Pattern COMMAND =
      Pattern.compile("(?:\\./cubed|bin/cubed)\\s+([a-z][a-z-]*)([^`|;&#\\n]*)");
  private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");

  static List<String> unknownOptions(List<Line> lines) {
    CommandLine cl =
        Main.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
    List<String> bad = new ArrayList<>();
    for (Line l : lines) {
      Matcher m = COMMAND.matcher(l.text());
      while (m.find()) {
        CommandLine sub = cl.getSubcommands().get(m.group(1));
        if (sub == null) {
          continue; // prose ("the ./cubed launcher"), not a command
        }
        CommandSpec spec = sub.getCommandSpec();
        Matcher o = OPTION.matcher(m.group(2));
        while (o.find()) {
          if (spec.findOption(o.group()) == null) {
            bad.add(
                l.where()
                    + ": ./cubed "
                    + m.group(1)
                    + " has no option "
                    + o.group()
                    + " (see ./cubed "
                    + m.group(1)
                    + " --help)");
          }
        }
      }
    }
    return bad;
  }

  @Test
  void everyCliOptionExists() throws IOException {
    List<Line> lines = lines();
    assertThat(lines.stream().filter(l -> COMMAND.matcher(l.text()).find()).count())
        .as("the docs show ./cubed commands")
        .isGreaterThan(50);
    assertThat(unknownOptions(lines)).isEmpty();
  }

  // ---- (b) setting keys ----

  private static final Pattern SETTING_OPTION =
      Pattern.compile("--setting[ =]([A-Za-z][A-Za-z0-9_.-]*)=");
  private static final Pattern SPEC_ENV = Pattern.compile("CUBED_SPEC_([A-Z][A-Z0-9_]*)");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([a-z][a-z0-9_]*)` \\|");

  static List<String> unknownSettings(List<Line> lines) {
    List<String> bad = new ArrayList<>();
    boolean settingsTable = false;
    for (Line l : lines) {
      String t = l.text();
      if (t.startsWith("| name | default |")) {
        settingsTable = true;
      } else if (!t.startsWith("|")) {
        settingsTable = false;
      }
      List<String> keys = new ArrayList<>();
      for (Matcher m = SETTING_OPTION.matcher(t); m.find(); ) {
        keys.add(m.group(1));
      }
      for (Matcher m = SPEC_ENV.matcher(t); m.find(); ) {
        keys.add(m.group(1).toLowerCase());
      }
      Matcher row = TABLE_ROW.matcher(t);
      if (settingsTable && row.find()) {
        keys.add(row.group(1));
      }
      for (String k : keys) {
        if (k.equals("KEY") || k.equals("key") || k.equals("name")) {
          continue; // the placeholder of --setting KEY=VALUE and CUBED_SPEC_<NAME>
        }
        if (!knownSetting(k)) {
          bad.add(l.where() + ": no setting '" + k + "' (Spec.Builder.set does not know it)");
        }
      }
    }
    return bad;
  }

  /** True when {@link Spec.Builder#set} knows the key (a bad value is another matter). */
  static boolean knownSetting(String key) {
    try {
      Spec.builder().set(key, "1");
      return true;
    } catch (IllegalArgumentException e) {
      return !String.valueOf(e.getMessage()).contains("unknown key");
    }
  }

  @Test
  void everySettingExists() throws IOException {
    assertThat(knownSetting("fold_groups")).isTrue();
    assertThat(knownSetting("no_such_setting")).isFalse();
    assertThat(unknownSettings(lines())).isEmpty();
  }

  // ---- (c) Python names ----

  private static final Pattern PY_NAME =
      Pattern.compile("(?<![\\w.])cubed_java\\.([A-Za-z_][A-Za-z0-9_]*)");

  /** Top-level names of a Python file: defs, classes, assignments and imported names. */
  static Set<String> topLevelNames(Path file) throws IOException {
    Set<String> names = new HashSet<>();
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Matcher d =
        Pattern.compile("(?m)^(?:async\\s+)?(?:def|class)\\s+([A-Za-z_]\\w*)").matcher(text);
    while (d.find()) {
      names.add(d.group(1));
    }
    Matcher a = Pattern.compile("(?m)^([A-Za-z_]\\w*)\\s*(?::[^=\\n]*)?=").matcher(text);
    while (a.find()) {
      names.add(a.group(1));
    }
    Matcher i =
        Pattern.compile("(?m)^(?:from\\s+\\S+\\s+)?import\\s+(\\([^)]*\\)|[^\\n]*)").matcher(text);
    while (i.find()) {
      for (String part : i.group(1).replaceAll("[()\\\\]|#[^\\n]*", " ").split(",")) {
        String[] w = part.strip().split("\\s+");
        if (w.length > 0 && !w[0].isEmpty()) {
          String name = w.length >= 3 && w[w.length - 2].equals("as") ? w[w.length - 1] : w[0];
          names.add(name.contains(".") ? name.substring(0, name.indexOf('.')) : name);
        }
      }
    }
    Matcher all = Pattern.compile("(?s)__all__\\s*=\\s*[\\[(](.*?)[\\])]").matcher(text);
    while (all.find()) {
      Matcher q = Pattern.compile("[\"']([A-Za-z_]\\w*)[\"']").matcher(all.group(1));
      while (q.find()) {
        names.add(q.group(1));
      }
    }
    return names;
  }

  static Set<String> pythonNames() throws IOException {
    Path pkg = root.resolve("python/cubed_java");
    Set<String> names = new TreeSet<>(topLevelNames(pkg.resolve("__init__.py")));
    // the Array API namespace's functions are reachable at the top level too (__getattr__);
    // array_api.py re-exports its core's (_core.py: from ._core import *)
    names.addAll(topLevelNames(pkg.resolve("array_api.py")));
    names.addAll(topLevelNames(pkg.resolve("_core.py")));
    try (Stream<Path> s = Files.list(pkg)) {
      s.forEach(
          f -> {
            String n = f.getFileName().toString();
            if (n.endsWith(".py")) {
              names.add(n.substring(0, n.length() - 3));
            } else if (Files.isRegularFile(f.resolve("__init__.py"))) {
              names.add(n);
            }
          });
    }
    return names;
  }

  static List<String> unknownPythonNames(List<Line> lines, Set<String> known) {
    List<String> bad = new ArrayList<>();
    for (Line l : lines) {
      for (Matcher m = PY_NAME.matcher(l.text()); m.find(); ) {
        if (!known.contains(m.group(1))) {
          bad.add(l.where() + ": cubed_java has no '" + m.group(1) + "'");
        }
      }
    }
    return bad;
  }

  @Test
  void everyPythonNameExists() throws IOException {
    Set<String> known = pythonNames();
    assertThat(known).contains("compute", "configure", "array_api", "Array", "asarray");
    assertThat(unknownPythonNames(lines(), known)).isEmpty();
  }
}
