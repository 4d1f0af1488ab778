package dev.cubed.zarr.codec;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Removes the native libraries that lz4-java extracted into {@code java.io.tmpdir} for JVMs that
 * were killed since: such a JVM cannot delete its copy ({@code deleteOnExit} does not run on a
 * kill), so every killed JVM would leave one {@code liblz4-java-<random>.so} (160 KB) behind.
 *
 * <p>A file is removed only if all of these hold: its name is lz4-java's ({@code
 * liblz4-java-<digits>.so}); it is a regular file, not a link (never followed); it is owned by the
 * user running this JVM; it was last modified more than {@link #GRACE} ago (a JVM extracting its
 * copy right now loads it within milliseconds); and no live process has it mapped (every {@code
 * /proc/<pid>/maps} this user can read is checked; on a system without {@code /proc} nothing is
 * removed). Anything else is left alone. Runs once per JVM, in a daemon thread, when the codecs are
 * first used.
 */
final class StaleNativeLibraries {
  static final Duration GRACE = Duration.ofMinutes(10);
  private static final Pattern NAME = Pattern.compile("liblz4-java-[0-9]+\\.so");
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private StaleNativeLibraries() {}

  /** Starts the sweep of {@code java.io.tmpdir} once per JVM (later calls do nothing). */
  static void sweepOnceInBackground() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t =
        new Thread(
            () -> {
              try {
                sweep(Path.of(System.getProperty("java.io.tmpdir")), Path.of("/proc"));
              } catch (RuntimeException | IOException e) {
                // best effort: a temporary file left is no error of the user's computation
              }
            },
            "cubed-stale-native-libraries");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Removes the stale copies in {@code dir} (the rules of the class comment), with {@code proc} the
   * process file system. Returns the files removed.
   */
  static Set<Path> sweep(Path dir, Path proc) throws IOException {
    Set<Path> removed = new HashSet<>();
    if (!Files.isReadable(proc.resolve("self/maps"))) {
      return removed; // no /proc: cannot tell what is in use
    }
    UserPrincipal me = Files.getOwner(proc.resolve("self/maps"));
    Instant before = Instant.now().minus(GRACE);
    Set<Path> candidates = new HashSet<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "liblz4-java-*.so")) {
      for (Path f : ds) {
        if (!NAME.matcher(f.getFileName().toString()).matches()) {
          continue;
        }
        PosixFileAttributes a;
        try {
          a = Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
          continue;
        }
        if (a.isRegularFile()
            && a.owner().equals(me)
            && a.lastModifiedTime().toInstant().isBefore(before)) {
          candidates.add(f.toAbsolutePath().normalize());
        }
      }
    }
    if (candidates.isEmpty()) {
      return removed;
    }
    candidates.removeAll(mappedFiles(proc));
    for (Path f : candidates) {
      if (Files.deleteIfExists(f)) {
        removed.add(f);
      }
    }
    return removed;
  }

  /** Every file path mapped by a process whose maps this user can read. */
  private static Set<Path> mappedFiles(Path proc) throws IOException {
    Set<Path> mapped = new HashSet<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(proc)) {
      for (Path p : ds) {
        String pid = p.getFileName().toString();
        if (pid.isEmpty() || !pid.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try (BufferedReader r = Files.newBufferedReader(p.resolve("maps"))) {
          String line;
          while ((line = r.readLine()) != null) {
            int slash = line.indexOf('/');
            if (slash >= 0 && line.contains("liblz4-java-")) {
              String path = line.substring(slash).replace(" (deleted)", "");
              mapped.add(Path.of(path).toAbsolutePath().normalize());
            }
          }
        } catch (IOException | RuntimeException e) {
          // a process that ended meanwhile, or one this user may not read
        }
      }
    }
    return mapped;
  }
}
