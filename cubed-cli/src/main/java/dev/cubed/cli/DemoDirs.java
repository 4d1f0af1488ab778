package dev.cubed.cli;

import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.durable.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory of a {@code demo} run without {@code --work-dir}: {@code <default work
 * dir>/demo-<size>/} holding the inputs ({@code inputs/}) and the work directory ({@code work/}),
 * private (0700) like the default work directory, locked ({@value #LOCK}) while the demo runs so a
 * second demo of the same size is refused instead of overwriting the inputs the first one reads.
 * Stable, so {@code --resume} finds what a killed demo left; removed when the demo succeeds, and by
 * {@code ./cubed clean} when no demo holds it ({@link #clean}).
 */
final class DemoDirs implements AutoCloseable {
  /** The lock file inside a demo directory (also how {@link #clean} recognises one). */
  static final String LOCK = "demo.lock";

  private final Path base;
  private final FileChannel channel;
  private final FileLock lock;

  private DemoDirs(Path base, FileChannel channel, FileLock lock) {
    this.base = base;
    this.channel = channel;
    this.lock = lock;
  }

  /** The demo directory of {@code size} under the default work directory. */
  static Path baseFor(String workDir, String size) {
    return Path.of(workDir).resolve("demo-" + size.replaceAll("[^A-Za-z0-9.]", "_"));
  }

  /**
   * Creates (0700, its parent checked private) and locks a demo directory.
   *
   * @throws IllegalArgumentException if another demo holds it (exit code 1, one line)
   */
  static DemoDirs open(Path base) {
    WorkDirs.ensurePrivate(base.getParent());
    WorkDirs.ensurePrivate(base);
    DemoDirs d = tryLock(base);
    if (d == null) {
      throw new IllegalArgumentException(
          "another demo of this size is running in "
              + base
              + " (it holds "
              + LOCK
              + "); wait for it to finish, or give this one its own"
              + " --work-dir");
    }
    return d;
  }

  private static DemoDirs tryLock(Path base) {
    try {
      FileLock l = WorkDirs.lockFile(base.resolve(LOCK));
      return l == null ? null : new DemoDirs(base, l.channel(), l);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock the demo directory " + base + ": " + e, e);
    }
  }

  /** The demo's directory. */
  Path base() {
    return base;
  }

  /** Deletes the demo directory (inputs, work, the lock file) and releases the lock. */
  void deleteAndRelease() {
    try (Stream<Path> s = Files.walk(base)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(base.resolve(LOCK)) && !p.equals(base)) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("deleting the demo directory " + base + ": " + e, e);
    }
    close();
    try {
      Files.deleteIfExists(base.resolve(LOCK));
      Files.deleteIfExists(base);
    } catch (IOException e) {
      // another demo took it meanwhile: it is theirs now
    }
  }

  /** Releases the lock, keeping the directory. */
  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("releasing the lock of " + base + ": " + e, e);
    }
  }

  /**
   * For {@code ./cubed clean}: in each {@code workDir/demo-*} directory holding {@value #LOCK}
   * (never through a symbolic link), removes its compute directories and then, unless a running
   * demo holds its lock, the whole directory (the inputs a failed demo left).
   */
  static List<ComputeDir.Cleaned> clean(Path workDir, boolean dryRun) {
    List<ComputeDir.Cleaned> out = new ArrayList<>();
    List<Path> bases;
    try (Stream<Path> s = Files.list(workDir)) {
      bases =
          s.filter(
                  p ->
                      p.getFileName().toString().startsWith("demo-")
                          && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                          && Files.isRegularFile(p.resolve(LOCK), LinkOption.NOFOLLOW_LINKS))
              .sorted()
              .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + workDir + ": " + e, e);
    }
    for (Path base : bases) {
      Path work = base.resolve("work");
      if (Files.isDirectory(work, LinkOption.NOFOLLOW_LINKS)) {
        out.addAll(ComputeDir.clean(work, dryRun));
      }
      DemoDirs d = tryLock(base);
      if (d == null) {
        out.add(new ComputeDir.Cleaned(base, false, "in use by a running demo (locked); kept"));
      } else if (dryRun) {
        d.close();
        out.add(new ComputeDir.Cleaned(base, false, "would remove the demo's inputs (dry run)"));
      } else {
        d.deleteAndRelease();
        out.add(
            new ComputeDir.Cleaned(
                base, true, "removed (inputs and work of a demo that did" + " not finish)"));
      }
    }
    return out;
  }
}
