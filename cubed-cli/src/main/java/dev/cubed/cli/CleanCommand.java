package dev.cubed.cli;

import dev.cubed.Spec;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.zarr.store.Stores;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code ./cubed clean [--work-dir D] [--dry-run]}: removes the compute directories that failed or
 * killed computes left in a work directory ({@code compute-<id>/} with the engine's lock or
 * fingerprint file), skipping any that a running compute holds locked and anything it does not
 * recognise. Looks in D, where it exists {@code D/work} (where {@code demo --work-dir D} puts its
 * computes), and in the {@code D/demo-SIZE/} directories of demos run without --work-dir (removed
 * whole, inputs too, unless a running demo holds them). Never follows a symbolic link: a link named
 * like a compute directory is reported and left alone. Prints one line per directory.
 */
@Command(
    name = "clean",
    mixinStandardHelpOptions = true,
    description =
        "Remove the intermediates that failed or killed computes left in a work "
            + "directory (never one a running compute holds).")
final class CleanCommand implements Callable<Integer> {
  @Option(
      names = "--work-dir",
      description =
          "work directory: a path or a URI such as "
              + "s3://bucket/work (default: the private default work directory of rechunk, demo and the "
              + "library, java.io.tmpdir/cubed-<user>)")
  String workDir;

  @Option(names = "--dry-run", description = "list what would be removed, remove nothing")
  boolean dryRun;

  @picocli.CommandLine.Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    String wd = workDir != null ? workDir : Spec.defaults().workLocation();
    List<ComputeDir.Cleaned> all = new ArrayList<>(ComputeDir.clean(wd, dryRun));
    if (Stores.isLocal(wd)) {
      Path local = Stores.localPath(wd);
      if (Files.isDirectory(local.resolve("work"), LinkOption.NOFOLLOW_LINKS)) {
        all.addAll(ComputeDir.clean(local.resolve("work"), dryRun));
      }
      if (Files.isDirectory(local, LinkOption.NOFOLLOW_LINKS)) {
        all.addAll(DemoDirs.clean(local, dryRun));
      }
    }
    long removed = 0;
    for (ComputeDir.Cleaned c : all) {
      out.println(c.dir() + ": " + c.note());
      removed += c.removed() ? 1 : 0;
    }
    out.println(
        "clean "
            + wd
            + ": "
            + removed
            + " director"
            + (removed == 1 ? "y" : "ies")
            + " removed, "
            + all.stream().filter(c -> c.note().startsWith("in use")).count()
            + " in use"
            + (dryRun ? " (dry run)" : ""));
    out.flush();
    return 0;
  }
}
