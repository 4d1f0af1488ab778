package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Writes and reads back every dtype with every codec in both formats. */
public class ZarrRoundTripTest {

  /** Seeded random data of a dtype, including extremes and (for floats) NaN and infinities. */
  public static NDArray randomArray(DType dtype, long[] shape, long seed) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(dtype, shape);
    for (int i = 0; i < a.size(); i++) {
      switch (dtype.kind()) {
        case BOOL -> a.setBoolean(i, r.nextBoolean());
        case SIGNED, UNSIGNED ->
            a.setLong(i, i % 7 == 0 ? -1L : i % 11 == 0 ? Long.MIN_VALUE : r.nextLong());
        case FLOAT ->
            a.setDouble(
                i,
                i % 13 == 5
                    ? Double.NaN
                    : i % 17 == 3 ? Double.NEGATIVE_INFINITY : r.nextGaussian() * 1e3);
        case COMPLEX ->
            a.setComplex(i, r.nextGaussian(), i % 9 == 4 ? Double.NaN : r.nextGaussian());
      }
    }
    return a;
  }

  static List<Compression> compressions(int format) {
    List<Compression> c =
        new ArrayList<>(
            List.of(
                Compression.none(),
                Compression.zstd(1),
                Compression.gzip(5),
                Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE),
                Compression.blosc(Compression.BloscCodec.ZSTD, 3, Compression.Shuffle.BIT),
                Compression.blosc(Compression.BloscCodec.ZLIB, 1, Compression.Shuffle.NONE),
                Compression.blosc(Compression.BloscCodec.BLOSCLZ, 5, Compression.Shuffle.BYTE)));
    if (format == 2) {
      c.add(Compression.zlib(5));
      c.add(Compression.lz4());
    }
    return c;
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (int format : new int[] {2, 3}) {
      for (DType d : DType.values()) {
        for (Compression c : compressions(format)) {
          out.add(Arguments.of(format, d, c));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "v{0} {1} {2}")
  @MethodSource("cases")
  void roundTrips(int format, DType dtype, Compression comp) {
    MemoryStore store = new MemoryStore();
    long[] shape = {7, 5};
    ZarrArray a =
        ZarrArray.create(store, "x")
            .zarrFormat(format)
            .shape(shape)
            .chunks(3, 2)
            .dtype(dtype)
            .compression(comp)
            .emptyChunks(EmptyChunks.WRITE)
            .build();
    NDArray data = randomArray(dtype, shape, dtype.ordinal() * 31L + format);
    a.write(new long[] {0, 0}, data);
    assertThat(a.chunksWritten()).isEqualTo(a.chunkCount());
    ZarrArray b = ZarrArray.open(store, "x");
    assertThat(b.dtype()).isEqualTo(dtype);
    NDAssert.assertExact(data, b.read(), "v" + format + " " + dtype + " " + comp);
    NDAssert.assertExact(
        data.getRegion(new long[] {2, 1}, new long[] {4, 3}),
        b.read(new long[] {2, 1}, new long[] {4, 3}),
        "region");
  }

  static Stream<Arguments> v3Variants() {
    List<Arguments> out = new ArrayList<>();
    for (DType d : DType.values()) {
      for (String v : List.of("transpose", "crc32c", "big-endian", "sharding", "sharding-start")) {
        out.add(Arguments.of(d, v));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "v3 {0} {1}")
  @MethodSource("v3Variants")
  void v3CodecsRoundTripEveryDtype(DType dtype, String variant) {
    MemoryStore store = new MemoryStore();
    long[] shape = {9, 7};
    var b = ZarrArray.create(store, "x").shape(shape).dtype(dtype).emptyChunks(EmptyChunks.WRITE);
    switch (variant) {
      case "transpose" -> b.chunks(4, 3).order(MemoryOrder.F);
      case "crc32c" -> b.chunks(4, 3).crc32c();
      case "big-endian" ->
          b.chunks(4, 3).byteOrder(ByteOrder.BIG_ENDIAN).compression(Compression.gzip(1));
      case "sharding" -> b.chunks(4, 6).innerChunks(2, 3).crc32c();
      default ->
          b.chunks(8, 6)
              .innerChunks(4, 2)
              .shardIndexAtStart()
              .compression(
                  Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BIT));
    }
    ZarrArray a = b.build();
    NDArray data = randomArray(dtype, shape, 17);
    a.write(new long[2], data);
    ZarrArray r = ZarrArray.open(store, "x");
    NDAssert.assertExact(data, r.read(), variant);
    NDAssert.assertExact(
        data.getRegion(new long[] {1, 2}, new long[] {7, 4}),
        r.read(new long[] {1, 2}, new long[] {7, 4}),
        variant + " region");
  }

  @ParameterizedTest(name = "v{0} order F, big endian, slash/dot keys")
  @MethodSource("formats")
  void orderEndianSeparator(int format) {
    MemoryStore store = new MemoryStore();
    for (DType d : new DType[] {DType.INT16, DType.FLOAT64, DType.COMPLEX64, DType.UINT64}) {
      long[] shape = {5, 4, 3};
      ZarrArray a =
          ZarrArray.create(store, "o" + d)
              .zarrFormat(format)
              .shape(shape)
              .chunks(2, 3, 2)
              .dtype(d)
              .order(MemoryOrder.F)
              .byteOrder(ByteOrder.BIG_ENDIAN)
              .separator(format == 2 ? "/" : ".")
              .build();
      NDArray data = randomArray(d, shape, 5);
      a.write(new long[3], data);
      NDAssert.assertExact(data, ZarrArray.open(store, "o" + d).read(), "F " + d);
    }
    String key = ZarrArray.open(store, "oint16").chunkKey(1, 1, 1);
    assertThat(key).isEqualTo(format == 2 ? "oint16/1/1/1" : "oint16/c.1.1.1");
    assertThat(store.exists(key)).isTrue();
  }

  static Stream<Integer> formats() {
    return Stream.of(2, 3);
  }

  @Test
  void v3Extras(@TempDir Path dir) {
    Store store = new FileSystemStore(dir);
    long[] shape = {13, 11};
    for (String variant : List.of("crc", "v2keys", "shard-end", "shard-start", "shard-F")) {
      var b =
          ZarrArray.create(store, variant).shape(shape).dtype(DType.FLOAT32).fillValue(Double.NaN);
      switch (variant) {
        case "crc" -> b.chunks(4, 4).crc32c();
        case "v2keys" -> b.chunks(4, 4).v2ChunkKeyEncoding();
        case "shard-end" -> b.chunks(8, 6).innerChunks(4, 3).crc32c();
        case "shard-start" -> b.chunks(8, 6).innerChunks(2, 3).shardIndexAtStart();
        default ->
            b.chunks(8, 6).innerChunks(4, 2).order(MemoryOrder.F).compression(Compression.gzip(1));
      }
      ZarrArray a = b.build();
      NDArray data = randomArray(DType.FLOAT32, shape, 9);
      // leave one inner chunk all-NaN (fill) so sharding stores it as empty
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 2; j++) {
          data.set(Double.NaN, i, j);
        }
      }
      a.write(new long[2], data);
      ZarrArray r = ZarrArray.open(store, variant);
      NDAssert.assertExact(data, r.read(), variant);
      NDAssert.assertExact(
          data.getRegion(new long[] {3, 2}, new long[] {7, 8}),
          r.read(new long[] {3, 2}, new long[] {7, 8}),
          variant + " region");
    }
  }

  @Test
  void zeroDimensionalAndEmptyArrays() {
    MemoryStore store = new MemoryStore();
    for (int format : new int[] {2, 3}) {
      ZarrArray a =
          ZarrArray.create(store, "s" + format)
              .zarrFormat(format)
              .shape()
              .dtype(DType.COMPLEX128)
              .fillValue(new Complex(1, 2))
              .build();
      assertThat(a.chunkGridShape()).isEmpty();
      assertThat(a.read().item()).isEqualTo(new Complex(1, 2));
      a.write(new long[0], NDArray.scalar(DType.COMPLEX128, new Complex(3, -4)));
      assertThat(store.exists(format == 3 ? "s3/c" : "s2/0")).isTrue();
      assertThat(ZarrArray.open(store, "s" + format).read().item()).isEqualTo(new Complex(3, -4));
      assertThat(a.chunksWritten()).isEqualTo(1);
      ZarrArray e =
          ZarrArray.create(store, "e" + format).zarrFormat(format).shape(0, 4).chunks(2, 2).build();
      assertThat(e.chunkGridShape()).containsExactly(0, 2);
      assertThat(e.read().shape()).containsExactly(0, 4);
    }
  }

  @Test
  void emptyChunksAreSkippedAndDeleted() {
    MemoryStore store = new MemoryStore();
    ZarrArray a =
        ZarrArray.create(store, "a")
            .shape(4, 4)
            .chunks(2, 2)
            .dtype(DType.INT32)
            .fillValue(7)
            .build();
    NDArray data = NDArray.full(DType.INT32, 7, 4, 4);
    data.set(1, 0, 0);
    a.write(new long[2], data);
    assertThat(a.chunksWritten()).isEqualTo(1);
    assertThat(a.chunkExists(0, 0)).isTrue();
    a.writeChunk(new long[] {0, 0}, NDArray.full(DType.INT32, 7, 2, 2));
    assertThat(a.chunksWritten()).isZero();
    ZarrArray w = a.withEmptyChunks(EmptyChunks.WRITE);
    w.write(new long[2], NDArray.full(DType.INT32, 7, 4, 4));
    assertThat(w.chunksWritten()).isEqualTo(4);
    assertThat(a.read().getLong(0)).isEqualTo(7);
  }

  @Test
  void concurrentChunkWritersOnTheFilesystem(@TempDir Path dir) throws Exception {
    for (int format : new int[] {2, 3}) {
      ZarrArray a =
          ZarrArray.create(new FileSystemStore(dir.resolve("c" + format)), "")
              .zarrFormat(format)
              .shape(40, 30)
              .chunks(4, 3)
              .dtype(DType.INT64)
              .build();
      NDArray data = randomArray(DType.INT64, new long[] {40, 30}, 11);
      var pool = Executors.newFixedThreadPool(8);
      List<Future<?>> fs = new ArrayList<>();
      for (long i = 0; i < 10; i++) {
        for (long j = 0; j < 10; j++) {
          long[] c = {i, j};
          fs.add(
              pool.submit(
                  () ->
                      a.writeChunk(
                          c, data.getRegion(new long[] {c[0] * 4, c[1] * 3}, new long[] {4, 3}))));
        }
      }
      for (var f : fs) {
        f.get();
      }
      pool.shutdown();
      assertThat(a.chunksWritten()).isEqualTo(100);
      NDAssert.assertExact(
          data,
          ZarrArray.open(dir.resolve("c" + format).toString()).read(),
          "concurrent v" + format);
    }
  }

  @Test
  void concurrentBloscOnLargeChunks() throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrArray a =
        ZarrArray.create(store, "b")
            .shape(8 * 128, 1024)
            .chunks(128, 1024)
            .dtype(DType.FLOAT64)
            .compression(Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE))
            .build();
    NDArray data = randomArray(DType.FLOAT64, new long[] {8 * 128, 1024}, 21);
    var pool = Executors.newFixedThreadPool(4);
    List<Future<?>> fs = new ArrayList<>();
    for (long k = 0; k < 8; k++) {
      long kk = k;
      fs.add(
          pool.submit(
              () ->
                  a.writeChunk(
                      new long[] {kk, 0},
                      data.getRegion(new long[] {kk * 128, 0}, new long[] {128, 1024}))));
    }
    for (var f : fs) {
      f.get();
    }
    List<Future<NDArray>> rs = new ArrayList<>();
    for (long k = 0; k < 8; k++) {
      long kk = k;
      rs.add(pool.submit(() -> a.readChunk(kk, 0)));
    }
    for (int k = 0; k < 8; k++) {
      NDAssert.assertExact(
          data.getRegion(new long[] {k * 128L, 0}, new long[] {128, 1024}),
          rs.get(k).get(),
          "chunk " + k);
    }
    pool.shutdown();
  }

  @Test
  void overwriteRemovesOldChunksButNeverFilesOfNoZarrNode() {
    MemoryStore s = new MemoryStore();
    ZarrArray a = ZarrArray.create(s, "o").shape(4).chunks(2).dtype(DType.INT32).build();
    a.write(new long[] {0}, NDArray.full(DType.INT32, 5, 4));
    s.put("p/c/0", s.get("o/c/0")); // a stale chunk without metadata: not a Zarr node
    ZarrArray b =
        ZarrArray.create(s, "o").shape(4).chunks(2).dtype(DType.INT32).overwrite().build();
    assertThatThrownBy(
            () ->
                ZarrArray.create(s, "p").shape(4).chunks(2).dtype(DType.INT32).overwrite().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a Zarr array")
        .hasMessageContaining("p/c/0");
    assertThat(b.chunksWritten()).isZero();
    assertThat(b.isIncomplete()).isFalse();
    assertThat(s.exists("p/c/0")).isTrue();
  }

  @Test
  void partialWritesReadModifyWrite() {
    MemoryStore store = new MemoryStore();
    ZarrArray a =
        ZarrArray.create(store, "p")
            .zarrFormat(2)
            .shape(10, 9)
            .chunks(4, 4)
            .dtype(DType.FLOAT64)
            .fillValue(-1.0)
            .build();
    NDArray expected = NDArray.full(DType.FLOAT64, -1.0, 10, 9);
    Random r = new Random(3);
    for (int t = 0; t < 20; t++) {
      long[] start = {r.nextInt(10), r.nextInt(9)};
      long[] sh = {1 + r.nextInt((int) (10 - start[0])), 1 + r.nextInt((int) (9 - start[1]))};
      NDArray patch = randomArray(DType.FLOAT64, sh, t);
      a.write(start, patch);
      expected.setRegion(start, patch);
      NDAssert.assertExact(expected, a.read(), "after write " + t);
    }
  }
}
