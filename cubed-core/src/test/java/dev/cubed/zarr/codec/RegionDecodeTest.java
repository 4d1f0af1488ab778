package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.luben.zstd.Zstd;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrRoundTripTest;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Region reads of {@code bytes} + zstd, gzip or zlib chunks from a local directory ({@link
 * StreamedDecode#decodeInto}): each chunk's part decoded straight into the result, the stream only
 * up to the part's last byte. Compared with the written array and with reads through a memory store
 * (whole chunks decoded) for seeded random boxes; a chunk truncated past a box still reads for that
 * box and is refused, with the whole-chunk path's message, for a box reaching the cut.
 */
class RegionDecodeTest {
  @TempDir Path dir;

  private record Layout(int format, Compression c, ByteOrder order) {}

  private static final List<Layout> LAYOUTS =
      List.of(
          new Layout(3, Compression.zstd(3), ByteOrder.LITTLE_ENDIAN),
          new Layout(3, Compression.zstd(1), ByteOrder.BIG_ENDIAN),
          new Layout(3, Compression.gzip(1), ByteOrder.LITTLE_ENDIAN),
          new Layout(3, Compression.gzip(5), ByteOrder.BIG_ENDIAN),
          new Layout(2, Compression.zstd(1), ByteOrder.BIG_ENDIAN),
          new Layout(2, Compression.zlib(1), ByteOrder.LITTLE_ENDIAN),
          new Layout(2, Compression.zlib(3), ByteOrder.BIG_ENDIAN));

  private static final List<DType> DTYPES =
      List.of(
          DType.BOOL,
          DType.UINT8,
          DType.INT16,
          DType.FLOAT32,
          DType.INT32,
          DType.FLOAT64,
          DType.COMPLEX64,
          DType.COMPLEX128);

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> b = Stream.builder();
    for (Layout l : LAYOUTS) {
      for (DType d : DTYPES) {
        b.add(Arguments.of(l, d));
      }
    }
    return b.build();
  }

  private ZarrArray create(
      FileSystemStore fs, String path, Layout l, DType d, long[] shape, long... chunks) {
    return ZarrArray.create(fs, path)
        .zarrFormat(l.format())
        .shape(shape)
        .chunks(chunks)
        .dtype(d)
        .compression(l.c())
        .byteOrder(l.order())
        .build();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void regionReadsEqualTheWrittenArrayForRandomBoxes(Layout l, DType d) {
    FileSystemStore fs = new FileSystemStore(dir);
    long[] shape = {53, 17, 23}; // chunks (20, 6, 9): edge chunks on every axis
    ZarrArray z = create(fs, "a", l, d, shape, 20, 6, 9);
    NDArray x = ZarrRoundTripTest.randomArray(d, shape, l.hashCode() * 31L + d.ordinal());
    z.write(new long[3], x);
    ZarrArray back = ZarrArray.open(fs, "a");
    assertThat(back.readCopies()).isZero();
    Random r = new Random(7 + d.ordinal());
    for (int t = 0; t < 60; t++) {
      long[] start = new long[3];
      long[] len = new long[3];
      int kind = t % 3;
      for (int i = 0; i < 3; i++) {
        if (kind == 0 && i > 0) { // a range of leading-axis rows, other axes whole
          start[i] = 0;
          len[i] = shape[i];
        } else {
          start[i] = r.nextInt((int) shape[i]);
          len[i] = 1 + r.nextInt((int) (shape[i] - start[i]));
          if (kind == 2) { // an inner box of one chunk
            long c = start[i] / z.chunks()[i] * z.chunks()[i];
            len[i] = Math.min(len[i], Math.min(shape[i], c + z.chunks()[i]) - start[i]);
          }
        }
      }
      NDArray got = back.read(start, len);
      assertThat(got)
          .as(l + " " + d + " box at " + Arrays.toString(start) + " " + Arrays.toString(len))
          .isEqualTo(x.getRegion(start, len));
    }
    assertThat(back.read(new long[3], shape)).isEqualTo(x);
  }

  @Test
  void aMissingChunkReadsAsTheFillValueInARegion() {
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray z = create(fs, "m", LAYOUTS.get(0), DType.FLOAT64, new long[] {10, 10}, 5, 5);
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {5, 10}, 3);
    z.write(new long[2], x);
    NDArray got = z.read(new long[] {3, 2}, new long[] {5, 6});
    assertThat(got.getRegion(new long[2], new long[] {2, 6}))
        .isEqualTo(x.getRegion(new long[] {3, 2}, new long[] {2, 6}));
    assertThat(got.getRegion(new long[] {2, 0}, new long[] {3, 6}))
        .isEqualTo(NDArray.zeros(DType.FLOAT64, new long[] {3, 6}));
  }

  /**
   * The early stop: a chunk cut in half still reads for a box in its first rows (the stream is
   * decoded only up to the box's last byte) and is refused for a box reaching past the cut, with
   * the message of a whole-chunk read.
   */
  @Test
  void aChunkCutPastTheBoxReadsForTheBoxAndIsRefusedForABoxReachingTheCut() {
    FileSystemStore fs = new FileSystemStore(dir);
    long[] shape = {400, 300};
    int i = 0;
    for (Layout l : LAYOUTS) {
      String path = "t" + i++;
      ZarrArray z = create(fs, path, l, DType.FLOAT64, shape, 400, 300);
      NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, i); // ~incompressible
      z.write(new long[2], x);
      String key = z.chunkKey(0, 0);
      byte[] good = fs.get(key);
      fs.put(key, Arrays.copyOf(good, good.length / 2));
      long[] head = {50, 300};
      assertThat(z.read(new long[2], head))
          .as(l.toString())
          .isEqualTo(x.getRegion(new long[2], head));
      long[] inner = {30, 100};
      assertThat(z.read(new long[] {100, 150}, inner))
          .as(l.toString())
          .isEqualTo(x.getRegion(new long[] {100, 150}, inner));
      Throwable whole = catchThrowable(() -> z.readChunk(0, 0));
      assertThat(whole).as(l.toString()).isInstanceOf(ZarrFormatException.class);
      for (long[][] box :
          List.of(
              new long[][] {{350, 0}, {50, 300}},
              new long[][] {{399, 299}, {1, 1}},
              new long[][] {{300, 10}, {1, 5}})) {
        Throwable part = catchThrowable(() -> z.read(box[0], box[1]));
        assertThat(part)
            .as(l + " " + Arrays.toString(box[0]))
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("chunk '" + key + "'")
            .hasMessage(whole.getMessage());
      }
    }
  }

  /**
   * Corrupt chunks are refused by a region read as by a whole-chunk read: a bad header, and a zstd
   * frame declaring another size than the chunk's, even for a box inside the size it declares.
   */
  @Test
  void corruptChunksAndAnotherDeclaredSizeAreRefusedAsByAWholeRead() {
    FileSystemStore fs = new FileSystemStore(dir);
    long[] shape = {64, 64};
    int i = 0;
    for (Layout l : LAYOUTS) {
      String path = "c" + i++;
      ZarrArray z = create(fs, path, l, DType.FLOAT64, shape, 64, 64);
      z.write(new long[2], ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, i));
      String key = z.chunkKey(0, 0);
      byte[] good = fs.get(key);
      List<byte[]> bads = new java.util.ArrayList<>();
      byte[] magic = good.clone();
      magic[0] ^= (byte) 0x5a;
      magic[1] ^= (byte) 0x33;
      bads.add(magic);
      if (l.c().kind() == Compression.Kind.ZSTD) {
        bads.add(Zstd.compress(new byte[64 * 8 * 10], 1)); // declares 10 rows, not 64
        bads.add(Zstd.compress(new byte[64 * 8 * 65], 1)); // declares more than the chunk
      }
      for (byte[] bad : bads) {
        fs.put(key, bad);
        Throwable whole = catchThrowable(() -> z.readChunk(0, 0));
        Throwable part = catchThrowable(() -> z.read(new long[] {0, 0}, new long[] {2, 64}));
        assertThat(whole).as(l.toString()).isInstanceOf(ZarrFormatException.class);
        assertThat(part).as(l.toString()).isInstanceOf(ZarrFormatException.class);
        assertThat(part.getMessage()).isEqualTo(whole.getMessage());
      }
    }
  }

  @Test
  void aMemoryStoreReadsTheSameRegionsThroughWholeChunks() {
    MemoryStore ms = new MemoryStore();
    long[] shape = {30, 40};
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT32, shape, 5);
    ZarrArray m =
        ZarrArray.create(ms, "m")
            .shape(shape)
            .chunks(7, 9)
            .dtype(DType.FLOAT32)
            .compression(Compression.zstd(1))
            .build();
    m.write(new long[2], x);
    FileSystemStore fs = new FileSystemStore(dir);
    ZarrArray f = create(fs, "f", LAYOUTS.get(0), DType.FLOAT32, shape, 7, 9);
    f.write(new long[2], x);
    Random r = new Random(11);
    for (int t = 0; t < 30; t++) {
      long[] s = {r.nextInt(30), r.nextInt(40)};
      long[] n = {1 + r.nextInt((int) (30 - s[0])), 1 + r.nextInt((int) (40 - s[1]))};
      assertThat(f.read(s, n)).isEqualTo(m.read(s, n));
    }
  }
}
