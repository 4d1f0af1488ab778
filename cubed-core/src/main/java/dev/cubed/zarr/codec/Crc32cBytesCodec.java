package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/** CRC-32C checksum appended as 4 little-endian bytes. */
public record Crc32cBytesCodec() implements BytesCodec {
  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  @Override
  public byte[] encode(byte[] in) {
    byte[] out = new byte[in.length + 4];
    System.arraycopy(in, 0, out, 0, in.length);
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(in.length, crc(in, 0, in.length));
    return out;
  }

  /**
   * Checks the checksum at the end of the first {@code length} bytes of {@code in}; returns the
   * length of the data before it.
   *
   * @throws ChecksumMismatchException naming {@code where} if the checksum does not match
   * @throws ZarrFormatException if there are fewer than 4 bytes
   */
  static int verify(byte[] in, int length, String where) {
    if (length < 4) {
      throw new ZarrFormatException(
          where + ": " + length + " bytes cannot hold a crc32c checksum (truncated chunk)");
    }
    int n = length - 4;
    check(ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(n), crc(in, 0, n), where);
    return n;
  }

  /** Throws {@link ChecksumMismatchException} naming {@code where} unless the two are equal. */
  static void check(int stored, int actual, String where) {
    if (stored != actual) {
      throw new ChecksumMismatchException(
          String.format(
              "%s: crc32c checksum mismatch: stored 0x%08x, computed 0x%08x (corrupt chunk)",
              where, stored, actual));
    }
  }

  /**
   * Appends the checksum of the first {@code length} bytes of {@code buf}'s array after them (the
   * array has room for 4 more) and returns a buffer of the {@code length + 4} bytes.
   */
  static ByteBuffer append(byte[] buf, int length) {
    ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN).putInt(length, crc(buf, 0, length));
    return ByteBuffer.wrap(buf, 0, length + 4);
  }

  @Override
  public byte[] decode(byte[] in, int maxOut, String where) {
    int n = verify(in, in.length, where);
    byte[] out = new byte[n];
    System.arraycopy(in, 0, out, 0, n);
    return out;
  }

  @Override
  public int overhead() {
    return 4;
  }

  @Override
  public Map<String, Object> v3Json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "crc32c");
    return m;
  }

  @Override
  public Map<String, Object> v2Json() {
    throw new UnsupportedOperationException("crc32c is a Zarr v3 codec");
  }
}
