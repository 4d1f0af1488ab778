package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cubed demo --dry-run}: the 1.5 TB plan of Python Cubed's published run, planned on
 * metadata-only inputs in seconds, within a 2 GB worker and with no more intermediate bytes than
 * the published 50.5 GB; and the dry run's plan is the plan a real run executes.
 */
class DryRunTest {
  @TempDir Path dir;

  static JsonNode lastJson(String out) throws Exception {
    List<String> lines = out.lines().toList();
    return new ObjectMapper().readTree(lines.get(lines.size() - 1));
  }

  @Test
  @Timeout(300)
  void terabytePlanFitsATwoGigabyteWorkerAndWritesNoMoreThanPythonCubed() throws Exception {
    Path work = dir.resolve("work");
    // bytes this thread allocates while planning (garbage included, independent of when the GC
    // runs): the dry run plans on the calling thread
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo",
            "--size",
            "1.5TB",
            "--dry-run",
            "--allowed-mem",
            "2GB",
            "--reserved-mem",
            "100MB",
            "--work-dir",
            work.toString());
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = lastJson(r.out());
    assertThat(j.get("dry_run").asBoolean()).isTrue();
    assertThat(j.get("params").get("T").asLong()).isEqualTo(50_000);
    assertThat(j.get("input_bytes").asLong()).isEqualTo(1_516_032_000_000L);
    // Python Cubed's published run: 1,680 tasks, 50.5 GB of intermediate writes, 2 GB workers
    assertThat(j.get("intermediate_bytes").asLong()).isLessThanOrEqualTo(50_500_000_000L);
    assertThat(j.get("max_projected_mem").asLong()).isLessThanOrEqualTo(2_000_000_000L);
    // the three means' first rounds run as one fold group: 668 tasks (1,668 without it)
    assertThat(j.get("tasks").asLong()).isBetween(600L, 1_680L);
    assertThat(j.get("bytes_read").asLong()).isGreaterThanOrEqualTo(1_516_032_000_000L);
    assertThat(j.get("plan_millis").asDouble()).isLessThan(30_000);
    assertThat(r.out()).contains("every task fits").contains("(* intermediate");
    // nothing written, nothing array-sized allocated (a 151.6 MB chunk would show)
    assertThat(work).doesNotExist();
    System.out.println("dry run allocated " + allocated + " bytes on the test thread");
    // planning's own garbage (the block keys of the chains' tasks) is about 223 MB here; one
    // 151.6 MB chunk allocated on top would pass the bound
    assertThat(allocated).isLessThan(300_000_000L);
  }

  @Test
  void largerSplitWritesLessAndTooLittleMemoryFailsAfterPrinting() throws Exception {
    CliErrorsTest.Result r =
        CliErrorsTest.run(
            "demo",
            "--size",
            "1.5TB",
            "--dry-run",
            "--split-every",
            "16",
            "--reserved-mem",
            "100MB");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(lastJson(r.out()).get("intermediate_bytes").asLong()).isLessThan(35_000_000_000L);
    // the fold task reads U and V a few codec blocks at a time: 150 GB fits in 100 MB per task
    // (85.8 MB projected), not in 60 MB
    CliErrorsTest.Result fits =
        CliErrorsTest.run(
            "demo",
            "--size",
            "150GB",
            "--dry-run",
            "--allowed-mem",
            "100MB",
            "--reserved-mem",
            "10MB");
    assertThat(fits.code()).as(fits.err()).isZero();
    CliErrorsTest.Result tight =
        CliErrorsTest.run(
            "demo",
            "--size",
            "150GB",
            "--dry-run",
            "--allowed-mem",
            "60MB",
            "--reserved-mem",
            "10MB");
    assertThat(tight.out()).contains("DOES NOT FIT");
    assertThat(tight.oneLineError(1, "demo")).contains("more than --allowed-mem 60.0 MB");
  }

  @Test
  void badSizesAreUsageErrors() {
    assertThat(CliErrorsTest.run("demo", "--size", "1.5XB", "--dry-run").oneLineError(2, "demo"))
        .contains("'1.5XB' is not small, medium or a total input size such as 1.5TB");
    assertThat(CliErrorsTest.run("demo", "--size", "100MB", "--dry-run").oneLineError(2, "demo"))
        .contains("out of range")
        .contains("300MB");
    assertThat(CliErrorsTest.run("demo", "--dry-run", "--split-every", "1").oneLineError(2, "demo"))
        .contains("--split-every: 1 must be 2 or more");
  }

  @Test
  void dryRunPlanIsThePlanOfARealRun() {
    QuadraticMeansDemo.Params p = new QuadraticMeansDemo.Params(40, 6, 8, 5);
    Spec spec =
        Spec.builder()
            .workDir(dir.resolve("work"))
            .allowedMem(60_000)
            .reservedMem(1_000)
            .maxInputBlocks(QuadraticMeansDemo.maxInputBlocks(3))
            .build();
    ZarrArray[] virtual = QuadraticMeansDemo.virtualInputs(p);
    PlanSummary planned =
        Cubed.plan(List.of(QuadraticMeansDemo.means(virtual[0], virtual[1], spec, 3))).summary();
    ZarrArray[] stored = QuadraticMeansDemo.writeInputs(p, dir.resolve("in"), spec);
    QuadraticMeansDemo.Result ran =
        QuadraticMeansDemo.run(stored[0], stored[1], spec, ComputeOptions.defaults(), 3);
    assertThat(planned.totalTasks()).isEqualTo(ran.plan().totalTasks());
    assertThat(planned.intermediateBytesWritten()).isEqualTo(ran.plan().intermediateBytesWritten());
    assertThat(planned.totalBytesRead()).isEqualTo(ran.plan().totalBytesRead());
    assertThat(planned.maxProjectedMem()).isEqualTo(ran.plan().maxProjectedMem());
    assertThat(Files.exists(dir.resolve("in"))).isTrue();
  }

  @Test
  void rechunkDryRunPrintsThePlanOfTheRealRunAndWritesNothing() throws Exception {
    ZarrArray a =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(40, 300)
            .chunks(1, 300)
            .dtype(DType.FLOAT64)
            .build();
    a.write(new long[2], NDArray.full(DType.FLOAT64, 1.5, 40, 300));
    String src = dir.resolve("src.zarr").toString();
    String dst = dir.resolve("dst.zarr").toString();
    CliErrorsTest.Result dry =
        CliErrorsTest.run(
            "rechunk",
            src,
            dst,
            "--chunks",
            "40,10",
            "--allowed-mem",
            "200kB",
            "--reserved-mem",
            "1kB",
            "--dry-run");
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("nothing is run or written").contains("every task fits");
    assertThat(Path.of(dst)).doesNotExist();
    JsonNode planned = lastJson(dry.out());
    assertThat(planned.get("dry_run").asBoolean()).isTrue();
    assertThat(planned.get("bytes_read").asLong()).isGreaterThanOrEqualTo(40L * 300 * 8);
    // a real rechunk prints its JSON line on System.out
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    CliErrorsTest.Result real;
    try {
      System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
      real =
          CliErrorsTest.run(
              "rechunk",
              src,
              dst,
              "--chunks",
              "40,10",
              "--allowed-mem",
              "200kB",
              "--reserved-mem",
              "1kB",
              "--work-dir",
              dir.resolve("work").toString());
    } finally {
      System.setOut(saved);
    }
    assertThat(real.code()).as(real.err()).isZero();
    JsonNode ran = lastJson(stdout.toString(StandardCharsets.UTF_8));
    for (String k : List.of("tasks", "max_projected_mem", "intermediate_bytes")) {
      assertThat(planned.get(k).asLong()).as(k).isEqualTo(ran.get(k).asLong());
    }
  }

  @Test
  void sizesFollowThePublishedSeriesLabels() {
    assertThat(QuadraticMeansDemo.params("1.5TB").t()).isEqualTo(50_000);
    assertThat(QuadraticMeansDemo.params("150GB").t()).isEqualTo(5_000);
    assertThat(QuadraticMeansDemo.params("1.5GB").t()).isEqualTo(50);
    assertThat(QuadraticMeansDemo.params("301MB").t()).isEqualTo(20);
    assertThat(QuadraticMeansDemo.params("medium").t()).isEqualTo(100);
  }
}
