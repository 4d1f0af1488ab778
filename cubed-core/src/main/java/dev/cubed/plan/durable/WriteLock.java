package dev.cubed.plan.durable;

import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.OwnDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a target directory while a compute writes it: the file {@code
 * .NAME.cubed-write.lock} beside the target {@code NAME} (not inside it: a staged write renames the
 * target directory away and a new one in) locked with {@link FileChannel#tryLock()}. A second
 * writer, in another process or in this JVM, is refused at once with a {@link TargetBusyException}.
 * The parent directory may be writable by other users, so the file is created with {@code
 * CREATE_NEW} and {@code NOFOLLOW_LINKS} (never opened through a link, never one someone else put
 * there); an existing lock file that is a link, or not this user's, is refused in one line and left
 * alone. One of this user's that no live compute locks (left by a killed process) is deleted while
 * locked and created afresh. {@link #close()} deletes the file (if it is still the one it created,
 * while still holding the lock) and releases it.
 *
 * <p>The holder writes a unique token into the locked file and reads it back through the path, so a
 * writer that locked a file another holder had just deleted notices and treats the target as busy.
 * POSIX locks belong to the process and are dropped when any descriptor of the file is closed, so a
 * holder never closes a descriptor of its lock file before {@link #close()}, and this JVM keeps a
 * set of the lock files it holds and refuses a second writer from it without opening the file.
 */
final class WriteLock implements AutoCloseable {
  static final String FILE = FileSystemStore.WRITE_LOCK;

  /**
   * Lock files held by this JVM (real paths). Checked before opening a channel: on Linux, closing
   * any channel of a file drops the process's POSIX lock on it, so a refused second attempt in this
   * JVM must not open (and close) the file.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path key;

  private final Path file;
  private final String identity;
  private final FileChannel channel;
  private final FileChannel check;
  private final FileLock lock;

  private WriteLock(
      Path key, Path file, String identity, FileChannel channel, FileChannel check, FileLock lock) {
    this.key = key;
    this.identity = identity;
    this.check = check;
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * The lock file of the target directory {@code dir}: {@code .NAME.cubed-write.lock} beside it.
   */
  static Path fileFor(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    if (abs.getParent() == null) {
      throw new IllegalArgumentException(
          "write: the target "
              + dir
              + " has no parent directory"
              + " for its write lock; choose a target below a directory");
    }
    return abs.getParent().resolve("." + abs.getFileName() + FILE);
  }

  /**
   * Locks the target directory {@code dir} (its parent is created if missing; the target itself is
   * not).
   *
   * @throws TargetBusyException if another compute holds the lock
   * @throws UncheckedIOException if the lock file cannot be created
   */
  static WriteLock acquire(Path dir, String what) {
    Path file = fileFor(dir);
    long pid = ManagementFactory.getRuntimeMXBean().getPid();
    String token = "pid " + pid + " since " + Instant.now() + " (" + UUID.randomUUID() + ")\n";
    Path key;
    try {
      Files.createDirectories(file.getParent());
      key = file.getParent().toRealPath().resolve(file.getFileName());
    } catch (IOException e) {
      throw new UncheckedIOException(
          what + ": cannot create the directory of the target " + dir + ": " + e, e);
    }
    if (!HELD.add(key)) {
      // do not read the file: closing a descriptor of it would drop this JVM's lock
      throw new TargetBusyException(
          what
              + ": the target "
              + dir
              + " is being written by"
              + " another compute in this process (pid "
              + pid
              + ", lock file "
              + file
              + "); wait"
              + " for it to finish, or choose another target");
    }
    boolean ok = false;
    try {
      for (int attempt = 0; attempt < 8; attempt++) {
        FileChannel ch;
        try {
          // O_CREAT|O_EXCL: never follows a link, never opens a file someone else put there
          ch =
              FileChannel.open(
                  file,
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.READ,
                  LinkOption.NOFOLLOW_LINKS);
        } catch (FileAlreadyExistsException e) {
          if (removedStale(file, dir, what)) {
            continue;
          }
          throw busy(what, dir, file);
        }
        FileLock lock = null;
        try {
          lock = WorkDirs.tryLock(ch); // null: held by another process or this JVM
          if (lock != null) {
            String id = OwnDirs.identity(file);
            ch.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(false);
            // read back through the path with a second channel kept open until close(): on Linux
            // closing any descriptor of the file would drop this process's lock on it
            FileChannel check =
                FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            ByteBuffer back = ByteBuffer.allocate(token.length() + 1);
            while (check.read(back) > 0 && back.hasRemaining()) {
              // read up to one byte more than the token
            }
            if (new String(back.array(), 0, back.position(), StandardCharsets.UTF_8)
                .equals(token)) {
              ok = true;
              return new WriteLock(key, file, id, ch, check, lock);
            }
            check.close(); // another file: we hold no lock on it
            lock.release(); // we locked a file another writer had just removed
            lock = null;
          }
          throw busy(what, dir, file);
        } finally {
          if (lock == null) {
            ch.close();
          }
        }
      }
      throw busy(what, dir, file);
    } catch (IOException e) {
      throw new UncheckedIOException(what + ": cannot create the write lock " + file + ": " + e, e);
    } finally {
      if (!ok) {
        HELD.remove(key);
      }
    }
  }

  /**
   * An existing lock file: refused in one line if it is a link or not this user's (someone else put
   * it there; it is never opened, written or deleted); if it is ours and no live compute locks it
   * (a killed process left it), it is deleted while locked, and true returned (create it afresh).
   * False: a live compute holds it.
   */
  private static boolean removedStale(Path file, Path dir, String what) throws IOException {
    PosixFileAttributes a;
    BasicFileAttributes b;
    try {
      b = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      a =
          WorkDirs.posix()
              ? Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              : null;
    } catch (NoSuchFileException e) {
      return true; // removed meanwhile: try again
    }
    String why =
        b.isSymbolicLink()
            ? "is a symbolic link"
            : !b.isRegularFile()
                ? "is not a regular file"
                : a != null && !a.owner().equals(OwnDirs.currentUser(file))
                    ? "is owned by user " + a.owner().getName()
                    : null;
    if (why != null) {
      throw new TargetBusyException(
          what
              + ": the write lock "
              + file
              + " of the target "
              + dir
              + " "
              + why
              + ", not a lock file this user created: refusing to open, write or delete it,"
              + " and to write the target. Remove it if you know who put it there, or choose"
              + " another target");
    }
    String id = OwnDirs.identity(file);
    FileChannel ch;
    try {
      ch =
          FileChannel.open(
              file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return true;
    }
    try (ch) {
      FileLock l = WorkDirs.tryLock(ch);
      if (l == null) {
        return false;
      }
      if (id != null && id.equals(OwnDirs.identity(file))) {
        Files.deleteIfExists(file); // left by a killed process: no live holder can be using it
      }
      l.release();
      return true;
    }
  }

  private static TargetBusyException busy(String what, Path dir, Path file) {
    return new TargetBusyException(
        what
            + ": the target "
            + dir
            + " is being written by"
            + " another compute (lock file "
            + file
            + " held"
            + holder(file)
            + "); wait for it"
            + " to finish, or choose another target");
  }

  private static String holder(Path file) {
    try {
      String s = Files.readString(file, StandardCharsets.UTF_8).trim();
      int paren = s.indexOf(" (");
      return s.isEmpty() ? "" : " by " + (paren > 0 ? s.substring(0, paren) : s);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** Deletes the lock file and releases the lock. */
  @Override
  public void close() {
    try {
      if (identity != null && identity.equals(OwnDirs.identity(file))) {
        Files.deleteIfExists(file); // still the file this lock created
      }
    } catch (IOException ignored) {
      // a leftover lock file is not held after release, so it is harmless
    }
    try {
      lock.release();
      channel.close();
      check.close();
    } catch (IOException ignored) {
      // closing the channel releases the lock in any case
    } finally {
      HELD.remove(key);
    }
  }
}
