package dev.cubed.zarr.codec;

import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The block layout of one Blosc buffer ({@link JavaBlosc}: block size, number of blocks, shuffle
 * and split flags) and the scratch arrays that decode its blocks one by one, shared by the
 * in-memory decoder ({@link JavaBlosc#decompress(byte[], int, JavaBlosc.Sink, String)}) and the
 * block reader of a file ({@link BloscBlockReader}).
 */
final class BloscBlocks {
  /**
   * The block layout of a compressed buffer of {@code size} bytes after the checks both decoders
   * make (a positive block size, the block offsets inside the buffer), or null when it holds no
   * bytes to decode.
   */
  static BloscBlocks layout(int flags, int ts, int nbytes, int bs, long size, String where) {
    if (nbytes == 0) {
      return null;
    }
    if (bs <= 0) {
      throw JavaBlosc.corrupt(where, "block size " + bs);
    }
    BloscBlocks b = new BloscBlocks(flags, ts, nbytes, bs);
    if (JavaBlosc.HEADER + 4L * b.nblocks > size) {
      throw JavaBlosc.corrupt(where, b.nblocks + " block offsets do not fit in " + size + " bytes");
    }
    return b;
  }

  /** The block layout of one buffer and the scratch arrays that decode its blocks one by one. */
  final int nblocks;

  private final int ts;
  private final int nbytes;
  private final int bs;
  private final boolean doShuffle;
  private final boolean dontSplit;
  private final byte[] dst;
  private final byte[] small;
  private final LZ4SafeDecompressor dec = JavaBlosc.LZ4.safeDecompressor();
  private final boolean zstd;

  BloscBlocks(int flags, int ts, int nbytes, int bs) {
    this.zstd = (flags >>> 5) == JavaBlosc.ZSTD_FORMAT;
    this.ts = ts;
    this.nbytes = nbytes;
    this.bs = bs;
    this.nblocks = (int) ((nbytes + (long) bs - 1) / bs);
    this.doShuffle = (flags & JavaBlosc.FLAG_SHUFFLE) != 0 && ts > 1;
    this.dontSplit = (flags & JavaBlosc.FLAG_DONT_SPLIT) != 0;
    this.dst = new byte[Math.min(bs, nbytes)];
    this.small = doShuffle ? new byte[JavaBlosc.subItems(ts) * ts + ts] : null;
  }

  /**
   * Decodes block {@code j}, whose streams start at {@code pos} of {@code buf} (which holds bytes
   * up to {@code limit}), into {@code out}.
   */
  void decode(int j, byte[] buf, int pos, int limit, JavaBlosc.Sink out, String where) {
    int bsize = streams(j, buf, pos, limit, dst, where);
    if (doShuffle) {
      JavaBlosc.unshuffleBlock(dst, bsize, ts, small, out, j * bs);
    } else {
      out.accept(j * bs, dst, 0, bsize);
    }
  }

  /** True if the blocks' bytes are byte-shuffled (items of more than one byte). */
  boolean shuffled() {
    return doShuffle;
  }

  /**
   * Decompresses block {@code j}'s streams (as {@link #decode}) into {@code target} from 0, still
   * byte-shuffled if the data is; returns the block's size in bytes.
   */
  int streams(int j, byte[] buf, int pos, int limit, byte[] target, String where) {
    ByteBuffer h = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
    int off = j * bs;
    int bsize = Math.min(bs, nbytes - off);
    boolean leftover = bsize < bs;
    int nsplits =
        !dontSplit
                && ts >= 1
                && ts <= JavaBlosc.MAX_SPLITS
                && bs / ts >= JavaBlosc.MIN_BUFFERSIZE
                && !leftover
            ? ts
            : 1;
    if (bsize % nsplits != 0) {
      throw JavaBlosc.corrupt(
          where, "block " + j + " of " + bsize + " bytes is not " + nsplits + " equal streams");
    }
    int neblock = bsize / nsplits;
    for (int s = 0; s < nsplits; s++) {
      if (pos < 0 || pos > limit - 4) {
        throw JavaBlosc.corrupt(
            where, "stream " + s + " of block " + j + " starts outside the buffer");
      }
      int c = h.getInt(pos);
      pos += 4;
      if (c < 0 || c > limit - pos) {
        throw JavaBlosc.corrupt(
            where,
            "stream "
                + s
                + " of block "
                + j
                + " declares "
                + c
                + " bytes, more than the buffer holds");
      }
      if (c == neblock) {
        System.arraycopy(buf, pos, target, s * neblock, neblock);
      } else {
        int n;
        String name = zstd ? "zstd" : "LZ4";
        try {
          n =
              zstd
                  ? StreamedDecode.zstdContext()
                      .decompressByteArray(target, s * neblock, neblock, buf, pos, c)
                  : dec.decompress(buf, pos, c, target, s * neblock, neblock);
        } catch (LZ4Exception | ZstdException e) {
          throw JavaBlosc.corrupt(
              where, name + " stream " + s + " of block " + j + ": " + e.getMessage());
        }
        if (n != neblock) {
          throw JavaBlosc.corrupt(
              where,
              name
                  + " stream "
                  + s
                  + " of block "
                  + j
                  + " decoded to "
                  + n
                  + " bytes, expected "
                  + neblock);
        }
      }
      pos += c;
    }
    return bsize;
  }
}
