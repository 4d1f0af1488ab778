package dev.cubed.plan;

import dev.cubed.zarr.FileSystemStore;
import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.Store;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The user targets of a plan (arrays written by {@code store}/{@code toZarr}): checked before
 * anything is touched, locked right before the tasks run, and replaced only once complete.
 *
 * <p>{@link #prepare} only reads: it refuses a target that overlaps a source array of the plan,
 * another target or the work directory (compared by real paths, links resolved), a target reached
 * through a symbolic link leading out of its store root, and a target path whose contents the rules
 * of {@link dev.cubed.zarr.ZarrArrayBuilder#overwrite()} do not allow to replace. {@link #stage}
 * names, per described (deferred) target, the staging array the tasks write ({@link StagedWrite}: a
 * hidden sibling, deterministic per target and compute, so a resume finds it). {@link #run} then
 * takes the write lock of each filesystem target ({@code .NAME.cubed-write.lock} beside it; a
 * second writer is refused with a {@link TargetBusyException}), finishes a replacement an earlier
 * kill interrupted, creates the staging arrays, runs the tasks, and on success swaps each staging
 * array in ({@link StagedWrite#commit}). A failed or killed compute leaves the old target (or
 * nothing) where it was and its staging array beside it.
 *
 * <p>A target that is an existing array ({@code Cubed.store(x, array)}, not described) is written
 * in place: marked incomplete ({@link ZarrArray#INCOMPLETE_ATTRIBUTE}) while the tasks run, the
 * mark removed after.
 *
 * <p>Resume contract: with {@code resume}, a staging array of the same shape, chunks and dtype left
 * by a killed run of the same compute is kept with its chunks (tasks whose chunks are there are
 * skipped), and an existing target array of the same shape, chunks and dtype may be replaced
 * without overwrite (it is taken for an earlier run's output).
 */
public final class Targets {
  private final List<ZarrArray> targets;
  private final boolean resume;
  private final String what;

  /** Staged writes of the described targets, by target (identity); set by {@link #stage}. */
  private final Map<ZarrArray, StagedWrite> staged = new IdentityHashMap<>();

  private Targets(List<ZarrArray> targets, boolean resume, String what) {
    this.targets = targets;
    this.resume = resume;
    this.what = what;
  }

  /**
   * Checks the targets of {@code nodes} (a plan's arrays) against its sources and work directory.
   *
   * @throws IllegalArgumentException if a target overlaps a source, another target or the work
   *     directory, leads out of its store through a link, or holds data that may not be replaced
   */
  public static Targets prepare(List<ArrayNode> nodes, Path workDir, boolean resume) {
    Set<ZarrArray> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<ZarrArray> targets = new ArrayList<>();
    List<ZarrArray> sources = new ArrayList<>();
    for (ArrayNode n : nodes) {
      ZarrArray t =
          n instanceof ArrayNode.Computed c
              ? c.target()
              : n instanceof ArrayNode.Rechunked r ? r.target() : null;
      if (t != null && seen.add(t)) {
        targets.add(t);
      }
      if (n instanceof ArrayNode.Stored s) {
        sources.add(s.array());
      }
    }
    String what = "write";
    for (int i = 0; i < targets.size(); i++) {
      ZarrArray t = targets.get(i);
      checkLinks(t);
      for (ZarrArray s : sources) {
        String how = overlap(t, s);
        if (how != null) {
          throw new IllegalArgumentException(
              what
                  + ": the target "
                  + describe(t)
                  + " "
                  + how
                  + " the source array "
                  + describe(s)
                  + ": writing it would modify or delete the"
                  + " source. Choose a target outside the source (and not containing it)");
        }
      }
      for (int j = 0; j < i; j++) {
        String how = overlap(t, targets.get(j));
        if (how != null) {
          throw new IllegalArgumentException(
              what
                  + ": the target "
                  + describe(t)
                  + " "
                  + how
                  + " another target of the same compute, "
                  + describe(targets.get(j))
                  + "; give each target its own location");
        }
      }
      Path loc = location(t);
      if (loc != null && workDir != null) {
        Path wd = FileSystemStore.realPathOfExisting(workDir);
        if (wd.startsWith(loc)) {
          throw new IllegalArgumentException(
              what
                  + ": the target "
                  + describe(t)
                  + (wd.equals(loc) ? " is" : " contains")
                  + " the work directory "
                  + workDir
                  + ", which holds the compute's intermediate arrays; choose another target or"
                  + " --work-dir");
        }
      }
      if (t.isDeferred()) {
        StagedWrite.check(t, resume);
      } else {
        t.checkCreatable(resume);
      }
    }
    return new Targets(List.copyOf(targets), resume, what);
  }

  /** The targets, in plan order. */
  public List<ZarrArray> targets() {
    return targets;
  }

  /**
   * Names the staging array of each described target for the compute {@code tag} (its compute
   * directory's name: the same on a resume); changes nothing.
   */
  public void stage(String tag) {
    tag = tag.startsWith("compute-") ? tag.substring("compute-".length()) : tag;
    staged.clear();
    for (ZarrArray t : targets) {
      if (t.isDeferred()) {
        staged.put(t, StagedWrite.of(t, tag));
      }
    }
  }

  /** The array the tasks writing {@code target} write: its staging array, or itself. */
  public ZarrArray writeTo(ZarrArray target) {
    StagedWrite w = staged.get(target);
    return w == null ? target : w.staging();
  }

  /**
   * Where the data written to {@code written} (an array {@link #writeTo} returned) is after a
   * successful {@link #run}: the target of a staging array, else {@code written} itself.
   */
  public ZarrArray committed(ZarrArray written) {
    for (StagedWrite w : staged.values()) {
      if (w.staging() == written) {
        return w.target();
      }
    }
    return written;
  }

  /**
   * Locks the targets, finishes replacements an earlier kill interrupted, creates the staging
   * arrays (or marks existing targets incomplete), runs {@code tasks}, then swaps each staging
   * array in (or removes the mark); locks are released in every case. If {@code tasks} throws, the
   * targets are as they were (existing arrays written in place stay marked incomplete) and the
   * exception propagates.
   *
   * @throws TargetBusyException if another compute is writing one of the targets
   */
  public void run(Runnable tasks) {
    List<WriteLock> locks = new ArrayList<>();
    try {
      for (ZarrArray t : targets) {
        Path loc = location(t);
        if (loc != null) {
          locks.add(WriteLock.acquire(loc, what));
        }
      }
      List<ZarrArray> created = new ArrayList<>();
      for (ZarrArray t : targets) {
        StagedWrite w = staged.get(t);
        created.add(w != null ? w.begin(resume) : t.createInStore(resume));
      }
      tasks.run();
      for (int i = 0; i < targets.size(); i++) {
        StagedWrite w = staged.get(targets.get(i));
        if (w != null) {
          w.commit(created.get(i));
        } else {
          created.get(i).markComplete();
        }
      }
    } finally {
      for (int i = locks.size() - 1; i >= 0; i--) {
        locks.get(i).close();
      }
    }
  }

  /** The real filesystem location of an array (links resolved), or null for other stores. */
  static Path location(ZarrArray a) {
    Store s = a.store();
    if (s instanceof FileSystemStore fs) {
      return FileSystemStore.realPathOfExisting(
          a.path().isEmpty() ? fs.root() : fs.root().resolve(a.path()));
    }
    return null;
  }

  private static void checkLinks(ZarrArray t) {
    if (t.store() instanceof FileSystemStore fs && !t.path().isEmpty()) {
      Path root = FileSystemStore.realPathOfExisting(fs.root());
      Path loc = location(t);
      if (!loc.startsWith(root)) {
        throw new IllegalArgumentException(
            "write: the target "
                + describe(t)
                + " is reached"
                + " through a symbolic link leading outside the store root (to "
                + loc
                + "); the"
                + " store never follows links out of its root. Remove the link or write to the real"
                + " location");
      }
    }
  }

  /** How {@code t} overlaps {@code s} ("is the same location as", "contains", "is inside"). */
  private static String overlap(ZarrArray t, ZarrArray s) {
    Path a = location(t);
    Path b = location(s);
    if (a != null && b != null) {
      return a.equals(b)
          ? "is the same location as"
          : b.startsWith(a) ? "contains" : a.startsWith(b) ? "is inside" : null;
    }
    if (a == null && b == null && t.store() == s.store()) {
      String p = t.path();
      String q = s.path();
      return p.equals(q)
          ? "is the same location as"
          : p.isEmpty() || q.startsWith(p + "/")
              ? "contains"
              : q.isEmpty() || p.startsWith(q + "/") ? "is inside" : null;
    }
    return null;
  }

  private static String describe(ZarrArray a) {
    Path loc = location(a);
    return loc != null ? loc.toString() : "'" + a.path() + "' in " + a.store().describe();
  }
}
