package dev.cubed.cli;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./cubed demo}: the quadratic_means workload of docs/benchmarks.md. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Quadratic means: U and V written to Zarr, then the mean over time of U*U, V*V "
            + "and U*V in one compute; prints the plan, a progress bar per op and one JSON line.")
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--size",
      defaultValue = "small",
      description =
          "small, medium, or the total size of U and V such as 1.5TB (T = size / 30MB"
              + " time steps of 987 x 1920; 1.5TB is Python Cubed's published run) (default: "
              + "${DEFAULT-VALUE})")
  String size;

  @Option(
      names = "--dry-run",
      description =
          "print the plan (ops, tasks, projected memory per "
              + "task, bytes read and written, intermediate bytes, totals) and stop: nothing is run or "
              + "written, inputs are metadata only, so any --size plans in a second")
  boolean dryRun;

  @Option(
      names = "--split-every",
      defaultValue = "" + QuadraticMeansDemo.SPLIT_EVERY,
      paramLabel = "N",
      description =
          "blocks merged per task in each round of the means' tree reductions: larger"
              + " writes fewer partial results and runs fewer, longer tasks; memory per task is the"
              + " same (default: ${DEFAULT-VALUE}, the tree of Python Cubed's published run)")
  int splitEvery;

  @Option(
      names = "--allowed-mem",
      defaultValue = "2GB",
      paramLabel = "SIZE",
      description = "memory a task may use, e.g. 500MB (default: ${DEFAULT-VALUE})")
  String allowedMem;

  @Option(
      names = "--reserved-mem",
      paramLabel = "SIZE",
      description =
          "the worker's own "
              + "baseline, part of --allowed-mem (default: measured heap in use, at least 20MB)")
  String reservedMem;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec cmd;

  @picocli.CommandLine.Mixin ExecutorOptions exec = new ExecutorOptions();

  @picocli.CommandLine.Mixin SettingOptions settings = new SettingOptions();

  @Option(
      names = "--work-dir",
      description =
          "work directory for the inputs and intermediates,"
              + " kept afterwards: a path or a URI such as s3://bucket/demo (default: demo-SIZE in the"
              + " private default work directory java.io.tmpdir/cubed-<user>, deleted when the demo"
              + " succeeds)")
  String workDir;

  @Option(
      names = "--resume",
      description =
          "finish a demo that failed or was killed: rerun the "
              + "same command (same --work-dir, if one was given) with --resume added; tasks already "
              + "done are skipped")
  boolean resume;

  @Option(
      names = "--no-progress",
      description = "hide the progress bars (shown by default in" + " the demo)")
  boolean noProgress;

  @Mixin DiagnosticsOptions diagnostics;

  /** {@code base/name} for a local path or a URI such as {@code s3://bucket/prefix}. */
  static String child(String base, String name) {
    if (!base.contains("://")) {
      return Path.of(base).resolve(name).toString();
    }
    return (base.endsWith("/") ? base : base + "/") + name;
  }

  @Override
  public Integer call() throws Exception {
    QuadraticMeansDemo.Params p;
    try {
      p = QuadraticMeansDemo.params(size);
    } catch (IllegalArgumentException e) {
      throw Cli.usage(cmd, "--size: " + e.getMessage());
    }
    exec.validate(cmd);
    settings.validate(cmd);
    if (splitEvery < 2) {
      throw Cli.usage(
          cmd, "--split-every: " + splitEvery + " must be 2 or more (e.g." + " --split-every 10)");
    }
    long allowed = Cli.memOption(cmd, "--allowed-mem", allowedMem);
    long reserved =
        reservedMem != null
            ? Cli.memOption(cmd, "--reserved-mem", reservedMem)
            : Cli.measuredReserved();
    Cli.checkMem(cmd, allowed, reserved, reservedMem != null);
    if (dryRun) {
      if (resume) {
        throw Cli.usage(cmd, "--dry-run runs nothing, so there is nothing to --resume; drop one");
      }
      return DryRun.print(
          cmd.commandLine().getOut(),
          size,
          p,
          settings
              .apply(
                  exec.apply(
                      Spec.builder()
                          .workDir(
                              child(
                                  workDir != null
                                      ? workDir
                                      : DemoDirs.baseFor(Spec.defaults().workLocation(), size)
                                          .toString(),
                                  "work"))
                          .allowedMem(allowed)
                          .reservedMem(reserved)
                          .maxInputBlocks(QuadraticMeansDemo.maxInputBlocks(splitEvery))))
              .build(),
          exec.executor,
          splitEvery);
    }
    DemoDirs own =
        workDir == null
            ? DemoDirs.open(DemoDirs.baseFor(Spec.defaults().workLocation(), size))
            : null;
    try {
      return run(p, own, allowed, reserved);
    } catch (RuntimeException e) {
      if (own != null) {
        own.close();
      }
      throw Cli.computeFailed(cmd, e);
    }
  }

  private int run(QuadraticMeansDemo.Params p, DemoDirs own, long allowed, long reserved) {
    String base = own != null ? own.base().toString() : workDir;
    if (!base.contains("://")) {
      try {
        Files.createDirectories(Path.of(base));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + base + ": " + e, e);
      }
    }
    Spec spec =
        settings
            .apply(
                exec.apply(
                    Spec.builder()
                        .workDir(child(base, "work"))
                        .allowedMem(allowed)
                        .reservedMem(reserved)
                        .maxInputBlocks(QuadraticMeansDemo.maxInputBlocks(splitEvery))))
            .build();
    String inputs = child(base, "inputs");
    System.err.printf(
        Locale.ROOT,
        "demo %s: writing U and V (%d, 1, %d, %d) to %s%n",
        size,
        p.t(),
        p.y(),
        p.x(),
        inputs);
    ZarrArray[] in = QuadraticMeansDemo.writeInputs(p, Stores.open(inputs), spec);
    System.err.print(
        Cubed.plan(List.of(QuadraticMeansDemo.means(in[0], in[1], spec, splitEvery))).summary());
    ResumeReport report =
        new ResumeReport(System.err, resume, spec.workLocation(), Cli.resumeCommand(cmd));
    ComputeOptions opts = ComputeOptions.defaults().withResume(resume).withCallback(report);
    opts = diagnostics.apply(opts, !noProgress);
    QuadraticMeansDemo.Result r = QuadraticMeansDemo.run(in[0], in[1], spec, opts, splitEvery);
    report.afterCompute();
    diagnostics.reportWritten();
    if (own != null) {
      own.deleteAndRelease();
    }
    int workers = exec.effectiveWorkers();
    String params =
        String.format(
            Locale.ROOT,
            "{\"T\": %d, \"Y\": %d, \"X\": %d, \"tchunk\": %d}",
            p.t(),
            p.y(),
            p.x(),
            p.tchunk());
    System.out.println(
        String.format(
            Locale.ROOT,
            "{\"workload\": \"quadratic_means\", \"size\": "
                + "\"%s\", \"params\": %s, \"executor\": \"%s\", \"workers\": %d, \"allowed_mem\": %d,"
                + " \"wall_seconds\": %.4f, \"peak_rss_bytes\": %d, \"intermediate_bytes\": %d, "
                + "\"tasks\": %d, \"max_projected_mem\": %d, \"checksums\": {\"sum_uu\": %s, \"sum_vv\": "
                + "%s, \"sum_uv\": %s}}",
            size,
            params,
            exec.executor,
            workers,
            spec.allowedMem(),
            r.wallSeconds(),
            Cli.peakRss(),
            r.plan().intermediateBytesWritten(),
            r.plan().totalTasks(),
            r.plan().maxProjectedMem(),
            Double.toString(r.sumUu()),
            Double.toString(r.sumVv()),
            Double.toString(r.sumUv())));
    return 0;
  }
}
