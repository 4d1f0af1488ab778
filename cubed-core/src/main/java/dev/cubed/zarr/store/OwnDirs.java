package dev.cubed.zarr.store;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;

/**
 * Directories a compute creates beside a target, in a parent directory that other local users may
 * be able to write (a shared folder, {@code /tmp}): created without following a link, recognised
 * afterwards only by their identity (the file system's file key, which the compute records in its
 * private work directory) and their owner, and deleted only through open directory handles ({@link
 * SecureDirectoryStream}: every entry is removed relative to its open parent, no link is followed),
 * so a link or directory swapped in by someone else is never followed into and nothing outside the
 * directory is deleted. Where the file system offers no secure directory stream a delete is
 * refused.
 */
public final class OwnDirs {
  private OwnDirs() {}

  private static final java.util.Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwxr-xr-x");

  /** Something to call before each deletion (fault injection); never null. */
  public interface Step {
    /** Called before a mutation described by {@code what}. */
    void before(String what);
  }

  /**
   * Creates the directory {@code p} (mode rwxr-xr-x on POSIX); fails if anything, a link included,
   * is there already.
   *
   * @return its identity ({@link #identity})
   * @throws java.nio.file.FileAlreadyExistsException if {@code p} exists
   */
  public static String create(Path p) throws IOException {
    if (posix(p)) {
      Files.createDirectory(p, PosixFilePermissions.asFileAttribute(DIR_MODE));
    } else {
      Files.createDirectory(p);
    }
    String why = notOurs(p, null);
    if (why != null) {
      throw new IOException("the directory just created at " + p + " " + why);
    }
    return identity(p);
  }

  /** The identity of the file at {@code p} (its file key, links not followed), or null if none. */
  public static String identity(Path p) {
    try {
      BasicFileAttributes a =
          Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.fileKey() == null ? "nokey" : String.valueOf(a.fileKey()).replace(' ', '_');
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Why {@code p} is not a directory this user created with identity {@code id} (null: any
   * identity): "is missing", "is a symbolic link", "is owned by user X", "is writable by group or
   * others", "is another directory than the one this compute created"; null if it is.
   */
  public static String notOurs(Path p, String id) {
    try {
      if (!posix(p)) {
        BasicFileAttributes a =
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return a.isSymbolicLink() ? "is a symbolic link" : a.isDirectory() ? null : "is a file";
      }
      PosixFileAttributes a =
          Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return judge(a, currentUser(p), id);
    } catch (NoSuchFileException e) {
      return "is missing";
    } catch (IOException e) {
      return "cannot be read (" + e + ")";
    }
  }

  private static String judge(PosixFileAttributes a, UserPrincipal me, String id) {
    if (a.isSymbolicLink()) {
      return "is a symbolic link";
    }
    if (!a.isDirectory()) {
      return "is not a directory";
    }
    if (!a.owner().equals(me)) {
      return "is owned by user " + a.owner().getName() + ", not by " + me.getName();
    }
    if (a.permissions().contains(PosixFilePermission.GROUP_WRITE)
        || a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      return "is writable by group or others";
    }
    if (id != null && !id.equals(keyOf(a))) {
      return "is another directory than the one this compute created";
    }
    return null;
  }

  private static String keyOf(BasicFileAttributes a) {
    return a.fileKey() == null ? "nokey" : String.valueOf(a.fileKey()).replace(' ', '_');
  }

  /**
   * Deletes the directory tree {@code p} if it is the directory of identity {@code id} (and, with
   * {@code mustOwn}, owned by this user and not writable by others), through open directory
   * handles: no link is followed, an entry swapped for a link is removed as a link, and nothing
   * outside {@code p} is touched. Nothing happens if {@code p} is missing.
   *
   * @param step called before each deletion (fault injection)
   * @throws IllegalStateException if {@code p} is not that directory (it is left alone), or the
   *     file system offers no secure directory stream (nothing is deleted)
   */
  public static void deleteTree(Path p, String id, boolean mustOwn, Step step) throws IOException {
    Path parent = p.toAbsolutePath().getParent();
    Path name = p.getFileName();
    try (DirectoryStream<Path> ps = Files.newDirectoryStream(parent)) {
      if (!(ps instanceof SecureDirectoryStream<Path> sp)) {
        throw new IllegalStateException(
            "cannot delete "
                + p
                + " safely: this file system offers no secure directory"
                + " stream (deletes relative to an open directory); delete it yourself");
      }
      SecureDirectoryStream<Path> d;
      try {
        d = sp.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return;
      } catch (NotDirectoryException e) {
        throw new IllegalStateException(p + " is not a directory: left alone");
      } catch (FileSystemException e) {
        throw new IllegalStateException(p + " is a symbolic link or unreadable: left alone");
      }
      try (d) {
        String why;
        if (posix(p)) {
          PosixFileAttributes a =
              d.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
          why = mustOwn ? judge(a, currentUser(p), id) : id.equals(keyOf(a)) ? null : "other";
        } else {
          BasicFileAttributes a =
              d.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
          why = id == null || id.equals(keyOf(a)) ? null : "other";
        }
        if (why != null) {
          throw new IllegalStateException(
              p + " is not the directory this compute created or moved aside: left alone");
        }
        empty(d, p, step);
      }
      step.before("delete directory " + p);
      try {
        sp.deleteDirectory(name);
      } catch (NoSuchFileException e) {
        // gone already
      }
    }
  }

  /** Empties the open directory {@code d} (at {@code where}, for messages). */
  private static void empty(SecureDirectoryStream<Path> d, Path where, Step step)
      throws IOException {
    for (int round = 0; ; round++) {
      List<Path> names = new ArrayList<>();
      // a directory stream iterates once: each round lists "." of the open directory afresh
      try (SecureDirectoryStream<Path> list =
          d.newDirectoryStream(Path.of("."), LinkOption.NOFOLLOW_LINKS)) {
        for (Path e : list) {
          names.add(e.getFileName());
        }
      }
      if (names.isEmpty()) {
        return;
      }
      if (round > 3) {
        throw new DirectoryNotEmptyException(
            where + " keeps getting new entries while it is deleted (e.g. " + names.get(0) + ")");
      }
      for (Path n : names) {
        removeEntry(d, n, where, step);
      }
    }
  }

  private static void removeEntry(SecureDirectoryStream<Path> d, Path n, Path where, Step step)
      throws IOException {
    BasicFileAttributes a;
    try {
      a =
          d.getFileAttributeView(n, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
              .readAttributes();
    } catch (NoSuchFileException e) {
      return;
    }
    if (a.isDirectory()) {
      SecureDirectoryStream<Path> sub = null;
      try {
        sub = d.newDirectoryStream(n, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return;
      } catch (FileSystemException e) {
        // swapped for a link or a file since: removed below as a file, never followed
      }
      if (sub != null) {
        try (SecureDirectoryStream<Path> open = sub) {
          empty(open, where.resolve(n), step);
        }
        step.before("delete directory " + where.resolve(n));
        try {
          d.deleteDirectory(n);
        } catch (NoSuchFileException e) {
          // gone already
        }
        return;
      }
    }
    step.before("delete " + where.resolve(n));
    try {
      d.deleteFile(n);
    } catch (NoSuchFileException e) {
      // gone already
    } catch (FileSystemException e) {
      // a directory swapped in after the check: not ours to follow; deleted as a directory if empty
      d.deleteDirectory(n);
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /**
   * The user running this JVM as the file system sees it: the owner of {@code /proc/self} on Linux
   * (the effective user, even without a passwd entry), else the principal of {@code user.name}.
   */
  public static UserPrincipal currentUser(Path onFileSystemOf) throws IOException {
    Path self = Path.of("/proc/self");
    if (Files.exists(self)) {
      return Files.getOwner(self);
    }
    return onFileSystemOf
        .getFileSystem()
        .getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
  }
}
