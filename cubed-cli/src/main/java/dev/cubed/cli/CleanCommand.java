package dev.cubed.cli;

import dev.cubed.Spec;
import dev.cubed.plan.ComputeDir;
import dev.cubed.zarr.Stores;
import java.io.PrintWriter;
import java.nio.file.Files;
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
 * recognise. Looks in D and, where it exists, {@code D/work} (where {@code demo} puts its
 * computes). Prints one line per directory.
 */
@Command(name = "clean", mixinStandardHelpOptions = true,
    description = "Remove the intermediates that failed or killed computes left in a work "
        + "directory (never one a running compute holds).")
final class CleanCommand implements Callable<Integer> {
  @Option(names = "--work-dir", description = "work directory: a path or a URI such as "
      + "s3://bucket/work (default: the Spec default, java.io.tmpdir/cubed)")
  String workDir;

  @Option(names = "--dry-run", description = "list what would be removed, remove nothing")
  boolean dryRun;

  @picocli.CommandLine.Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    String wd = workDir != null ? workDir : Spec.defaults().workDir().toString();
    List<ComputeDir.Cleaned> all = new ArrayList<>(ComputeDir.clean(wd, dryRun));
    if (Stores.isLocal(wd) && Files.isDirectory(Stores.localPath(wd).resolve("work"))) {
      all.addAll(ComputeDir.clean(Stores.localPath(wd).resolve("work"), dryRun));
    }
    long removed = 0;
    for (ComputeDir.Cleaned c : all) {
      out.println(c.dir() + ": " + c.note());
      removed += c.removed() ? 1 : 0;
    }
    out.println("clean " + wd + ": " + removed + " compute director" + (removed == 1 ? "y" : "ies")
        + " removed, " + all.stream().filter(c -> c.note().startsWith("in use")).count()
        + " in use" + (dryRun ? " (dry run)" : ""));
    out.flush();
    return 0;
  }
}
