package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.codec.BytesCodec;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.codec.Crc32cBytesCodec;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Truncated, corrupt and oversized chunks for every compressor the project reads (v2: none, zstd,
 * gzip, zlib, lz4, blosc with Java and native inner codecs; v3: bytes, zstd, gzip, blosc, crc32c):
 * each read fails with a {@link ZarrFormatException} naming the chunk key, never a silent
 * truncation, a wrong answer or an allocation of a size the data merely claims.
 */
public class ZarrChunkRefusalTest {
  static final long[] SHAPE = {8, 8};
  static final long CHUNK_BYTES = 4 * 4 * 8;

  public record Variant(int format, Compression compression, boolean crc) {
    @Override
    public String toString() {
      return "v" + format + " " + compression + (crc ? " + crc32c" : "");
    }
  }

  public static List<Variant> variants() {
    List<Variant> v = new ArrayList<>();
    for (Compression c :
        List.of(
            Compression.none(),
            Compression.zstd(1),
            Compression.gzip(1),
            Compression.zlib(1),
            Compression.lz4(),
            Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE),
            Compression.blosc(Compression.BloscCodec.ZSTD, 3, Compression.Shuffle.NONE),
            Compression.blosc(Compression.BloscCodec.BLOSCLZ, 5, Compression.Shuffle.BIT))) {
      v.add(new Variant(2, c, false));
    }
    for (Compression c :
        List.of(
            Compression.none(),
            Compression.zstd(1),
            Compression.gzip(1),
            Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE))) {
      v.add(new Variant(3, c, false));
    }
    v.add(new Variant(3, Compression.zstd(1), true));
    return v;
  }

  static ZarrArray build(Variant v) {
    return ZarrBadInputTest.arrayWith(new MemoryStore(), v.format(), v.compression(), v.crc());
  }

  static void assertRefused(ZarrArray a, String key, Variant v, String... fragments) {
    var t =
        assertThatThrownBy(() -> a.readChunk(1, 0), v.toString())
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("chunk '" + key + "'");
    for (String f : fragments) {
      t.hasMessageContaining(f);
    }
  }

  @Test
  void truncatedChunkEveryCodec() {
    for (Variant v : variants()) {
      ZarrArray a = build(v);
      String key = a.chunkKey(1, 0);
      byte[] good = a.store().get(key);
      for (int len : new int[] {0, 1, good.length / 2, good.length - 1}) {
        a.store().put(key, Arrays.copyOf(good, len));
        assertRefused(a, key, v);
      }
      a.store().put(key, good);
      assertThat(a.readChunk(1, 0).shape()).containsExactly(4, 4);
    }
  }

  @Test
  void randomBytesEveryCodec() {
    Random r = new Random(42);
    for (Variant v : variants()) {
      ZarrArray a = build(v);
      String key = a.chunkKey(1, 0);
      for (int t = 0; t < 20; t++) {
        byte[] junk = new byte[1 + r.nextInt(400)];
        r.nextBytes(junk);
        if (junk.length == CHUNK_BYTES) {
          continue; // any 128 bytes are a valid uncompressed chunk
        }
        a.store().put(key, junk);
        assertRefused(a, key, v);
      }
    }
  }

  @Test
  void oversizedChunkEveryCodec() {
    byte[] twice = new byte[(int) (2 * CHUNK_BYTES)];
    new Random(3).nextBytes(twice);
    for (Variant v : variants()) {
      ZarrArray a = build(v);
      String key = a.chunkKey(1, 0);
      BytesCodec codec = v.compression().codec(8);
      byte[] enc = codec == null ? twice : codec.encode(twice);
      if (v.crc()) {
        enc = new Crc32cBytesCodec().encode(enc);
      }
      a.store().put(key, enc);
      // no silent truncation to the 128 bytes the chunk needs
      assertThatThrownBy(() -> a.readChunk(1, 0), v.toString())
          .isInstanceOf(ZarrFormatException.class)
          .hasMessageContaining(key)
          .hasMessageMatching(
              "(?s).*(decodes to more than the 128 bytes|declares 256 decoded"
                  + " bytes, more than the 128|decoded chunk has 256 bytes, expected 128).*");
    }
  }

  @Test
  @Timeout(120)
  void hugeDeclaredSizesAreNotAllocated() {
    // zstd frame: magic, descriptor (8-byte content size, single segment), size 2^40, one RLE
    // block of 4 bytes; the declared size is checked against the chunk before any allocation
    ByteBuffer z = ByteBuffer.allocate(4 + 1 + 8 + 4).order(ByteOrder.LITTLE_ENDIAN);
    z.putInt(0xFD2FB528).put((byte) 0xE0).putLong(1L << 40);
    int blockHeader = 1 | (1 << 1) | (4 << 3); // last, RLE, size 4
    z.put((byte) blockHeader)
        .put((byte) (blockHeader >> 8))
        .put((byte) (blockHeader >> 16))
        .put((byte) 7);
    Variant zstd = new Variant(3, Compression.zstd(1), false);
    ZarrArray a = build(zstd);
    String key = a.chunkKey(1, 0);
    a.store().put(key, z.array());
    assertRefused(
        a,
        key,
        zstd,
        "zstd data declares 1099511627776 decoded bytes",
        "more than the 128 bytes expected");

    Variant lz4 = new Variant(2, Compression.lz4(), false);
    ZarrArray b = build(lz4);
    byte[] bomb = new byte[16];
    ByteBuffer.wrap(bomb).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.MAX_VALUE);
    b.store().put(b.chunkKey(1, 0), bomb);
    assertRefused(b, b.chunkKey(1, 0), lz4, "lz4 data declares 2147483647 decoded bytes");

    for (Variant v : variants()) {
      if (v.compression().kind() != Compression.Kind.BLOSC) {
        continue;
      }
      ZarrArray c = build(v);
      byte[] blosc = c.store().get(c.chunkKey(1, 0));
      ByteBuffer.wrap(blosc).order(ByteOrder.LITTLE_ENDIAN).putInt(4, Integer.MAX_VALUE);
      c.store().put(c.chunkKey(1, 0), blosc);
      assertRefused(c, c.chunkKey(1, 0), v, "blosc data declares 2147483647 decoded bytes");
    }
  }
}
