package dev.cubed.zarr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A store in a directory: each key is a file below the root. Writes go to a temporary file in the
 * target's directory and are then renamed over the target (atomic on POSIX file systems), so many
 * threads or processes may write different keys of one array at once and a crash never leaves a
 * partial value. Temporary files start with {@code .tmp-} and are ignored by {@link #list}.
 */
public final class FileSystemStore implements Store {
  private static final long serialVersionUID = 1L;
  private final String root;

  public FileSystemStore(Path root) {
    this.root = root.toAbsolutePath().normalize().toString();
  }

  public Path root() {
    return Path.of(root);
  }

  private Path file(String key) {
    Path r = Path.of(root);
    Path p = r.resolve(Store.checkKey(key)).normalize();
    if (!p.startsWith(r)) {
      throw new IllegalArgumentException("key '" + key + "' escapes the store root " + root);
    }
    return p;
  }

  @Override
  public byte[] get(String key) {
    try {
      return Files.readAllBytes(file(key));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read key '" + key + "' of store " + root, e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    Path f = file(key);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      if (offset < 0 || length < 0 || offset + length > ch.size()) {
        throw new ZarrException("range [" + offset + ", " + (offset + length) + ") is outside key '"
            + key + "' of " + ch.size() + " bytes in store " + root);
      }
      ByteBuffer buf = ByteBuffer.allocate(length);
      while (buf.hasRemaining()) {
        if (ch.read(buf, offset + buf.position()) < 0) {
          throw new ZarrException("key '" + key + "' was truncated while reading");
        }
      }
      return buf.array();
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read key '" + key + "' of store " + root, e);
    }
  }

  @Override
  public void put(String key, byte[] value) {
    Path f = file(key);
    Path tmp = f.resolveSibling(".tmp-" + f.getFileName() + "-" + UUID.randomUUID());
    try {
      Files.createDirectories(f.getParent());
      Files.write(tmp, value);
      try {
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // the temporary file is ignored by list() anyway
      }
      throw new UncheckedIOException("cannot write key '" + key + "' of store " + root, e);
    }
  }

  @Override
  public void delete(String key) {
    try {
      Files.deleteIfExists(file(key));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete key '" + key + "' of store " + root, e);
    }
  }

  @Override
  public boolean exists(String key) {
    return Files.isRegularFile(file(key));
  }

  @Override
  public List<String> list(String prefix) {
    Path r = Path.of(root);
    Path start = prefix.isEmpty() ? r : r.resolve(prefix.replaceAll("/+$", ""));
    if (!Files.isDirectory(start)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(start)) {
      s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith(".tmp-"))
          .forEach(p -> out.add(r.relativize(p).toString().replace('\\', '/')));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list '" + prefix + "' in store " + root, e);
    }
    Collections.sort(out);
    return out;
  }

  /** Deletes every key under a prefix and the directories holding them. */
  public void deleteTree(String prefix) {
    Path start = prefix.isEmpty() ? Path.of(root) : file(prefix);
    if (!Files.exists(start)) {
      return;
    }
    try (Stream<Path> s = Files.walk(start)) {
      for (Path p : (Iterable<Path>) s.sorted(Collections.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete '" + prefix + "' in store " + root, e);
    }
  }

  @Override
  public String describe() {
    return root;
  }

  @Override
  public String toString() {
    return "FileSystemStore(" + root + ")";
  }
}
