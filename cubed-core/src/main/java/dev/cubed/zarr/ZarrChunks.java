package dev.cubed.zarr;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.ChunkElements;
import dev.cubed.zarr.codec.ChunkRuns;
import dev.cubed.zarr.codec.FillValues;
import dev.cubed.zarr.metadata.ArrayMetadata;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ValueTooLargeException;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reading and writing one chunk of a {@link ZarrArray}: its key, the codec (decoded straight from a
 * local file a codec block at a time where it can be), the fill value for chunks not stored and the
 * empty-chunk policy. The contracts are those of ZarrArray's {@code readChunk}, {@code chunkReader}
 * and {@code writeChunk}, which call these.
 */
final class ZarrChunks {
  private ZarrChunks() {}

  /**
   * Chunk {@code coords}, clipped to the array; a chunk not stored reads as the fill value (an
   * intermediate's is an error).
   */
  static NDArray read(ZarrArray z, long[] coords) {
    long[] clipped = z.chunkShape(coords);
    ArrayMetadata meta = z.metadata();
    Store store = z.store();
    String key = Keys.join(z.path(), meta.chunkKey(coords));
    long[] full = z.chunks();
    long bound = z.maxStoredChunkBytes();
    NDArray a;
    byte[] b;
    try {
      a =
          store instanceof FileSystemStore fs && meta.codec.decodesStreamed()
              ? ChunkFiles.read(fs, key, meta.codec, full, clipped, bound, where(z, key))
              : null;
      if (a != null) {
        return a;
      }
      b = store.get(key, bound);
    } catch (ValueTooLargeException e) {
      throw tooLarge(z, key, e.size(), bound, e);
    }
    if (b == null) {
      if (z.isIntermediate()) {
        throw new MissingChunkException(
            "engine error: chunk "
                + Arrays.toString(coords)
                + " (key '"
                + key
                + "' in "
                + store.describe()
                + ") of intermediate array '"
                + z.path()
                + "' was read before it was written; the operation producing it had not"
                + " finished. Please report this with the plan (CubedArray.plan()).");
      }
      return NDArray.full(meta.dtype, meta.fillValue, clipped);
    }
    a = decode(z, b, key); // the stored bytes are garbage once it returns
    return Arrays.equals(clipped, full) ? a : a.getRegion(new long[clipped.length], clipped);
  }

  /**
   * Whether chunks of {@code z} are read a box at a time ({@link #readInto}): a local directory and
   * a codec that {@link dev.cubed.zarr.codec.ChunkCodec#decodesRegions() decodes regions} (a 0-d
   * array's one element is read as a whole chunk).
   */
  static boolean readsInto(ZarrArray z) {
    return z.store() instanceof FileSystemStore
        && z.ndim() > 0
        && z.metadata().codec.decodesRegions();
  }

  /**
   * Decodes the box at {@code lo} of shape {@code box} (every {@code step[i]}-th element; null: 1)
   * of chunk {@code coords} straight into {@code dst} at {@code dstAt}; false, having written
   * nothing, if the chunk must be read whole ({@link #read}: not stored, not a regular file, or a
   * value the codec does not decode this way). Only called when {@link #readsInto} holds.
   */
  static boolean readInto(
      ZarrArray z, long[] coords, long[] lo, long[] box, long[] step, NDArray dst, long[] dstAt) {
    ArrayMetadata meta = z.metadata();
    String key = Keys.join(z.path(), meta.chunkKey(coords));
    long bound = z.maxStoredChunkBytes();
    try {
      return ChunkFiles.readInto(
          (FileSystemStore) z.store(),
          key,
          meta.codec,
          z.chunks(),
          lo,
          box,
          step,
          dst,
          dstAt,
          bound,
          where(z, key));
    } catch (ValueTooLargeException e) {
      throw tooLarge(z, key, e.size(), bound, e);
    }
  }

  private static NDArray decode(ZarrArray z, byte[] b, String key) {
    try {
      return z.metadata().codec.decode(b, z.chunks(), where(z, key));
    } catch (ZarrFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ZarrFormatException(where(z, key) + ": cannot decode (" + e + ")", e);
    }
  }

  /** A region reader of chunk {@code coords} of an array that reads regions, or null. */
  static ChunkReader reader(ZarrArray z, long[] coords, int cacheBlocks) {
    ArrayMetadata meta = z.metadata();
    String key = Keys.join(z.path(), meta.chunkKey(coords));
    return ChunkReader.open(
        (FileSystemStore) z.store(),
        key,
        z,
        meta.codec,
        meta.dtype,
        meta.codec.byteOrder(),
        z.chunks(),
        meta.fillValue,
        z.isIntermediate(),
        cacheBlocks,
        where(z, key));
  }

  /** Writes chunk {@code coords} from {@code data} (the array's dtype, the clipped shape). */
  static void write(ZarrArray z, long[] coords, NDArray data) {
    long[] clipped = z.chunkShape(coords);
    ArrayMetadata meta = z.metadata();
    if (data.dtype() != meta.dtype) {
      throw new IllegalArgumentException(
          "writeChunk: data dtype "
              + data.dtype()
              + " differs from the dtype "
              + meta.dtype
              + " of array '"
              + z.path()
              + "'; convert with astype first");
    }
    if (!Arrays.equals(data.shape(), clipped)) {
      throw new IllegalArgumentException(
          "writeChunk: data shape "
              + Shapes.format(data.shape())
              + " differs from the shape "
              + Shapes.format(clipped)
              + " of chunk "
              + Arrays.toString(coords)
              + " of array '"
              + z.path()
              + "'");
    }
    String key = Keys.join(z.path(), meta.chunkKey(coords));
    if (z.emptyChunks() == EmptyChunks.SKIP && FillValues.isAllFill(data, meta.fillValue)) {
      z.store().delete(key);
      return;
    }
    ByteBuffer enc = meta.codec.encode(data, z.chunks(), meta.fillValue);
    z.store().put(key, enc.array(), enc.remaining());
  }

  /** Writes chunk {@code coords} from elements {@code src} makes a run at a time. */
  static void write(ZarrArray z, long[] coords, ChunkElements src) throws Exception {
    long[] clipped = z.chunkShape(coords);
    ArrayMetadata meta = z.metadata();
    String key = Keys.join(z.path(), meta.chunkKey(coords));
    try {
      if (!meta.codec.encodesRuns()) {
        write(z, coords, ChunkRuns.materialize(src, meta.dtype, clipped));
        return;
      }
      ChunkRuns.FillCheck check =
          z.emptyChunks() == EmptyChunks.SKIP
              ? new ChunkRuns.FillCheck(src, meta.dtype, meta.fillValue)
              : null;
      ChunkElements full =
          ChunkRuns.padded(
              check != null ? check : src, meta.dtype, clipped, z.chunks(), meta.fillValue);
      ByteBuffer enc = meta.codec.encode(full, meta.dtype, z.chunks());
      if (check != null && check.allFill()) {
        z.store().delete(key);
        return;
      }
      z.store().put(key, enc.array(), enc.remaining());
    } catch (ChunkRuns.Failed f) {
      throw (Exception) f.getCause();
    }
  }

  /**
   * The one-line refusal of a stored chunk of {@code size} bytes (-1: more than {@code bound}),
   * naming the chunk key, the store and both sizes.
   */
  static ValueTooLargeException tooLarge(
      ZarrArray z, String key, long size, long bound, Throwable cause) {
    ValueTooLargeException e =
        new ValueTooLargeException(
            where(z, key)
                + ": the stored chunk holds "
                + ValueTooLargeException.sizeText(size, bound)
                + ", more than the "
                + bound
                + " bytes a "
                + z.metadata().dtype
                + " chunk of shape "
                + Shapes.format(z.chunks())
                + " can take with its codecs (decoded size plus the codecs' worst case);"
                + " refused before reading it (corrupt, foreign or hostile chunk)",
            size,
            bound);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  private static String where(ZarrArray z, String key) {
    return "zarr array '" + z.path() + "' chunk '" + key + "' in " + z.store().describe();
  }

  /**
   * Checks that {@code coords} name a chunk of {@code z}'s grid; {@code fn} names the caller.
   *
   * @throws IllegalArgumentException for the wrong number of coordinates
   * @throws IndexOutOfBoundsException for a chunk outside the grid
   */
  static void checkCoords(ZarrArray z, String fn, long[] coords) {
    long[] g = z.chunkGridShape();
    if (coords.length != g.length) {
      throw new IllegalArgumentException(
          fn
              + ": "
              + coords.length
              + " chunk coordinates for a "
              + g.length
              + "-d array '"
              + z.path()
              + "' (chunk grid "
              + Shapes.format(g)
              + ")");
    }
    for (int i = 0; i < g.length; i++) {
      if (coords[i] < 0 || coords[i] >= g[i]) {
        throw new IndexOutOfBoundsException(
            fn
                + ": chunk coordinates "
                + Arrays.toString(coords)
                + " are outside the chunk grid "
                + Shapes.format(g)
                + " of array '"
                + z.path()
                + "'");
      }
    }
  }

  /** The number of stored chunk keys of {@code z} (see {@link ZarrArray#chunksWritten()}). */
  static long written(ZarrArray z) {
    String prefix = z.path().isEmpty() ? "" : z.path() + "/";
    long n = 0;
    for (String k : z.store().list(prefix)) {
      if (z.metadata().isChunkKey(k.substring(prefix.length()))) {
        n++;
      }
    }
    return n;
  }
}
