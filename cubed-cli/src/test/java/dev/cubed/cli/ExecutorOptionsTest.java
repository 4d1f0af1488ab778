package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * --executor-option is checked against what the chosen executor takes before anything is planned or
 * run: an unknown option is a usage error (exit 2, one line) listing the valid options.
 */
class ExecutorOptionsTest {
  @Test
  void anOptionOfTheThreadsExecutorIsRefusedAsAUsageError() {
    CliErrorsTest.Result r = CliErrorsTest.run("demo", "--dry-run", "--executor-option", "foo=bar");
    assertThat(r.oneLineError(2, "demo"))
        .contains("--executor-option")
        .contains("the threads executor takes no executor options, got 'foo'")
        .contains("--workers");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void anOptionOfTheProcessesExecutorIsRefusedToo() {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo",
            "--dry-run",
            "--executor",
            "processes",
            "--executor-option",
            "spark.master=local[2]");
    assertThat(r.oneLineError(2, "demo"))
        .contains("the processes executor takes no executor options, got 'spark.master'");
  }

  @Test
  void anUnknownSparkOptionIsRefusedListingTheValidOnes() {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo", "--dry-run", "--executor", "spark", "--executor-option", "foo=bar");
    assertThat(r.oneLineError(2, "demo"))
        .contains("unknown option 'foo'")
        .contains("spark.master")
        .contains("backup_tasks")
        .contains("auth_secret_file");
  }

  @Test
  void aBadSparkBackupTasksValueIsAUsageError() {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo", "--dry-run", "--executor", "spark", "--executor-option", "backup_tasks=maybe");
    assertThat(r.oneLineError(2, "demo")).contains("backup_tasks must be true or false");
  }

  @Test
  void validSparkOptionsPassTheCheck() {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo",
            "--dry-run",
            "--executor",
            "spark",
            "--executor-option",
            "spark.master=local[2]",
            "--executor-option",
            "backup_tasks=true");
    assertThat(r.code()).as(r.err()).isZero();
  }

  @Test
  void anOptionOfTheBeamExecutorThatIsNotBeamIsRefused() {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo",
            "--dry-run",
            "--executor",
            "beam",
            "--executor-option",
            "spark.master=local[2]");
    assertThat(r.oneLineError(2, "demo"))
        .contains("unknown option 'spark.master'")
        .contains("beam.runner");
  }
}
