package dev.cubed.plan;

import dev.cubed.zarr.FileSystemStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a target directory while a compute writes it: the file {@code
 * .NAME.cubed-write.lock} beside the target {@code NAME} (not inside it: a staged write renames the
 * target directory away and a new one in) locked with {@link FileChannel#tryLock()}. A second
 * writer, in another process or in this JVM, is refused at once with a {@link TargetBusyException}.
 * {@link #close()} deletes the file (while still holding the lock) and releases it; a file left by
 * a killed process is not locked, so it is harmless and reused.
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
  private final FileChannel channel;
  private final FileChannel check;
  private final FileLock lock;

  private WriteLock(Path key, Path file, FileChannel channel, FileChannel check, FileLock lock) {
    this.key = key;
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
      FileChannel ch =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
      FileLock lock = null;
      try {
        try {
          lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null; // held by this JVM
        }
        if (lock != null) {
          ch.truncate(0);
          ch.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.UTF_8)), 0);
          ch.force(false);
          // read back through the path with a second channel kept open until close(): on Linux
          // closing any descriptor of the file would drop this process's lock on it
          FileChannel check = FileChannel.open(file, StandardOpenOption.READ);
          ByteBuffer back = ByteBuffer.allocate(token.length() + 1);
          while (check.read(back) > 0 && back.hasRemaining()) {
            // read up to one byte more than the token
          }
          if (new String(back.array(), 0, back.position(), StandardCharsets.UTF_8).equals(token)) {
            ok = true;
            return new WriteLock(key, file, ch, check, lock);
          }
          check.close(); // another file: we hold no lock on it
          lock.release(); // we locked a file its previous holder had just deleted
          lock = null;
        }
        throw busy(what, dir, file);
      } finally {
        if (lock == null) {
          ch.close();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(what + ": cannot create the write lock " + file + ": " + e, e);
    } finally {
      if (!ok) {
        HELD.remove(key);
      }
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
      Files.deleteIfExists(file);
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
