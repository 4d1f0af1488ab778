package dev.cubed.zarr;

import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.LocalFiles;
import dev.cubed.zarr.store.OwnDirs;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A write of a described (deferred) target that replaces the target only once the new array is
 * complete: the compute writes a staging array beside the target and swaps it in at the end, so a
 * kill at any point leaves the old array (or nothing, for a new target) and the new one complete in
 * its staging array, and never a mix.
 *
 * <p>The parent directory of a target may be writable by other local users, so a staged write
 * trusts nothing it finds there by name. The staging array is {@code .NAME.cubed-staging-R} beside
 * the target {@code NAME}, where R is 16 random hex digits; the old array is moved aside to {@code
 * .NAME.cubed-backup-R'} during the swap. Both names, and on a filesystem the identity ({@link
 * OwnDirs#identity}) of the directory created or moved aside, are recorded in the compute's {@link
 * Journal} (a file in its private compute directory) before anything is created or renamed. A
 * directory is reused, finished or deleted only if the journal names it and it is still that
 * directory, owned by this user ({@link OwnDirs}); anything else beside the target is left alone
 * and named. A target at a filesystem store's root is staged in the root's parent directory; a
 * target at the root of another store (no parent) in the hidden child {@code .cubed-staging-R/}.
 *
 * <p>The commit is a recorded sequence of steps; {@link #commit} performs the steps the journal
 * does not yet show as done, so running it again after a kill at any point (the compute's resume,
 * or its rerun) finishes it. On a filesystem ({@link FileSystemStore}), with the target's write
 * lock held:
 *
 * <ol>
 *   <li>the staging array's incomplete mark is removed;
 *   <li>journal the backup name and the old target's identity; rename target &rarr; backup;
 *   <li>rename staging &rarr; target; journal "swapped";
 *   <li>delete the backup through open directory handles ({@link OwnDirs#deleteTree}); journal
 *       "done".
 * </ol>
 *
 * Between 2 and 3 no array is at the target: the old one is whole at the backup name, the new one
 * whole in the staging array, and a reader is told a commit was interrupted. Only the compute's own
 * resume (or rerun) finishes it: a reader never renames or deletes anything.
 *
 * <p>On other stores (memory, S3: no rename), the switch is the last write:
 *
 * <ol>
 *   <li>put the commit mark {@code <staging>/.cubed-commit}; journal "marked";
 *   <li>delete the target's metadata documents ({@code zarr.json}, {@code .zarray}, {@code
 *       .zgroup}, then {@code .zattrs}): from here on no reader opens the target, so it is never
 *       read as fill values;
 *   <li>copy every staged chunk to the target, then delete the target's other (stale) keys;
 *   <li>write the target's metadata document (v2: {@code .zattrs}, then {@code .zarray});
 *   <li>delete the commit mark, then the staging array; journal "done".
 * </ol>
 *
 * Object stores have no owners and no write lock: one writer at a time per target is the caller's
 * business.
 */
public final class StagedWrite {
  /** Infix of staging arrays: {@code .NAME.cubed-staging-R}. */
  public static final String STAGING = ".cubed-staging-";

  /** Infix of backups of a filesystem swap: {@code .NAME.cubed-backup-R}. */
  public static final String BACKUP = ".cubed-backup-";

  static final String COMMIT_MARK = ".cubed-commit";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static volatile Consumer<String> hook = s -> {};

  /**
   * The record of a compute's staged writes and commit, kept where only the compute's user can
   * write (its compute directory). Lines are plain text; {@link #append} is durable when it
   * returns.
   */
  public interface Journal {
    /** The lines recorded so far, oldest first. */
    List<String> lines();

    /** Records one line (durably). */
    void append(String line);
  }

  private final ZarrArray target;
  private final ZarrArray staging;
  private final int index;
  private final Journal journal;

  /** Filesystem: the target's real directory and its staging directory; null for other stores. */
  private final Path dir;

  private final Path stagingDir;
  private final String stagingName;

  private StagedWrite(
      ZarrArray target,
      ZarrArray staging,
      int index,
      Journal journal,
      Path dir,
      Path stagingDir,
      String stagingName) {
    this.target = target;
    this.staging = staging;
    this.index = index;
    this.journal = journal;
    this.dir = dir;
    this.stagingDir = stagingDir;
    this.stagingName = stagingName;
  }

  /**
   * Sets a hook called before every step of every commit (each journal line, rename, put and
   * delete) with a description of the step, for fault-injection tests: an exception it throws stops
   * the commit there, as a kill would; {@code Runtime.halt} in it is a kill. Null removes it.
   */
  public static void onCommitStep(Consumer<String> h) {
    hook = h == null ? s -> {} : h;
  }

  static void step(String what) {
    hook.accept(what);
  }

  /**
   * The staged write of the deferred {@code target}, number {@code index} of its compute, whose
   * staging array is the one {@code journal} records for it (a resume) or a new random name.
   * Changes nothing.
   *
   * @throws IllegalArgumentException if {@code target} is not deferred, or is a filesystem
   *     directory without a parent
   */
  public static StagedWrite of(ZarrArray target, int index, Journal journal) {
    if (!target.isDeferred()) {
      throw new IllegalArgumentException(
          "staged write: "
              + target
              + " is an existing array;"
              + " only a described (deferred) target is staged");
    }
    String recorded = record(journal.lines(), index, "staging");
    if (target.store() instanceof FileSystemStore fs) {
      Path d = realDir(fs, target.path());
      if (d.getParent() == null) {
        throw new IllegalArgumentException(
            "write: the target "
                + d
                + " has no parent directory"
                + " to stage the new array in; choose a target below a directory");
      }
      String name = recorded != null ? recorded : "." + d.getFileName() + STAGING + random();
      Path s = d.getParent().resolve(name);
      return new StagedWrite(
          target, target.relocated(new FileSystemStore(s), ""), index, journal, d, s, name);
    }
    String p = target.path();
    String name = recorded != null ? recorded : (p.isEmpty() ? "" : ".") + leaf(p) + STAGING;
    if (recorded == null) {
      name += random();
    }
    return new StagedWrite(
        target,
        target.relocated(target.store(), ObjectStoreCommit.stagingPath(p, name)),
        index,
        journal,
        null,
        null,
        name);
  }

  /** The target as described (where the data ends up). */
  public ZarrArray target() {
    return target;
  }

  /** The staging array (described): what the compute's tasks write. */
  public ZarrArray staging() {
    return staging;
  }

  /**
   * Checks that the target may be written under the rules of {@link ZarrArrayBuilder#overwrite()}:
   * an existing array is replaced only when overwrite was asked, or {@code ownOutput} (this
   * compute's journal shows the target is its own committed output). Changes nothing.
   *
   * @throws IllegalArgumentException if the target path holds data that may not be replaced
   */
  public static void check(ZarrArray target, boolean ownOutput) {
    ZarrNodes.prepare(
        target.store(),
        target.path(),
        ownOutput || target.deferredOverwrite(),
        "create zarr array '" + target.path() + "' in " + target.store().describe(),
        true);
  }

  /**
   * Starts the write (the caller holds the target's write lock on a filesystem): checks the rules
   * again and creates the staging array marked incomplete, recording it in the journal. With {@code
   * resume} the staging array the journal records, if it is still the one this compute created and
   * of the same shape, chunks and dtype, is kept with its chunks; one that is not is left alone
   * (and named in a warning by the caller) and a new one is created.
   *
   * @param ownOutput the target is this compute's own committed output (may be replaced)
   * @return the staging array as stored
   * @throws IllegalArgumentException if the target path holds data that may not be replaced
   */
  public ZarrArray begin(boolean resume, boolean ownOutput) {
    check(target, ownOutput);
    Map<String, Object> attrs = ZarrNodes.incompleteAttributes(target.attributes());
    List<String> lines = journal.lines();
    boolean recorded = record(lines, index, "staging") != null;
    if (dir != null) {
      String id = record(lines, index, "made");
      if (recorded && id != null && OwnDirs.notOurs(stagingDir, id) == null) {
        if (resume) {
          ZarrArray old = reusable();
          if (old != null) {
            return old.withEmptyChunks(target.emptyChunks()).withAttributes(attrs);
          }
        }
        deleteOwn(stagingDir, id, true);
      } else if (recorded && Files.exists(stagingDir, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalStateException(
            "write: "
                + stagingDir
                + " "
                + OwnDirs.notOurs(stagingDir, id)
                + ": it is not the staging array this compute created, so it is left alone;"
                + " remove it, or run without --resume (./cubed clean first)");
      }
      if (!recorded) {
        journal.append("t" + index + " staging " + stagingName);
      }
      try {
        Files.createDirectories(dir.getParent());
        journal.append("t" + index + " made " + OwnDirs.create(stagingDir));
      } catch (IOException e) {
        throw LocalFiles.writeFailure(
            "create the staging array", stagingDir.toString(), stagingDir.toString(), e);
      }
      return staging.withAttributes(attrs);
    }
    Store ss = staging.store();
    String sp = staging.path();
    if (recorded && resume && !ss.exists(Keys.join(sp, COMMIT_MARK))) {
      ZarrArray old = reusable();
      if (old != null) {
        return old.withEmptyChunks(target.emptyChunks()).withAttributes(attrs);
      }
    }
    if (recorded) {
      ss.deletePrefix(sp + "/");
    } else {
      journal.append("t" + index + " staging " + stagingName);
    }
    return staging.withAttributes(attrs);
  }

  private ZarrArray reusable() {
    Store ss = staging.store();
    String sp = staging.path();
    if (!ss.exists(Keys.join(sp, staging.zarrFormat() == 3 ? "zarr.json" : ".zarray"))) {
      return null;
    }
    try {
      ZarrArray old = ZarrArray.open(ss, sp);
      return Arrays.equals(old.shape(), staging.shape())
              && Arrays.equals(old.chunks(), staging.chunks())
              && old.dtype() == staging.dtype()
              && old.zarrFormat() == staging.zarrFormat()
          ? old
          : null;
    } catch (RuntimeException e) {
      return null; // unreadable staging metadata: start the staging array afresh
    }
  }

  /**
   * Swaps the complete staging array in as the target, performing the steps of the class comment
   * that the journal does not show as done (so a second call after a kill finishes the commit); the
   * caller holds the target's write lock on a filesystem and has journaled that the commit began.
   *
   * @throws IllegalStateException if the journal's record and what is beside the target disagree (a
   *     staging array gone or replaced by another): nothing of the old array is deleted then
   */
  public void commit() {
    if (record(journal.lines(), index, "done") != null) {
      return;
    }
    if (dir != null) {
      try {
        commitDir();
      } catch (IOException e) {
        throw LocalFiles.writeFailure(
            "commit (rename the staging array " + stagingDir + " to)",
            dir.toString(),
            dir.toString(),
            e);
      }
    } else {
      commitObjects();
    }
    step("journal t" + index + " done");
    journal.append("t" + index + " done");
    target.markDeferredCreated();
  }

  private void commitDir() throws IOException {
    List<String> lines = journal.lines();
    String sid = record(lines, index, "made");
    String backup = record(lines, index, "backup");
    if (record(lines, index, "swapped") == null) {
      String why = OwnDirs.notOurs(stagingDir, sid);
      if (why == null) {
        step("mark the staging array complete");
        ZarrArray.open(new FileSystemStore(stagingDir), "").markComplete();
        boolean exists = Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
        if (backup == null) {
          String old = exists ? OwnDirs.identity(dir) : "-";
          backup = exists ? "." + dir.getFileName() + BACKUP + random() + " " + old : "- -";
          step("journal t" + index + " backup");
          journal.append("t" + index + " backup " + backup);
          if (exists) {
            step("rename the target to the backup");
            move(dir, dir.resolveSibling(backup.split(" ")[0]));
          }
        } else if (exists) {
          String[] b = backup.split(" ");
          if (!b[1].equals(OwnDirs.identity(dir))) {
            throw new IllegalStateException(
                "cannot finish the commit of "
                    + dir
                    + ": a directory that is not the array this compute moved aside is there now;"
                    + " the old array is in "
                    + dir.resolveSibling(b[0])
                    + " and the new one in "
                    + stagingDir
                    + "; nothing was deleted. Move the stranger away, then resume");
          }
          step("rename the target to the backup");
          move(dir, dir.resolveSibling(b[0]));
        }
        step("rename the staging array to the target");
        move(stagingDir, dir);
      } else if (!(why.equals("is missing") && sid != null && sid.equals(OwnDirs.identity(dir)))) {
        throw new IllegalStateException(
            "cannot finish the commit of "
                + dir
                + ": its staging array "
                + stagingDir
                + " "
                + why
                + (backup != null && !backup.startsWith("-")
                    ? "; the old array is in " + dir.resolveSibling(backup.split(" ")[0])
                    : "")
                + "; nothing was deleted");
      }
      step("journal t" + index + " swapped");
      journal.append("t" + index + " swapped");
    }
    if (backup != null && !backup.startsWith("-")) {
      String[] b = backup.split(" ");
      deleteOwn(dir.resolveSibling(b[0]), b[1], false);
    }
  }

  private void commitObjects() {
    Store s = target.store();
    String sp = staging.path();
    if (record(journal.lines(), index, "marked") == null) {
      step("put the commit mark");
      s.put(
          Keys.join(sp, COMMIT_MARK),
          ("committing to '" + target.path() + "'\n").getBytes(StandardCharsets.UTF_8));
      step("journal t" + index + " marked");
      journal.append("t" + index + " marked");
    }
    if (s.exists(Keys.join(sp, COMMIT_MARK))) {
      ObjectStoreCommit.finish(s, target.path(), sp);
    } else {
      step("delete the staging array");
      s.deletePrefix(sp + "/");
    }
  }

  /**
   * Deletes the staging array an earlier run of this compute recorded in {@code journal} for target
   * {@code index} and never committed, if it is still the one the compute created (filesystem:
   * identity and owner); one that is not is left alone.
   *
   * @return a sentence naming what was left alone, or null
   */
  public static String discard(ZarrArray target, int index, Journal journal) {
    List<String> lines = journal.lines();
    if (record(lines, index, "staging") == null || record(lines, index, "marked") != null) {
      return null;
    }
    StagedWrite w = of(target, index, journal);
    if (w.dir == null) {
      w.staging.store().deletePrefix(w.staging.path() + "/");
      return null;
    }
    String id = record(lines, index, "made");
    String why = OwnDirs.notOurs(w.stagingDir, id);
    if (why == null) {
      deleteOwn(w.stagingDir, id, true);
      return null;
    }
    return why.equals("is missing") ? null : w.stagingDir + " " + why + ": left alone";
  }

  /**
   * Names of entries beside the target that look like staging arrays, backups or commit marks of a
   * compute but are not recorded in {@code journal}: they were left by other computes or put there
   * by someone else, and are never adopted, renamed or deleted. Empty on object stores.
   */
  public static List<String> strangers(ZarrArray target, Journal journal) {
    List<String> out = new ArrayList<>();
    if (!(target.store() instanceof FileSystemStore fs)) {
      return out;
    }
    Path d = realDir(fs, target.path());
    if (d.getParent() == null || !Files.isDirectory(d.getParent())) {
      return out;
    }
    String own = String.join("\n", journal.lines());
    try (DirectoryStream<Path> ds =
        Files.newDirectoryStream(d.getParent(), "." + d.getFileName() + ".cubed-*")) {
      for (Path p : ds) {
        String n = p.getFileName().toString();
        if (!n.endsWith(FileSystemStore.WRITE_LOCK) && !own.contains(n)) {
          out.add(p.toString());
        }
      }
    } catch (IOException e) {
      // unreadable parent: nothing to name
    }
    return out;
  }

  /**
   * A sentence for a reader who finds no array at {@code path}, when a compute is writing (or was
   * killed writing) one there, or something a compute leaves beside a target is there: it names
   * what is there and says that only the compute's own resume finishes a commit; "" otherwise.
   * Reads only.
   */
  static String missingTargetHint(Store store, String path) {
    try {
      List<String> names = new ArrayList<>();
      if (store instanceof FileSystemStore fs) {
        Path d = realDir(fs, path);
        if (d.getParent() == null || !Files.isDirectory(d.getParent())) {
          return "";
        }
        try (DirectoryStream<Path> ds =
            Files.newDirectoryStream(d.getParent(), "." + d.getFileName() + ".cubed-*")) {
          for (Path p : ds) {
            if (!p.getFileName().toString().endsWith(FileSystemStore.WRITE_LOCK)) {
              names.add(p.toString());
            }
          }
        }
        names.sort(null);
      } else {
        names = ObjectStoreCommit.stagings(store, path);
        for (String sp : names) {
          if (store.exists(Keys.join(sp, COMMIT_MARK))) {
            return "; a compute's commit of a new array there was interrupted: rerun it with"
                + " --resume / ComputeOptions.resume() to finish it";
          }
        }
      }
      if (names.isEmpty()) {
        return "";
      }
      boolean backup = names.stream().anyMatch(n -> n.contains(BACKUP));
      return (backup
              ? "; a compute's commit of a new array there was interrupted (found "
              : "; a compute is writing a new array there, or was killed writing it (found ")
          + String.join(", ", names)
          + "): only that compute's own rerun with --resume / ComputeOptions.resume() finishes"
          + " it; nothing was moved or deleted here";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  // ------------------------------------------------------------------ internals

  /** The value recorded last for target {@code index} and {@code verb}, or null. */
  static String record(List<String> lines, int index, String verb) {
    String start = "t" + index + " " + verb;
    String out = null;
    for (String l : lines) {
      if (l.equals(start)) {
        out = "";
      } else if (l.startsWith(start + " ")) {
        out = l.substring(start.length() + 1);
      }
    }
    return out;
  }

  private static void deleteOwn(Path p, String id, boolean mustOwn) {
    try {
      OwnDirs.deleteTree(p, id, mustOwn, StagedWrite::step);
    } catch (IOException e) {
      throw LocalFiles.writeFailure("delete", p.toString(), p.toString(), e);
    }
  }

  private static String random() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static Path realDir(FileSystemStore fs, String path) {
    return FileSystemStore.realPathOfExisting(path.isEmpty() ? fs.root() : fs.root().resolve(path));
  }

  private static String leaf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to);
    }
  }
}
