package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The published artifacts stay consistent with the build: the BOM manages every module of the root
 * pom at the root's version, and the CLI's {@code --version} names that version.
 */
class ArtifactsTest {
  static final Path ROOT = Path.of("..");

  static List<String> all(Pattern p, String text) {
    List<String> r = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      r.add(m.group(1));
    }
    return r;
  }

  static String ownVersion(String pom) {
    // the project's version: the first <version> outside <parent> and <dependencies>
    String head =
        pom.replaceAll("(?s)<!--.*?-->", "")
            .replaceAll("(?s)<parent>.*?</parent>", "")
            .replaceAll("(?s)<dependencyManagement>.*", "")
            .replaceAll("(?s)<dependencies>.*", "");
    return all(Pattern.compile("<version>([^<]+)</version>"), head).get(0);
  }

  @Test
  void bomManagesEveryModuleAtTheRootVersion() throws IOException {
    String root = Files.readString(ROOT.resolve("pom.xml"));
    String bom = Files.readString(ROOT.resolve("cubed-bom/pom.xml"));
    List<String> modules = all(Pattern.compile("<module>([^<]+)</module>"), root);
    List<String> managed =
        all(
            Pattern.compile(
                "<artifactId>(cubed-[^<]+)</artifactId>"
                    + "<version>\\$\\{project.version}</version>"),
            bom);
    assertThat(modules).contains("cubed-bom", "cubed-core", "cubed-cli");
    for (String m : modules) {
      if (!m.equals("cubed-bom")) {
        assertThat(managed).as("cubed-bom/pom.xml manages module " + m).contains(m);
      }
    }
    assertThat(ownVersion(bom)).isEqualTo(ownVersion(root));
    assertThat(bom).doesNotContain("<parent>");
  }

  @Test
  void cliVersionIsTheBuildVersion() throws IOException {
    String version = ownVersion(Files.readString(ROOT.resolve("pom.xml")));
    CliErrorsTest.Result r = CliErrorsTest.run("--version");
    assertThat(r.code()).isZero();
    assertThat(r.out().strip()).isEqualTo("cubed " + version);
  }
}
