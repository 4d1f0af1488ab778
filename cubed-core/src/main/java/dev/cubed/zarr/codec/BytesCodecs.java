package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the bytes-to-bytes codecs share: their JSON documents and the refusals of chunks that decode
 * to more than expected. Each codec is its own class ({@link ZstdBytesCodec}, {@link
 * GzipBytesCodec}, {@link ZlibBytesCodec}, {@link Lz4BytesCodec}, {@link BloscBytesCodec}, {@link
 * Crc32cBytesCodec}).
 */
public final class BytesCodecs {
  private BytesCodecs() {}

  public static Map<String, Object> doc(String key, String name, Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key, name);
    Map<String, Object> conf = key.equals("id") ? m : new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      conf.put((String) kv[i], kv[i + 1]);
    }
    if (!key.equals("id") && kv.length > 0) {
      m.put("configuration", conf);
    }
    return m;
  }

  static ZarrFormatException tooBig(String where, String codec, long declared, int max) {
    return new ZarrFormatException(
        where
            + ": "
            + codec
            + " data declares "
            + declared
            + " decoded bytes, more than the "
            + max
            + " bytes expected for the chunk");
  }

  static ZarrFormatException oversized(String where, String codec, int max) {
    return new ZarrFormatException(
        where
            + ": "
            + codec
            + " data decodes to more than the "
            + max
            + " bytes expected for the chunk (oversized or corrupt chunk; it was not truncated to"
            + " fit)");
  }

  /** zlib's {@code compressBound}: deflate's worst case with the zlib header and trailer. */
  static long deflateBound(long n) {
    return n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
  }

  static byte[] readBounded(InputStream in, int maxOut, String where, String codec)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxOut, 1 << 20));
    byte[] buf = new byte[65536];
    long total = 0;
    int r;
    while ((r = in.read(buf)) > 0) {
      total += r;
      if (total > maxOut) {
        throw oversized(where, codec, maxOut);
      }
      out.write(buf, 0, r);
    }
    return out.toByteArray();
  }
}
