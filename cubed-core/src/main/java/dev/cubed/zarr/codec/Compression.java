package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * The compressor of a new array: an immutable value chosen with the static factories.
 *
 * <p>In Zarr v3 it becomes the bytes-to-bytes codec after the {@code bytes} codec; in Zarr v2 the
 * {@code compressor} of {@code .zarray}. {@link #zlib} and {@link #lz4} exist only in v2
 * (numcodecs); asking for them in a v3 array is an {@link UnsupportedOperationException} at build
 * time.
 */
public final class Compression implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The compressor families. */
  public enum Kind {
    NONE,
    ZSTD,
    GZIP,
    ZLIB,
    LZ4,
    BLOSC
  }

  /** Blosc's shuffle filter. */
  public enum Shuffle {
    NONE(0, "noshuffle"),
    BYTE(1, "shuffle"),
    BIT(2, "bitshuffle");

    final int v2Code;
    final String v3Name;

    Shuffle(int v2Code, String v3Name) {
      this.v2Code = v2Code;
      this.v3Name = v3Name;
    }

    public static Shuffle fromV2(int code, String where) {
      for (Shuffle s : values()) {
        if (s.v2Code == code) {
          return s;
        }
      }
      if (code == -1) {
        return BYTE; // numcodecs AUTOSHUFFLE: byte shuffle for items wider than one byte
      }
      throw new ZarrFormatException(
          where + ": blosc shuffle " + code + " is not one of 0 (none), 1 (byte), 2 (bit)");
    }

    public static Shuffle fromV3(String name, String where) {
      for (Shuffle s : values()) {
        if (s.v3Name.equals(name)) {
          return s;
        }
      }
      throw new ZarrFormatException(
          where + ": blosc shuffle '" + name + "' is not one of noshuffle, shuffle, bitshuffle");
    }
  }

  /** Blosc's internal compressors. */
  public enum BloscCodec {
    LZ4,
    LZ4HC,
    BLOSCLZ,
    ZSTD,
    ZLIB;

    /** The name used in metadata ({@code "lz4"}, {@code "blosclz"}, ...). */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static BloscCodec fromId(String id, String where) {
      for (BloscCodec c : values()) {
        if (c.id().equals(id)) {
          return c;
        }
      }
      throw new ZarrFormatException(
          where + ": blosc cname '" + id + "' is not one of lz4, lz4hc, blosclz, zstd, zlib");
    }
  }

  private final Kind kind;
  private final int level;
  private final BloscCodec bloscCodec;
  private final Shuffle shuffle;

  private Compression(Kind kind, int level, BloscCodec bloscCodec, Shuffle shuffle) {
    this.kind = kind;
    this.level = level;
    this.bloscCodec = bloscCodec;
    this.shuffle = shuffle;
  }

  /**
   * The project's default for new arrays: {@code blosc(lz4, 5, byte shuffle)}, zarr-python 2's
   * default, readable by zarr-python 2 and 3. This variant is encoded and decoded in Java (LZ4 via
   * lz4-java), so it needs no native library and no buffers outside the heap; it writes and reads
   * float data several times faster than {@code zstd(1)} (docs/perf/zarr.md).
   */
  public static Compression projectDefault() {
    return blosc(BloscCodec.LZ4, 5, Shuffle.BYTE);
  }

  /**
   * What zarr-python 3 writes when given no codec, for Zarr format 2 and 3 alike: {@code zstd} at
   * level 0 (the library's default level) without its checksum. Arrays written for other tools
   * ({@code Cubed.toZarr}) use it, so those tools read them at their usual speed.
   */
  public static Compression zarrPythonDefault() {
    return zstd(0);
  }

  /** No compression. */
  public static Compression none() {
    return new Compression(Kind.NONE, 0, null, null);
  }

  /** Zstandard at a level (-131072..22; 1 is fast, 3 the library default). */
  public static Compression zstd(int level) {
    if (level < -131072 || level > 22) {
      throw new IllegalArgumentException(
          "Compression.zstd: level " + level + " outside -131072..22");
    }
    return new Compression(Kind.ZSTD, level, null, null);
  }

  /** Gzip (RFC 1952) at a level 0..9. */
  public static Compression gzip(int level) {
    return new Compression(Kind.GZIP, checkDeflate("gzip", level), null, null);
  }

  /** Zlib (RFC 1950) at a level 0..9; Zarr v2 only. */
  public static Compression zlib(int level) {
    return new Compression(Kind.ZLIB, checkDeflate("zlib", level), null, null);
  }

  /** LZ4 with numcodecs' framing (little-endian uncompressed size, then a block); Zarr v2 only. */
  public static Compression lz4() {
    return new Compression(Kind.LZ4, 1, null, null);
  }

  /** Blosc with an inner compressor, level 0..9 and shuffle. */
  public static Compression blosc(BloscCodec codec, int clevel, Shuffle shuffle) {
    if (clevel < 0 || clevel > 9) {
      throw new IllegalArgumentException("Compression.blosc: clevel " + clevel + " outside 0..9");
    }
    return new Compression(
        Kind.BLOSC, clevel, Objects.requireNonNull(codec), Objects.requireNonNull(shuffle));
  }

  private static int checkDeflate(String name, int level) {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException(
          "Compression." + name + ": level " + level + " outside 0..9");
    }
    return level;
  }

  /** The family. */
  public Kind kind() {
    return kind;
  }

  /** The level (clevel for blosc, acceleration for lz4, 0 for none). */
  public int level() {
    return level;
  }

  /** Blosc's inner compressor, or {@code null} if not blosc. */
  public BloscCodec bloscCodec() {
    return bloscCodec;
  }

  /** Blosc's shuffle, or {@code null} if not blosc. */
  public Shuffle shuffle() {
    return shuffle;
  }

  /** The compression a codec implements, or {@code null} for checksums. */
  public static Compression of(BytesCodec c) {
    if (c instanceof ZstdBytesCodec z) {
      return new Compression(Kind.ZSTD, z.level(), null, null);
    }
    if (c instanceof GzipBytesCodec g) {
      return new Compression(Kind.GZIP, g.level(), null, null);
    }
    if (c instanceof ZlibBytesCodec z) {
      return new Compression(Kind.ZLIB, z.level(), null, null);
    }
    if (c instanceof Lz4BytesCodec l) {
      return new Compression(Kind.LZ4, l.acceleration(), null, null);
    }
    if (c instanceof BloscBytesCodec b) {
      return new Compression(Kind.BLOSC, b.clevel(), b.cname(), b.shuffle());
    }
    return null;
  }

  /** The bytes codec implementing this compression, or {@code null} for none. */
  public BytesCodec codec(int typeSize) {
    return switch (kind) {
      case NONE -> null;
      case ZSTD -> new ZstdBytesCodec(level);
      case GZIP -> new GzipBytesCodec(level);
      case ZLIB -> new ZlibBytesCodec(level);
      case LZ4 -> new Lz4BytesCodec(level);
      case BLOSC -> new BloscBytesCodec(bloscCodec, level, shuffle, typeSize, 0);
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Compression c
        && c.kind == kind
        && c.level == level
        && c.bloscCodec == bloscCodec
        && c.shuffle == shuffle;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, level, bloscCodec, shuffle);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case NONE -> "none";
      case BLOSC ->
          "blosc(" + bloscCodec.id() + ", clevel=" + level + ", shuffle=" + shuffle.v3Name + ")";
      default -> kind.name().toLowerCase(Locale.ROOT) + "(level=" + level + ")";
    };
  }
}
