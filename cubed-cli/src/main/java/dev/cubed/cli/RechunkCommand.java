package dev.cubed.cli;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.store.Stores;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./cubed rechunk SRC DST --chunks ...}: bounded-memory rechunking of a Zarr array. */
@Command(
    name = "rechunk",
    mixinStandardHelpOptions = true,
    description =
        "Rechunks a Zarr array (v2 or v3) into a new one with bounded memory, keeping "
            + "dtype, fill value, compressor and attributes.")
final class RechunkCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "source Zarr array (path or URI)")
  String src;

  @Parameters(
      index = "1",
      description =
          "destination Zarr array (path or URI): a new or empty "
              + "path; an existing Zarr array there is replaced only with --overwrite")
  String dst;

  @Option(
      names = "--overwrite",
      description =
          "replace an existing Zarr array or group at the "
              + "destination (only its own metadata and chunks are deleted; a directory holding other "
              + "files is refused in any case)")
  boolean overwrite;

  @Option(
      names = "--chunks",
      required = true,
      paramLabel = "C1,C2,...",
      description =
          "target chunk sizes, one per dimension, comma separated (-1 = whole axis), "
              + "e.g. 1000,100,100")
  String chunks;

  @Option(
      names = "--allowed-mem",
      defaultValue = "2GB",
      paramLabel = "SIZE",
      description = "memory a task may use, e.g. 256MB, 2GB (default: ${DEFAULT-VALUE})")
  String allowedMem;

  @Option(
      names = "--reserved-mem",
      paramLabel = "SIZE",
      description =
          "the worker's own "
              + "baseline, part of --allowed-mem (default: measured heap in use, at least 20MB)")
  String reservedMem;

  @Option(
      names = "--work-dir",
      description =
          "directory for intermediate arrays: a path or a "
              + "URI such as s3://bucket/work (default: java.io.tmpdir/cubed-<user>, private to you; a"
              + " local directory must be yours and not writable by group or others)")
  String workDir;

  @Option(
      names = "--resume",
      description =
          "finish a rechunk that failed or was killed: rerun "
              + "the same command (same --work-dir, if one was given) with --resume added; finished "
              + "tasks are skipped")
  boolean resume;

  @Option(
      names = "--zarr-format",
      paramLabel = "2|3",
      description = "2 or 3 (default: the source's format)")
  Integer zarrFormat;

  @Option(
      names = "--checksum",
      description =
          "store a crc32c checksum with every target chunk "
              + "(Zarr v3's crc32c codec, checked on every read; needs a v3 target)")
  boolean checksum;

  @Option(
      names = "--dry-run",
      description =
          "print the plan (ops, tasks, projected memory per "
              + "task, bytes read and written, intermediate bytes, totals) and stop: only the source's "
              + "metadata is read, nothing is run or written")
  boolean dryRun;

  @Mixin DiagnosticsOptions diagnostics;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec cmd;

  @picocli.CommandLine.Mixin ExecutorOptions exec = new ExecutorOptions();

  @picocli.CommandLine.Mixin SettingOptions settings = new SettingOptions();

  @Override
  public Integer call() throws Exception {
    // options first: a malformed value is refused before anything is opened or written
    Cli.chunksOption(cmd, chunks, null);
    exec.validate(cmd);
    settings.validate(cmd);
    long allowed = Cli.memOption(cmd, "--allowed-mem", allowedMem);
    Long reservedGiven =
        reservedMem != null ? Cli.memOption(cmd, "--reserved-mem", reservedMem) : null;
    if (zarrFormat != null && zarrFormat != 2 && zarrFormat != 3) {
      throw Cli.usage(
          cmd,
          "--zarr-format: "
              + zarrFormat
              + " is not a Zarr format this tool"
              + " writes; use --zarr-format 2 or --zarr-format 3 (default: the source's)");
    }
    if (checksum && zarrFormat != null && zarrFormat == 2) {
      throw Cli.usage(
          cmd,
          "--checksum needs a Zarr v3 target (Zarr v2 has no checksum codec);"
              + " use --zarr-format 3, or drop --checksum");
    }
    String work = workDir != null ? workDir : Spec.defaults().workLocation();
    ZarrArray source = ZarrArray.open(src);
    long[] shape = source.shape();
    long[] c = Cli.chunksOption(cmd, chunks, shape);
    int format = zarrFormat != null ? zarrFormat : source.zarrFormat();
    if (checksum && format == 2) {
      throw Cli.usage(
          cmd,
          "--checksum needs a Zarr v3 target, and the source "
              + src
              + " is"
              + " Zarr v2 (the target keeps its format); add --zarr-format 3, or drop --checksum");
    }
    long reserved = reservedGiven != null ? reservedGiven : Cli.measuredReserved();
    Cli.checkMem(cmd, allowed, reserved, reservedGiven != null);
    if (dryRun) {
      return dryRun(source, c, format, allowed, reserved, work);
    }
    Spec spec =
        settings
            .apply(
                exec.apply(Spec.builder().workDir(work).allowedMem(allowed).reservedMem(reserved)))
            .build();
    // the one plan of this run: checked, printed, then run
    Plan plan = plan(spec, source, c, format);
    plan.checkMemory(); // a plan over --allowed-mem is refused before anything is created
    PlanSummary summary = plan.summary();
    System.err.print(summary);
    long t0 = System.nanoTime();
    ResumeReport report = new ResumeReport(System.err, resume, work, Cli.resumeCommand(cmd));
    try {
      Cubed.execute(
          plan,
          spec,
          diagnostics.apply(
              ComputeOptions.defaults().withResume(resume).withCallback(report), false));
    } catch (RuntimeException e) {
      throw Cli.computeFailed(cmd, e);
    }
    report.afterCompute();
    diagnostics.reportWritten();
    double wall = (System.nanoTime() - t0) / 1e9;
    System.out.println(
        String.format(
            Locale.ROOT,
            "{\"command\": \"rechunk\", \"source\": \"%s\","
                + " \"target\": \"%s\", \"chunks\": %s, \"allowed_mem\": %d, \"reserved_mem\": %d, "
                + "\"wall_seconds\": %.4f, \"peak_rss_bytes\": %d, \"intermediate_bytes\": %d, "
                + "\"tasks\": %d, \"max_projected_mem\": %d}",
            src,
            dst,
            Arrays.toString(c),
            spec.allowedMem(),
            spec.reservedMem(),
            wall,
            Cli.peakRss(),
            summary.intermediateBytesWritten(),
            summary.totalTasks(),
            summary.maxProjectedMem()));
    return 0;
  }

  /** The plan of this rechunk: the source stored into the (deferred) target. */
  private Plan plan(Spec spec, ZarrArray source, long[] c, int format) {
    return Cubed.plan(
        List.of(Cubed.store(Cubed.fromZarr(source, spec), deferredTarget(source, c, format))));
  }

  /** The target, described only: the compute creates it after the memory and target checks. */
  private ZarrArray deferredTarget(ZarrArray source, long[] c, int format) {
    ZarrArrayBuilder tb =
        ZarrArray.create(Stores.open(dst), "")
            .shape(source.shape())
            .chunks(c)
            .dtype(source.dtype())
            .fillValue(source.fillValue())
            .zarrFormat(format)
            .compression(source.compression())
            .attributes(source.attributes());
    if (checksum) {
      tb.crc32c();
    }
    if (overwrite) {
      tb.overwrite();
    }
    return tb.buildDeferred();
  }

  /**
   * {@code --dry-run}: prints the plan of this rechunk (the one a real run executes) and one JSON
   * line; reads only the source's metadata and writes nothing.
   */
  private int dryRun(
      ZarrArray source, long[] c, int format, long allowed, long reserved, String work) {
    long t0 = System.nanoTime();
    Spec spec =
        settings
            .apply(
                exec.apply(Spec.builder().workDir(work).allowedMem(allowed).reservedMem(reserved)))
            .build();
    Plan plan = plan(spec, source, c, format);
    PlanSummary s = plan.summary();
    double ms = (System.nanoTime() - t0) / 1e6;
    PrintWriter out = cmd.commandLine().getOut();
    out.println("Dry run of rechunk " + src + " -> " + dst + ": nothing is run or written.");
    out.println(
        "Source: "
            + source.dtype()
            + " "
            + Shapes.format(source.shape())
            + ", chunks "
            + Shapes.format(source.chunks())
            + "; target chunks "
            + Shapes.format(c));
    DryRun.printPlan(out, s, allowed, ms);
    out.println(
        String.format(
            Locale.ROOT,
            "{\"command\": \"rechunk\", \"dry_run\": true,"
                + " \"source\": \"%s\", \"target\": \"%s\", \"chunks\": %s, \"allowed_mem\": %d,"
                + " \"reserved_mem\": %d, \"ops\": %d, \"tasks\": %d, \"max_projected_mem\": %d,"
                + " \"bytes_read\": %d, \"bytes_written\": %d, \"intermediate_bytes\": %d,"
                + " \"plan_millis\": %.1f}",
            src,
            dst,
            Arrays.toString(c),
            allowed,
            reserved,
            s.ops().size(),
            s.totalTasks(),
            s.maxProjectedMem(),
            s.totalBytesRead(),
            s.totalBytesWritten(),
            s.intermediateBytesWritten(),
            ms));
    out.flush();
    plan.checkMemory();
    return 0;
  }
}
