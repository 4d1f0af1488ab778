package dev.cubed.zarr.codec;

import static dev.cubed.zarr.codec.BloscBlocks.layout;
import static dev.cubed.zarr.codec.JavaBlosc.DEFAULT_BLOCK;
import static dev.cubed.zarr.codec.JavaBlosc.FLAG_MEMCPYED;
import static dev.cubed.zarr.codec.JavaBlosc.HEADER;
import static dev.cubed.zarr.codec.JavaBlosc.MAX_SPLITS;
import static dev.cubed.zarr.codec.JavaBlosc.corrupt;
import static dev.cubed.zarr.codec.JavaBlosc.uncompressedSize;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Random access to the blocks of a Blosc buffer read from a {@link JavaBlosc.Input} (its 16-byte
 * header, which {@link JavaBlosc#canDecode} accepts and whose sizes the caller has checked): block
 * {@code j} holds bytes {@code [j * blockSize(), ...)} of the decompressed data and is read and
 * decoded alone (its stored bytes, its streams); the block offsets are read once. Holds two
 * block-sized arrays. Used by {@link JavaBlosc#decompress(byte[], JavaBlosc.Input, JavaBlosc.Sink,
 * String)} (every block in turn) and {@link dev.cubed.zarr.ChunkReader} (the blocks a run touches).
 */
public final class BloscBlockReader {
  private final JavaBlosc.Input in;
  private final String where;
  private final int nbytes;
  private final int bs;
  private final int nblocks;
  private final boolean memcpyed;
  private final BloscBlocks b;
  private final long[] starts;
  private final long[] sorted;
  private final long size;
  private final int typeSize;
  private byte[] span = new byte[0];

  public BloscBlockReader(byte[] header, JavaBlosc.Input in, String where) {
    this.in = in;
    this.where = where;
    ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
    int flags = header[2] & 0xFF;
    int ts = header[3] & 0xFF;
    this.nbytes = uncompressedSize(header, where);
    this.typeSize = ts;
    int blockSize = h.getInt(8);
    this.size = in.size();
    this.memcpyed = (flags & FLAG_MEMCPYED) != 0;
    if (memcpyed) {
      if (size < HEADER + (long) nbytes) {
        throw corrupt(
            where, "stored block of " + (size - HEADER) + " bytes, header says " + nbytes);
      }
      this.bs = Math.max(1, Math.min(DEFAULT_BLOCK, nbytes));
      this.nblocks = (int) ((nbytes + (long) bs - 1) / bs);
      this.b = null;
      this.starts = null;
      this.sorted = null;
      return;
    }
    this.b = layout(flags, ts, nbytes, blockSize, size, where);
    this.bs = Math.max(1, blockSize);
    this.nblocks = b == null ? 0 : b.nblocks;
    byte[] table = new byte[4 * nblocks];
    in.read(HEADER, table, table.length);
    ByteBuffer t = ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN);
    // a block's bytes run to the next block's start (c-blosc may write blocks out of order)
    this.starts = new long[nblocks + 1];
    for (int j = 0; j < nblocks; j++) {
      starts[j] = t.getInt(4 * j) & 0xFFFFFFFFL;
    }
    starts[nblocks] = size;
    this.sorted = starts.clone();
    Arrays.sort(sorted);
  }

  /** Decompressed bytes per block (the last may be shorter). */
  public int blockSize() {
    return bs;
  }

  /** The number of blocks. */
  int blocks() {
    return nblocks;
  }

  /**
   * True if the blocks are stored compressed with the byte shuffle of {@code itemSize}-byte items
   * (so {@link #decodeShuffled} gives their bytes still shuffled: byte {@code b} of item {@code k}
   * of a block of {@code n} items at {@code b * n + k}).
   */
  public boolean shuffles(int itemSize) {
    return !memcpyed
        && b != null
        && b.shuffled()
        && typeSize == itemSize
        && bs % itemSize == 0
        && nbytes % itemSize == 0;
  }

  /**
   * Decompresses block {@code j} into {@code out} (at least {@link #blockSize()} bytes) without
   * undoing the byte shuffle; returns the block's size in bytes. Only when {@link #shuffles}.
   */
  public int decodeShuffled(int j, byte[] out) {
    int len = readSpan(j);
    return b.streams(j, span, 0, len, out, where);
  }

  /** Decodes block {@code j} into {@code out} (at its offsets in the decompressed data). */
  public void decode(int j, JavaBlosc.Sink out) {
    if (memcpyed) {
      int off = j * bs;
      int len = Math.min(bs, nbytes - off);
      if (span.length < len) {
        span = new byte[len];
      }
      in.read(HEADER + (long) off, span, len);
      out.accept(off, span, 0, len);
      return;
    }
    int len = readSpan(j);
    b.decode(j, span, 0, len, out, where);
  }

  /** Reads block {@code j}'s stored bytes (its streams) into {@code span}; returns their size. */
  private int readSpan(int j) {
    long pos = starts[j];
    int k = Arrays.binarySearch(sorted, pos);
    while (k + 1 < sorted.length && sorted[k + 1] == pos) {
      k++;
    }
    long end = k + 1 < sorted.length ? sorted[k + 1] : size;
    // at most a block, its streams' sizes and LZ4's worst-case growth
    long maxSpan = 2L * bs + 64L * MAX_SPLITS + 1024;
    if (pos < HEADER + 4L * nblocks || pos >= size || end - pos > maxSpan) {
      throw corrupt(
          where,
          "block "
              + j
              + " starts at "
              + pos
              + " of "
              + size
              + " bytes with "
              + (end - pos)
              + " bytes to the next block");
    }
    int len = (int) (end - pos);
    if (span.length < len) {
      span = new byte[len];
    }
    in.read(pos, span, len);
    return len;
  }
}
