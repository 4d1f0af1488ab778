package dev.cubed.plan.durable;

import dev.cubed.zarr.StagedWrite;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The commit journal of a compute, {@value #FILE} in its private compute directory (an object there
 * when the work directory is on an object store): the staging arrays its targets are written to,
 * and each step of its commit ({@link StagedWrite}), one text line per record, appended and forced
 * to disk before the step it announces. A run without resume empties its compute directory but
 * keeps this file, so a commit that a kill interrupted is finished (and the staging arrays of a
 * killed run are deleted) by the compute's next run. Lines are compared as text; nothing is
 * deserialized.
 *
 * <p>Line forms: {@code commit} (every task finished; the commit began), {@code t<i> staging
 * <name>}, {@code t<i> made <identity>}, {@code t<i> backup <name> <identity>}, {@code t<i>
 * swapped}, {@code t<i> marked}, {@code t<i> done}, {@code done} (target {@code i} in plan order).
 */
public final class CommitJournal implements StagedWrite.Journal {
  /** The journal's file name inside a compute directory. */
  static final String FILE = "commit.journal";

  /** The line that says every task finished and the commit began. */
  static final String COMMIT = "commit";

  private final Path file;
  private final Store store;
  private final List<String> lines;

  private CommitJournal(Path file, Store store, List<String> lines) {
    this.file = file;
    this.store = store;
    this.lines = lines;
  }

  /** The journal of an open compute directory, with what an earlier run recorded. */
  public static CommitJournal of(ComputeDir cdir) {
    if (cdir.inStore()) {
      byte[] v = cdir.store().get(FILE);
      return new CommitJournal(null, cdir.store(), parse(v));
    }
    Path f = cdir.path().resolve(FILE);
    return new CommitJournal(f, null, read(f));
  }

  /**
   * True if the compute {@code id} under the work directory {@code workDir} left a commit that
   * began (its tasks all finished): its targets are its own output. Only reads; false if unknown.
   */
  public static boolean commitBegan(String workDir, String id) {
    try {
      List<String> l;
      if (Stores.isLocal(workDir)) {
        Path f = Stores.localPath(workDir).resolve("compute-" + id).resolve(FILE);
        l = read(f);
      } else {
        l = parse(Stores.open(ComputeDir.child(workDir, "compute-" + id)).get(FILE));
      }
      return l.contains(COMMIT);
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** True if the earlier run's commit began ({@value #COMMIT} recorded). */
  public boolean commitBegan() {
    return lines.contains(COMMIT);
  }

  /** True if the earlier run's commit began and did not end ({@code done} not recorded). */
  boolean commitUnfinished() {
    return lines.contains(COMMIT) && !lines.contains("done");
  }

  @Override
  public void append(String line) {
    if (line.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a journal line has no line break: " + line);
    }
    lines.add(line);
    if (store != null) {
      store.put(FILE, text().getBytes(StandardCharsets.UTF_8));
      return;
    }
    byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
    try (FileChannel ch =
        WorkDirs.posix()
            ? FileChannel.open(
                file,
                Set.of(
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(WorkDirs.FILE_MODE))
            : FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buf = ByteBuffer.wrap(b);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the commit journal " + file + ": " + e, e);
    }
  }

  /** Forgets every record (a fresh run, after the earlier run's business was settled). */
  void reset() {
    lines.clear();
    if (store != null) {
      store.delete(FILE);
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("resetting the commit journal " + file + ": " + e, e);
    }
  }

  private String text() {
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    return sb.toString();
  }

  private static List<String> read(Path f) {
    try {
      if (Files.isSymbolicLink(f)) {
        throw new IllegalStateException("the commit journal " + f + " is a symbolic link");
      }
      return new ArrayList<>(Files.readAllLines(f, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return new ArrayList<>();
    } catch (IOException e) {
      throw new UncheckedIOException("reading the commit journal " + f + ": " + e, e);
    }
  }

  private static List<String> parse(byte[] v) {
    List<String> out = new ArrayList<>();
    if (v != null) {
      new String(v, StandardCharsets.UTF_8).lines().filter(l -> !l.isEmpty()).forEach(out::add);
    }
    return out;
  }
}
