package dev.cubed.zarr;

import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.ChunkCodec;
import dev.cubed.zarr.codec.JavaBlosc;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.LocalFiles;
import dev.cubed.zarr.store.ValueTooLargeException;
import dev.cubed.zarr.store.ZarrFormatException;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a chunk of a {@link FileSystemStore} straight from its file, a Blosc block at a time (or a
 * slice of a zstd, gzip or zlib stream at a time, {@link dev.cubed.zarr.codec.StreamedDecode}),
 * into its array clipped to the array's edges: neither the stored bytes nor the full chunk of an
 * edge are ever in memory, so the memory model counts the chunk alone ({@link
 * ZarrArray#readCopies()} = 0 for codecs that {@link ChunkCodec#decodesStreamed() decode
 * streamed}).
 */
final class ChunkFiles {
  private ChunkFiles() {}

  /**
   * The chunk at {@code key} of {@code fs} decoded into an array of shape {@code clipped}, or null
   * when the whole-value path must decide: no such file, a link or a directory there, a value too
   * short for a header, or a chunk the codec decodes whole (a foreign Blosc variant, which then
   * holds its stored bytes too).
   *
   * @throws ZarrFormatException naming {@code where} if the file is truncated or corrupt
   * @throws ValueTooLargeException (the store's message; the caller names the chunk) if the file
   *     holds more than {@code bound} bytes, before anything is read
   * @throws ZarrStoreException if the file cannot be read
   */
  static NDArray read(
      FileSystemStore fs,
      String key,
      ChunkCodec codec,
      long[] full,
      long[] clipped,
      long bound,
      String where) {
    return decodeFile(
        fs,
        key,
        bound,
        where,
        null,
        in -> {
          byte[] header = new byte[16];
          in.read(0, header, 16);
          return codec.decode(header, in, full, clipped, where);
        });
  }

  /**
   * Decodes the box at {@code lo} of shape {@code box} (every {@code step[i]}-th element; null: 1)
   * of the chunk at {@code key} of {@code fs} straight into {@code dst} at {@code dstAt} ({@link
   * ChunkCodec#decodeInto}); false, having written nothing, when the whole-chunk path must decide
   * (as {@link #read} returns null).
   *
   * @throws ZarrFormatException naming {@code where} if the part of the file decoded is truncated
   *     or corrupt
   * @throws ValueTooLargeException (the store's message; the caller names the chunk) if the file
   *     holds more than {@code bound} bytes, before anything is read
   * @throws ZarrStoreException if the file cannot be read
   */
  static boolean readInto(
      FileSystemStore fs,
      String key,
      ChunkCodec codec,
      long[] full,
      long[] lo,
      long[] box,
      long[] step,
      NDArray dst,
      long[] dstAt,
      long bound,
      String where) {
    return decodeFile(
        fs,
        key,
        bound,
        where,
        false,
        in -> codec.decodeInto(in, full, lo, box, step, dst, dstAt, where));
  }

  /**
   * What {@code decoder} makes of the chunk file at {@code key} of {@code fs}, or {@code none} when
   * the file is not there as a regular file or is too short for a header (the caller reads the
   * chunk through the store); errors as {@link #read} says.
   */
  private static <T> T decodeFile(
      FileSystemStore fs,
      String key,
      long bound,
      String where,
      T none,
      java.util.function.Function<FileInput, T> decoder) {
    FileChannel ch = openChunk(fs.resolve(key));
    if (ch == null) {
      return none;
    }
    try (ch) {
      long size = ch.size();
      if (size > bound) {
        throw ValueTooLargeException.of(key, fs, size, bound);
      }
      if (size < 16) {
        return none;
      }
      return decoder.apply(new FileInput(ch, size, where));
    } catch (IOException e) {
      throw new ZarrStoreException("cannot read key '" + key + "' of " + fs.describe(), e);
    } catch (ZarrFormatException | ZarrStoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ZarrFormatException(where + ": cannot decode (" + e + ")", e);
    }
  }

  /**
   * The chunk file at {@code p} opened for reading, or null if it is not a regular file (missing, a
   * directory, a link) or cannot be opened: the caller then reads the chunk through the store.
   */
  static FileChannel openChunk(Path p) {
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    try {
      return FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** Positional reads of an open chunk file of {@code size} bytes. */
  static JavaBlosc.Input input(FileChannel ch, long size, String where) {
    return new FileInput(ch, size, where);
  }

  /** Positional reads of an open chunk file, in slices the JDK's temporary buffers keep small. */
  private record FileInput(FileChannel ch, long size, String where) implements JavaBlosc.Input {
    @Override
    public void read(long pos, byte[] dst, int len) {
      int done = 0;
      try {
        while (done < len) {
          int r =
              ch.read(
                  ByteBuffer.wrap(dst, done, Math.min(LocalFiles.IO_SLICE, len - done)),
                  pos + done);
          if (r < 0) {
            throw new ZarrFormatException(
                where
                    + ": the file ended at "
                    + (pos + done)
                    + " bytes while "
                    + size
                    + " were expected (truncated while being read)");
          }
          done += r;
        }
      } catch (IOException e) {
        throw new ZarrStoreException(where + ": cannot read (" + e.getMessage() + ")", e);
      }
    }

    @Override
    public void read(long pos, ByteBuffer dst) {
      long at = pos;
      try {
        while (dst.hasRemaining()) {
          int r = ch.read(dst, at);
          if (r < 0) {
            throw new ZarrFormatException(
                where
                    + ": the file ended at "
                    + at
                    + " bytes while "
                    + size
                    + " were expected (truncated while being read)");
          }
          at += r;
        }
      } catch (IOException e) {
        throw new ZarrStoreException(where + ": cannot read (" + e.getMessage() + ")", e);
      }
    }
  }
}
