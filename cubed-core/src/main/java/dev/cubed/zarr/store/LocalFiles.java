package dev.cubed.zarr.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whole files on a local disk: read and written in slices of at most {@link #IO_SLICE} bytes (so
 * the JDK never holds a chunk-sized direct buffer per thread), and a failed write named by its
 * cause. Used by {@link FileSystemStore} and its chunk and staged-write paths.
 */
public final class LocalFiles {
  private LocalFiles() {}

  /**
   * The exception for a failed write of {@code key}: a read-only file system or denied permission,
   * and a full disk, are named as such with what to do; other errors keep their own message.
   */
  public static ZarrStoreException writeFailure(
      String action, String key, String where, IOException e) {
    String reason =
        e instanceof FileSystemException fe && fe.getReason() != null
            ? fe.getReason()
            : String.valueOf(e.getMessage());
    String head = "cannot " + action + " key '" + key + "' of " + where + ": ";
    if (e instanceof AccessDeniedException
        || reason.contains("Read-only file system")
        || reason.contains("Permission denied")) {
      return new ZarrStoreException(
          head
              + "the location is read-only or not writable by this"
              + " user ("
              + (e instanceof FileSystemException fe ? fe.getFile() : "")
              + " "
              + reason
              + "); choose a writable path or fix its permissions",
          e);
    }
    if (reason.contains("No space left on device") || reason.contains("Disk quota exceeded")) {
      return new ZarrStoreException(
          head
              + "no space left on device ("
              + reason
              + "); free"
              + " space or write the output and the work directory (--work-dir) elsewhere",
          e);
    }
    return new ZarrStoreException(head + e, e);
  }

  /**
   * Largest slice handed to one channel read or write. The JDK copies heap buffers through a
   * temporary direct buffer of the slice's size and caches it per thread; whole-chunk slices would
   * pin a chunk-sized block of native memory per thread, outside the heap the memory model bounds.
   */
  public static final int IO_SLICE = 1 << 20;

  /** A file larger than the bound of {@link #readFully(Path, long)}: nothing of it was read. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
    final long size;

    TooLarge(Path p, long size, long max) {
      super(p + " has " + size + " bytes, more than the " + max + " to be read");
      this.size = size;
    }
  }

  /** Reads a whole file in {@link #IO_SLICE} slices. */
  static byte[] readFully(Path p) throws IOException {
    return readFully(p, Integer.MAX_VALUE - 8);
  }

  /**
   * Reads a whole file of at most {@code max} bytes in {@link #IO_SLICE} slices; a larger file (its
   * size taken from the open file, so it cannot grow in between) is refused before anything is read
   * or allocated.
   *
   * @throws TooLarge for a file of more than {@code max} bytes
   */
  static byte[] readFully(Path p, long max) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = ch.size();
      if (size > max) {
        throw new TooLarge(p, size, max);
      }
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException(p + " has " + size + " bytes, more than one value can hold");
      }
      byte[] out = new byte[(int) size];
      int pos = 0;
      while (pos < out.length) {
        int r = ch.read(ByteBuffer.wrap(out, pos, Math.min(IO_SLICE, out.length - pos)));
        if (r < 0) {
          throw new IOException(p + " shrank while being read: " + pos + " of " + size + " bytes");
        }
        pos += r;
      }
      return out;
    }
  }

  /** Writes a whole file in {@link #IO_SLICE} slices. */
  static void writeFully(Path p, byte[] value) throws IOException {
    writeFully(
        p,
        value,
        value.length,
        StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.CREATE);
  }

  /**
   * Writes the first {@code length} bytes of {@code value} to a file opened with {@code options}.
   */
  static void writeFully(Path p, byte[] value, int length, OpenOption... options)
      throws IOException {
    try (FileChannel ch = FileChannel.open(p, options)) {
      writeAll(ch, value, length);
    }
  }

  /** Writes the first {@code length} bytes of {@code value} to {@code ch} in slices. */
  static void writeAll(FileChannel ch, byte[] value, int length) throws IOException {
    int pos = 0;
    while (pos < length) {
      pos += ch.write(ByteBuffer.wrap(value, pos, Math.min(IO_SLICE, length - pos)));
    }
  }
}
