package dev.cubed.zarr.codec;

import com.github.luben.zstd.ZstdException;
import com.scalableminds.bloscjava.Blosc.Compressor;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/** The bytes-to-bytes codecs: zstd, gzip, zlib, lz4 (numcodecs framing), blosc and crc32c. */
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

  /** Zstandard. */
  public record Zstd(int level) implements BytesCodec {
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
        throw tooBig(where, "zstd", declared, maxOut);
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
          throw oversized(where, "zstd", maxOut);
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
      return doc("name", "zstd", "level", level, "checksum", false);
    }

    @Override
    public Map<String, Object> v2Json() {
      return doc("id", "zstd", "level", level);
    }
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

  /** Gzip (RFC 1952). */
  public record Gzip(int level) implements BytesCodec {
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
        return readBounded(gz, maxOut, where, "gzip");
      } catch (IOException e) {
        throw new ZarrFormatException(
            where + ": corrupt or truncated gzip data: " + e.getMessage(), e);
      }
    }

    /** zlib's {@code compressBound} with the gzip header and trailer (18 bytes). */
    @Override
    public long maxEncoded(long n) {
      return deflateBound(n) + 18;
    }

    @Override
    public Map<String, Object> v3Json() {
      return doc("name", "gzip", "level", level);
    }

    @Override
    public Map<String, Object> v2Json() {
      return doc("id", "gzip", "level", level);
    }
  }

  /** Zlib (RFC 1950), numcodecs' "zlib". */
  public record Zlib(int level) implements BytesCodec {
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
            throw oversized(where, "zlib", maxOut);
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
      return deflateBound(n);
    }

    @Override
    public Map<String, Object> v3Json() {
      throw new UnsupportedOperationException(
          "zlib is a Zarr v2 (numcodecs) compressor; Zarr v3 arrays use gzip instead");
    }

    @Override
    public Map<String, Object> v2Json() {
      return doc("id", "zlib", "level", level);
    }
  }

  /** LZ4 with numcodecs' framing: 4-byte little-endian decoded size, then one LZ4 block. */
  public record Lz4(int acceleration) implements BytesCodec {
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
        throw tooBig(where, "lz4", size & 0xFFFFFFFFL, maxOut);
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
      return doc("id", "lz4", "acceleration", acceleration);
    }
  }

  /**
   * Blosc 1. LZ4 with no or byte shuffle is encoded and decoded in Java ({@link JavaBlosc}: no
   * native buffers outside the heap, works without the native library); other compressors and bit
   * shuffle go through the native blosc-java binding.
   */
  public record Blosc(
      Compression.BloscCodec cname,
      int clevel,
      Compression.Shuffle shuffle,
      int typeSize,
      int blockSize)
      implements BytesCodec {
    @Override
    public byte[] encode(byte[] in) {
      if (cname == Compression.BloscCodec.LZ4 && shuffle != Compression.Shuffle.BIT) {
        return JavaBlosc.compress(
            in, typeSize, clevel, shuffle == Compression.Shuffle.BYTE, blockSize);
      }
      return com.scalableminds.bloscjava.Blosc.compress(
          in,
          typeSize,
          Compressor.fromString(cname.id()),
          clevel,
          com.scalableminds.bloscjava.Blosc.Shuffle.fromInt(shuffle.v2Code),
          blockSize,
          1);
    }

    @Override
    public byte[] decode(byte[] in, int maxOut, String where) {
      long nbytes = checkHeader(in, maxOut, where);
      if (JavaBlosc.canDecode(in)) {
        return JavaBlosc.decompress(in, where);
      }
      return decodeNative(in, nbytes, where);
    }

    /**
     * Whether {@link BloscStreams} decodes chunks written with these settings (LZ4 or zstd, no bit
     * shuffle), a block at a time straight into the array.
     */
    boolean javaDecodes() {
      return (cname == Compression.BloscCodec.LZ4 || cname == Compression.BloscCodec.ZSTD)
          && shuffle != Compression.Shuffle.BIT;
    }

    /** Whether {@link BloscStreams} encodes with these settings (LZ4, no bit shuffle). */
    boolean javaEncodes() {
      return cname == Compression.BloscCodec.LZ4 && shuffle != Compression.Shuffle.BIT;
    }

    /**
     * Checks the 16-byte header against the buffer and {@code maxOut}; returns the declared
     * uncompressed size.
     */
    public static long checkHeader(byte[] in, int maxOut, String where) {
      return checkHeader(in, in.length, maxOut, where);
    }

    /**
     * As {@link #checkHeader(byte[], int, String)} for a buffer of {@code size} bytes of which
     * {@code header} holds the first ones (at least 16 when size allows).
     */
    public static long checkHeader(byte[] header, long size, int maxOut, String where) {
      if (size < 16 || header.length < 16) {
        throw new ZarrFormatException(
            where
                + ": blosc data of "
                + size
                + " bytes is shorter than its 16-byte header (truncated chunk)");
      }
      ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
      long nbytes = h.getInt(4) & 0xFFFFFFFFL;
      long cbytes = h.getInt(12) & 0xFFFFFFFFL;
      if (cbytes != size) {
        throw new ZarrFormatException(
            where
                + ": blosc header declares "
                + cbytes
                + " compressed bytes but the chunk has "
                + size
                + " (truncated or corrupt)");
      }
      if (nbytes > maxOut) {
        throw tooBig(where, "blosc", nbytes, maxOut);
      }
      return nbytes;
    }

    private static byte[] decodeNative(byte[] in, long nbytes, String where) {
      byte[] out;
      try {
        out = com.scalableminds.bloscjava.Blosc.decompress(in);
      } catch (UnsatisfiedLinkError e) {
        throw new UnsupportedOperationException(
            where
                + ": this blosc chunk uses compressor code "
                + ((in[2] & 0xFF) >>> 5)
                + (((in[2] & 0x4) != 0) ? " with bit shuffle" : "")
                + ", which needs the native blosc library, and it does not load on this platform ("
                + e.getMessage()
                + "); LZ4 with no or byte shuffle is decoded without it",
            e);
      } catch (RuntimeException e) {
        throw new ZarrFormatException(where + ": corrupt blosc data: " + e.getMessage(), e);
      }
      if (out == null || out.length != nbytes) {
        throw new ZarrFormatException(
            where
                + ": corrupt blosc data (decoded "
                + (out == null ? "nothing" : out.length + " bytes")
                + ", header says "
                + nbytes
                + ")");
      }
      return out;
    }

    /**
     * {@code nbytes + BLOSC_MAX_OVERHEAD} (16), what Blosc stores incompressible data in, with room
     * for the block offsets and stream sizes (4 bytes each) of compressed blocks of other writers.
     */
    @Override
    public long maxEncoded(long n) {
      return n + 16 + 8 * (n / 256 + 1);
    }

    @Override
    public Map<String, Object> v3Json() {
      return doc(
          "name",
          "blosc",
          "typesize",
          typeSize,
          "cname",
          cname.id(),
          "clevel",
          clevel,
          "shuffle",
          shuffle.v3Name,
          "blocksize",
          blockSize);
    }

    @Override
    public Map<String, Object> v2Json() {
      // no "typesize": zarr-python 2 / older numcodecs reject it in v2 metadata
      return doc(
          "id",
          "blosc",
          "cname",
          cname.id(),
          "clevel",
          clevel,
          "shuffle",
          shuffle.v2Code,
          "blocksize",
          blockSize);
    }
  }

  /** CRC-32C checksum appended as 4 little-endian bytes. */
  public record Crc32c() implements BytesCodec {
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
}
