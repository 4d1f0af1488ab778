package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@link Store} on a local directory: key {@code a/b/c} is the file {@code root/a/b/c}.
 *
 * <p>{@link #put} writes a temporary file (named {@code .cubed-tmp-*}) in the key's directory and
 * renames it over the target atomically, so readers and crashed writers never expose a partial
 * value, and many threads or processes may write different keys at once. Keys escaping the root are
 * rejected. Leftover temporary files of crashed writers are ignored by {@link #list}.
 *
 * <p>Links: the store never follows a symbolic link out of its root. Before any read, write, delete
 * or listing, the real path of the deepest existing directory on the key's path must lie under the
 * root's real path; otherwise the operation is refused with an {@link IllegalArgumentException}
 * naming the link. A value that is itself a link is read only when it leads to a file inside the
 * root; {@link #put} replaces a link by a file (the rename does not follow it). Directories found
 * good are cached per store instance (a concurrent set), so the hot path costs one set lookup per
 * operation; a directory replaced by a link after it was checked is not detected.
 *
 * <p>Files are created with the default permissions (0666 less the umask, usually 0644), not the
 * 0600 of temporary files, so other users can read the output; a store made with {@link
 * #ownerOnly(Path)} (the engine's compute directories) creates its files 0600 and its directories
 * 0700 instead. Write failures name their cause: a read-only file system or a permission problem,
 * or a full disk ({@link LocalFiles#writeFailure}).
 */
public final class FileSystemStore implements Store {
  private static final long serialVersionUID = 1L;
  static final String TMP_PREFIX = ".cubed-tmp-";

  /**
   * Name (suffix) of the lock file a compute holds while it writes a target directory ({@code
   * .NAME.cubed-write.lock} beside the target {@code NAME}); never listed as a key.
   */
  public static final String WRITE_LOCK = ".cubed-write.lock";

  private final String rootString;
  private transient Path root;

  /** The root's real path once the root exists (links resolved). */
  private transient volatile Path rootReal;

  /** Directories (absolute, normalized) whose real path was checked to be under the root. */
  private transient Set<Path> goodDirs = ConcurrentHashMap.newKeySet();

  /** True if files are created 0600 and directories 0700 ({@link #ownerOnly(Path)}). */
  private final boolean ownerOnly;

  /** A store rooted at a directory (created lazily on first write). */
  public FileSystemStore(Path root) {
    this(root, false);
  }

  private FileSystemStore(Path root, boolean ownerOnly) {
    this.root = root.toAbsolutePath().normalize();
    this.rootString = this.root.toString();
    this.ownerOnly =
        ownerOnly && FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  /**
   * A store whose files only their owner may read or write: created with mode 0600, directories
   * 0700 (on a file system with POSIX permissions). For private data such as a compute's
   * intermediate arrays; user targets keep the default permissions.
   */
  public static FileSystemStore ownerOnly(Path root) {
    return new FileSystemStore(root, true);
  }

  /** The root directory. */
  public Path root() {
    return root;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    root = Paths.get(rootString);
    goodDirs = ConcurrentHashMap.newKeySet();
  }

  /** The file of a key, checked to be inside the root with no link leading out of it. */
  public Path resolve(String key) {
    Path p = root.resolve(Keys.check(key)).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("store key '" + key + "' escapes the store root " + root);
    }
    Path dir = p.equals(root) ? root : p.getParent();
    if (!goodDirs.contains(dir)) {
      checkInsideRoot(dir, key);
    }
    return p;
  }

  /** Like {@link #resolve} for a directory key: the directory itself must not lead out. */
  private Path resolveDir(String key) {
    Path p = resolve(key);
    if (!goodDirs.contains(p)) {
      checkInsideRoot(p, key);
    }
    return p;
  }

  /**
   * Checks that {@code dir} (under the root by its text) is also under the root by its real path:
   * no symbolic link on the way leads out of the root. Directories that exist and pass are cached.
   */
  private void checkInsideRoot(Path dir, String key) {
    // cheap path: a directory that does not exist below a known-good one has no link to follow
    Path q = dir;
    while (q != null && q.startsWith(root) && !Files.exists(q, LinkOption.NOFOLLOW_LINKS)) {
      q = q.getParent();
    }
    if (q != null && !q.equals(dir) && goodDirs.contains(q)) {
      return;
    }
    Path real = realPathOfExisting(dir);
    Path rr = rootReal();
    if (rr == null) {
      return; // the root does not exist yet: nothing below it exists, so no link can be there
    }
    if (!real.startsWith(rr)) {
      throw new IllegalArgumentException(
          "store key '"
              + key
              + "' of "
              + describe()
              + ": "
              + linkOnPath(dir)
              + " is a symbolic link leading outside the store root (to "
              + real
              + "); the store never follows links out of its root. Remove the link or open the store"
              + " at the real location");
    }
    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(dir)) {
      goodDirs.add(dir);
    }
  }

  private Path rootReal() {
    Path rr = rootReal;
    if (rr == null && Files.exists(root)) {
      rr = realPathOfExisting(root);
      rootReal = rr;
    }
    return rr;
  }

  /** The first component of {@code dir} below the root that is a symbolic link (for messages). */
  private Path linkOnPath(Path dir) {
    Path p = root;
    for (Path part : root.relativize(dir)) {
      p = p.resolve(part);
      if (Files.isSymbolicLink(p)) {
        return p;
      }
    }
    return dir;
  }

  /**
   * The real path of {@code p} with links resolved: the real path of its deepest existing ancestor
   * followed by the components that do not exist yet.
   */
  public static Path realPathOfExisting(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    Path existing = abs;
    while (existing != null) {
      try {
        Path real = existing.toRealPath();
        return real.resolve(existing.relativize(abs)).normalize();
      } catch (IOException e) {
        existing = existing.getParent();
      }
    }
    return abs;
  }

  private ZarrStoreException directoryAsValue(String key, Path p) {
    return new ZarrStoreException(
        "key '"
            + key
            + "' of "
            + describe()
            + " is a directory ("
            + p
            + ") where a value (a chunk or metadata file) should be a file; the array is"
            + " corrupt there: remove the directory or rewrite the array",
        new IOException(p + " is a directory"));
  }

  @Override
  public byte[] get(String key) {
    return read(key, Stores.MAX_VALUE_BYTES);
  }

  /**
   * The file's size, from its attributes, is checked against {@code maxBytes} before anything is
   * read or allocated.
   */
  @Override
  public byte[] get(String key, long maxBytes) {
    Stores.checkMaxBytes(key, maxBytes);
    return read(key, maxBytes);
  }

  private byte[] read(String key, long maxBytes) {
    Path p = resolve(key);
    try {
      return LocalFiles.readFully(p, maxBytes);
    } catch (LocalFiles.TooLarge e) {
      throw ValueTooLargeException.of(key, this, e.size, maxBytes);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        throw directoryAsValue(key, p);
      }
      if (Files.isSymbolicLink(p)) {
        return readLink(key, p, maxBytes);
      }
      if (underAFile(p)) {
        return null;
      }
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  /** Reads a value that is a symbolic link, if it leads to a file inside the root. */
  private byte[] readLink(String key, Path p, long maxBytes) {
    Path real = realPathOfExisting(p);
    Path rr = rootReal();
    if (rr == null || !real.startsWith(rr)) {
      throw new IllegalArgumentException(
          "store key '"
              + key
              + "' of "
              + describe()
              + ": "
              + p
              + " is a symbolic link leading outside the store root (to "
              + real
              + "); the store"
              + " never follows links out of its root");
    }
    if (Files.isDirectory(real)) {
      throw directoryAsValue(key, p);
    }
    try {
      return Files.exists(real) ? LocalFiles.readFully(real, maxBytes) : null;
    } catch (LocalFiles.TooLarge e) {
      throw ValueTooLargeException.of(key, this, e.size, maxBytes);
    } catch (IOException e) {
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  /** Creates {@code dir} and its parents: owner-only (0700) in an owner-only store. */
  private void createDirs(Path dir) throws IOException {
    if (ownerOnly) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }

  /** Writes a new file: owner-only (0600) in an owner-only store, else the umask's mode. */
  private void writeNew(Path tmp, byte[] value, int length) throws IOException {
    if (ownerOnly) {
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
        LocalFiles.writeAll(ch, value, length);
      }
    } else {
      LocalFiles.writeFully(
          tmp, value, length, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    Stores.checkRange(key, offset, length);
    Path p = resolve(key);
    if (Files.isDirectory(p)) {
      throw directoryAsValue(key, p);
    }
    if (Files.isSymbolicLink(p)) {
      byte[] all = readLink(key, p, Stores.MAX_VALUE_BYTES);
      if (all == null) {
        return null;
      }
      int from = (int) Math.min(offset, all.length);
      return Arrays.copyOfRange(all, from, (int) Math.min(all.length, from + (long) length));
    }
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      int n = (int) Math.max(0, Math.min(length, size - offset));
      ByteBuffer buf = ByteBuffer.allocate(n);
      long pos = offset;
      while (buf.hasRemaining()) {
        ByteBuffer slice =
            buf.slice(buf.position(), Math.min(LocalFiles.IO_SLICE, buf.remaining()));
        int r = ch.read(slice, pos);
        if (r < 0) {
          break;
        }
        buf.position(buf.position() + r);
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
      if (underAFile(p)) {
        return null;
      }
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    Stores.checkSuffix(key, length);
    Path p = resolve(key);
    try {
      long size = Files.size(p);
      if (Files.isSymbolicLink(p)) {
        readLink(key, p, Stores.MAX_VALUE_BYTES); // refuses a link out of the root
      }
      return getRange(key, Math.max(0, size - length), length);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (underAFile(p)) {
        return null;
      }
      throw new ZarrStoreException("cannot read key '" + key + "' of " + describe(), e);
    }
  }

  @Override
  public void put(String key, byte[] value) {
    put(key, value, value.length);
  }

  /** Writes the prefix straight from {@code value} (no copy). */
  @Override
  public void put(String key, byte[] value, int length) {
    Stores.checkLength(key, value, length);
    Path p = resolve(key);
    Path tmp = null;
    try {
      Path dir = p.getParent();
      if (!goodDirs.contains(dir)) {
        createDirs(dir);
        checkInsideRoot(dir, key); // again, now that it exists (creation raced with a link?)
      }
      // default permissions (0666 less the umask), not createTempFile's 0600, unless ownerOnly
      tmp =
          dir.resolve(
              TMP_PREFIX
                  + p.getFileName()
                  + "."
                  + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
      try {
        writeNew(tmp, value, length);
      } catch (NoSuchFileException e) {
        // a directory cached as good was removed (a target replaced by a staged write): again
        goodDirs.remove(dir);
        createDirs(dir);
        checkInsideRoot(dir, key);
        writeNew(tmp, value, length);
      }
      try {
        Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (IOException e) {
      throw LocalFiles.writeFailure("write", key, describe(), e);
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

  /**
   * True if a segment above {@code p} is a file ("a/b/c" when "a/b" is a value): the key is absent
   * (the OS says "Not a directory").
   */
  private boolean underAFile(Path p) {
    for (Path q = p.getParent();
        q != null && q.startsWith(root) && !q.equals(root);
        q = q.getParent()) {
      if (Files.isRegularFile(q, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes a key's file, then the directories above it that became empty (up to the root), so
   * {@link #listChildren} never names a "directory" without keys. A concurrent put into a removed
   * directory recreates it (see {@link #put(String, byte[], int)}).
   */
  @Override
  public void delete(String key) {
    Path p = resolve(key);
    try {
      if (!Files.isDirectory(p) && Files.deleteIfExists(p)) {
        for (Path d = p.getParent();
            d != null && !d.equals(root) && d.startsWith(root);
            d = d.getParent()) {
          try {
            Files.delete(d);
          } catch (DirectoryNotEmptyException | NoSuchFileException e) {
            break;
          }
        }
      }
    } catch (IOException e) {
      throw LocalFiles.writeFailure("delete", key, describe(), e);
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
    Path dir = slash < 0 ? root : resolveDir(pre.substring(0, slash));
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
    return Stores.listChildren(this, prefix, pre -> directoryNames(pre, prefix));
  }

  /** The names in the directory of {@code pre} ("" or ending with '/'), without our own files. */
  private List<String> directoryNames(String pre, String prefix) {
    Path dir = pre.isEmpty() ? root : resolveDir(pre.substring(0, pre.length() - 1));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path e : ds) {
        String n = e.getFileName().toString();
        if (!n.startsWith(TMP_PREFIX) && !n.endsWith(WRITE_LOCK)) {
          out.add(n);
        }
      }
    } catch (IOException e) {
      throw new ZarrStoreException("cannot list prefix '" + prefix + "' of " + describe(), e);
    }
    return out;
  }

  private void walk(Path start, List<String> out) throws IOException {
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isSymbolicLink()) {
              Path real = realPathOfExisting(file);
              Path rr = rootReal();
              if (rr != null && !real.startsWith(rr)) {
                throw new IllegalArgumentException(
                    file
                        + " in "
                        + describe()
                        + " is a symbolic link"
                        + " leading outside the store root (to "
                        + real
                        + "); the store never follows"
                        + " links out of its root. Remove the link");
              }
            }
            String n = file.getFileName().toString();
            if (attrs.isRegularFile() && !n.startsWith(TMP_PREFIX) && !n.endsWith(WRITE_LOCK)) {
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
