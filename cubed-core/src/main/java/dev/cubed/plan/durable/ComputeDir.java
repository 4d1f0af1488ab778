package dev.cubed.plan.durable;

import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The directory of one compute, {@code workDir/compute-<id>/}: intermediate Zarr arrays, the
 * completion markers ({@link TaskMarkers}, under {@code .done/}), a plain-text fingerprint of the
 * plan ({@value #FINGERPRINT}) and a lock file ({@value #LOCK}) locked exclusively ({@link
 * FileChannel#tryLock()}) for the compute's lifetime.
 *
 * <p>Opening: the lock is taken first. If another live compute (another JVM, or another thread of
 * this one) holds it, this compute runs in a separate directory {@code compute-<id>.<random>},
 * which is never resumed (its fingerprint says so) and is removed on success like any other.
 * Without resume an existing directory's contents are deleted (under the lock) so stale data never
 * mixes with new; with resume its fingerprint must equal this plan's, otherwise the open is
 * refused. Nothing read from the directory is ever deserialized: markers are empty files, the
 * fingerprint is compared as text.
 */
public final class ComputeDir implements AutoCloseable {
  /** The lock file's name inside a compute directory. */
  public static final String LOCK = "cubed.lock";

  /** The fingerprint file's name inside a compute directory. */
  public static final String FINGERPRINT = "fingerprint.txt";

  /** First line of every fingerprint file (identifies compute directories for {@link #clean}). */
  static final String MAGIC = "cubed-compute v1";

  private static final Pattern NAME = Pattern.compile("compute-[0-9a-f]{16}(\\.[0-9a-f]{8})?");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;
  private final boolean resumed;
  private final boolean separate;

  /** The compute directory as a store: in store mode its own store, locally a FileSystemStore. */
  private final Store store;

  private final String location;

  private ComputeDir(
      Path dir, FileChannel channel, FileLock lock, boolean resumed, boolean separate) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
    this.resumed = resumed;
    this.separate = separate;
    this.store = FileSystemStore.ownerOnly(dir);
    this.location = dir.toString();
  }

  /** Store mode (work directory on an object store): no lock, no directory. */
  private ComputeDir(Store store, String location, boolean resumed) {
    this.dir = null;
    this.channel = null;
    this.lock = null;
    this.resumed = resumed;
    this.separate = false;
    this.store = store;
    this.location = location;
  }

  /**
   * Opens the directory of compute {@code id} under a work directory given as a location: a local
   * path or {@code file://} URI behaves exactly like {@link #open(Path, String, String, boolean)};
   * any other location (e.g. {@code s3://bucket/work}) is opened with {@link Stores#open} and holds
   * the compute as objects: intermediates, markers and the fingerprint are keys under {@code
   * compute-<id>/}. Object stores have no lock: two computes of the same plan on one work location
   * at the same time are not detected (the compute id is derived from the plan's content, so they
   * would share the directory); run one at a time.
   *
   * @throws IllegalStateException on resume when the directory holds another plan's fingerprint
   */
  public static ComputeDir open(String workDir, String id, String fingerprint, boolean resume) {
    if (Stores.isLocal(workDir)) {
      return open(Stores.localPath(workDir), id, fingerprint, resume);
    }
    return openInStore(workDir, id, fingerprint, resume);
  }

  private static ComputeDir openInStore(
      String workDir, String id, String fingerprint, boolean resume) {
    String text = MAGIC + "\n" + fingerprint;
    String loc = child(workDir, "compute-" + id);
    Store st = Stores.open(loc);
    byte[] old = st.get(FINGERPRINT);
    boolean keep = false;
    if (resume && old != null) {
      String o = new String(old, StandardCharsets.UTF_8);
      if (!compared(o).equals(compared(text))) {
        throw new IllegalStateException(
            "cannot resume in "
                + loc
                + ": it was left by a"
                + " different plan (its "
                + FINGERPRINT
                + " differs from this plan's at: "
                + firstDifference(compared(o), compared(text))
                + "). Delete it with ./cubed clean --work-dir "
                + workDir
                + " or run without resume");
      }
      keep = true;
    }
    if (!keep) {
      deleteAll(st, true);
    }
    st.put(FINGERPRINT, text.getBytes(StandardCharsets.UTF_8));
    return new ComputeDir(st, loc, keep);
  }

  /** {@code location/name}, keeping a URI's query (e.g. {@code ?endpoint=...}) at the end. */
  static String child(String location, String name) {
    int q = location.indexOf('?');
    String base = q < 0 ? location : location.substring(0, q);
    return trimSlash(base) + "/" + name + (q < 0 ? "" : location.substring(q));
  }

  private static String trimSlash(String s) {
    String t = s;
    while (t.endsWith("/")) {
      t = t.substring(0, t.length() - 1);
    }
    return t;
  }

  /**
   * Deletes every key of a store, the fingerprint first (a half-deleted one is not resumed); with
   * {@code keepJournal} the commit journal stays ({@link CommitJournal}: the next run settles it).
   */
  private static void deleteAll(Store st, boolean keepJournal) {
    st.delete(FINGERPRINT);
    if (!keepJournal) {
      st.deletePrefix("");
      return;
    }
    for (String k : st.list("")) {
      if (!k.equals(CommitJournal.FILE)) {
        st.delete(k);
      }
    }
  }

  /**
   * Opens (creating, locking, cleaning or checking) the directory of compute {@code id}.
   *
   * @param fingerprint the plan's fingerprint text (first line is added here)
   * @param resume keep what a previous run of the same plan left (its fingerprint must match)
   * @throws IllegalStateException on resume when the directory holds another plan's fingerprint
   */
  public static ComputeDir open(Path workDir, String id, String fingerprint, boolean resume) {
    String text = MAGIC + "\n" + fingerprint;
    WorkDirs.ensurePrivate(workDir);
    Path dir = workDir.resolve("compute-" + id);
    ComputeDir cd = tryOpen(dir);
    boolean separate = false;
    if (cd == null) {
      separate = true;
      byte[] r = new byte[4];
      RANDOM.nextBytes(r);
      String suffix = HexFormat.of().formatHex(r);
      dir = workDir.resolve("compute-" + id + "." + suffix);
      cd = tryOpen(dir);
      if (cd == null) {
        throw new IllegalStateException("cannot lock a fresh compute directory " + dir);
      }
    }
    try {
      Path fp = dir.resolve(FINGERPRINT);
      boolean keep = false;
      if (resume && !separate && Files.exists(fp)) {
        String old = Files.readString(fp, StandardCharsets.UTF_8);
        if (!compared(old).equals(compared(text))) {
          throw new IllegalStateException(
              "cannot resume in "
                  + dir
                  + ": it was left by a"
                  + " different plan (its "
                  + FINGERPRINT
                  + " differs from this plan's at: "
                  + firstDifference(compared(old), compared(text))
                  + "). Delete it with ./cubed clean --work-dir "
                  + workDir
                  + " or run without resume");
        }
        keep = true;
      }
      if (!keep) {
        deleteContents(dir, true);
      }
      writeAtomically(fp, separate ? text + "separate: not resumable\n" : text);
      return new ComputeDir(dir, cd.channel, cd.lock, keep, separate);
    } catch (IOException | RuntimeException e) {
      cd.release();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("opening compute directory " + dir + ": " + io, io);
      }
      throw (RuntimeException) e;
    }
  }

  private static ComputeDir tryOpen(Path dir) {
    try {
      try {
        Files.createDirectory(dir, WorkDirs.dirAttribute());
      } catch (FileAlreadyExistsException e) {
        // an earlier run's (or a link, or someone else's: checked next)
      }
      WorkDirs.checkComputeDir(dir);
      FileLock l = WorkDirs.lockFile(dir.resolve(LOCK));
      return l == null ? null : new ComputeDir(dir, l.channel(), l, false, false);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create or lock compute directory " + dir + ": " + e, e);
    }
  }

  /**
   * A compute directory in {@code workDir} left by a plan with the same outputs as {@code
   * fingerprint} but other tasks (e.g. planned with another allowedMem), described for a message:
   * its path, the first difference and the memory it was planned with; null if none. Symbolic links
   * and unreadable directories are ignored.
   */
  public static String sameOutputsOtherPlan(Path workDir, String fingerprint) {
    String mine = compared(MAGIC + "\n" + fingerprint);
    String outputs = outputLines(mine);
    if (!Files.isDirectory(workDir)) {
      return null;
    }
    try (Stream<Path> s = Files.list(workDir)) {
      for (Path d : s.sorted().toList()) {
        Path fp = d.resolve(FINGERPRINT);
        if (!NAME.matcher(d.getFileName().toString()).matches()
            || Files.isSymbolicLink(d)
            || !Files.isRegularFile(fp, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        String text = Files.readString(fp, StandardCharsets.UTF_8);
        String theirs = compared(text);
        if (theirs.startsWith(MAGIC + "\n")
            && outputLines(theirs).equals(outputs)
            && !theirs.equals(mine)
            && !theirs.contains("separate: not resumable")) {
          String notes =
              text.lines()
                  .filter(l -> l.startsWith("# planned with "))
                  .map(l -> " (" + l.substring(2) + ")")
                  .findFirst()
                  .orElse("");
          return d + notes + ", whose plan differs at " + firstDifference(theirs, mine);
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }

  private static String outputLines(String text) {
    StringBuilder sb = new StringBuilder();
    text.lines().filter(l -> l.startsWith("output ")).forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }

  /** A fingerprint text without its note lines (starting with '#'), which are never compared. */
  static String compared(String text) {
    StringBuilder sb = new StringBuilder();
    for (String l : text.split("\n", -1)) {
      if (!l.startsWith("#")) {
        sb.append(l).append('\n');
      }
    }
    return sb.toString();
  }

  private static String firstDifference(String a, String b) {
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      String l = i < x.length ? x[i] : "<none>";
      String r = i < y.length ? y[i] : "<none>";
      if (!l.equals(r)) {
        return "line " + (i + 1) + " '" + l + "' vs '" + r + "'";
      }
    }
    return "?";
  }

  /**
   * The local directory.
   *
   * @throws IllegalStateException if the compute directory is on an object store (see {@link
   *     #store()})
   */
  public Path path() {
    if (dir == null) {
      throw new IllegalStateException(
          "the compute directory " + location + " is on an object store, not a local directory");
    }
    return dir;
  }

  /** The compute directory as a store (intermediate arrays are created in it). */
  public Store store() {
    return store;
  }

  /** The directory's name, {@code compute-<id>[.<random>]}. */
  public String name() {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** Where the directory is, for messages: a local path or a store URI. */
  public String location() {
    return location;
  }

  /** True if the directory is on an object store (no lock, objects instead of files). */
  public boolean inStore() {
    return dir == null;
  }

  /** True if a previous run's work was kept (resume with a matching fingerprint). */
  public boolean resumed() {
    return resumed;
  }

  /** True if the plan's directory was locked by a live compute and this one runs separately. */
  public boolean separate() {
    return separate;
  }

  /** Deletes the directory (after a successful compute) and releases the lock. */
  public void deleteAndRelease() {
    if (dir == null) {
      deleteAll(store, false);
      return;
    }
    try {
      deleteContents(dir, false);
    } catch (IOException e) {
      release();
      throw new UncheckedIOException("deleting compute directory " + dir + ": " + e, e);
    }
    release();
    try {
      Files.deleteIfExists(dir.resolve(LOCK));
      Files.deleteIfExists(dir);
    } catch (DirectoryNotEmptyException e) {
      // another compute of the same plan opened it meanwhile: it is theirs now
    } catch (IOException e) {
      throw new UncheckedIOException("deleting compute directory " + dir + ": " + e, e);
    }
  }

  /** Releases the lock, keeping the directory (after a failure). */
  public void release() {
    if (dir == null) {
      return;
    }
    try {
      if (lock.isValid()) {
        lock.release();
      }
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("releasing lock of " + dir + ": " + e, e);
    }
  }

  @Override
  public void close() {
    release();
  }

  /**
   * Deletes everything in {@code dir} but the lock file (and, with {@code keepJournal}, the commit
   * journal: the next run settles what it records).
   */
  private static void deleteContents(Path dir, boolean keepJournal) throws IOException {
    // the fingerprint first: a directory without one is never resumed, so a process halted part
    // way through this delete leaves nothing a resume would trust (task markers whose blocks are
    // already gone); the object-store path deletes it first too
    Path fp = dir.resolve(FINGERPRINT);
    beforeDelete.accept(fp);
    Files.deleteIfExists(fp);
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(dir)
            && !p.equals(dir.resolve(LOCK))
            && !(keepJournal && p.equals(dir.resolve(CommitJournal.FILE)))) {
          try {
            beforeDelete.accept(p);
            Files.deleteIfExists(p);
          } catch (NoSuchFileException e) {
            // gone already
          }
        }
      }
    }
  }

  /** Called before each delete of {@link #deleteContents}; tests halt a delete part way with it. */
  static volatile Consumer<Path> beforeDelete = p -> {};

  static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = Files.createTempFile(file.getParent(), ".tmp-" + file.getFileName(), "");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** What {@link #clean} did with one directory. */
  public record Cleaned(Path dir, boolean removed, String note) {}

  /**
   * Removes what old computes left in {@code workDir}: every directory named {@code compute-<16
   * hex>[.<8 hex>]} that holds a lock file or a fingerprint starting with the compute marker line,
   * unless a live compute holds its lock (reported, kept). Anything else in {@code workDir} is left
   * alone.
   *
   * @param dryRun report only, delete nothing
   * @return one entry per recognised directory
   */
  public static List<Cleaned> clean(Path workDir, boolean dryRun) {
    List<Cleaned> out = new ArrayList<>();
    if (!Files.isDirectory(workDir)) {
      return out;
    }
    WorkDirs.checkPrivate(workDir);
    List<Path> dirs;
    try (Stream<Path> s = Files.list(workDir)) {
      dirs = s.filter(p -> NAME.matcher(p.getFileName().toString()).matches()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + workDir + ": " + e, e);
    }
    for (Path d : dirs) {
      if (Files.isSymbolicLink(d)) {
        out.add(
            new Cleaned(
                d,
                false,
                "a symbolic link, not a compute directory: not followed,"
                    + " nothing deleted (remove the link yourself if you made it)"));
        continue;
      }
      if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) || !recognised(d)) {
        continue;
      }
      ComputeDir cd;
      try {
        cd = tryOpen(d);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        out.add(new Cleaned(d, false, "kept: " + e.getMessage()));
        continue;
      }
      if (cd == null) {
        out.add(new Cleaned(d, false, "in use by a running compute (locked); kept"));
        continue;
      }
      if (CommitJournal.of(cd).commitUnfinished()) {
        cd.release();
        out.add(
            new Cleaned(
                d,
                false,
                "kept: it holds the journal of an interrupted commit (a target's old array"
                    + " may be moved aside and its new one staged beside it); finish it by"
                    + " rerunning the same command with --resume"));
        continue;
      }
      if (dryRun) {
        cd.release();
        out.add(new Cleaned(d, false, "would remove (dry run)"));
        continue;
      }
      cd.deleteAndRelease();
      out.add(new Cleaned(d, true, "removed"));
    }
    return out;
  }

  /**
   * {@link #clean(Path, boolean)} for a work directory given as a location: a local path or {@code
   * file://} URI is cleaned as a directory; on an object store (e.g. {@code s3://b/work}) every
   * {@code compute-<id>/} prefix whose fingerprint object starts with the compute marker line is
   * deleted. Object stores have no locks, so a compute running there at the same time loses its
   * intermediates: clean only when none runs.
   *
   * @return one entry per recognised directory; {@link Cleaned#dir()} is a path only locally
   */
  public static List<Cleaned> clean(String workDir, boolean dryRun) {
    if (Stores.isLocal(workDir)) {
      return clean(Stores.localPath(workDir), dryRun);
    }
    Store work = Stores.open(workDir);
    List<Cleaned> out = new ArrayList<>();
    for (String name : work.listChildren("")) {
      if (!NAME.matcher(name).matches()) {
        continue;
      }
      byte[] fp = work.get(name + "/" + FINGERPRINT);
      if (fp == null || !new String(fp, StandardCharsets.UTF_8).startsWith(MAGIC + "\n")) {
        continue;
      }
      String loc = child(workDir, name);
      byte[] j = work.get(name + "/" + CommitJournal.FILE);
      String jt = j == null ? "" : "\n" + new String(j, StandardCharsets.UTF_8);
      if (jt.contains("\ncommit\n") && !jt.contains("\ndone\n")) {
        out.add(
            new Cleaned(
                Path.of(name),
                false,
                "kept "
                    + loc
                    + ": it holds the journal of an interrupted commit; finish it by rerunning"
                    + " the same command with --resume"));
        continue;
      }
      if (dryRun) {
        out.add(new Cleaned(Path.of(name), false, "would remove " + loc + " (dry run)"));
        continue;
      }
      deleteAll(Stores.open(loc), false);
      out.add(new Cleaned(Path.of(name), true, "removed " + loc));
    }
    return out;
  }

  private static boolean recognised(Path d) {
    Path fp = d.resolve(FINGERPRINT);
    if (Files.isRegularFile(fp, LinkOption.NOFOLLOW_LINKS)) {
      try {
        return Files.readString(fp, StandardCharsets.UTF_8).startsWith(MAGIC + "\n");
      } catch (IOException e) {
        return false;
      }
    }
    return Files.isRegularFile(d.resolve(LOCK), LinkOption.NOFOLLOW_LINKS);
  }
}
