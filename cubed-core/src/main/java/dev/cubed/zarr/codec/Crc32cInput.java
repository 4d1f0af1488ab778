package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * A stored value with a trailing crc32c checksum (4 little-endian bytes), read through positional
 * reads of the whole value ({@code in}): it shows the bytes before the checksum ({@link #size()} is
 * 4 less) and computes their checksum from the reads the decoder makes, so a chunk decoded a block
 * at a time is checked without a second pass over it when its blocks are read in order (as this
 * project writes them). Bytes the decoder skips are read here, in order, through a small buffer;
 * bytes read again are not counted again. {@link #verify()} reads what is left and checks. Not
 * thread-safe.
 */
public final class Crc32cInput implements JavaBlosc.Input {
  private static final int GAP_BUFFER = 64 << 10;
  private final JavaBlosc.Input in;
  private final long size;
  private final String where;
  private final CRC32C crc = new CRC32C();

  /** The first byte not yet in {@link #crc}. */
  private long next;

  private byte[] gap;

  /**
   * @throws ZarrFormatException naming {@code where} if the value is too short for a checksum
   */
  public Crc32cInput(JavaBlosc.Input in, String where) {
    if (in.size() < 4) {
      throw new ZarrFormatException(
          where + ": " + in.size() + " bytes cannot hold a crc32c checksum (truncated chunk)");
    }
    this.in = in;
    this.size = in.size() - 4;
    this.where = where;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void read(long pos, byte[] dst, int len) {
    if (pos < 0 || len < 0 || pos > size - len) {
      throw new ZarrFormatException(
          where
              + ": read of bytes ["
              + pos
              + ", "
              + (pos + len)
              + ") outside the "
              + size
              + " bytes before the crc32c checksum (corrupt chunk)");
    }
    catchUp(pos);
    in.read(pos, dst, len);
    if (next >= pos && next < pos + len) {
      int from = (int) (next - pos);
      crc.update(dst, from, len - from);
      next = pos + len;
    }
  }

  /** Adds the bytes from {@link #next} up to {@code pos} to the checksum, read in order. */
  private void catchUp(long pos) {
    while (next < pos) {
      if (gap == null) {
        gap = new byte[GAP_BUFFER];
      }
      int n = (int) Math.min(gap.length, pos - next);
      in.read(next, gap, n);
      crc.update(gap, 0, n);
      next += n;
    }
  }

  /**
   * Reads the bytes not yet seen and the stored checksum, and compares.
   *
   * @throws ChecksumMismatchException naming the chunk if they differ
   */
  public void verify() {
    catchUp(size);
    byte[] stored = new byte[4];
    in.read(size, stored, 4);
    Crc32cBytesCodec.check(
        ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN).getInt(),
        (int) crc.getValue(),
        where);
  }
}
