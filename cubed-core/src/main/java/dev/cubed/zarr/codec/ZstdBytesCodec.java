package dev.cubed.zarr.codec;

import com.github.luben.zstd.ZstdException;
import dev.cubed.zarr.store.ZarrFormatException;
import java.util.Map;

/**
 * Zstandard. Making the first one in a JVM starts loading zstd-jni's native library in the
 * background ({@link NativePreload}).
 */
public record ZstdBytesCodec(int level) implements BytesCodec {
  public ZstdBytesCodec {
    NativePreload.zstdInBackground();
  }

  @Override
  public byte[] encode(byte[] in) {
    return com.github.luben.zstd.Zstd.compress(in, level);
  }

  @Override
  public byte[] decode(byte[] in, int maxOut, String where) {
    long declared = com.github.luben.zstd.Zstd.getFrameContentSize(in);
    if (declared < -1) {
      throw new ZarrFormatException(where + ": not a zstd frame (corrupt or truncated chunk)");
    }
    if (declared > maxOut) {
      throw BytesCodecs.tooBig(where, "zstd", declared, maxOut);
    }
    int cap = declared >= 0 ? (int) declared : maxOut;
    byte[] out = new byte[cap];
    try {
      long n = com.github.luben.zstd.Zstd.decompressByteArray(out, 0, cap, in, 0, in.length);
      if (n != cap) {
        byte[] t = new byte[(int) n];
        System.arraycopy(out, 0, t, 0, (int) n);
        return t;
      }
      return out;
    } catch (ZstdException | IllegalArgumentException e) {
      if (declared < 0 && String.valueOf(e.getMessage()).contains("too small")) {
        throw BytesCodecs.oversized(where, "zstd", maxOut);
      }
      throw new ZarrFormatException(
          where + ": corrupt or truncated zstd data: " + e.getMessage(), e);
    }
  }

  /** {@code ZSTD_COMPRESSBOUND}, plus a 4-byte content checksum. */
  @Override
  public long maxEncoded(long n) {
    return n + (n >> 8) + (n < (128 << 10) ? ((128 << 10) - n) >> 11 : 0) + 4;
  }

  @Override
  public Map<String, Object> v3Json() {
    return BytesCodecs.doc("name", "zstd", "level", level, "checksum", false);
  }

  @Override
  public Map<String, Object> v2Json() {
    return BytesCodecs.doc("id", "zstd", "level", level);
  }
}
