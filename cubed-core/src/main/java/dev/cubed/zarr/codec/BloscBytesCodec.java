package dev.cubed.zarr.codec;

import com.scalableminds.bloscjava.Blosc.Compressor;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * Blosc 1. LZ4 with no or byte shuffle is encoded and decoded in Java ({@link JavaBlosc}: no native
 * buffers outside the heap, works without the native library); other compressors and bit shuffle go
 * through the native blosc-java binding.
 */
public record BloscBytesCodec(
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
   * As {@link #checkHeader(byte[], int, String)} for a buffer of {@code size} bytes of which {@code
   * header} holds the first ones (at least 16 when size allows).
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
      throw BytesCodecs.tooBig(where, "blosc", nbytes, maxOut);
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
    return BytesCodecs.doc(
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
    return BytesCodecs.doc(
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
