package dev.cubed.zarr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

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
 * follows the header directly), 0x4 bit shuffle, 0x10 blocks not split, bits 5-7 the compressor
 * (1 = LZ4). A block is split into one stream per byte of the item when its items are at most 16
 * bytes, it holds at least 128 items and it is not the shorter last block; each stream is a
 * little-endian compressed size and the LZ4 block, or the raw bytes when that size equals the
 * stream's length.
 */
final class JavaBlosc {
  static final int HEADER = 16;
  private static final int FLAG_SHUFFLE = 0x1;
  private static final int FLAG_MEMCPYED = 0x2;
  private static final int FLAG_BITSHUFFLE = 0x4;
  private static final int FLAG_DONT_SPLIT = 0x10;
  private static final int LZ4_FORMAT = 1;
  private static final int MAX_SPLITS = 16;
  private static final int MIN_BUFFERSIZE = 128;
  /** Block size chosen when none is given: 256 KiB (a few L2 caches' worth, as c-blosc picks). */
  static final int DEFAULT_BLOCK = 256 << 10;
  private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();

  private JavaBlosc() {}

  /** Whether this class decodes the buffer: stored uncompressed, or LZ4 without bit shuffle. */
  static boolean canDecode(byte[] in) {
    if (in.length < HEADER) {
      return false;
    }
    int flags = in[2] & 0xFF;
    if ((flags & FLAG_MEMCPYED) != 0) {
      return true;
    }
    return (flags >>> 5) == LZ4_FORMAT && (flags & FLAG_BITSHUFFLE) == 0;
  }

  /** The bytes to compress, read a range at a time (so the whole input need not exist). */
  interface Source {
    /** Copies bytes {@code [off, off + len)} of the input to {@code dst} at {@code dstOff}. */
    void copy(int off, byte[] dst, int dstOff, int len);
  }

  /** Where decompressed bytes go, a range at a time. */
  interface Sink {
    /** Receives bytes {@code [off, off + len)} of the output from {@code src} at {@code srcOff}. */
    void accept(int off, byte[] src, int srcOff, int len);
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
    ByteBuffer b = compress((off, dst, dstOff, len) -> System.arraycopy(in, off, dst, dstOff, len),
        in.length, typeSize, clevel, shuffle, blockSize);
    return b.remaining() == b.array().length ? b.array()
        : java.util.Arrays.copyOf(b.array(), b.remaining());
  }

  /**
   * Compresses {@code nbytes} bytes read from {@code in} a block at a time into one buffer of
   * {@code 16 + nbytes} bytes (the size of the stored-uncompressed form, which is used when
   * compression would not make the data smaller), of which the returned buffer's first {@code
   * remaining()} bytes are the result ({@code position} 0, backed by the whole array). Besides
   * that buffer only two block-sized scratch arrays are allocated: the memory of a compression is
   * one copy of the data, not the three of compress-then-trim.
   */
  static ByteBuffer compress(Source in, int nbytes, int typeSize, int clevel, boolean shuffle,
      int blockSize) {
    int ts = typeSize < 1 || typeSize > 255 ? 1 : typeSize;
    if (nbytes > Integer.MAX_VALUE - 32) {
      throw new IllegalArgumentException("blosc: a chunk of " + nbytes + " bytes is too large");
    }
    byte[] out = new byte[HEADER + nbytes];
    if (clevel == 0 || nbytes < MIN_BUFFERSIZE) {
      return memcpyed(in, out, nbytes, ts, shuffle);
    }
    int bs = blockSize > 0 ? Math.max(blockSize, MIN_BUFFERSIZE) : DEFAULT_BLOCK;
    bs = Math.min(bs, nbytes);
    if (bs > ts) {
      bs = bs / ts * ts;
    }
    int nblocks = (nbytes + bs - 1) / bs;
    boolean doShuffle = shuffle && ts > 1;
    boolean split = ts <= MAX_SPLITS && bs / ts >= MIN_BUFFERSIZE;
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    byte[] raw = new byte[bs];
    byte[] tmp = doShuffle ? new byte[bs] : null;
    LZ4Compressor comp = LZ4.fastCompressor();
    byte[] scratch = new byte[comp.maxCompressedLength(bs)];
    int pos = HEADER + 4 * nblocks;
    for (int j = 0; j < nblocks; j++) {
      int off = j * bs;
      int bsize = Math.min(bs, nbytes - off);
      boolean leftover = bsize < bs;
      o.putInt(HEADER + 4 * j, pos);
      in.copy(off, raw, 0, bsize);
      byte[] src = raw;
      if (doShuffle) {
        ByteShuffle.shuffle(ts, raw, 0, bsize, tmp, 0);
        src = tmp;
      }
      int nsplits = split && !leftover ? ts : 1;
      int neblock = bsize / nsplits;
      for (int s = 0; s < nsplits; s++) {
        int c = comp.compress(src, s * neblock, neblock, scratch, 0, scratch.length);
        boolean packed = c > 0 && c < neblock;
        int len = packed ? c : neblock;
        if ((long) pos + 4 + len > out.length) { // larger than storing it: store it
          return memcpyed(in, out, nbytes, ts, shuffle);
        }
        o.putInt(pos, len);
        System.arraycopy(packed ? scratch : src, packed ? 0 : s * neblock, out, pos + 4, len);
        pos += 4 + len;
      }
    }
    header(out, ts, (doShuffle ? FLAG_SHUFFLE : 0) | (split ? 0 : FLAG_DONT_SPLIT)
        | (LZ4_FORMAT << 5), nbytes, bs, pos);
    return ByteBuffer.wrap(out, 0, pos);
  }

  /** The stored-uncompressed form in {@code out} (16 + nbytes bytes). */
  private static ByteBuffer memcpyed(Source in, byte[] out, int nbytes, int ts, boolean shuffle) {
    header(out, ts, FLAG_MEMCPYED | (shuffle && ts > 1 ? FLAG_SHUFFLE : 0) | (LZ4_FORMAT << 5),
        nbytes, nbytes, HEADER + nbytes);
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
  static int uncompressedSize(byte[] in, String where) {
    int nbytes = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
    if (nbytes < 0) {
      throw corrupt(where, "negative uncompressed size " + nbytes);
    }
    return nbytes;
  }

  /**
   * Decompresses a buffer {@link #canDecode} accepts into {@code out} a block at a time (only
   * block-sized scratch arrays are allocated), in increasing offset order covering {@link
   * #uncompressedSize} bytes; preconditions as {@link #decompress(byte[], String)}.
   */
  static void decompress(byte[] in, Sink out, String where) {
    ByteBuffer h = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
    int flags = in[2] & 0xFF;
    int ts = in[3] & 0xFF;
    int nbytes = uncompressedSize(in, where);
    int bs = h.getInt(8);
    if ((flags & FLAG_MEMCPYED) != 0) {
      if (in.length < HEADER + nbytes) {
        throw corrupt(where, "stored block of " + (in.length - HEADER) + " bytes, header says "
            + nbytes);
      }
      out.accept(0, in, HEADER, nbytes);
      return;
    }
    if (nbytes == 0) {
      return;
    }
    if (bs <= 0) {
      throw corrupt(where, "block size " + bs);
    }
    int nblocks = (int) ((nbytes + (long) bs - 1) / bs);
    if (HEADER + 4L * nblocks > in.length) {
      throw corrupt(where, nblocks + " block offsets do not fit in " + in.length + " bytes");
    }
    boolean doShuffle = (flags & FLAG_SHUFFLE) != 0 && ts > 1;
    boolean dontSplit = (flags & FLAG_DONT_SPLIT) != 0;
    byte[] dst = new byte[Math.min(bs, nbytes)];
    byte[] tmp = doShuffle ? new byte[dst.length] : null;
    LZ4SafeDecompressor dec = LZ4.safeDecompressor();
    for (int j = 0; j < nblocks; j++) {
      int off = j * bs;
      int bsize = Math.min(bs, nbytes - off);
      boolean leftover = bsize < bs;
      int pos = h.getInt(HEADER + 4 * j);
      int nsplits = !dontSplit && ts >= 1 && ts <= MAX_SPLITS && bs / ts >= MIN_BUFFERSIZE
          && !leftover ? ts : 1;
      if (bsize % nsplits != 0) {
        throw corrupt(where, "block " + j + " of " + bsize + " bytes is not " + nsplits
            + " equal streams");
      }
      int neblock = bsize / nsplits;
      for (int s = 0; s < nsplits; s++) {
        if (pos < HEADER || pos > in.length - 4) {
          throw corrupt(where, "stream " + s + " of block " + j + " starts outside the buffer");
        }
        int c = h.getInt(pos);
        pos += 4;
        if (c < 0 || c > in.length - pos) {
          throw corrupt(where, "stream " + s + " of block " + j + " declares " + c
              + " bytes, more than the buffer holds");
        }
        if (c == neblock) {
          System.arraycopy(in, pos, dst, s * neblock, neblock);
        } else {
          int n;
          try {
            n = dec.decompress(in, pos, c, dst, s * neblock, neblock);
          } catch (LZ4Exception e) {
            throw corrupt(where, "LZ4 stream " + s + " of block " + j + ": " + e.getMessage());
          }
          if (n != neblock) {
            throw corrupt(where, "LZ4 stream " + s + " of block " + j + " decoded to " + n
                + " bytes, expected " + neblock);
          }
        }
        pos += c;
      }
      if (doShuffle) {
        ByteShuffle.unshuffle(ts, dst, 0, bsize, tmp, 0);
        out.accept(off, tmp, 0, bsize);
      } else {
        out.accept(off, dst, 0, bsize);
      }
    }
  }

  private static ZarrFormatException corrupt(String where, String what) {
    return new ZarrFormatException(where + ": corrupt blosc data: " + what);
  }
}
