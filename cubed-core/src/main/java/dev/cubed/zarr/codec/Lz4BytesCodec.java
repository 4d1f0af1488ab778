package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/** LZ4 with numcodecs' framing: 4-byte little-endian decoded size, then one LZ4 block. */
public record Lz4BytesCodec(int acceleration) implements BytesCodec {
  @Override
  public byte[] encode(byte[] in) {
    var c = LZ4Factory.fastestInstance().fastCompressor();
    byte[] out = new byte[4 + c.maxCompressedLength(in.length)];
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(in.length);
    int n = c.compress(in, 0, in.length, out, 4, out.length - 4);
    byte[] t = new byte[4 + n];
    System.arraycopy(out, 0, t, 0, t.length);
    return t;
  }

  @Override
  public byte[] decode(byte[] in, int maxOut, String where) {
    if (in.length < 4) {
      throw new ZarrFormatException(
          where + ": lz4 data of " + in.length + " bytes is shorter than its 4-byte size header");
    }
    int size = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (size < 0 || size > maxOut) {
      throw BytesCodecs.tooBig(where, "lz4", size & 0xFFFFFFFFL, maxOut);
    }
    byte[] out = new byte[size];
    try {
      int n =
          LZ4Factory.fastestInstance()
              .safeDecompressor()
              .decompress(in, 4, in.length - 4, out, 0, size);
      if (n != size) {
        throw new ZarrFormatException(
            where + ": lz4 data decodes to " + n + " bytes but declares " + size);
      }
    } catch (LZ4Exception e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated lz4 data: " + e.getMessage(), e);
    }
    return out;
  }

  /** The 4-byte size header and {@code LZ4_COMPRESSBOUND}. */
  @Override
  public long maxEncoded(long n) {
    return 4 + n + n / 255 + 16;
  }

  @Override
  public Map<String, Object> v3Json() {
    throw new UnsupportedOperationException(
        "lz4 is a Zarr v2 (numcodecs) compressor; Zarr v3 arrays use blosc with cname lz4");
  }

  @Override
  public Map<String, Object> v2Json() {
    return BytesCodecs.doc("id", "lz4", "acceleration", acceleration);
  }
}
