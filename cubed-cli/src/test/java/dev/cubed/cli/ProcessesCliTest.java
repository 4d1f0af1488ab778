package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.processes.ProcessesExecutor;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor options and measure-reserved-mem on the command line, with real worker JVMs. */
class ProcessesCliTest {
  @TempDir Path dir;

  @AfterEach
  void noWorkerLeftBehind() throws Exception {
    // the commands' spec executors keep their workers for a next compute (keepAlive); a command
    // in its own JVM ends them at exit, here the test does
    ProcessesExecutor.stopIdleWorkers();
    for (ProcessHandle h : ProcessHandle.current().children().toList()) {
      h.onExit().get(2, TimeUnit.MINUTES); // returns at exit; minutes on a busy machine
      assertThat(h.isAlive()).as("child process " + h.pid() + " outlived the command").isFalse();
    }
  }

  @Test
  void rechunkOnTheProcessesExecutor() {
    NDArray a = NDArray.zeros(DType.INT32, 40, 30);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, i * 31L % 1000);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(a.shape())
            .chunks(1L, 30)
            .dtype(DType.INT32)
            .build();
    src.write(new long[2], a);
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "rechunk",
            dir.resolve("src.zarr").toString(),
            dir.resolve("dst.zarr").toString(),
            "--chunks",
            "40,6",
            "--allowed-mem",
            "100MB",
            "--reserved-mem",
            "10MB",
            "--work-dir",
            dir.resolve("work").toString(),
            "--executor",
            "processes",
            "--workers",
            "2",
            "--attempts",
            "2");
    assertThat(r.code()).as(r.err()).isZero();
    ZarrArray dst = ZarrArray.open(new FileSystemStore(dir.resolve("dst.zarr")), "");
    assertThat(dst.chunks()).containsExactly(40, 6);
    assertThat(dst.read()).isEqualTo(a);
  }

  @Test
  void measureReservedMemReportsTheIdleWorker() {
    CliErrorsTest.Result r = CliErrorsTest.run("measure-reserved-mem", "--allowed-mem", "128MiB");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("idle worker RSS").contains("suggested --reserved-mem");
    assertThat(r.out())
        .startsWith("{\"command\": \"measure-reserved-mem\", \"heap_bound\": " + (128L << 20));
    long suggested =
        Long.parseLong(r.out().replaceAll("(?s).*\"suggested_reserved_mem\": (\\d+).*", "$1"));
    assertThat(suggested).isBetween(20_000_000L, 300_000_000L);
  }

  @Test
  void badExecutorOptionsAreOneLineErrors() {
    assertThat(CliErrorsTest.run("demo", "--executor", "gpu").oneLineError(2, "demo"))
        .contains(
            "--executor: unknown executor 'gpu'; available: threads, processes, processes-strict");
    assertThat(CliErrorsTest.run("demo", "--attempts", "0").oneLineError(2, "demo"))
        .contains("--attempts: 0 must be at least 1");
    assertThat(
            CliErrorsTest.run("measure-reserved-mem", "--allowed-mem", "10MB")
                .oneLineError(2, "measure-reserved-mem"))
        .contains("below 64MiB");
  }
}
