package dev.cubed.plan.durable;

import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.LazyLog;
import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
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
 * of {@link dev.cubed.zarr.ZarrArrayBuilder#overwrite()} do not allow to replace. {@link #open}
 * takes the write lock of each filesystem target ({@code .NAME.cubed-write.lock} beside it; a
 * second writer is refused with a {@link TargetBusyException}), finishes a commit of the same
 * compute that a kill interrupted (its {@link CommitJournal}), and creates each described target's
 * staging array ({@link StagedWrite}: a hidden sibling with a random name recorded in the journal,
 * so the compute's resume finds it and nobody else's directory is taken for it). {@link #run} runs
 * the tasks and on success commits, a journaled step at a time. A failed or killed compute leaves
 * the old target (or nothing) where it was and its staging array beside it.
 *
 * <p>A target that is an existing array ({@code Cubed.store(x, array)}, not described) is written
 * in place: marked incomplete ({@link ZarrArray#INCOMPLETE_ATTRIBUTE}) while the tasks run, the
 * mark removed in the commit.
 *
 * <p>Resume contract: with {@code resume}, the staging array a killed run of the same compute
 * recorded is kept with its chunks if it is still the directory it created and of the same shape,
 * chunks and dtype (tasks whose chunks are there are skipped); a commit that run began is finished
 * first and the task markers are then checked against the targets themselves. An existing target is
 * replaced only with overwrite, or when the journal shows it is this compute's own committed
 * output.
 */
public final class Targets {
  private final List<ZarrArray> targets;
  private final boolean resume;
  private final String what;

  /** Staged writes of the described targets, by target (identity); set by {@link #open}. */
  private final Map<ZarrArray, StagedWrite> staged = new IdentityHashMap<>();

  /** Per target: the array as created by {@link #open} (staging array, or the target itself). */
  private final List<ZarrArray> created = new ArrayList<>();

  private final List<WriteLock> locks = new ArrayList<>();
  private CommitJournal journal;

  /** A resumed compute whose commit an earlier run began: targets are written in place. */
  private boolean finished;

  private static final LazyLog LOG = new LazyLog(Targets.class.getName());

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
    return prepare(nodes, workDir, resume, false);
  }

  /**
   * {@link #prepare(List, Path, boolean)} where {@code ownOutput} says that this compute's journal
   * shows a commit it began: its described targets are then its own output, judged again after the
   * commit is finished ({@link #open}).
   */
  public static Targets prepare(
      List<ArrayNode> nodes, Path workDir, boolean resume, boolean ownOutput) {
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
        if (!ownOutput) {
          StagedWrite.check(t, false);
        }
      } else {
        t.checkCreatable(resume);
      }
    }
    return new Targets(List.copyOf(targets), resume, what);
  }

  /** The targets, in plan order. */
  List<ZarrArray> targets() {
    return targets;
  }

  /**
   * Takes the write lock of each filesystem target, then settles what an earlier run of the same
   * compute recorded in its commit journal ({@link CommitJournal}): a commit it began is finished
   * first (its tasks had all finished, so its targets become the arrays it computed), and a staging
   * array it created but never committed is deleted (without resume) or kept (with resume). Then,
   * unless a resumed compute's commit was finished (its targets are then written in place, tasks
   * being checked against the arrays really there), each described target gets its staging array
   * ({@link StagedWrite}: a new random name recorded in the journal, or on resume the recorded one
   * if it is still the directory this compute created). Entries beside a target that the journal
   * does not name are never adopted, moved or deleted; they are named in a warning. The locks are
   * released by {@link #run} or {@link #close}.
   *
   * @throws TargetBusyException if another compute is writing one of the targets
   */
  public void open(ComputeDir cdir, boolean resume) {
    try {
      for (ZarrArray t : targets) {
        Path loc = location(t);
        if (loc != null) {
          locks.add(WriteLock.acquire(loc, what));
        }
      }
      journal = CommitJournal.of(cdir);
      boolean began = journal.commitBegan();
      if (began) {
        finishCommit();
      }
      created.clear();
      staged.clear();
      if (began && resume) {
        finished = true;
        for (ZarrArray t : targets) {
          created.add(ZarrArray.open(t.store(), t.path()).createInStore(true));
        }
        return;
      }
      if (!cdir.resumed() || began) {
        discardRecorded();
      }
      for (int i = 0; i < targets.size(); i++) {
        ZarrArray t = targets.get(i);
        if (t.isDeferred()) {
          StagedWrite w = StagedWrite.of(t, i, journal);
          staged.put(t, w);
          created.add(w.begin(resume, began));
        } else {
          created.add(t.createInStore(resume));
        }
        List<String> others = StagedWrite.strangers(t, journal);
        if (!others.isEmpty()) {
          LOG.get()
              .warning(
                  what
                      + ": left alone beside the target "
                      + describe(t)
                      + " (not created by this compute, so never adopted, moved or deleted): "
                      + String.join(", ", others));
        }
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /** Deletes the staging arrays the journal records and resets it; foreign ones are left alone. */
  private void discardRecorded() {
    for (int i = 0; i < targets.size(); i++) {
      if (targets.get(i).isDeferred()) {
        String left = StagedWrite.discard(targets.get(i), i, journal);
        if (left != null) {
          LOG.get().warning(what + ": " + left);
        }
      }
    }
    journal.reset();
  }

  /**
   * After a failure before any task finished (nothing to resume): deletes the staging arrays this
   * compute created and forgets them. Does nothing once the commit began.
   */
  public void abandon(ComputeDir cdir) {
    if (journal == null) {
      journal = CommitJournal.of(cdir);
    }
    if (!journal.commitBegan()) {
      try {
        discardRecorded();
      } catch (RuntimeException e) {
        LOG.get().warning(what + ": could not delete a staging array: " + e.getMessage());
      }
    }
  }

  /** The array the tasks writing {@code target} write: its staging array, or itself. */
  public ZarrArray writeTo(ZarrArray target) {
    if (finished) {
      return created.get(targets.indexOf(target));
    }
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
   * Runs {@code tasks}, then commits (a compute without targets has nothing to commit and writes no
   * journal line): records in the journal that the commit began, swaps each staging array in
   * ({@link StagedWrite#commit}; existing arrays written in place lose their incomplete mark) and
   * records that it ended; locks are released in every case. If {@code tasks} throws, the targets
   * are as they were (existing arrays written in place stay marked incomplete) and the exception
   * propagates. A kill during the commit is finished by the compute's next run ({@link #open}).
   */
  public void run(Runnable tasks) {
    try {
      tasks.run();
      if (finished) {
        for (ZarrArray c : created) {
          c.markComplete();
        }
        return;
      }
      if (targets.isEmpty()) {
        return; // nothing to commit: no journal lines (each one is a file sync)
      }
      journal.append(CommitJournal.COMMIT);
      finishCommit();
    } finally {
      close();
    }
  }

  /** The commit steps the journal does not show as done, for every target in order. */
  private void finishCommit() {
    List<String> lines = journal.lines();
    for (int i = 0; i < targets.size(); i++) {
      ZarrArray t = targets.get(i);
      if (t.isDeferred()) {
        StagedWrite w = staged.get(t);
        (w != null ? w : StagedWrite.of(t, i, journal)).commit();
      } else if (!lines.contains("t" + i + " done")) {
        ZarrArray.open(t.store(), t.path()).markComplete();
        journal.append("t" + i + " done");
      }
    }
    if (!journal.lines().contains("done")) {
      journal.append("done");
    }
  }

  /** Releases the write locks (idempotent). */
  public void close() {
    for (int i = locks.size() - 1; i >= 0; i--) {
      locks.get(i).close();
    }
    locks.clear();
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
