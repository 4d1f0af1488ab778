package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Zlib (RFC 1950), numcodecs' "zlib". */
public record ZlibBytesCodec(int level) implements BytesCodec {
  @Override
  public byte[] encode(byte[] in) {
    Deflater d = new Deflater(level);
    try {
      d.setInput(in);
      d.finish();
      ByteArrayOutputStream bos = new ByteArrayOutputStream(in.length / 2 + 64);
      byte[] buf = new byte[65536];
      while (!d.finished()) {
        int n = d.deflate(buf);
        bos.write(buf, 0, n);
      }
      return bos.toByteArray();
    } finally {
      d.end();
    }
  }

  @Override
  public byte[] decode(byte[] in, int maxOut, String where) {
    Inflater inf = new Inflater();
    try {
      inf.setInput(in);
      ByteArrayOutputStream bos = new ByteArrayOutputStream(Math.min(maxOut, 1 << 20));
      byte[] buf = new byte[65536];
      long total = 0;
      while (!inf.finished()) {
        int n = inf.inflate(buf);
        if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
          throw new ZarrFormatException(where + ": truncated zlib data");
        }
        total += n;
        if (total > maxOut) {
          throw BytesCodecs.oversized(where, "zlib", maxOut);
        }
        bos.write(buf, 0, n);
      }
      return bos.toByteArray();
    } catch (DataFormatException e) {
      throw new ZarrFormatException(where + ": corrupt zlib data: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
  }

  /** zlib's {@code compressBound} (the zlib header and trailer included). */
  @Override
  public long maxEncoded(long n) {
    return BytesCodecs.deflateBound(n);
  }

  @Override
  public Map<String, Object> v3Json() {
    throw new UnsupportedOperationException(
        "zlib is a Zarr v2 (numcodecs) compressor; Zarr v3 arrays use gzip instead");
  }

  @Override
  public Map<String, Object> v2Json() {
    return BytesCodecs.doc("id", "zlib", "level", level);
  }
}
