package dev.cubed.zarr;

import com.github.luben.zstd.Zstd;
import com.scalableminds.bloscjava.Blosc;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Factory;

/**
 * Factories for the supported compressors and their parsing from metadata. Decoders check sizes
 * before allocating so corrupt data fails with a {@link ZarrException} instead of exhausting
 * memory.
 */
public final class Compressors {
  private Compressors() {}

  /** Zstandard at a level (1 is fast; zarr-python's default is 0 = library default 3). */
  public static Compressor zstd(int level) {
    return new Zstd_(level);
  }

  /** gzip (RFC 1952) at a level 0-9. */
  public static Compressor gzip(int level) {
    return new Gzip(level);
  }

  /** zlib (RFC 1950) at a level 0-9 (Zarr v2 only). */
  public static Compressor zlib(int level) {
    return new Zlib(level);
  }

  /** numcodecs LZ4: a 4-byte little-endian decoded size, then an LZ4 block (Zarr v2 only). */
  public static Compressor lz4(int acceleration) {
    return new Lz4(acceleration);
  }

  /** Blosc with an inner compressor ("lz4", "lz4hc", "blosclz", "zstd", "zlib"), level and shuffle. */
  public static Compressor blosc(String cname, int clevel, Shuffle shuffle) {
    return new Blosc_(cname, clevel, shuffle, 0);
  }

  /** CRC-32C checksum appended as 4 little-endian bytes (Zarr v3 only). */
  public static Compressor crc32c() {
    return new Crc32c();
  }

  /** Blosc's shuffle filters. */
  public enum Shuffle {
    NOSHUFFLE,
    SHUFFLE,
    BITSHUFFLE
  }

  /** Parses a v2 {@code compressor} object; null gives null (no compression). */
  public static Compressor fromV2(Map<String, Object> cfg, String where) {
    if (cfg == null) {
      return null;
    }
    String id = String.valueOf(cfg.get("id"));
    return switch (id) {
      case "zstd" -> zstd(intOf(cfg, "level", 0, where));
      case "gzip" -> gzip(intOf(cfg, "level", 1, where));
      case "zlib" -> zlib(intOf(cfg, "level", 1, where));
      case "lz4" -> lz4(intOf(cfg, "acceleration", 1, where));
      case "blosc" -> new Blosc_(String.valueOf(cfg.getOrDefault("cname", "lz4")),
          intOf(cfg, "clevel", 5, where), Shuffle.values()[intOf(cfg, "shuffle", 1, where)],
          intOf(cfg, "blocksize", 0, where));
      default -> throw new ZarrException(where + ": unsupported compressor id '" + id
          + "'; supported are zstd, gzip, zlib, lz4 and blosc");
    };
  }

  /** Parses a v3 bytes-to-bytes codec by name and configuration. */
  public static Compressor fromV3(String name, Map<String, Object> cfg, String where) {
    Map<String, Object> c = cfg == null ? Map.of() : cfg;
    return switch (name) {
      case "zstd" -> zstd(intOf(c, "level", 0, where));
      case "gzip" -> gzip(intOf(c, "level", 5, where));
      case "crc32c" -> crc32c();
      case "blosc" -> {
        Object sh = c.getOrDefault("shuffle", "noshuffle");
        Shuffle s = Shuffle.valueOf(String.valueOf(sh).toUpperCase(Locale.ROOT));
        yield new Blosc_(String.valueOf(c.getOrDefault("cname", "lz4")), intOf(c, "clevel", 5, where),
            s, intOf(c, "blocksize", 0, where));
      }
      default -> throw new ZarrException(where + ": unsupported codec '" + name
          + "'; supported bytes-to-bytes codecs are zstd, gzip, blosc and crc32c");
    };
  }

  private static int intOf(Map<String, Object> cfg, String key, int dflt, String where) {
    Object v = cfg.get(key);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Number n)) {
      throw new ZarrException(where + ": field '" + key + "' must be a number, got " + v);
    }
    return n.intValue();
  }

  static ZarrException corrupt(String codec, String detail, Throwable cause) {
    return new ZarrException(codec + ": corrupt or truncated data: " + detail, cause);
  }

  static void checkSize(String codec, long size, int expected) {
    if (size < 0 || size > Integer.MAX_VALUE - 8 || (expected >= 0 && size != expected)) {
      throw corrupt(codec, "declares " + size + " decoded bytes"
          + (expected >= 0 ? ", expected " + expected : ""), null);
    }
  }

  // ------------------------------------------------------------------ implementations

  private record Zstd_(int level) implements Compressor {
    public String id() {
      return "zstd";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      return Zstd.compress(raw, level);
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      long size;
      try {
        size = Zstd.getFrameContentSize(enc);
      } catch (RuntimeException e) {
        throw corrupt("zstd", e.getMessage(), e);
      }
      if (size < 0 && expectedSize >= 0) {
        size = expectedSize; // frame without content size: trust the chunk size
      }
      checkSize("zstd", size, expectedSize);
      byte[] out = new byte[(int) size];
      long n;
      try {
        n = Zstd.decompressByteArray(out, 0, out.length, enc, 0, enc.length);
      } catch (RuntimeException e) {
        throw corrupt("zstd", e.getMessage(), e);
      }
      if (n != size) {
        throw corrupt("zstd", "decoded " + n + " bytes, expected " + size, null);
      }
      return out;
    }

    public Map<String, Object> v2Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", "zstd");
      m.put("level", level);
      return m;
    }

    public Map<String, Object> v3Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("level", level);
      m.put("checksum", false);
      return m;
    }
  }

  private record Gzip(int level) implements Compressor {
    public String id() {
      return "gzip";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      ByteArrayOutputStream b = new ByteArrayOutputStream(raw.length / 2 + 64);
      try (GZIPOutputStream g = new GZIPOutputStream(b) {
        {
          def.setLevel(level);
        }
      }) {
        g.write(raw);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return b.toByteArray();
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      try (GZIPInputStream g = new GZIPInputStream(new ByteArrayInputStream(enc))) {
        return readBounded("gzip", g, expectedSize);
      } catch (IOException e) {
        throw corrupt("gzip", e.getMessage(), e);
      }
    }

    public Map<String, Object> v2Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", "gzip");
      m.put("level", level);
      return m;
    }

    public Map<String, Object> v3Config() {
      return Map.of("level", level);
    }
  }

  static byte[] readBounded(String codec, java.io.InputStream in, int expectedSize)
      throws IOException {
    if (expectedSize >= 0) {
      byte[] out = in.readNBytes(expectedSize);
      if (out.length != expectedSize || in.read() != -1) {
        throw corrupt(codec, "decoded size differs from the expected " + expectedSize + " bytes",
            null);
      }
      return out;
    }
    return in.readAllBytes();
  }

  private record Zlib(int level) implements Compressor {
    public String id() {
      return "zlib";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      Deflater d = new Deflater(level);
      d.setInput(raw);
      d.finish();
      ByteArrayOutputStream b = new ByteArrayOutputStream(raw.length / 2 + 64);
      byte[] buf = new byte[65536];
      while (!d.finished()) {
        b.write(buf, 0, d.deflate(buf));
      }
      d.end();
      return b.toByteArray();
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      Inflater inf = new Inflater();
      inf.setInput(enc);
      try {
        if (expectedSize >= 0) {
          byte[] out = new byte[expectedSize];
          int n = 0;
          while (n < expectedSize && !inf.finished()) {
            int k = inf.inflate(out, n, expectedSize - n);
            if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
              break;
            }
            n += k;
          }
          if (n != expectedSize) {
            throw corrupt("zlib", "decoded " + n + " bytes, expected " + expectedSize, null);
          }
          return out;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        while (!inf.finished()) {
          int k = inf.inflate(buf);
          if (k == 0 && inf.needsInput()) {
            throw corrupt("zlib", "stream ends early", null);
          }
          b.write(buf, 0, k);
        }
        return b.toByteArray();
      } catch (DataFormatException e) {
        throw corrupt("zlib", e.getMessage(), e);
      } finally {
        inf.end();
      }
    }

    public Map<String, Object> v2Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", "zlib");
      m.put("level", level);
      return m;
    }

    public Map<String, Object> v3Config() {
      throw new ZarrException("zlib is a Zarr v2 compressor; use gzip or zstd in Zarr v3");
    }
  }

  private record Lz4(int acceleration) implements Compressor {
    public String id() {
      return "lz4";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      var c = LZ4Factory.fastestInstance().fastCompressor();
      byte[] out = new byte[4 + c.maxCompressedLength(raw.length)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(raw.length);
      int n = c.compress(raw, 0, raw.length, out, 4, out.length - 4);
      return java.util.Arrays.copyOf(out, 4 + n);
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      if (enc.length < 4) {
        throw corrupt("lz4", "shorter than its 4-byte size header", null);
      }
      int size = ByteBuffer.wrap(enc).order(ByteOrder.LITTLE_ENDIAN).getInt();
      checkSize("lz4", size, expectedSize);
      byte[] out = new byte[size];
      try {
        int n = LZ4Factory.fastestInstance().safeDecompressor()
            .decompress(enc, 4, enc.length - 4, out, 0, size);
        if (n != size) {
          throw corrupt("lz4", "decoded " + n + " bytes, expected " + size, null);
        }
      } catch (net.jpountz.lz4.LZ4Exception e) {
        throw corrupt("lz4", e.getMessage(), e);
      }
      return out;
    }

    public Map<String, Object> v2Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", "lz4");
      m.put("acceleration", acceleration);
      return m;
    }

    public Map<String, Object> v3Config() {
      throw new ZarrException("lz4 is a Zarr v2 compressor; use blosc with cname lz4 in Zarr v3");
    }
  }

  private record Blosc_(String cname, int clevel, Shuffle shuffle, int blocksize)
      implements Compressor {
    public String id() {
      return "blosc";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      Blosc.Compressor c = Blosc.Compressor.fromString(cname);
      Blosc.Shuffle s = Blosc.Shuffle.fromInt(shuffle.ordinal());
      return Blosc.compress(raw, Math.max(1, itemSize), c, clevel, s, blocksize, 1);
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      if (enc.length < 16) {
        throw corrupt("blosc", "shorter than the 16-byte blosc header", null);
      }
      ByteBuffer h = ByteBuffer.wrap(enc).order(ByteOrder.LITTLE_ENDIAN);
      long nbytes = h.getInt(4) & 0xFFFFFFFFL;
      long cbytes = h.getInt(12) & 0xFFFFFFFFL;
      checkSize("blosc", nbytes, expectedSize);
      if (cbytes != enc.length) {
        throw corrupt("blosc", "header declares " + cbytes + " compressed bytes, got " + enc.length,
            null);
      }
      byte[] out;
      try {
        out = Blosc.decompress(enc);
      } catch (RuntimeException e) {
        throw corrupt("blosc", e.getMessage(), e);
      }
      if (out == null || out.length != nbytes) {
        throw corrupt("blosc", "decompression failed", null);
      }
      return out;
    }

    public Map<String, Object> v2Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", "blosc");
      m.put("cname", cname);
      m.put("clevel", clevel);
      m.put("shuffle", shuffle.ordinal());
      m.put("blocksize", blocksize);
      return m;
    }

    public Map<String, Object> v3Config() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cname", cname);
      m.put("clevel", clevel);
      m.put("shuffle", shuffle.name().toLowerCase(Locale.ROOT));
      m.put("blocksize", blocksize);
      return m;
    }
  }

  private record Crc32c() implements Compressor {
    public String id() {
      return "crc32c";
    }

    public byte[] encode(byte[] raw, int itemSize) {
      CRC32C c = new CRC32C();
      c.update(raw);
      byte[] out = java.util.Arrays.copyOf(raw, raw.length + 4);
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(raw.length, (int) c.getValue());
      return out;
    }

    public byte[] decode(byte[] enc, int expectedSize) {
      if (enc.length < 4) {
        throw corrupt("crc32c", "shorter than the 4-byte checksum", null);
      }
      CRC32C c = new CRC32C();
      c.update(enc, 0, enc.length - 4);
      int stored = ByteBuffer.wrap(enc).order(ByteOrder.LITTLE_ENDIAN).getInt(enc.length - 4);
      if (stored != (int) c.getValue()) {
        throw corrupt("crc32c", "checksum mismatch", null);
      }
      return java.util.Arrays.copyOf(enc, enc.length - 4);
    }

    public Map<String, Object> v2Config() {
      throw new ZarrException("crc32c is a Zarr v3 codec");
    }

    public Map<String, Object> v3Config() {
      return Map.of();
    }
  }
}
