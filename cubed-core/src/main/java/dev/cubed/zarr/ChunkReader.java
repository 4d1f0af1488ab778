package dev.cubed.zarr;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.BloscBlockReader;
import dev.cubed.zarr.codec.BloscBytesCodec;
import dev.cubed.zarr.codec.BloscStreams;
import dev.cubed.zarr.codec.ByteShuffle;
import dev.cubed.zarr.codec.ChunkCodec;
import dev.cubed.zarr.codec.Crc32cInput;
import dev.cubed.zarr.codec.JavaBlosc;
import dev.cubed.zarr.codec.ZstdRuns;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.ZarrFormatException;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs of one stored chunk's elements read without decoding the chunk: only the codec blocks (256
 * KiB) a run touches are read from the chunk's file and decoded, and up to a given number of
 * decoded blocks are kept (least recently used first out), so a reader going through a chunk in
 * tiles holds a few blocks, not the chunk. Float64 blocks stored byte-shuffled (the default codec)
 * are kept decompressed but still shuffled, and each run is unshuffled straight into its
 * destination: every element is unshuffled once, as a whole-block decode would, without a second
 * pass copying it out of a decoded block. The array of the block evicted is reused for the block
 * decoded next (no allocation per block once the cache is full: a block cached for a while would
 * otherwise survive young collections and be copied and promoted). A chunk stored with a crc32c
 * checksum is checked when the reader opens it (one sequential pass over the file through a 64 KiB
 * buffer), since runs read single blocks. A {@code bytes} + zstd chunk (zarr-python 3's default)
 * cannot be decoded block by block: it is decoded forward as a stream as far as the runs reach
 * ({@link ZstdRuns}), so runs should come in increasing order. Made by {@link
 * ZarrArray#chunkReader}; for the default codec and bytes + zstd in a local directory. A chunk that
 * is not stored reads as the fill value. Not thread-safe; close it to release the file.
 */
public final class ChunkReader implements AutoCloseable {
  private final DType dtype;
  private final ByteOrder order;
  private final long total;
  private final int slots;
  private final FileChannel ch;
  private final BloscBlockReader blocks;

  /** A bytes + zstd chunk read forward as a stream (null for Blosc). */
  private final ZstdRuns runs;

  private final int blockElems;
  private final Object fillRun;
  private final int cacheBlocks;
  private final Map<Integer, Object> cache;

  /**
   * Little-endian float64 in byte-shuffled blocks: the cache holds blocks as decompressed (still
   * shuffled) and each run is unshuffled straight into its destination.
   */
  private final boolean shuffledDoubles;

  private final long[] scratch = new long[8];

  private ChunkReader(
      DType dtype,
      ByteOrder order,
      long[] full,
      FileChannel ch,
      BloscBlockReader blocks,
      ZstdRuns runs,
      Object fill,
      int cacheBlocks) {
    this.runs = runs;
    this.dtype = dtype;
    this.order = order;
    this.total = Shapes.size(full);
    this.slots = dtype.isComplex() ? 2 : 1;
    this.ch = ch;
    this.blocks = blocks;
    this.blockElems = blocks == null ? 0 : blocks.blockSize() / dtype.itemSize();
    this.fillRun = blocks == null && runs == null ? fill : null;
    this.cacheBlocks = Math.max(1, cacheBlocks);
    this.cache = new LinkedHashMap<>(16, 0.75f, true);
    this.shuffledDoubles =
        blocks != null
            && dtype == DType.FLOAT64
            && order == ByteOrder.LITTLE_ENDIAN
            && blocks.shuffles(8);
  }

  /**
   * A reader of chunk {@code key} of a default-codec array in {@code fs}, or null if this chunk
   * needs a whole read (its blocks are not whole elements, or its codec variant is native-only).
   */
  static ChunkReader open(
      FileSystemStore fs,
      String key,
      ZarrArray z,
      ChunkCodec codec,
      DType dtype,
      ByteOrder order,
      long[] full,
      Object fill,
      boolean missingIsError,
      int cacheBlocks,
      String where) {
    Path p = fs.resolve(key);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
      if (missingIsError) {
        throw new MissingChunkException(
            "engine error: chunk '"
                + key
                + "' of "
                + where
                + " was read before it was written; the operation producing it had not finished."
                + " Please report this with the plan (CubedArray.plan()).");
      }
      Object f = NDArray.full(dtype, fill, new long[] {1}).data();
      return new ChunkReader(dtype, order, full, null, null, null, f, cacheBlocks);
    }
    FileChannel ch = ChunkFiles.openChunk(p);
    if (ch == null) {
      return null;
    }
    boolean ok = false;
    try {
      long size = ch.size();
      long bound = z.maxStoredChunkBytes();
      if (size > bound) {
        throw ZarrChunks.tooLarge(z, key, size, bound, null);
      }
      JavaBlosc.Input in = ChunkFiles.input(ch, size, where);
      if (codec.trailingCrc32c()) {
        // runs read single blocks: the whole stored value is checked once, here, before any
        Crc32cInput checked = new Crc32cInput(in, where);
        checked.verify();
        in = checked;
        size = checked.size();
      }
      long need = Shapes.size(full) * dtype.itemSize();
      if (codec.decodesForward()) {
        ZstdRuns zr = ZstdRuns.open(in, dtype, order, need, where);
        if (zr == null) {
          return null;
        }
        ok = true;
        return new ChunkReader(dtype, order, full, ch, null, zr, null, cacheBlocks);
      }
      if (size < 16) {
        return null;
      }
      byte[] header = new byte[16];
      in.read(0, header, 16);
      if (!codec.decodesBlockwise() || !JavaBlosc.canDecode(header) || need > Integer.MAX_VALUE) {
        return null;
      }
      BloscBytesCodec.checkHeader(header, size, (int) need, where);
      if (JavaBlosc.uncompressedSize(header, where) != need) {
        throw new ZarrFormatException(
            where
                + ": decoded chunk has "
                + JavaBlosc.uncompressedSize(header, where)
                + " bytes, expected "
                + need
                + " (truncated or corrupt chunk)");
      }
      BloscBlockReader r = new BloscBlockReader(header, in, where);
      if (r.blockSize() % dtype.itemSize() != 0) {
        return null;
      }
      ok = true;
      return new ChunkReader(dtype, order, full, ch, r, null, null, cacheBlocks);
    } catch (IOException e) {
      throw new ZarrStoreException("cannot read key '" + key + "' of " + fs.describe(), e);
    } finally {
      if (!ok) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // nothing was read through it
        }
      }
    }
  }

  /**
   * Elements {@code [start, start + count)} of the full chunk (C order; an edge chunk's padding
   * included) into {@code dst}, a backing array of the chunk's dtype, from element {@code at}.
   *
   * @throws ZarrFormatException if a block read is corrupt
   */
  public void read(long start, int count, Object dst, int at) {
    if (start < 0 || count < 0 || start > total - count) {
      throw new IllegalArgumentException(
          "chunk reader: run ["
              + start
              + ", "
              + (start + count)
              + ") outside a chunk of "
              + total
              + " elements");
    }
    if (runs != null) {
      runs.read(start, count, dst, at);
      return;
    }
    if (blocks == null) {
      for (int i = 0; i < count; i++) {
        System.arraycopy(fillRun, 0, dst, (at + i) * slots, slots);
      }
      return;
    }
    long e = start;
    int d = 0;
    if (shuffledDoubles) {
      while (d < count) {
        int j = (int) (e / blockElems);
        int in = (int) (e - (long) j * blockElems);
        byte[] block = (byte[]) block(j);
        int items = (int) Math.min(blockElems, total - (long) j * blockElems);
        int n = Math.min(count - d, items - in);
        ByteShuffle.unshuffleDoubles(block, in, n, (double[]) dst, at + d, items, scratch);
        d += n;
        e += n;
      }
      return;
    }
    while (d < count) {
      int j = (int) (e / blockElems);
      int in = (int) (e - (long) j * blockElems);
      Object block = block(j);
      int n = Math.min(count - d, Array.getLength(block) / slots - in);
      System.arraycopy(block, in * slots, dst, (at + d) * slots, n * slots);
      d += n;
      e += n;
    }
  }

  /**
   * Block {@code j} (from the cache, or read now): decoded into an array of the dtype, or as
   * shuffled bytes ({@link #shuffledDoubles}).
   */
  private Object block(int j) {
    Object b = cache.get(j);
    if (b != null) {
      return b;
    }
    long first = (long) j * blockElems;
    int n = (int) Math.min(blockElems, total - first);
    int len = shuffledDoubles ? 8 * n : n * slots;
    Object d = null;
    if (cache.size() >= cacheBlocks) {
      Integer eldest = cache.keySet().iterator().next();
      Object old = cache.remove(eldest);
      if (Array.getLength(old) == len) {
        d = old;
      }
    }
    if (shuffledDoubles) {
      byte[] bytes = d == null ? new byte[len] : (byte[]) d;
      blocks.decodeShuffled(j, bytes);
      d = bytes;
    } else {
      if (d == null) {
        d = NDArray.zeros(dtype, new long[] {n}).data();
      }
      blocks.decode(j, BloscStreams.into(dtype, order, d, (int) first));
    }
    cache.put(j, d);
    return d;
  }

  /** True if runs are unshuffled from cached shuffled blocks (see the class comment). */
  boolean unshufflesRuns() {
    return shuffledDoubles;
  }

  /** Decoded bytes per block: a reader holds at most its cache size times this. */
  public long blockBytes() {
    return (long) blockElems * dtype.itemSize();
  }

  @Override
  public void close() {
    cache.clear();
    if (runs != null) {
      runs.close();
    }
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // read-only channel
      }
    }
  }
}
