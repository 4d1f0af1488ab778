package dev.cubed.zarr;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link Store} on a local directory: key {@code a/b/c} is the file {@code root/a/b/c}.
 *
 * <p>{@link #put} writes a temporary file (named {@code .cubed-tmp-*}) in the key's directory and
 * renames it over the target atomically, so readers and crashed writers never expose a partial value,
 * and many threads or processes may write different keys at once. Keys escaping the root are
 * rejected. Leftover temporary files of crashed writers are ignored by {@link #list}.
 */
public final class FileSystemStore implements Store {
  private static final long serialVersionUID = 1L;
  static final String TMP_PREFIX = ".cubed-tmp-";

  private final String rootString;
  private transient Path root;

  /** A store rooted at a directory (created lazily on first write). */
  public FileSystemStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.rootString = this.root.toString();
  }

  /** The root directory. */
  public Path root() {
    return root;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    root = Paths.get(rootString);
  }

  private Path resolve(String key) {
    Path p = root.resolve(Keys.check(key)).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("store key '" + key + "' escapes the store root " + root);
    }
    return p;
  }

  @Override
  public byte[] get(String key) {
    Path p = resolve(key);
    try {
      return Files.readAllBytes(p);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (Files.isDirectory(p)) {
        return null;
      }
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "getRange: offset " + offset + " and length " + length + " must be >= 0 (key '" + key
              + "')");
    }
    Path p = resolve(key);
    if (Files.isDirectory(p)) {
      return null;
    }
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      int n = (int) Math.max(0, Math.min(length, size - offset));
      ByteBuffer buf = ByteBuffer.allocate(n);
      long pos = offset;
      while (buf.hasRemaining()) {
        int r = ch.read(buf, pos);
        if (r < 0) {
          break;
        }
        pos += r;
      }
      if (buf.hasRemaining()) {
        byte[] out = new byte[buf.position()];
        System.arraycopy(buf.array(), 0, out, 0, out.length);
        return out;
      }
      return buf.array();
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    if (length < 0) {
      throw new IllegalArgumentException("getSuffix: length " + length + " must be >= 0 (key '"
          + key + "')");
    }
    Path p = resolve(key);
    try {
      long size = Files.size(p);
      return getRange(key, Math.max(0, size - length), length);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public void put(String key, byte[] value) {
    Path p = resolve(key);
    Path tmp = null;
    try {
      Path dir = p.getParent();
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, TMP_PREFIX + p.getFileName() + ".", "");
      Files.write(tmp, value);
      try {
        Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (IOException e) {
      throw new ZarrStoreException("cannot write key '" + key + "' of " + describe(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort cleanup of our own temporary file
        }
      }
    }
  }

  @Override
  public void delete(String key) {
    Path p = resolve(key);
    try {
      if (!Files.isDirectory(p)) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new ZarrStoreException("cannot delete key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public boolean exists(String key) {
    return Files.isRegularFile(resolve(key));
  }

  @Override
  public List<String> list(String prefix) {
    String pre = Keys.checkPrefix(prefix);
    int slash = pre.lastIndexOf('/');
    Path dir = slash < 0 ? root : resolve(pre.substring(0, slash));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try {
      if (slash < 0 || slash < pre.length() - 1) {
        // the last segment is a partial name: look at the directory's entries
        String partial = pre.substring(slash + 1);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
          for (Path e : ds) {
            if (e.getFileName().toString().startsWith(partial)) {
              walk(e, out);
            }
          }
        }
      } else {
        walk(dir, out);
      }
    } catch (IOException e) {
      throw new ZarrStoreException("cannot list prefix '" + prefix + "' of " + describe(), e);
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public List<String> listChildren(String prefix) {
    String pre = Keys.checkPrefix(prefix);
    if (!pre.isEmpty() && !pre.endsWith("/")) {
      return Store.super.listChildren(prefix);
    }
    Path dir = pre.isEmpty() ? root : resolve(pre.substring(0, pre.length() - 1));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path e : ds) {
        String n = e.getFileName().toString();
        if (!n.startsWith(TMP_PREFIX)) {
          out.add(n);
        }
      }
    } catch (IOException e) {
      throw new ZarrStoreException("cannot list prefix '" + prefix + "' of " + describe(), e);
    }
    Collections.sort(out);
    return out;
  }

  private void walk(Path start, List<String> out) throws IOException {
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile() && !file.getFileName().toString().startsWith(TMP_PREFIX)) {
          out.add(root.relativize(file).toString().replace('\\', '/'));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException exc) {
        return FileVisitResult.CONTINUE;
      }
    });
  }

  @Override
  public String describe() {
    return root.toUri().toString();
  }

  @Override
  public String toString() {
    return "FileSystemStore(" + root + ")";
  }
}
