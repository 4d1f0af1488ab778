package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --setting KEY=VALUE}: any spec setting through the one parser, checked up front. */
class SettingOptionTest {
  @TempDir Path dir;

  private CliErrorsTest.Result demo(String... extra) throws Exception {
    String[] base = {
      "demo",
      "--size",
      "1.5TB",
      "--dry-run",
      "--allowed-mem",
      "2GB",
      "--reserved-mem",
      "100MB",
      "--work-dir",
      dir.resolve("work").toString()
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return CliErrorsTest.run(all);
  }

  @Test
  void aSettingChangesThePlanOfACommand() throws Exception {
    CliErrorsTest.Result folded = demo();
    CliErrorsTest.Result unfolded = demo("--setting", "fold_groups=false");
    assertThat(folded.code()).as(folded.err()).isZero();
    assertThat(unfolded.code()).as(unfolded.err()).isZero();
    long withFolds = DryRunTest.lastJson(folded.out()).get("tasks").asLong();
    long without = DryRunTest.lastJson(unfolded.out()).get("tasks").asLong();
    // the three means' first rounds run as one fold group: 668 tasks, 1,668 without it
    assertThat(without).as("tasks without fold groups").isGreaterThan(withFolds + 500);
  }

  @Test
  void aBadSettingIsRefusedNamingTheKeyAndWhatItAllows() throws Exception {
    CliErrorsTest.Result r = demo("--setting", "rechunk_intermediate_compression=zip");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("--setting rechunk_intermediate_compression=zip")
        .contains("'zip' is not one of auto, none, lz4, project");
    CliErrorsTest.Result u = demo("--setting", "colour=red");
    assertThat(u.code()).isEqualTo(2);
    assertThat(u.err()).contains("unknown key 'colour'").contains("fold_groups");
  }
}
