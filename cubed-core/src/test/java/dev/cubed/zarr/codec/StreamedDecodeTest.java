package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrBadInputTest;
import dev.cubed.zarr.ZarrChunkRefusalTest;
import dev.cubed.zarr.ZarrRoundTripTest;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunks of the bytes serializer and one zstd, gzip or zlib compressor, and Blosc-zstd chunks, read
 * from a local directory ({@link StreamedDecode}, {@link JavaBlosc}): straight into the chunk's
 * array through buffers reused from chunk to chunk, edge chunks clipped, both byte orders, chunks
 * larger than the read and decode slices; refused with the messages of the whole-value path when
 * truncated, corrupt or oversized.
 */
class StreamedDecodeTest {
  @TempDir Path dir;

  private record Layout(int format, Compression c, ByteOrder order) {}

  private static List<Layout> layouts() {
    return List.of(
        new Layout(3, Compression.zstd(0), ByteOrder.LITTLE_ENDIAN),
        new Layout(3, Compression.zstd(3), ByteOrder.BIG_ENDIAN),
        new Layout(3, Compression.gzip(5), ByteOrder.LITTLE_ENDIAN),
        new Layout(3, Compression.gzip(1), ByteOrder.BIG_ENDIAN),
        new Layout(2, Compression.zstd(1), ByteOrder.LITTLE_ENDIAN),
        new Layout(2, Compression.zstd(1), ByteOrder.BIG_ENDIAN),
        new Layout(2, Compression.gzip(1), ByteOrder.LITTLE_ENDIAN),
        new Layout(2, Compression.zlib(1), ByteOrder.BIG_ENDIAN));
  }

  /**
   * Random doubles: nearly incompressible, so a 2 MiB chunk spans several reads of a slice ({@code
   * StreamedDecode.IN_SLICE}).
   */
  private static NDArray data(DType dtype, long[] shape, long seed) {
    return ZarrRoundTripTest.randomArray(dtype, shape, seed);
  }

  @Test
  void chunksReadFromFilesEqualTheWrittenArrayEveryLayout() {
    FileSystemStore store = new FileSystemStore(dir);
    long[] shape = {700, 450}; // chunks (512, 512): 2 MiB full chunks, three edge chunks
    int i = 0;
    for (Layout l : layouts()) {
      for (DType dtype : List.of(DType.FLOAT64, DType.INT16, DType.COMPLEX64, DType.BOOL)) {
        String path = "a" + i++;
        ZarrArray z =
            ZarrArray.create(store, path)
                .zarrFormat(l.format())
                .shape(shape)
                .chunks(512, 512)
                .dtype(dtype)
                .compression(l.c())
                .byteOrder(l.order())
                .build();
        NDArray x = data(dtype, shape, i);
        z.write(new long[2], x);
        ZarrArray back = ZarrArray.open(store, path);
        assertThat(back.readCopies()).as(l + " " + dtype).isZero();
        for (long ci = 0; ci < 2; ci++) {
          for (long cj = 0; cj < 1; cj++) {
            NDArray got = back.readChunk(ci, cj);
            long[] lo = {ci * 512, cj * 512};
            long[] hi = {Math.min(shape[0], lo[0] + 512), Math.min(shape[1], lo[1] + 512)};
            assertThat(got.shape()).containsExactly(hi[0] - lo[0], hi[1] - lo[1]);
            assertThat(got)
                .as(l + " " + dtype + " chunk " + ci + "," + cj)
                .isEqualTo(x.getRegion(lo, new long[] {hi[0] - lo[0], hi[1] - lo[1]}));
          }
        }
        assertThat(back.read(new long[2], shape)).as(l + " " + dtype).isEqualTo(x);
      }
    }
  }

  @Test
  void aSmallChunkAfterALargeOneOnTheSameThreadHoldsOnlyItsOwnBytes() {
    FileSystemStore store = new FileSystemStore(dir);
    ZarrArray big =
        ZarrArray.create(store, "big")
            .shape(600, 600)
            .chunks(600, 600)
            .compression(Compression.zstd(1))
            .build();
    big.write(new long[2], data(DType.FLOAT64, new long[] {600, 600}, 1));
    ZarrArray small =
        ZarrArray.create(store, "small")
            .shape(5, 3)
            .chunks(4, 4)
            .compression(Compression.zstd(1))
            .build();
    NDArray s = data(DType.FLOAT64, new long[] {5, 3}, 2);
    small.write(new long[2], s);
    for (int round = 0; round < 3; round++) {
      assertThat(big.readChunk(0, 0).getDouble(0)).isNotEqualTo(0.0);
      assertThat(small.readChunk(1, 0))
          .isEqualTo(s.getRegion(new long[] {4, 0}, new long[] {1, 3}));
      assertThat(small.readChunk(0, 0)).isEqualTo(s.getRegion(new long[2], new long[] {4, 3}));
    }
  }

  @Test
  void bloscZstdChunksOfCBloscAreDecodedInJavaFromFiles() throws Exception {
    FileSystemStore store = new FileSystemStore(dir);
    for (Compression.Shuffle sh : List.of(Compression.Shuffle.BYTE, Compression.Shuffle.NONE)) {
      String path = "b" + sh;
      // the native c-blosc (the library numcodecs wraps) encodes Blosc-zstd
      ZarrArray z =
          ZarrArray.create(store, path)
              .shape(300, 200)
              .chunks(256, 128)
              .compression(Compression.blosc(Compression.BloscCodec.ZSTD, 5, sh))
              .build();
      NDArray x = data(DType.FLOAT64, new long[] {300, 200}, 7);
      z.write(new long[2], x);
      ZarrArray back = ZarrArray.open(store, path);
      assertThat(back.readCopies()).isZero();
      assertThat(back.readsRegions()).isTrue();
      assertThat(back.read(new long[2], new long[] {300, 200})).as(sh.toString()).isEqualTo(x);
      byte[] stored = Files.readAllBytes(dir.resolve(path).resolve("c/1/1"));
      assertThat(JavaBlosc.canDecode(stored)).isTrue();
      assertThat(stored[2] >>> 5 & 7).as("zstd streams").isEqualTo(4);
    }
  }

  @Test
  void truncatedCorruptAndOversizedFilesAreRefusedAsInMemory() {
    byte[] twice = new byte[256];
    new Random(3).nextBytes(twice);
    Random r = new Random(42);
    for (ZarrChunkRefusalTest.Variant v : ZarrChunkRefusalTest.variants()) {
      FileSystemStore fs =
          new FileSystemStore(
              dir.resolve(
                  v.format()
                      + "-"
                      + v.compression().kind()
                      + "-"
                      + v.crc()
                      + "-"
                      + r.nextInt(1_000_000)));
      ZarrArray file = ZarrBadInputTest.arrayWith(fs, v.format(), v.compression(), v.crc());
      ZarrArray mem =
          ZarrBadInputTest.arrayWith(new MemoryStore(), v.format(), v.compression(), v.crc());
      String key = file.chunkKey(1, 0);
      byte[] good = fs.get(key);
      BytesCodec codec = v.compression().codec(8);
      byte[] big = codec == null ? twice : codec.encode(twice);
      byte[] flipped = good.clone();
      for (int k = good.length / 3; k < good.length; k += 7) {
        flipped[k] ^= (byte) 0x5a;
      }
      byte[] junk = new byte[1 + r.nextInt(400)];
      r.nextBytes(junk);
      for (byte[] bad :
          List.of(
              Arrays.copyOf(good, good.length / 2),
              Arrays.copyOf(good, good.length - 1),
              flipped,
              junk,
              big)) {
        if (bad.length == 128 && codec == null) {
          continue; // any 128 bytes are a valid uncompressed chunk
        }
        fs.put(key, bad);
        mem.store().put(key, bad);
        Throwable fromMemory = catchThrowable(() -> mem.readChunk(1, 0));
        Throwable fromFile = catchThrowable(() -> file.readChunk(1, 0));
        if (fromMemory == null) {
          // a flip in stored bytes no check covers decodes to other values, in both paths
          assertThat(fromFile).as(v.toString()).isNull();
          assertThat(file.readChunk(1, 0)).isEqualTo(mem.readChunk(1, 0));
          continue;
        }
        assertThat(fromFile)
            .as(v + " " + fromMemory)
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("chunk '" + key + "'");
        assertThat(kind(fromFile.getMessage()))
            .as(v + ": " + fromFile.getMessage() + " vs " + fromMemory.getMessage())
            .isEqualTo(kind(fromMemory.getMessage()));
      }
      fs.put(key, good);
      assertThat(file.readChunk(1, 0).shape()).containsExactly(4, 4);
    }
  }

  @Test
  void aCorruptZstdChunkNamesTheCodec() {
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z =
        ZarrArray.create(fs, "z")
            .shape(64, 64)
            .chunks(64, 64)
            .compression(Compression.zstd(3))
            .build();
    z.write(new long[2], data(DType.FLOAT64, new long[] {64, 64}, 9));
    byte[] good = fs.get("z/c/0/0");
    byte[] bad = good.clone();
    for (int k = 40; k < bad.length; k += 11) {
      bad[k] ^= (byte) 0xff;
    }
    fs.put("z/c/0/0", bad);
    assertThatThrownBy(() -> z.readChunk(0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("chunk 'z/c/0/0'")
        .hasMessageContaining("zstd");
    fs.put("z/c/0/0", Arrays.copyOf(good, good.length - 9));
    assertThatThrownBy(() -> z.readChunk(0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("chunk 'z/c/0/0'")
        .hasMessageContaining("corrupt or truncated zstd");
  }

  /** The kind of refusal a message states, the same words in both paths. */
  private static String kind(String m) {
    for (String k :
        List.of(
            "declares",
            "decodes to more than",
            "decoded chunk has",
            "checksum mismatch",
            "not a zstd frame",
            "zstd",
            "gzip",
            "zlib",
            "lz4",
            "blosc")) {
      if (m.contains(k)) {
        return k;
      }
    }
    return m;
  }

  private static Throwable catchThrowable(Runnable r) {
    try {
      r.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }
}
