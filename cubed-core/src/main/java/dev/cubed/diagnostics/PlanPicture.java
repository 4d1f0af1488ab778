package dev.cubed.diagnostics;

import dev.cubed.plan.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The plan as a picture: its DOT text ({@link Plan#dot()}) always, rendered to SVG by Graphviz
 * {@code dot} (a child process, {@value #TIMEOUT_SECONDS} s timeout) when the file name ends in
 * {@code .svg} and {@code dot} is on the PATH. Without {@code dot}, the DOT text is written next to
 * the requested file ({@code plan.svg} -> {@code plan.dot}) and the result says so.
 */
public final class PlanPicture {
  static final long TIMEOUT_SECONDS = 60;

  /** The Graphviz executable; tests point it at a missing one to check the fallback. */
  static volatile String dotCommand = "dot";

  private PlanPicture() {}

  /**
   * What {@link #write} wrote.
   *
   * @param file the file written (the SVG, or the DOT file)
   * @param dotFile the DOT file written beside it (for an SVG: {@code name.dot}), or the same file
   * @param svg true if an SVG was rendered
   * @param note why no SVG was rendered, or null
   */
  public record Result(Path file, Path dotFile, boolean svg, String note) {}

  /**
   * Writes the plan's picture to {@code file}: a {@code .svg} file is rendered by Graphviz (and its
   * DOT source kept beside it as {@code .dot}); any other name gets the DOT text.
   *
   * @throws UncheckedIOException if the files cannot be written
   */
  public static Result write(Plan plan, Path file) {
    String dot = plan.dot();
    String name = file.getFileName().toString();
    boolean wantSvg = name.toLowerCase(Locale.ROOT).endsWith(".svg");
    Path dotFile =
        wantSvg ? file.resolveSibling(name.substring(0, name.length() - 4) + ".dot") : file;
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(dotFile, dot);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the plan picture " + dotFile + ": " + e, e);
    }
    if (!wantSvg) {
      return new Result(dotFile, dotFile, false, null);
    }
    String why = render(dotFile, file);
    return why == null
        ? new Result(file, dotFile, true, null)
        : new Result(
            dotFile,
            dotFile,
            false,
            why
                + "; wrote the DOT text to "
                + dotFile
                + " (render it with: dot -Tsvg "
                + dotFile
                + " -o "
                + file
                + ")");
  }

  /** Runs {@code dot -Tsvg}; null on success, else why it failed. */
  private static String render(Path dotFile, Path svg) {
    Process p;
    Path err;
    try {
      err = Files.createTempFile("cubed-dot", ".err");
      p =
          new ProcessBuilder(dotCommand, "-Tsvg", dotFile.toString(), "-o", svg.toString())
              .redirectErrorStream(true)
              .redirectOutput(err.toFile())
              .start();
    } catch (IOException e) {
      return "Graphviz '"
          + dotCommand
          + "' is not installed or not on the PATH ("
          + e.getMessage()
          + "); install it (Debian/Ubuntu: apt-get install graphviz) for an SVG";
    }
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "Graphviz '" + dotCommand + "' did not finish within " + TIMEOUT_SECONDS + " s";
      }
      String msg = Files.readString(err, StandardCharsets.UTF_8).strip();
      if (p.exitValue() != 0 || !Files.isRegularFile(svg)) {
        return "Graphviz '" + dotCommand + "' failed with exit code " + p.exitValue() + ": " + msg;
      }
      return null;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      return "interrupted while Graphviz ran";
    } catch (IOException e) {
      return "reading Graphviz's output: " + e;
    } finally {
      try {
        Files.deleteIfExists(err);
      } catch (IOException ignored) {
        // a temporary file; nothing to do
      }
    }
  }
}
