package dev.cubed.cli;

import dev.cubed.ComputeOptions;
import dev.cubed.diagnostics.Diagnostics;
import dev.cubed.diagnostics.ProgressCallback;
import dev.cubed.diagnostics.VisualizeCallback;
import dev.cubed.runtime.Callback;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The diagnostics options of every command that computes ({@code @Mixin}): a progress bar per op,
 * the history as CSV, the timeline and memory charts and the plan picture (see
 * docs/diagnostics.md). Messages (progress, where the picture went) go to standard error, so the
 * JSON line on standard output stays alone. Public for the commands of other modules ({@link
 * CommandProvider}).
 */
public final class DiagnosticsOptions {
  @Option(
      names = "--progress",
      description = "show a progress bar per operation on standard" + " error")
  boolean progress;

  @Option(
      names = "--history",
      paramLabel = "DIR",
      description =
          "write the compute's history"
              + " to DIR: tasks.csv (one row per task), ops.csv (one row per op), plan.txt")
  Path history;

  @Option(
      names = "--plots",
      paramLabel = "DIR",
      description =
          "write DIR/timeline.svg (tasks"
              + " over time by op and worker) and DIR/memory.svg (projected vs measured memory per op)")
  Path plots;

  @Option(
      names = "--visualize",
      paramLabel = "FILE",
      description =
          "draw the plan to FILE:"
              + " SVG for a .svg name when Graphviz 'dot' is installed (the DOT source kept beside it),"
              + " otherwise the DOT text")
  Path visualize;

  /**
   * The callbacks the options ask for; progress also when {@code progressByDefault}. The
   * directories are created first, so an unusable path is refused before anything runs.
   *
   * @throws IllegalArgumentException naming the option and path if a directory cannot be created
   */
  public List<Callback> callbacks(boolean progressByDefault) {
    makeDir("--history", history);
    makeDir("--plots", plots);
    if (visualize != null) {
      makeDir("--visualize", visualize.toAbsolutePath().getParent());
    }
    PrintStream err = System.err;
    List<Callback> cs = new ArrayList<>();
    if (progress || progressByDefault) {
      cs.add(new ProgressCallback(err, ProgressCallback.stderrIsTerminal()));
    }
    if (history != null) {
      cs.add(Diagnostics.history(history));
    }
    if (plots != null) {
      cs.add(Diagnostics.plots(plots));
    }
    if (visualize != null) {
      cs.add(new VisualizeCallback(visualize, err::println));
    }
    return cs;
  }

  /** {@code opts} with the callbacks the options ask for. */
  ComputeOptions apply(ComputeOptions opts, boolean progressByDefault) {
    for (Callback c : callbacks(progressByDefault)) {
      opts = opts.withCallback(c);
    }
    return opts;
  }

  private static void makeDir(String option, Path dir) {
    if (dir == null) {
      return;
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalArgumentException(
          option + ": cannot create the directory " + dir + " (" + e + "); give a writable path");
    }
  }

  /** One line on standard error naming the files written, if any were asked for. */
  public void reportWritten() {
    List<String> parts = new ArrayList<>();
    if (history != null) {
      parts.add("history in " + history + " (tasks.csv, ops.csv, plan.txt)");
    }
    if (plots != null) {
      parts.add("charts in " + plots + " (timeline.svg, memory.svg)");
    }
    if (!parts.isEmpty()) {
      System.err.println("diagnostics: " + String.join("; ", parts));
    }
  }
}
