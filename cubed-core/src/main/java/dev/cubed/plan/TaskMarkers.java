package dev.cubed.plan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Completion markers of tasks, one file per finished task:
 * {@code <computeDir>/.done/<op>/<k0.k1...>} (a scalar key is {@code _}), created after the task's
 * writes succeeded, atomically (written under a temporary name and renamed), so a marker that
 * exists survives kill -9 and means the task's output is complete. A marker is empty, or for a
 * task writing to a user target lists the target chunk keys that were stored when it finished
 * (one per line): the plan accepts it on resume only if those chunks still exist, so a target
 * recreated between runs is written again. Marker text is read as text, nothing is deserialized.
 */
final class TaskMarkers implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  static final String DIR = ".done";
  private final String root;

  TaskMarkers(Path computeDir) {
    this.root = computeDir.resolve(DIR).toString();
  }

  static String keyName(long[] key) {
    if (key.length == 0) {
      return "_";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < key.length; i++) {
      sb.append(i == 0 ? "" : ".").append(key[i]);
    }
    return sb.toString();
  }

  /** Records that task {@code key} of {@code op} finished; {@code lines} is the marker text. */
  void mark(String op, long[] key, List<String> lines) {
    Path d = Path.of(root, op);
    try {
      Files.createDirectories(d);
      ComputeDir.writeAtomically(d.resolve(keyName(key)),
          lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing the completion marker of task "
          + keyName(key) + " of " + op + " under " + d + ": " + e, e);
    }
  }

  /** The finished tasks of {@code op}: key name to marker lines. */
  Map<String, List<String>> done(String op) {
    Map<String, List<String>> out = new HashMap<>();
    Path d = Path.of(root, op);
    if (!Files.isDirectory(d)) {
      return out;
    }
    try (Stream<Path> s = Files.list(d)) {
      for (Path p : s.toList()) {
        String n = p.getFileName().toString();
        if (!n.startsWith(".tmp-")) {
          out.put(n, Files.readString(p, StandardCharsets.UTF_8).lines().toList());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading completion markers under " + d + ": " + e, e);
    }
    return out;
  }
}
