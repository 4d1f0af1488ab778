package dev.cubed.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ChunkReader;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrRoundTripTest;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * bytes + zstd chunks read forward as runs ({@link ZstdRuns} through {@link ChunkReader}): seeded
 * runs in increasing order equal the chunk on every dtype and byte order, a run before the slice in
 * hand decodes again from the start and still reads right, and truncated, foreign, oversized,
 * size-less and large-window values are refused or left to the whole-chunk read.
 */
class ZstdRunsTest {
  @TempDir Path dir;

  private ZarrArray array(String path, DType dtype, ByteOrder order, long[] shape, long[] chunks) {
    return ZarrArray.create(new FileSystemStore(dir), path)
        .shape(shape)
        .chunks(chunks)
        .dtype(dtype)
        .compression(Compression.zstd(0))
        .byteOrder(order)
        .build();
  }

  static Stream<Object[]> layouts() {
    return Stream.of(
        new Object[] {DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, 1L},
        new Object[] {DType.FLOAT64, ByteOrder.BIG_ENDIAN, 2L},
        new Object[] {DType.FLOAT32, ByteOrder.LITTLE_ENDIAN, 3L},
        new Object[] {DType.INT16, ByteOrder.BIG_ENDIAN, 4L},
        new Object[] {DType.COMPLEX64, ByteOrder.LITTLE_ENDIAN, 5L},
        new Object[] {DType.COMPLEX128, ByteOrder.BIG_ENDIAN, 6L},
        new Object[] {DType.BOOL, ByteOrder.LITTLE_ENDIAN, 7L},
        new Object[] {DType.INT64, ByteOrder.LITTLE_ENDIAN, 8L});
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void increasingRunsEqualTheChunk(DType dtype, ByteOrder order, long seed) {
    long[] shape = {1024, 600};
    ZarrArray z = array("a", dtype, order, shape, new long[] {512, 600});
    NDArray x = ZarrRoundTripTest.randomArray(dtype, shape, seed);
    z.write(new long[2], x);
    ZarrArray back = ZarrArray.open(new FileSystemStore(dir), "a");
    assertThat(back.streamsRegions()).isTrue();
    Random rnd = new Random(seed);
    int slots = dtype.isComplex() ? 2 : 1;
    long restarts = ZstdRuns.RESTARTS.sum();
    for (long ci = 0; ci < 2; ci++) {
      NDArray chunk = back.readChunk(ci, 0);
      Object whole = chunk.data();
      int total = 512 * 600;
      try (ChunkReader r = back.chunkReader(new long[] {ci, 0}, 1)) {
        assertThat(r).isNotNull();
        // runs of 1 to 70,000 elements with gaps (some crossing the 256 KiB slices), to the end
        int at = 0;
        while (at < total) {
          at += rnd.nextInt(3) == 0 ? rnd.nextInt(20_000) : 0;
          int n = Math.min(total - at, 1 + rnd.nextInt(70_000));
          if (n <= 0) {
            break;
          }
          Object dst = Array.newInstance(whole.getClass().getComponentType(), (n + 3) * slots);
          r.read(at, n, dst, 3);
          for (int i = 0; i < n * slots; i++) {
            assertThat(Array.get(dst, 3 * slots + i))
                .as("%s %s chunk %d element %d", dtype, order, ci, at + i / slots)
                .isEqualTo(Array.get(whole, at * slots + i));
          }
          at += n;
        }
      }
    }
    assertThat(ZstdRuns.RESTARTS.sum()).isEqualTo(restarts);
  }

  @Test
  void aRunBeforeTheSliceInHandDecodesAgainFromTheStart() {
    long[] shape = {512, 512};
    ZarrArray z = array("b", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, shape);
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, 11);
    z.write(new long[2], x);
    double[] want = (double[]) x.data();
    long restarts = ZstdRuns.RESTARTS.sum();
    try (ChunkReader r = z.chunkReader(new long[2], 1)) {
      double[] got = new double[10];
      r.read(250_000, 10, got, 0);
      assertThat(got).containsExactly(java.util.Arrays.copyOfRange(want, 250_000, 250_010));
      r.read(5, 10, got, 0);
      assertThat(got).containsExactly(java.util.Arrays.copyOfRange(want, 5, 15));
      assertThat(ZstdRuns.RESTARTS.sum()).isEqualTo(restarts + 1);
      r.read(262_134, 10, got, 0); // the last run after the restart
      assertThat(got).containsExactly(java.util.Arrays.copyOfRange(want, 262_134, 262_144));
      assertThatThrownBy(() -> r.read(262_140, 10, got, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outside a chunk of 262144 elements");
    }
  }

  /** The chunk file of chunk (0, 0) of array {@code path} (default key encoding). */
  private Path chunkFile(String path) {
    return dir.resolve(path).resolve("c").resolve("0").resolve("0");
  }

  @Test
  void truncatedForeignAndOversizedValuesAreRefusedNamingTheChunk() throws IOException {
    long[] shape = {512, 512};
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, 12);
    int total = 512 * 512;
    double[] got = new double[100];

    ZarrArray t = array("t", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, shape);
    t.write(new long[2], x);
    byte[] stored = Files.readAllBytes(chunkFile("t"));
    Files.write(chunkFile("t"), java.util.Arrays.copyOf(stored, stored.length / 2));
    try (ChunkReader r = t.chunkReader(new long[2], 1)) {
      r.read(0, 100, got, 0); // the first half decodes
      assertThat(got[7]).isEqualTo(((double[]) x.data())[7]);
      assertThatThrownBy(() -> r.read(total - 100, 100, got, 0))
          .isInstanceOf(ZarrFormatException.class)
          .hasMessageContaining("t/c/0/0")
          .hasMessageContaining("truncated");
    }

    ZarrArray f = array("f", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, shape);
    f.write(new long[2], x);
    byte[] junk = new byte[4096];
    new Random(3).nextBytes(junk);
    Files.write(chunkFile("f"), junk);
    assertThatThrownBy(() -> f.chunkReader(new long[2], 1))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("f/c/0/0")
        .hasMessageContaining("not a zstd frame");

    ZarrArray o = array("o", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, shape);
    o.write(new long[2], x);
    // a second frame after the chunk's: more bytes than the chunk holds
    Files.write(chunkFile("o"), Zstd.compress(new byte[64], 3), StandardOpenOption.APPEND);
    try (ChunkReader r = o.chunkReader(new long[2], 1)) {
      r.read(0, 100, got, 0);
      assertThatThrownBy(() -> r.read(total - 100, 100, got, 0))
          .isInstanceOf(ZarrFormatException.class)
          .hasMessageContaining("o/c/0/0");
    }
    assertThatThrownBy(() -> o.readChunk(0, 0)).isInstanceOf(ZarrFormatException.class);
  }

  @Test
  void framesWithoutTheirSizeOrWithAWindowAbove4MiBAreLeftToTheWholeRead() throws IOException {
    long[] small = {256, 256};
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, small, 13);
    ZarrArray n = array("n", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, small, small);
    n.write(new long[2], x);
    try (ZstdCompressCtx c = new ZstdCompressCtx()) {
      c.setLevel(3).setContentSize(false);
      Files.write(chunkFile("n"), c.compress(bytes(x)));
    }
    assertThat(n.chunkReader(new long[2], 1)).isNull();
    assertThat(n.readChunk(0, 0).data()).isEqualTo(x.data());

    long[] big = {1200, 1024}; // 9.8 MB: a 16 MiB window
    NDArray y = ZarrRoundTripTest.randomArray(DType.FLOAT64, big, 14);
    ZarrArray w = array("w", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, big, big);
    w.write(new long[2], y);
    try (ChunkReader r = w.chunkReader(new long[2], 1)) {
      assertThat(r).as("the default level's window").isNotNull();
    }
    try (ZstdCompressCtx c = new ZstdCompressCtx()) {
      c.setLevel(3).setWindowLog(24);
      Files.write(chunkFile("w"), c.compress(bytes(y)));
    }
    assertThat(w.chunkReader(new long[2], 1)).isNull();
    assertThat(w.readChunk(0, 0).data()).isEqualTo(y.data());
  }

  @Test
  void aThreadReusesItsSlicesFromReaderToReader() {
    long[] shape = {300, 300};
    ZarrArray z = array("p", DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, shape);
    NDArray x = ZarrRoundTripTest.randomArray(DType.FLOAT64, shape, 15);
    z.write(new long[2], x);
    double[] got = new double[90_000];
    // several readers open at once (a chain's leaves), then each closed: all read right
    List<ChunkReader> open = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      open.add(z.chunkReader(new long[2], 1));
    }
    for (ChunkReader r : open) {
      r.read(0, 90_000, got, 0);
      assertThat(got).isEqualTo(x.data());
      r.close();
    }
    try (ChunkReader r = z.chunkReader(new long[2], 1)) {
      r.read(0, 90_000, got, 0);
      assertThat(got).isEqualTo(x.data());
    }
  }

  private static byte[] bytes(NDArray x) {
    double[] d = (double[]) x.data();
    ByteBuffer b = ByteBuffer.allocate(d.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    b.asDoubleBuffer().put(d);
    return b.array();
  }
}
