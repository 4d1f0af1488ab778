package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Gzip (RFC 1952). */
public record GzipBytesCodec(int level) implements BytesCodec {
  @Override
  public byte[] encode(byte[] in) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream(in.length / 2 + 64);
    try (GZIPOutputStream gz =
        new GZIPOutputStream(bos, 65536) {
          {
            def.setLevel(level);
          }
        }) {
      gz.write(in);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return bos.toByteArray();
  }

  @Override
  public byte[] decode(byte[] in, int maxOut, String where) {
    try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(in), 65536)) {
      return BytesCodecs.readBounded(gz, maxOut, where, "gzip");
    } catch (IOException e) {
      throw new ZarrFormatException(
          where + ": corrupt or truncated gzip data: " + e.getMessage(), e);
    }
  }

  /** zlib's {@code compressBound} with the gzip header and trailer (18 bytes). */
  @Override
  public long maxEncoded(long n) {
    return BytesCodecs.deflateBound(n) + 18;
  }

  @Override
  public Map<String, Object> v3Json() {
    return BytesCodecs.doc("name", "gzip", "level", level);
  }

  @Override
  public Map<String, Object> v2Json() {
    return BytesCodecs.doc("id", "gzip", "level", level);
  }
}
