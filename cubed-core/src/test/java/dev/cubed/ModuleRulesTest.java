package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules between the project's Maven modules (docs/architecture.md), read from their main source
 * trees and poms (the other modules' classes are not on cubed-core's test classpath, and may not be
 * built yet when it runs): no package is declared in two modules; a module's code names only
 * packages of its own and of modules its pom depends on; modules above cubed-core use only core's
 * API packages (not {@code dev.cubed.core}, core's chunked operations, nor any {@code internal}
 * package); the command line does not depend on the benchmarks; no two main classes of the project
 * share a simple name (one name per idea).
 */
class ModuleRulesTest {
  /** Core's packages that other modules may not name (besides any package named internal). */
  static final Set<String> CORE_INTERNAL = Set.of("dev.cubed.core");

  static Path root;

  /** Module name to its main-source packages. */
  static final Map<String, Set<String>> PACKAGES = new TreeMap<>();

  /** Module name to the project modules its pom depends on outside test scope. */
  static final Map<String, Set<String>> DEPENDS = new TreeMap<>();

  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  private static final Pattern DEPENDENCY =
      Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
  private static final Pattern PACKAGE =
      Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern NAMED = Pattern.compile("\\bdev\\.cubed((?:\\.[a-z]\\w*)*)\\.[A-Z]");

  @BeforeAll
  static void readModules() throws IOException {
    root = Path.of("").toAbsolutePath();
    while (root != null && !isParent(root)) {
      root = root.getParent();
    }
    assertThat(root)
        .as("the project's parent pom above " + Path.of("").toAbsolutePath())
        .isNotNull();
    Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
    while (m.find()) {
      String module = m.group(1).strip();
      PACKAGES.put(module, packagesOf(root.resolve(module).resolve("src/main/java")));
      Set<String> deps = new TreeSet<>();
      Matcher d = DEPENDENCY.matcher(Files.readString(root.resolve(module).resolve("pom.xml")));
      while (d.find()) {
        String dep = d.group(1);
        if (dep.contains("<groupId>dev.cubed</groupId>") && !dep.contains("<scope>test</scope>")) {
          Matcher a = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(dep);
          if (a.find()) {
            deps.add(a.group(1).strip());
          }
        }
      }
      DEPENDS.put(module, deps);
    }
  }

  private static boolean isParent(Path dir) {
    try {
      Path pom = dir.resolve("pom.xml");
      return Files.isRegularFile(pom)
          && Files.readString(pom).contains("<module>cubed-core</module>");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The packages declared by the Java files under {@code src}. */
  static Set<String> packagesOf(Path src) throws IOException {
    Set<String> out = new TreeSet<>();
    for (Path f : javaFiles(src)) {
      Matcher m = PACKAGE.matcher(Files.readString(f));
      if (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  static List<Path> javaFiles(Path src) throws IOException {
    if (!Files.isDirectory(src)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(src)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  /** The module declaring {@code pkg}, or null (a JDK or library package). */
  static String owner(String pkg) {
    for (Map.Entry<String, Set<String>> e : PACKAGES.entrySet()) {
      if (e.getValue().contains(pkg)) {
        return e.getKey();
      }
    }
    return null;
  }

  /**
   * The {@code dev.cubed} packages that {@code code} names (imports, static imports and qualified
   * names), with comments and string literals left out: a Javadoc link is no dependency.
   */
  static Set<String> namedPackages(String code) {
    Set<String> out = new TreeSet<>();
    Matcher m = NAMED.matcher(codeOnly(code));
    while (m.find()) {
      out.add("dev.cubed" + m.group(1));
    }
    return out;
  }

  /** {@code src} with comments, string and character literals blanked. */
  static String codeOnly(String src) {
    StringBuilder b = new StringBuilder(src.length());
    int i = 0;
    int n = src.length();
    while (i < n) {
      char c = src.charAt(i);
      if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
        while (i < n && src.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
        int end = src.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        b.append(' ');
      } else if (c == '"' || c == '\'') {
        boolean block = c == '"' && src.startsWith("\"\"\"", i);
        String close = block ? "\"\"\"" : String.valueOf(c);
        i += close.length();
        while (i < n && !src.startsWith(close, i)) {
          i += src.charAt(i) == '\\' ? 2 : 1;
        }
        i += close.length();
        b.append("\"\"");
      } else {
        b.append(c);
        i++;
      }
    }
    return b.toString();
  }

  @Test
  void noPackageIsDeclaredInTwoModules() {
    Map<String, Set<String>> modulesOf = new TreeMap<>();
    PACKAGES.forEach(
        (module, pkgs) ->
            pkgs.forEach(p -> modulesOf.computeIfAbsent(p, k -> new TreeSet<>()).add(module)));
    List<String> split = new ArrayList<>();
    modulesOf.forEach(
        (p, modules) -> {
          if (modules.size() > 1) {
            split.add(p + " in " + modules);
          }
        });
    assertThat(split)
        .as("split packages (move each module's classes into a package of its own)")
        .isEmpty();
    assertThat(PACKAGES.get("cubed-core")).contains("dev.cubed", "dev.cubed.zarr", "dev.cubed.nd");
  }

  @Test
  void modulesNameOnlyPackagesOfModulesTheyDependOn() throws IOException {
    List<String> bad = new ArrayList<>();
    for (String module : PACKAGES.keySet()) {
      for (Path f : javaFiles(root.resolve(module).resolve("src/main/java"))) {
        for (String p : namedPackages(Files.readString(f))) {
          String owner = owner(p);
          if (owner != null && !owner.equals(module) && !DEPENDS.get(module).contains(owner)) {
            bad.add(
                root.relativize(f)
                    + " names "
                    + p
                    + " of "
                    + owner
                    + ", not a dependency of "
                    + module);
          }
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void modulesAboveCoreUseOnlyCoreApiPackages() throws IOException {
    Set<String> core = PACKAGES.get("cubed-core");
    List<String> bad = new ArrayList<>();
    for (String module : PACKAGES.keySet()) {
      if (module.equals("cubed-core")) {
        continue;
      }
      for (Path f : javaFiles(root.resolve(module).resolve("src/main/java"))) {
        for (String p : namedPackages(Files.readString(f))) {
          if (core.contains(p)
              && (CORE_INTERNAL.contains(p) || p.matches(".*\\.internal(\\..*)?"))) {
            bad.add(root.relativize(f) + " names core's internal package " + p);
          }
        }
      }
    }
    assertThat(bad).as("use the API (dev.cubed, Xp, Cubed) instead").isEmpty();
  }

  @Test
  void theCommandLineDoesNotDependOnTheBenchmarks() throws IOException {
    String pom = Files.readString(root.resolve("cubed-cli/pom.xml"));
    assertThat(pom).doesNotContain("<artifactId>cubed-bench</artifactId>");
    assertThat(DEPENDS.get("cubed-cli")).doesNotContain("cubed-bench");
  }

  @Test
  void noTwoMainClassesShareASimpleName() throws IOException {
    Map<String, List<String>> where = new TreeMap<>();
    for (String module : PACKAGES.keySet()) {
      Path src = root.resolve(module).resolve("src/main/java");
      for (Path f : javaFiles(src)) {
        String name = f.getFileName().toString().replaceFirst("\\.java$", "");
        if (!name.equals("package-info") && !name.equals("module-info")) {
          where.computeIfAbsent(name, k -> new ArrayList<>()).add(root.relativize(f).toString());
        }
      }
    }
    List<String> twice = new ArrayList<>();
    where.forEach(
        (name, files) -> {
          if (files.size() > 1) {
            twice.add(name + " in " + files);
          }
        });
    assertThat(where).as("main classes found").hasSizeGreaterThan(100);
    assertThat(twice)
        .as("one name per idea: rename one of each so that its name says what it is")
        .isEmpty();
  }

  @Test
  void theReaderFindsNamesInCodeOnly() {
    assertThat(
            namedPackages(
                "import dev.cubed.zarr.store.Store;\n/** {@link dev.cubed.core.Core} */ class A {"
                    + " dev.cubed.nd.NDArray x; String s = \"dev.cubed.plan.Plan\"; // dev.cubed.runtime.X\n}"))
        .containsExactly("dev.cubed.nd", "dev.cubed.zarr.store");
  }
}
