package dev.cubed.cli;

import dev.cubed.Spec;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.PlanSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Small helpers shared by the commands, among them the parsing of option values: each refuses a bad
 * value with a picocli {@link ParameterException} whose message names the option as typed on the
 * command line, says what was wrong and gives an example; {@link Main} prints it as one line and
 * exits with code 2. {@link #usage} and {@link #memOption} are public for the commands of other
 * modules ({@link CommandProvider}).
 */
public final class Cli {
  private Cli() {}

  /** A usage error of {@code spec}'s command (printed as one line, exit code 2). */
  public static ParameterException usage(CommandSpec spec, String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * A memory size option ({@code --allowed-mem 2GB}): a positive number of bytes with an optional
   * unit (kB, MB, GB, TB, KiB, MiB, GiB, TiB).
   */
  public static long memOption(CommandSpec spec, String option, String text) {
    long v;
    try {
      v = Spec.parseBytes(text);
    } catch (IllegalArgumentException e) {
      throw usage(
          spec,
          option
              + ": '"
              + text
              + "' is not a memory size (e.g. "
              + option
              + " 2GB, 500MB, 1GiB or a number of bytes)");
    }
    if (v <= 0) {
      throw usage(
          spec, option + ": '" + text + "' must be more than 0 bytes (e.g. " + option + " 2GB)");
    }
    return v;
  }

  /**
   * Checks {@code --allowed-mem} against {@code --reserved-mem} (given, or measured when {@code
   * reservedGiven} is false).
   */
  static void checkMem(CommandSpec spec, long allowed, long reserved, boolean reservedGiven) {
    if (allowed <= reserved) {
      throw usage(
          spec,
          "--allowed-mem "
              + bytes(allowed)
              + " is not more than "
              + (reservedGiven
                  ? "--reserved-mem " + bytes(reserved)
                  : "the measured reserved memory "
                      + bytes(reserved)
                      + " (the heap in use; set"
                      + " --reserved-mem to override)")
              + "; tasks need room above the worker's baseline: raise --allowed-mem"
              + (reservedGiven ? " or lower --reserved-mem" : ""));
    }
  }

  /**
   * Target chunk sizes ({@code --chunks 1000,100,100}): positive integers or -1 (whole axis), one
   * per dimension of an array of {@code shape}; -1 becomes the axis length.
   */
  static long[] chunksOption(CommandSpec spec, String text, long[] shape) {
    String[] parts = text.split(",", -1);
    long[] c = new long[parts.length];
    String example = "e.g. --chunks " + example(shape);
    for (int i = 0; i < parts.length; i++) {
      try {
        c[i] = Long.parseLong(parts[i].strip());
      } catch (NumberFormatException e) {
        throw usage(
            spec,
            "--chunks: '"
                + text
                + "' is not a list of positive integers ("
                + example
                + "; -1 means the whole axis)");
      }
      if (c[i] == 0 || c[i] < -1) {
        throw usage(
            spec,
            "--chunks: '"
                + text
                + "' has size "
                + c[i]
                + " for axis "
                + i
                + "; sizes must be >= 1, or -1 for the whole axis ("
                + example
                + ")");
      }
    }
    if (shape != null && c.length != shape.length) {
      throw usage(
          spec,
          "--chunks: '"
              + text
              + "' gives "
              + c.length
              + " size"
              + (c.length == 1 ? "" : "s")
              + " but the source array has "
              + shape.length
              + " dimension"
              + (shape.length == 1 ? "" : "s")
              + " (shape "
              + Shapes.format(shape)
              + "); give one size per dimension ("
              + example
              + ")");
    }
    for (int i = 0; i < c.length; i++) {
      if (c[i] == -1) {
        c[i] = Math.max(1, shape == null ? 1 : shape[i]);
      }
    }
    return c;
  }

  private static String example(long[] shape) {
    if (shape == null || shape.length == 0) {
      return "1000,100,100";
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < shape.length; i++) {
      b.append(i > 0 ? "," : "").append(Math.max(1, Math.min(shape[i], i == 0 ? 1000 : 100)));
    }
    return b.toString();
  }

  /** "2.0 GB" style, for messages (the plan summary's units). */
  static String bytes(long b) {
    return PlanSummary.bytes(b);
  }

  /** Heap in use after a GC (the worker's baseline), at least 20 MB. */
  static long measuredReserved() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    long used = rt.totalMemory() - rt.freeMemory();
    return Math.max(20_000_000L, used * 2);
  }

  /**
   * The command line that finishes this command's compute: the same arguments as typed, with {@code
   * --resume} added (once), as {@code ./cubed ...}; arguments that the shell would split or expand
   * are single-quoted.
   */
  static String resumeCommand(CommandSpec spec) {
    CommandSpec root = spec.root();
    List<String> args =
        root.commandLine().getParseResult() != null
            ? root.commandLine().getParseResult().originalArgs()
            : List.of();
    StringBuilder b = new StringBuilder("./cubed");
    if (root == spec) { // the command was run on its own (tests): its name is not in the args
      b.append(' ').append(spec.name());
    }
    boolean hasResume = false;
    for (String a : args) {
      hasResume |= a.equals("--resume");
      b.append(' ')
          .append(a.matches("[A-Za-z0-9_@%+=:,./-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
    }
    return hasResume ? b.toString() : b.append(" --resume").toString();
  }

  /**
   * The exception to report for a compute of {@code spec}'s command that failed: {@code e} itself,
   * or when the compute kept finished tasks for a resume, {@code e} with the hint naming the
   * directory and the exact command that finishes it ({@link Main} prints both on one line).
   */
  static RuntimeException computeFailed(CommandSpec spec, RuntimeException e) {
    String kept = Plan.keptComputeDir(e);
    if (kept == null) {
      return Plan.corruptIntermediate(e)
          ? new Resumable(
              e,
              "; an intermediate chunk was corrupt, so the compute's work directory entry was"
                  + " removed: run the same command again to compute it afresh")
          : e;
    }
    return new Resumable(
        e,
        "; its finished tasks are kept in "
            + kept
            + ": run "
            + resumeCommand(spec)
            + " to finish it (./cubed clean removes them)");
  }

  /** A compute failure whose finished tasks were kept, and how to finish it. */
  static final class Resumable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String hint;

    Resumable(RuntimeException failure, String hint) {
      super(failure.getMessage(), failure);
      this.hint = hint;
    }

    /** What failed. */
    Exception failure() {
      return (Exception) getCause();
    }

    /** "; its finished tasks are kept in ...: run ./cubed ... --resume ...". */
    String hint() {
      return hint;
    }
  }

  /** Deletes a directory tree (best effort). */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // best effort
                }
              });
    } catch (IOException e) {
      // best effort
    }
  }

  /** Peak resident set size of this process (VmHWM), bytes; -1 if unknown. */
  static long peakRss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String[] f = line.split("\\s+");
          return Long.parseLong(f[1]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
