package dev.cubed.plan.durable;

import dev.cubed.zarr.store.OwnDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Local work directories are private to the user running the compute: the default one is {@code
 * java.io.tmpdir/cubed-<user name>} ({@link #defaultWorkDir()}), and a local work directory is
 * created with mode 0700 and refused ({@link #ensurePrivate}) when another user owns it (or owns
 * the symbolic link it is) or when its group or others may write it: such a user could read the
 * intermediates or swap their chunks. Compute directories are created 0700 and refused when they
 * are a symbolic link or belong to someone else ({@link #checkComputeDir}). On a file system
 * without POSIX permissions (e.g. Windows) nothing is checked.
 */
public final class WorkDirs {
  private WorkDirs() {}

  /** rwx------ */
  static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

  /** rw------- */
  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

  /** True if the default file system has POSIX permissions (owners and modes are checked). */
  static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  /** The attribute creating a directory 0700 (none without POSIX permissions). */
  static FileAttribute<?>[] dirAttribute() {
    return posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIR_MODE)}
        : new FileAttribute<?>[0];
  }

  /**
   * The default work directory: {@code java.io.tmpdir/cubed-<user name>} (the user name with any
   * character other than letters, digits, '.', '_' and '-' replaced by '_'). Per user and stable,
   * so a rerun with resume finds what a killed run left and {@code ./cubed clean} finds it too.
   * (Not {@code $XDG_RUNTIME_DIR}: that is a small in-memory file system removed at logout, where
   * large intermediates do not fit and a resume after logging in again finds nothing.)
   */
  public static String defaultWorkDir() {
    String user = System.getProperty("user.name", "");
    String safe = user.replaceAll("[^A-Za-z0-9._-]", "_");
    if (safe.isEmpty() || safe.chars().allMatch(c -> c == '.' || c == '_')) {
      safe = "user";
    }
    return Path.of(System.getProperty("java.io.tmpdir"), "cubed-" + safe).toString();
  }

  /**
   * Creates the local work directory if missing (its last component with mode 0700, missing parents
   * as usual) and checks that it is private to this user.
   *
   * @throws IllegalArgumentException if another user owns it (or the link it is), or its group or
   *     others may write it; the message says what to do
   */
  public static Path ensurePrivate(Path workDir) {
    Path wd = workDir.toAbsolutePath().normalize();
    if (!Files.exists(wd)) {
      try {
        if (wd.getParent() != null) {
          Files.createDirectories(wd.getParent());
        }
        Files.createDirectory(wd, dirAttribute());
      } catch (FileAlreadyExistsException e) {
        // created meanwhile: checked below like any existing directory
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the work directory " + wd + ": " + e, e);
      }
    }
    checkPrivate(wd);
    return wd;
  }

  /**
   * Checks an existing local work directory as {@link #ensurePrivate} does, creating nothing.
   *
   * @throws IllegalArgumentException if it is not private to this user
   */
  static void checkPrivate(Path workDir) {
    if (!posix() || !Files.exists(workDir)) {
      return;
    }
    try {
      UserPrincipal me = OwnDirs.currentUser(workDir);
      if (Files.isSymbolicLink(workDir)) {
        UserPrincipal linkOwner = Files.getOwner(workDir, LinkOption.NOFOLLOW_LINKS);
        if (!linkOwner.equals(me)) {
          throw new IllegalArgumentException(
              "the work directory "
                  + workDir
                  + " is a symbolic"
                  + " link owned by user "
                  + linkOwner.getName()
                  + ", not by "
                  + me.getName()
                  + " who runs this compute: that user chooses where the intermediates go. "
                  + whatToDo(workDir));
        }
      }
      if (!Files.isDirectory(workDir)) {
        throw new IllegalArgumentException(
            "the work directory " + workDir + " is not a" + " directory; " + whatToDo(workDir));
      }
      PosixFileAttributes a = Files.readAttributes(workDir, PosixFileAttributes.class);
      if (!a.owner().equals(me)) {
        throw new IllegalArgumentException(
            "the work directory "
                + workDir
                + " is owned by user "
                + a.owner().getName()
                + ", not by "
                + me.getName()
                + " who runs this compute: that"
                + " user could read or replace the intermediate arrays. "
                + whatToDo(workDir));
      }
      Set<PosixFilePermission> p = a.permissions();
      if (p.contains(PosixFilePermission.GROUP_WRITE)
          || p.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new IllegalArgumentException(
            "the work directory "
                + workDir
                + " can be written"
                + " by "
                + (p.contains(PosixFilePermission.OTHERS_WRITE) ? "other users" : "its group")
                + " (mode "
                + PosixFilePermissions.toString(p)
                + "): they could replace the"
                + " intermediate arrays. Run chmod 700 "
                + workDir
                + ", or choose another work"
                + " directory (--work-dir DIR, or Spec.builder().workDir(...))");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the work directory " + workDir + ": " + e, e);
    }
  }

  private static String whatToDo(Path workDir) {
    return "Choose a work directory of your own (--work-dir DIR, or Spec.builder().workDir(...))"
        + (workDir.toString().equals(defaultWorkDir())
            ? ", or remove " + workDir + " if it is not yours"
            : "");
  }

  /**
   * Checks a compute directory before it is used: not a symbolic link, owned by this user; gives it
   * mode 0700 if it is ours with a wider one.
   *
   * @throws IllegalArgumentException otherwise (a problem of the work directory given)
   */
  static void checkComputeDir(Path dir) throws IOException {
    if (Files.isSymbolicLink(dir)) {
      throw new IllegalArgumentException(
          "the compute directory "
              + dir
              + " is a symbolic link:"
              + " refusing to put intermediates where it leads. Remove the link (or run ./cubed"
              + " clean) and rerun");
    }
    if (!posix()) {
      return;
    }
    PosixFileAttributes a =
        Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    UserPrincipal me = OwnDirs.currentUser(dir);
    if (!a.owner().equals(me)) {
      throw new IllegalArgumentException(
          "the compute directory "
              + dir
              + " is owned by user "
              + a.owner().getName()
              + ", not by "
              + me.getName()
              + ": refusing to use or delete it."
              + " Choose a work directory of your own (--work-dir DIR, or Spec.builder().workDir(...))");
    }
    if (!a.permissions().equals(DIR_MODE)) {
      Files.setPosixFilePermissions(dir, DIR_MODE);
    }
  }

  /**
   * Opens the lock file {@code file} of a private directory for writing, creating it if missing
   * (mode 0600 where POSIX) and never through a symbolic link, and takes its lock without waiting
   * ({@link #tryLock}). The lock is held until its channel ({@link FileLock#channel()}) is closed.
   *
   * @return the lock, or null (the file closed again) if another process or another channel of this
   *     JVM holds it
   */
  public static FileLock lockFile(Path file) throws IOException {
    FileChannel ch =
        posix()
            ? FileChannel.open(
                file,
                Set.of(
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(FILE_MODE))
            : FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
    FileLock l;
    try {
      l = tryLock(ch);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (l == null) {
      ch.close();
    }
    return l;
  }

  /**
   * The exclusive lock of an open file, taken without waiting ({@link FileChannel#tryLock()}): null
   * if another process holds it, or another channel of this JVM (which the JVM reports as an {@link
   * OverlappingFileLockException}).
   */
  static FileLock tryLock(FileChannel ch) throws IOException {
    try {
      return ch.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }
}
