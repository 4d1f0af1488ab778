package dev.cubed.plan.durable;

import dev.cubed.nd.Shapes;
import dev.cubed.runtime.LazyLog;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Completion markers of tasks, one file per finished task: {@code
 * <computeDir>/.done/<op>/<k0.k1...>} (a scalar key is {@code _}), created after the task's writes
 * succeeded, atomically (written under a temporary name and renamed), so a marker that exists
 * survives kill -9 and means the task's output is complete. A marker is empty, or for a task
 * writing to a user target lists the target chunk keys that were stored when it finished (one per
 * line): the plan accepts it on resume only if those chunks still exist, so a target recreated
 * between runs is written again. Marker text is read as text, nothing is deserialized.
 */
public final class TaskMarkers implements Serializable {
  private static final long serialVersionUID = 1L;
  static final String DIR = ".done";
  private static final LazyLog LOG = new LazyLog(TaskMarkers.class.getName());
  private final String root;

  /** Set when the compute directory is on an object store: markers are objects there. */
  private final Store store;

  TaskMarkers(Path computeDir) {
    this.root = computeDir.resolve(DIR).toString();
    this.store = null;
  }

  /** Markers as objects {@code .done/<op>/<key>} of an object store (one PUT each: atomic). */
  TaskMarkers(Store computeStore) {
    this.root = null;
    this.store = computeStore;
  }

  /** The markers of a compute directory: files locally, objects on an object store. */
  static TaskMarkers of(ComputeDir cdir) {
    return cdir.inStore() ? new TaskMarkers(cdir.store()) : new TaskMarkers(cdir.path());
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
    if (store != null) {
      store.put(
          DIR + "/" + op + "/" + keyName(key),
          (lines.isEmpty() ? "" : String.join("\n", lines) + "\n")
              .getBytes(StandardCharsets.UTF_8));
      return;
    }
    Path d = Path.of(root, op);
    try {
      Files.createDirectories(d, WorkDirs.dirAttribute());
      ComputeDir.writeAtomically(
          d.resolve(keyName(key)), lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "writing the completion marker of task "
              + keyName(key)
              + " of "
              + op
              + " under "
              + d
              + ": "
              + e,
          e);
    }
  }

  /**
   * Marks task {@code key} of {@code op} finished in {@code cdir} (an empty marker: a task writing
   * no user target), for a run that wrote the task's output itself after the task ran, e.g. blocks
   * held in memory written to the compute directory when the run failed.
   */
  public static void markDone(ComputeDir cdir, String op, long[] key) {
    of(cdir).mark(op, key, List.of());
  }

  /** The finished tasks of {@code op}: key name to marker lines. */
  Map<String, List<String>> done(String op) {
    Map<String, List<String>> out = new HashMap<>();
    if (store != null) {
      String prefix = DIR + "/" + op + "/";
      for (String k : store.list(prefix)) {
        byte[] v = store.get(k);
        if (v != null) {
          out.put(
              k.substring(prefix.length()), new String(v, StandardCharsets.UTF_8).lines().toList());
        }
      }
      return out;
    }
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

  /** The target a task writes to and the target chunks a task key covers. */
  public record TargetWrites(ZarrArray target, ChunksOf chunksOf) implements Serializable {}

  /** The target chunks one task writes. */
  public interface ChunksOf extends Serializable {
    List<long[]> apply(long[] key);
  }

  /**
   * True if any task of the compute has a completion marker (its directory holds finished work).
   */
  public static boolean any(ComputeDir cdir) {
    if (cdir.inStore()) {
      return !cdir.store().list(DIR + "/").isEmpty();
    }
    Path d = cdir.path().resolve(DIR);
    if (!Files.isDirectory(d)) {
      return false;
    }
    try (Stream<Path> s = Files.walk(d)) {
      return s.anyMatch(
          p ->
              Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                  && !p.getFileName().toString().startsWith(".tmp-"));
    } catch (IOException e) {
      return true; // unknown: keep the directory
    }
  }

  /**
   * The ops to run: each task writes its completion marker after its writes; on a resumed compute
   * the tasks with a valid marker are left out, ops with none left are dropped (and removed from
   * the others' dependencies), and the skipped count is logged.
   */
  public static Prepared prepare(
      ComputeDir cdir, List<Operation> ops, Map<String, TargetWrites> targetWrites) {
    return prepare(cdir, ops, targetWrites, Set.of());
  }

  /**
   * As {@link #prepare(ComputeDir, List, Map)}, the ops named in {@code unmarked} never marked nor
   * skipped: they write to memory, which a resume (another process or run) does not have.
   */
  public static Prepared prepare(
      ComputeDir cdir,
      List<Operation> ops,
      Map<String, TargetWrites> targetWrites,
      Set<String> unmarked) {
    TaskMarkers markers = TaskMarkers.of(cdir);
    List<Operation> out = new ArrayList<>();
    Set<String> dropped = new HashSet<>();
    long total = 0;
    long skipped = 0;
    for (Operation op : ops) {
      TargetWrites tw = targetWrites.get(op.name());
      List<long[]> keys = op.keys();
      total += keys.size();
      if (unmarked.contains(op.name())) {
        out.add(op);
        continue;
      }
      if (cdir.resumed()) {
        Map<String, List<String>> done = markers.done(op.name());
        keys = keys.stream().filter(k -> !validMarker(done.get(keyName(k)), tw)).toList();
        skipped += op.keys().size() - keys.size();
        if (keys.isEmpty() && !op.keys().isEmpty()) {
          dropped.add(op.name());
          continue;
        }
      }
      TaskFunction f = op.function();
      String name = op.name();
      TaskFunction marked =
          key -> {
            f.run(key);
            markers.mark(name, key, tw == null ? List.of() : storedChunks(tw, key));
          };
      List<String> deps =
          op.dependencies() == null
              ? null
              : op.dependencies().stream().filter(d -> !dropped.contains(d)).toList();
      out.add(new Operation(name, keys, marked, op.projectedMem(), deps));
    }
    if (cdir.resumed()) {
      LOG.get()
          .info(
              "resume "
                  + cdir.location()
                  + ": "
                  + skipped
                  + " of "
                  + total
                  + " tasks already done ("
                  + dropped.size()
                  + " of "
                  + ops.size()
                  + " ops complete), running "
                  + (total - skipped));
    }
    return new Prepared(out, skipped);
  }

  /** The ops to give the executor and how many tasks were skipped as complete. */
  public record Prepared(List<Operation> ops, long skipped) {}

  /** A marker is valid if present and, for a target write, every chunk it lists still exists. */
  private static boolean validMarker(List<String> lines, TargetWrites tw) {
    if (lines == null) {
      return false;
    }
    if (tw == null) {
      return true;
    }
    for (String l : lines) {
      if (l.isBlank()) {
        continue;
      }
      String[] parts = l.equals("_") ? new String[0] : l.split("\\.");
      long[] c = new long[parts.length];
      for (int i = 0; i < c.length; i++) {
        c[i] = Long.parseLong(parts[i]);
      }
      if (!tw.target().chunkExists(c)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> storedChunks(TargetWrites tw, long[] key) {
    List<String> out = new ArrayList<>();
    for (long[] c : tw.chunksOf().apply(key)) {
      if (tw.target().chunkExists(c)) {
        out.add(keyName(c));
      }
    }
    return out;
  }

  /** The target chunks a copy task of region {@code region} at {@code key} writes. */
  public static List<long[]> regionChunks(ZarrArray dst, long[] region, long[] key) {
    long[] shape = dst.shape();
    long[] tc = dst.chunks();
    int nd = shape.length;
    long[] c0 = new long[nd];
    long[] cg = new long[nd];
    for (int i = 0; i < nd; i++) {
      long start = key[i] * region[i];
      long rs = Math.min(region[i], shape[i] - start);
      c0[i] = start / tc[i];
      cg[i] = (rs + tc[i] - 1) / tc[i];
    }
    List<long[]> out = new ArrayList<>();
    long total = Shapes.size(cg);
    for (long f = 0; f < total; f++) {
      long[] rel = Shapes.unravel(cg, f);
      long[] c = new long[nd];
      for (int i = 0; i < nd; i++) {
        c[i] = c0[i] + rel[i];
      }
      out.add(c);
    }
    return out;
  }
}
