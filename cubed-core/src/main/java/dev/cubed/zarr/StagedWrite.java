package dev.cubed.zarr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A write of a described (deferred) target that replaces the target only once the new array is
 * complete: the compute writes a staging array beside the target and swaps it in at the end, so a
 * kill at any point leaves the old array (or nothing, for a new target) readable and the new one
 * never half-visible.
 *
 * <p>Names (same store, deterministic per target and compute {@code tag}, so a resume finds them):
 * for a target {@code .../NAME} the staging array is the hidden sibling {@code
 * .../.NAME.cubed-staging-TAG}; on a filesystem the old array is moved aside to {@code
 * .../.NAME.cubed-backup-TAG} during the swap. A target at a filesystem store's root is staged in
 * the root's parent directory. A target at the root of another store (no parent) is staged in the
 * hidden child {@code .cubed-staging-TAG/}, which the overwrite rules and the commit leave alone.
 *
 * <p>Commit on a filesystem ({@link FileSystemStore}), with the target's write lock held:
 *
 * <ol>
 *   <li>the staging array is complete; its incomplete mark is removed;
 *   <li>rename target &rarr; backup (if the target exists);
 *   <li>rename staging &rarr; target;
 *   <li>delete the backup.
 * </ol>
 *
 * A kill between 2 and 3 leaves the old array at the backup name: the next write, resume or {@link
 * ZarrArray#open} of the target finishes the swap ({@link #recover}); a kill after 3 leaves only a
 * backup to delete.
 *
 * <p>Commit on other stores (memory, S3: no rename), the switch is the last write:
 *
 * <ol>
 *   <li>the staging array is complete (every chunk stored);
 *   <li>put the commit mark {@code <staging>/.cubed-commit};
 *   <li>delete the target's metadata documents ({@code zarr.json}, {@code .zarray}, {@code
 *       .zgroup}, then {@code .zattrs}): from here on no reader opens the target, so it is never
 *       read as fill values;
 *   <li>copy every staged chunk to the target, then delete the target's other (stale) keys;
 *   <li>write the target's metadata document (v2: {@code .zattrs}, then {@code .zarray});
 *   <li>delete the commit mark, then the staging array.
 * </ol>
 *
 * A kill during 3-5 leaves the target without metadata (refused by every reader) and the mark: the
 * next write or resume of the target finishes the commit from the staging array first. After a
 * commit, staging arrays that killed runs of other computes left for the same target are deleted
 * (they are superseded). Object stores have no write lock: one writer at a time per target is the
 * caller's business.
 */
public final class StagedWrite {
  /** Infix of staging arrays: {@code .NAME.cubed-staging-TAG}. */
  public static final String STAGING = ".cubed-staging-";

  /** Infix of backups of a filesystem swap: {@code .NAME.cubed-backup-TAG}. */
  public static final String BACKUP = ".cubed-backup-";

  static final String COMMIT_MARK = ".cubed-commit";
  private static final List<String> NODE_DOCS = List.of("zarr.json", ".zarray", ".zgroup");

  private final ZarrArray target;
  private final ZarrArray staging;

  /** Filesystem: the target's real directory, its staging and backup; null for other stores. */
  private final Path dir;

  private final Path stagingDir;
  private final Path backupDir;

  private StagedWrite(
      ZarrArray target, ZarrArray staging, Path dir, Path stagingDir, Path backupDir) {
    this.target = target;
    this.staging = staging;
    this.dir = dir;
    this.stagingDir = stagingDir;
    this.backupDir = backupDir;
  }

  /**
   * The staged write of the deferred {@code target} for the compute {@code tag}. Changes nothing.
   *
   * @throws IllegalArgumentException if {@code target} is not deferred, or is a filesystem
   *     directory without a parent
   */
  public static StagedWrite of(ZarrArray target, String tag) {
    if (!target.isDeferred()) {
      throw new IllegalArgumentException(
          "staged write: "
              + target
              + " is an existing array;"
              + " only a described (deferred) target is staged");
    }
    if (target.store() instanceof FileSystemStore fs) {
      Path d = realDir(fs, target.path());
      if (d.getParent() == null) {
        throw new IllegalArgumentException(
            "write: the target "
                + d
                + " has no parent directory"
                + " to stage the new array in; choose a target below a directory");
      }
      Path s = sibling(d, STAGING + tag);
      return new StagedWrite(
          target, target.relocated(new FileSystemStore(s), ""), d, s, sibling(d, BACKUP + tag));
    }
    return new StagedWrite(
        target,
        target.relocated(target.store(), objectStagingPath(target.path(), tag)),
        null,
        null,
        null);
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
   * Checks that the target may be written under the rules of {@link ZarrArrayBuilder#overwrite()}
   * (with {@code resume}, an existing array of the same shape, chunks and dtype may be replaced
   * too: it is taken for an earlier run's output). Changes nothing.
   *
   * @throws IllegalArgumentException if the target path holds data that may not be replaced
   */
  public static void check(ZarrArray target, boolean resume) {
    if (interrupted(target.store(), target.path())) {
      return; // judged after the interrupted commit is finished, under the lock (begin)
    }
    ZarrNodes.prepare(
        target.store(),
        target.path(),
        mayReplace(target, resume),
        "create zarr array '" + target.path() + "' in " + target.store().describe(),
        true);
  }

  /**
   * Starts the write (the caller holds the target's write lock on a filesystem): finishes or rolls
   * back an earlier interrupted commit of the target ({@link #recover}), checks the rules again,
   * and creates the staging array marked incomplete. With {@code resume} a staging array of the
   * same shape, chunks and dtype left by a killed run of this compute is kept with its chunks.
   *
   * @return the staging array as stored
   * @throws IllegalArgumentException if the target path holds data that may not be replaced
   */
  public ZarrArray begin(boolean resume) {
    // a commit of this same compute that a kill interrupted: the target it finishes is this
    // compute's own output, which this run may replace like its staging array
    boolean ours =
        stagingDir != null
            ? Files.isDirectory(backupDir)
            : staging.store().exists(Keys.join(staging.path(), COMMIT_MARK));
    recover(target.store(), target.path());
    ZarrNodes.prepare(
        target.store(),
        target.path(),
        ours || mayReplace(target, resume),
        "create zarr array '" + target.path() + "' in " + target.store().describe(),
        true);
    Store ss = staging.store();
    String sp = staging.path();
    Map<String, Object> attrs = ZarrNodes.incompleteAttributes(target.attributes());
    if (resume
        && ss.exists(Keys.join(sp, staging.zarrFormat() == 3 ? "zarr.json" : ".zarray"))
        && !ss.exists(Keys.join(sp, COMMIT_MARK))) {
      try {
        ZarrArray old = ZarrArray.open(ss, sp);
        if (Arrays.equals(old.shape(), staging.shape())
            && Arrays.equals(old.chunks(), staging.chunks())
            && old.dtype() == staging.dtype()
            && old.zarrFormat() == staging.zarrFormat()) {
          return old.withEmptyChunks(target.emptyChunks()).withAttributes(attrs);
        }
      } catch (RuntimeException e) {
        // unreadable staging metadata: start the staging array afresh
      }
    }
    deleteStaging();
    return staging.withAttributes(attrs);
  }

  /**
   * Swaps the complete staging array in as the target (see the class comment for the order per
   * store kind); the caller holds the target's write lock on a filesystem.
   *
   * @param staged the array {@link #begin} returned, now completely written
   */
  public void commit(ZarrArray staged) {
    if (dir != null) {
      staged.markComplete();
      try {
        if (Files.exists(backupDir, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(backupDir);
        }
        Files.createDirectories(dir.getParent());
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
          move(dir, backupDir);
        }
        try {
          move(stagingDir, dir);
        } catch (NoSuchFileException e) {
          if (!Files.isDirectory(dir)) {
            throw e; // not finished by a reader's recovery either
          }
        }
        deleteTree(backupDir);
        // staging arrays other (killed) computes left for this target: superseded now
        try (DirectoryStream<Path> ds =
            Files.newDirectoryStream(dir.getParent(), "." + dir.getFileName() + STAGING + "*")) {
          for (Path other : ds) {
            deleteTree(other);
          }
        }
      } catch (IOException e) {
        throw LocalFiles.writeFailure(
            "commit (rename the staging array " + stagingDir + " to)",
            dir.toString(),
            dir.toString(),
            e);
      }
    } else {
      Store s = target.store();
      s.put(
          Keys.join(staging.path(), COMMIT_MARK),
          ("committing to '" + target.path() + "'\n").getBytes(StandardCharsets.UTF_8));
      finishObjectCommit(s, target.path(), staging.path());
      for (String other : objectStagings(s, target.path())) {
        s.deletePrefix(other + "/"); // left by other (killed) computes: superseded now
      }
    }
    target.markDeferredCreated();
  }

  /**
   * Finishes or rolls back a commit of the target at {@code path} that a kill interrupted (any
   * compute's), so the path holds a whole array again: on a filesystem, a target moved to a backup
   * whose staging array was not yet renamed in is completed from the staging array (or restored
   * from the backup when there is none), and a leftover backup is deleted; on other stores a commit
   * mark makes the copy from its staging array finish. Does nothing when no commit was interrupted.
   *
   * @return true if something was finished or rolled back
   */
  public static boolean recover(Store store, String path) {
    if (store instanceof FileSystemStore fs) {
      Path d = realDir(fs, path);
      return d.getParent() != null && recoverDir(d);
    }
    boolean any = false;
    for (String sp : objectStagings(store, path)) {
      if (store.exists(Keys.join(sp, COMMIT_MARK))) {
        finishObjectCommit(store, path, sp);
        any = true;
      }
    }
    return any;
  }

  /** True if a commit of the target at {@code path} was interrupted (see {@link #recover}). */
  static boolean interrupted(Store store, String path) {
    if (store instanceof FileSystemStore fs) {
      Path d = realDir(fs, path);
      if (d.getParent() == null || !Files.isDirectory(d.getParent())) {
        return false;
      }
      try (DirectoryStream<Path> ds =
          Files.newDirectoryStream(d.getParent(), "." + d.getFileName() + BACKUP + "*")) {
        return ds.iterator().hasNext();
      } catch (IOException e) {
        return false;
      }
    }
    for (String sp : objectStagings(store, path)) {
      if (store.exists(Keys.join(sp, COMMIT_MARK))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A sentence for a reader who finds no array at {@code path}, when a compute is writing (or was
   * killed writing) one there: its staging array, or an interrupted commit; "" otherwise.
   */
  static String missingTargetHint(Store store, String path) {
    try {
      List<String> names;
      if (store instanceof FileSystemStore fs) {
        Path d = realDir(fs, path);
        if (d.getParent() == null || !Files.isDirectory(d.getParent())) {
          return "";
        }
        names = new ArrayList<>();
        try (DirectoryStream<Path> ds =
            Files.newDirectoryStream(d.getParent(), "." + d.getFileName() + STAGING + "*")) {
          for (Path p : ds) {
            names.add(p.toString());
          }
        }
      } else {
        names = objectStagings(store, path);
        for (String sp : names) {
          if (store.exists(Keys.join(sp, COMMIT_MARK))) {
            return "; a compute's commit of a new array there was interrupted: rerun it (with"
                + " --resume / ComputeOptions.resume()) or write the target again to finish it";
          }
        }
      }
      return names.isEmpty()
          ? ""
          : "; a compute is writing a new array there (or was killed"
              + " writing it; its unfinished data is in "
              + names.get(0)
              + "): wait for it, or rerun"
              + " it with --resume / ComputeOptions.resume()";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  // ------------------------------------------------------------------ internals

  private static boolean mayReplace(ZarrArray target, boolean resume) {
    if (target.deferredOverwrite()) {
      return true;
    }
    if (resume && "array".equals(ZarrNodes.kind(target.store(), target.path()))) {
      try {
        ZarrArray old = ZarrArray.open(target.store(), target.path());
        return Arrays.equals(old.shape(), target.shape())
            && Arrays.equals(old.chunks(), target.chunks())
            && old.dtype() == target.dtype();
      } catch (RuntimeException e) {
        return false;
      }
    }
    return false;
  }

  private void deleteStaging() {
    if (stagingDir != null) {
      try {
        deleteTree(stagingDir);
      } catch (IOException e) {
        throw LocalFiles.writeFailure(
            "delete the old staging array", stagingDir.toString(), stagingDir.toString(), e);
      }
    } else {
      staging.store().deletePrefix(staging.path() + "/");
    }
  }

  private static Path realDir(FileSystemStore fs, String path) {
    return FileSystemStore.realPathOfExisting(path.isEmpty() ? fs.root() : fs.root().resolve(path));
  }

  private static Path sibling(Path d, String suffix) {
    return d.getParent().resolve("." + d.getFileName() + suffix);
  }

  private static String objectStagingPath(String path, String tag) {
    if (path.isEmpty()) {
      return STAGING + tag; // a hidden child: an object store root has no parent
    }
    int slash = path.lastIndexOf('/');
    return (slash < 0 ? "" : path.substring(0, slash + 1))
        + "."
        + path.substring(slash + 1)
        + STAGING
        + tag;
  }

  /**
   * The staging arrays (paths) of any compute for the target at {@code path} of an object store.
   */
  private static List<String> objectStagings(Store store, String path) {
    int slash = path.lastIndexOf('/');
    String parent = path.isEmpty() || slash < 0 ? "" : path.substring(0, slash + 1);
    String start = path.isEmpty() ? STAGING : "." + path.substring(slash + 1) + STAGING;
    String prefix = path.isEmpty() ? "" : parent;
    List<String> out = new ArrayList<>();
    for (String n : store.listChildren(prefix)) {
      if (n.startsWith(start)) {
        out.add(prefix + n);
      }
    }
    return out;
  }

  /** Steps 3-6 of the object-store commit (see the class comment); idempotent. */
  private static void finishObjectCommit(Store store, String path, String stagingPath) {
    ZarrArray st = ZarrArray.open(store, stagingPath);
    for (String doc : NODE_DOCS) {
      store.delete(Keys.join(path, doc));
    }
    store.delete(Keys.join(path, ".zattrs"));
    String sPre = stagingPath + "/";
    Set<String> staged = new HashSet<>();
    for (String k : store.list(sPre)) {
      String rel = k.substring(sPre.length());
      if (rel.equals(COMMIT_MARK) || NODE_DOCS.contains(rel) || rel.equals(".zattrs")) {
        continue;
      }
      staged.add(rel);
      byte[] v = store.get(k);
      if (v != null) {
        store.put(Keys.join(path, rel), v);
      }
    }
    String dPre = path.isEmpty() ? "" : path + "/";
    for (String k : store.list(dPre)) {
      String rel = k.substring(dPre.length());
      if (!rel.startsWith(".cubed-") && !staged.contains(rel)) {
        store.delete(k);
      }
    }
    Map<String, Object> attrs = new LinkedHashMap<>(st.attributes());
    attrs.remove(ZarrArray.INCOMPLETE_ATTRIBUTE);
    st.relocated(store, path).withAttributes(attrs);
    store.delete(Keys.join(stagingPath, COMMIT_MARK));
    store.deletePrefix(sPre);
  }

  /** The filesystem recovery of {@link #recover} for the real directory {@code d}. */
  private static boolean recoverDir(Path d) {
    Path parent = d.getParent();
    if (!Files.isDirectory(parent)) {
      return false;
    }
    String backupStart = "." + d.getFileName() + BACKUP;
    boolean any = false;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, backupStart + "*")) {
      for (Path b : ds) {
        String tag = b.getFileName().toString().substring(backupStart.length());
        Path s = sibling(d, STAGING + tag);
        if (!Files.exists(d, LinkOption.NOFOLLOW_LINKS)) {
          try {
            move(Files.isDirectory(s) ? s : b, d); // roll forward, or back when no staging
          } catch (NoSuchFileException
              | FileAlreadyExistsException
              | DirectoryNotEmptyException e) {
            // another process finished it meanwhile
          }
        }
        if (Files.exists(d, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(b);
        }
        any = true;
      }
    } catch (IOException e) {
      throw new ZarrStoreException(
          "cannot finish an interrupted replacement of "
              + d
              + " (backup "
              + backupStart
              + "* in "
              + parent
              + "): "
              + e,
          e);
    }
    return any;
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to);
    }
  }

  /** Deletes a directory tree (no error if absent or deleted concurrently); links not followed. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
            if (exc instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw exc;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
            if (exc != null && !(exc instanceof NoSuchFileException)) {
              throw exc;
            }
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
