package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * The Blosc 1 container format for the LZ4 compressor with no or byte shuffle, written here so that
 * the project's default codec needs no native buffers outside the Java heap: LZ4 blocks go through
 * lz4-java, whose JNI binding works on pinned heap arrays (pure Java where the native library is
 * missing), and the shuffle runs in Java. Buffers are wire-compatible with c-blosc 1.x both ways
 * (tested against the native binding). Other Blosc variants (blosclz, zstd, zlib, bitshuffle) stay
 * with the native binding.
 *
 * <p>Layout: a 16-byte header (format version, compressor version, flags, type size, then
 * little-endian uncompressed size, block size and total compressed size), one little-endian start
 * offset per block, then the blocks. Flags: 0x1 byte shuffle, 0x2 stored uncompressed (the data
 * follows the header directly), 0x4 bit shuffle, 0x10 blocks not split, bits 5-7 the compressor (1
 * = LZ4). A block is split into one stream per byte of the item when its items are at most 16
 * bytes, it holds at least 128 items and it is not the shorter last block; each stream is a
 * little-endian compressed size and the LZ4 block, or the raw bytes when that size equals the
 * stream's length.
 */
public final class JavaBlosc {
  static final int HEADER = 16;
  static final int FLAG_SHUFFLE = 0x1;
  static final int FLAG_MEMCPYED = 0x2;
  private static final int FLAG_BITSHUFFLE = 0x4;
  static final int FLAG_DONT_SPLIT = 0x10;
  private static final int LZ4_FORMAT = 1;

  /** c-blosc's format code of zstd streams (what zarr-python 3's blosc codec writes). */
  static final int ZSTD_FORMAT = 4;

  static final int MAX_SPLITS = 16;
  static final int MIN_BUFFERSIZE = 128;

  /** Block size chosen when none is given: 256 KiB (a few L2 caches' worth, as c-blosc picks). */
  static final int DEFAULT_BLOCK = 256 << 10;

  static final LZ4Factory LZ4 = fastest();

  private static LZ4Factory fastest() {
    StaleNativeLibraries.sweepOnceInBackground();
    return LZ4Factory.fastestInstance();
  }

  private static final LZ4Factory NATIVE = nativeFactory();

  private static LZ4Factory nativeFactory() {
    try {
      LZ4Factory f = LZ4Factory.nativeInstance();
      f.fastResetCompressor(1).close();
      return f;
    } catch (LinkageError | RuntimeException e) {
      return null; // no native lz4 for this platform: the Java compressor
    }
  }

  private JavaBlosc() {}

  /** Whether this class decodes the buffer: stored uncompressed, or LZ4 without bit shuffle. */
  public static boolean canDecode(byte[] in) {
    if (in.length < HEADER) {
      return false;
    }
    int flags = in[2] & 0xFF;
    if ((flags & FLAG_MEMCPYED) != 0) {
      return true;
    }
    return ((flags >>> 5) == LZ4_FORMAT || (flags >>> 5) == ZSTD_FORMAT)
        && (flags & FLAG_BITSHUFFLE) == 0;
  }

  /** The bytes to compress, read a range at a time (so the whole input need not exist). */
  interface Source {
    /** Copies bytes {@code [off, off + len)} of the input to {@code dst} at {@code dstOff}. */
    void copy(int off, byte[] dst, int dstOff, int len);
  }

  /**
   * Implemented by a {@link Source} or {@link Sink} whose bytes are exactly a {@code double[]}'s
   * elements in little-endian order (byte {@code 8 * i} starts element i): blocks of 8-byte items
   * are then shuffled straight from, or unshuffled straight into, the array.
   */
  interface Float64 {
    /** The array whose bytes the source or sink stands for, or null if it is not one now. */
    double[] doubles();

    /** The element of the whole buffer that the array's entry 0 holds (a block's array: not 0). */
    default int first() {
      return 0;
    }
  }

  /**
   * Implemented by a {@link Source} of float64 elements in little-endian order that makes them a
   * run at a time (a chunk computed while it is encoded): a block of 8-byte items is then shuffled
   * straight from the run's array.
   */
  interface Float64Runs {
    /**
     * Elements {@code [e0, e0 + n)} as the first {@code n} entries of an array (valid until the
     * next call), or null if this source does not make float64 runs now.
     */
    double[] doubles(int e0, int n);
  }

  /** Where decompressed bytes go, a range at a time. */
  interface Sink {
    /** Receives bytes {@code [off, off + len)} of the output from {@code src} at {@code srcOff}. */
    void accept(int off, byte[] src, int srcOff, int len);

    /**
     * Receives bytes {@code [off, off + src.remaining())} of the output from {@code src}'s position
     * (a whole number of items; the buffer's order is not used). The default copies them to an
     * array first; the sinks of {@link BloscStreams} read the buffer directly.
     */
    default void accept(int off, ByteBuffer src) {
      byte[] b = new byte[src.remaining()];
      src.duplicate().get(b);
      accept(off, b, 0, b.length);
    }
  }

  /**
   * Compresses {@code in} with LZ4.
   *
   * @param typeSize item size for the shuffle (1..255; others are treated as 1)
   * @param clevel 0 stores the data uncompressed, 1..9 compress
   * @param shuffle byte shuffle before compressing
   * @param blockSize bytes per block, 0 for {@link #DEFAULT_BLOCK}
   */
  static byte[] compress(byte[] in, int typeSize, int clevel, boolean shuffle, int blockSize) {
    ByteBuffer b =
        compress(
            (off, dst, dstOff, len) -> System.arraycopy(in, off, dst, dstOff, len),
            in.length,
            typeSize,
            clevel,
            shuffle,
            blockSize);
    return b.remaining() == b.array().length ? b.array() : Arrays.copyOf(b.array(), b.remaining());
  }

  /**
   * Compresses {@code nbytes} bytes read from {@code in} a block at a time into one buffer of
   * {@code 16 + nbytes} bytes (the size of the stored-uncompressed form, which is used when
   * compression would not make the data smaller), of which the returned buffer's first {@code
   * remaining()} bytes are the result ({@code position} 0, backed by the whole array). Besides that
   * buffer one block-sized array is allocated (and a second for LZ4's output only when the worst
   * case of a stream does not fit in the rest of the output): the memory of a compression is one
   * copy of the data, not the three of compress-then-trim. Per block the data is read once (through
   * an L1-sized buffer into the shuffled block), LZ4 reads the shuffled block and writes its
   * streams straight into the output.
   */
  static ByteBuffer compress(
      Source in, int nbytes, int typeSize, int clevel, boolean shuffle, int blockSize) {
    return compress(in, nbytes, typeSize, clevel, shuffle, blockSize, 0);
  }

  /**
   * As {@link #compress(Source, int, int, int, boolean, int)}, with {@code tail} more bytes of
   * capacity after the largest result (the buffer is {@code 16 + nbytes + tail} bytes), which the
   * result never uses: room for a checksum appended to it without a copy.
   */
  static ByteBuffer compress(
      Source in, int nbytes, int typeSize, int clevel, boolean shuffle, int blockSize, int tail) {
    return compress(in, nbytes, typeSize, clevel, shuffle, blockSize, tail, null);
  }

  /**
   * As {@link #compress(Source, int, int, int, boolean, int, int)}, into {@code bufs}' output and
   * block buffers when not null (the result's backing array is then the reused output buffer, which
   * may be longer than {@code 16 + nbytes + tail}).
   */
  static ByteBuffer compress(
      Source in,
      int nbytes,
      int typeSize,
      int clevel,
      boolean shuffle,
      int blockSize,
      int tail,
      EncodeBuffers bufs) {
    int ts = typeSize < 1 || typeSize > 255 ? 1 : typeSize;
    if (nbytes > Integer.MAX_VALUE - 32 - tail) {
      throw new IllegalArgumentException("blosc: a chunk of " + nbytes + " bytes is too large");
    }
    byte[] out =
        bufs != null ? bufs.output(HEADER + nbytes + tail) : new byte[HEADER + nbytes + tail];
    int limit = HEADER + nbytes;
    int bs = blockSize > 0 ? Math.max(blockSize, MIN_BUFFERSIZE) : DEFAULT_BLOCK;
    bs = Math.max(1, Math.min(bs, nbytes));
    if (bs > ts) {
      bs = bs / ts * ts;
    }
    boolean split = ts <= MAX_SPLITS && bs / ts >= MIN_BUFFERSIZE;
    // as c-blosc: the shuffle flag says what was asked (it has no effect on 1-byte items)
    int flags = (shuffle ? FLAG_SHUFFLE : 0) | (split ? 0 : FLAG_DONT_SPLIT) | (LZ4_FORMAT << 5);
    if (clevel == 0 || nbytes < MIN_BUFFERSIZE) {
      return memcpyed(in, out, nbytes, ts, flags, bs);
    }
    int nblocks = (nbytes + bs - 1) / bs;
    boolean doShuffle = shuffle && ts > 1;
    LZ4Compressor comp = compressor(clevel);
    try {
      return compressBlocks(
          in,
          nbytes,
          ts,
          flags,
          bs,
          nblocks,
          doShuffle,
          split,
          out,
          limit,
          comp,
          bufs != null ? bufs.block(bs) : new byte[bs]);
    } finally {
      if (comp instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing the LZ4 compressor state failed", e);
        }
      }
    }
  }

  /**
   * The LZ4 compressor c-blosc uses at {@code clevel}: acceleration {@code 10 - clevel} (lz4's
   * {@code LZ4_compress_fast}; the bytes then equal c-blosc's and numcodecs', tested), through
   * lz4-java's native "fast reset" state (the hash table is reset, not cleared, per stream); where
   * the native library does not load, lz4-java's Java compressor at acceleration 1 (still valid
   * Blosc, not the same bytes). The caller closes a returned {@link AutoCloseable}.
   */
  static LZ4Compressor compressor(int clevel) {
    if (NATIVE != null) {
      return NATIVE.fastResetCompressor(Math.max(1, 10 - clevel));
    }
    return LZ4.fastCompressor();
  }

  private static ByteBuffer compressBlocks(
      Source in,
      int nbytes,
      int ts,
      int flags,
      int bs,
      int nblocks,
      boolean doShuffle,
      boolean split,
      byte[] out,
      int limit,
      LZ4Compressor comp,
      byte[] src) {
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    byte[] small = doShuffle ? new byte[subItems(ts) * ts + ts] : null;
    byte[] scratch = null;
    int pos = HEADER + 4 * nblocks;
    for (int j = 0; j < nblocks; j++) {
      int off = j * bs;
      int bsize = Math.min(bs, nbytes - off);
      boolean leftover = bsize < bs;
      o.putInt(HEADER + 4 * j, pos);
      if (doShuffle) {
        shuffleBlock(in, off, bsize, ts, small, src);
      } else {
        in.copy(off, src, 0, bsize);
      }
      int nsplits = split && !leftover ? ts : 1;
      int neblock = bsize / nsplits;
      int bound = comp.maxCompressedLength(neblock);
      for (int s = 0; s < nsplits; s++) {
        // straight into the output while the worst case fits there (all but the end of an
        // incompressible chunk), else through a scratch buffer: the bytes are the same
        boolean direct = (long) pos + 4 + bound <= out.length;
        if (!direct && scratch == null) {
          scratch = new byte[comp.maxCompressedLength(bs)];
        }
        int c =
            direct
                ? comp.compress(src, s * neblock, neblock, out, pos + 4, bound)
                : comp.compress(src, s * neblock, neblock, scratch, 0, scratch.length);
        boolean packed = c > 0 && c < neblock;
        int len = packed ? c : neblock;
        if ((long) pos + 4 + len > limit) { // larger than storing it: store it
          return memcpyed(in, out, nbytes, ts, flags, bs);
        }
        o.putInt(pos, len);
        if (!packed || !direct) {
          System.arraycopy(packed ? scratch : src, packed ? 0 : s * neblock, out, pos + 4, len);
        }
        pos += 4 + len;
      }
    }
    header(out, ts, flags, nbytes, bs, pos);
    return ByteBuffer.wrap(out, 0, pos);
  }

  /** Bytes per part of a block shuffled through the small buffer: it and the part stay in L1. */
  private static final int SUB = 8 << 10;

  /**
   * Items per part of a block in {@link #shuffleBlock} and {@link #unshuffleBlock}: about {@link
   * #SUB} bytes, a whole number of 64-byte lines (so every part but a block's last starts at a
   * multiple of the item size of any dtype: sinks convert whole elements) and of 8 items.
   */
  static int subItems(int ts) {
    int unit = 64 / gcd(ts, 64);
    return unit * Math.max(1, SUB / (unit * ts));
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /**
   * The shuffled block {@code [off, off + bsize)} of {@code in} into {@code dst}, read through
   * {@code small} a part at a time (no block-sized unshuffled copy); the last part carries the
   * {@code bsize % ts} trailing bytes, which stay in place.
   */
  private static void shuffleBlock(
      Source in, int off, int bsize, int ts, byte[] small, byte[] dst) {
    int n = bsize / ts;
    int rem = bsize - n * ts;
    if (n == 0) {
      in.copy(off, dst, 0, rem);
      return;
    }
    if (ts == 8 && rem == 0 && off % 8 == 0 && in instanceof Float64 f && f.doubles() != null) {
      ByteShuffle.shuffleDoubles(f.doubles(), off / 8 - f.first(), n, dst, 0, n);
      return;
    }
    if (ts == 8 && rem == 0 && off % 8 == 0 && in instanceof Float64Runs r) {
      double[] run = r.doubles(off / 8, n);
      if (run != null) {
        ByteShuffle.shuffleDoubles(run, 0, n, dst, 0, n);
        return;
      }
    }
    int step = subItems(ts);
    for (int k = 0; k < n; k += step) {
      int cnt = Math.min(step, n - k);
      int extra = k + cnt == n ? rem : 0;
      in.copy(off + k * ts, small, 0, cnt * ts + extra);
      ByteShuffle.shuffleItems(ts, small, 0, cnt, dst, k, n);
      System.arraycopy(small, cnt * ts, dst, n * ts, extra);
    }
  }

  /** Inverse of {@link #shuffleBlock}: the shuffled {@code src} block to {@code out} at off. */
  static void unshuffleBlock(byte[] src, int bsize, int ts, byte[] small, Sink out, int off) {
    int n = bsize / ts;
    int rem = bsize - n * ts;
    if (n == 0) {
      out.accept(off, src, 0, rem);
      return;
    }
    if (ts == 8 && rem == 0 && off % 8 == 0 && out instanceof Float64 f && f.doubles() != null) {
      ByteShuffle.unshuffleDoubles(src, 0, n, f.doubles(), off / 8 - f.first(), n);
      return;
    }
    int step = subItems(ts);
    for (int k = 0; k < n; k += step) {
      int cnt = Math.min(step, n - k);
      int extra = k + cnt == n ? rem : 0;
      ByteShuffle.unshuffleItems(ts, src, k, cnt, small, 0, n);
      System.arraycopy(src, n * ts, small, cnt * ts, extra);
      out.accept(off + k * ts, small, 0, cnt * ts + extra);
    }
  }

  /**
   * The stored-uncompressed form in {@code out} (16 + nbytes bytes): the header c-blosc writes (the
   * compressed form's flags plus "stored", its block size), then the data unshuffled.
   */
  private static ByteBuffer memcpyed(Source in, byte[] out, int nbytes, int ts, int flags, int bs) {
    header(out, ts, flags | FLAG_MEMCPYED, nbytes, bs, HEADER + nbytes);
    for (int off = 0; off < nbytes; off += DEFAULT_BLOCK) {
      in.copy(off, out, HEADER + off, Math.min(DEFAULT_BLOCK, nbytes - off));
    }
    return ByteBuffer.wrap(out, 0, HEADER + nbytes);
  }

  private static void header(byte[] out, int ts, int flags, int nbytes, int bs, int cbytes) {
    out[0] = 2;
    out[1] = 1;
    out[2] = (byte) flags;
    out[3] = (byte) ts;
    ByteBuffer h = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(4, nbytes);
    h.putInt(8, bs);
    h.putInt(12, cbytes);
  }

  /**
   * Decompresses a buffer {@link #canDecode} accepts; the caller has checked that the header's
   * total size equals {@code in.length} and its uncompressed size is within bounds.
   *
   * @throws ZarrFormatException naming {@code where} if the buffer is corrupt
   */
  static byte[] decompress(byte[] in, String where) {
    byte[] out = new byte[uncompressedSize(in, where)];
    decompress(in, (off, src, so, len) -> System.arraycopy(src, so, out, off, len), where);
    return out;
  }

  /** The uncompressed size the header declares. */
  public static int uncompressedSize(byte[] in, String where) {
    int nbytes = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
    if (nbytes < 0) {
      throw corrupt(where, "negative uncompressed size " + nbytes);
    }
    return nbytes;
  }

  /**
   * Decompresses a buffer {@link #canDecode} accepts into {@code out} a block at a time (only one
   * block-sized scratch array is allocated: LZ4 decodes a block into it, the unshuffle reads it
   * into an L1-sized buffer a part at a time, and {@code out} takes each part; a {@link Float64}
   * sink gets 8-byte items unshuffled straight into its array), in increasing offset order covering
   * {@link #uncompressedSize} bytes; preconditions as {@link #decompress(byte[], String)}.
   */
  static void decompress(byte[] in, Sink out, String where) {
    decompress(in, in.length, out, where);
  }

  /**
   * As {@link #decompress(byte[], Sink, String)} for the buffer made of the first {@code length}
   * bytes of {@code in} (the caller has checked the header's total size against {@code length}).
   */
  static void decompress(byte[] in, int length, Sink out, String where) {
    ByteBuffer h = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
    int flags = in[2] & 0xFF;
    int ts = in[3] & 0xFF;
    int nbytes = uncompressedSize(in, where);
    int bs = h.getInt(8);
    if ((flags & FLAG_MEMCPYED) != 0) {
      if (length < HEADER + nbytes) {
        throw corrupt(
            where, "stored block of " + (length - HEADER) + " bytes, header says " + nbytes);
      }
      out.accept(0, in, HEADER, nbytes);
      return;
    }
    BloscBlocks b = BloscBlocks.layout(flags, ts, nbytes, bs, length, where);
    for (int j = 0; b != null && j < b.nblocks; j++) {
      int pos = h.getInt(HEADER + 4 * j);
      if (pos < HEADER) {
        throw corrupt(where, "stream 0 of block " + j + " starts outside the buffer");
      }
      b.decode(j, in, pos, length, out, where);
    }
  }

  /**
   * Where a buffer's bytes come from when it is not in memory: positional reads of a file (a chunk
   * read straight from its file a block at a time).
   */
  public interface Input {
    /** Its size in bytes. */
    long size();

    /**
     * Reads bytes {@code [pos, pos + len)} into {@code dst} at 0.
     *
     * @throws ZarrFormatException naming where if fewer bytes are there (a file that shrank)
     */
    void read(long pos, byte[] dst, int len);

    /**
     * Reads bytes {@code [pos, pos + dst.remaining())} into {@code dst} from its position, which
     * ends at its limit. The default goes through an array; a file's input reads straight into the
     * buffer (a direct buffer then takes no copy in the JDK either).
     *
     * @throws ZarrFormatException naming where if fewer bytes are there (a file that shrank)
     */
    default void read(long pos, ByteBuffer dst) {
      byte[] b = new byte[dst.remaining()];
      read(pos, b, b.length);
      dst.put(b);
    }
  }

  /**
   * Decompresses the buffer that {@code in} holds (its 16-byte header is {@code header}, which
   * {@link #canDecode} accepts and whose sizes the caller has checked) into {@code out} a block at
   * a time, as {@link #decompress(byte[], Sink, String)}, reading only the header, the block
   * offsets and one block's compressed bytes at a time: besides the output the memory held is two
   * block-sized arrays (the block as stored and decoded).
   *
   * @throws ZarrFormatException naming {@code where} if the buffer is corrupt
   */
  static void decompress(byte[] header, Input in, Sink out, String where) {
    BloscBlockReader r = new BloscBlockReader(header, in, where);
    for (int j = 0; j < r.blocks(); j++) {
      r.decode(j, out);
    }
  }

  static ZarrFormatException corrupt(String where, String what) {
    return new ZarrFormatException(where + ": corrupt blosc data: " + what);
  }
}
