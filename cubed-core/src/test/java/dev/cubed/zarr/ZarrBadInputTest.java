package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.ZarrFormatException;
import dev.cubed.zarr.store.ZarrStoreException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Invalid metadata and corrupt chunks give ZarrFormatException naming path, key/field and rule. */
public class ZarrBadInputTest {

  static final String V3 =
      """
      {"zarr_format": 3, "node_type": "array", "shape": %s, "data_type": "%s",
       "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": %s}},
       "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
       "fill_value": %s, "codecs": %s, "attributes": {}}
      """;
  static final String BYTES_ZSTD =
      "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\"}]";

  static MemoryStore withV3(String shape, String dtype, String chunks, String fill, String codecs) {
    MemoryStore s = new MemoryStore();
    s.put(
        "arr/zarr.json",
        String.format(V3, shape, dtype, chunks, fill, codecs).getBytes(StandardCharsets.UTF_8));
    return s;
  }

  static void assertBadMetadata(Store s, String... fragments) {
    var t =
        assertThatThrownBy(() -> ZarrArray.open(s, "arr"))
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("arr");
    for (String f : fragments) {
      t.hasMessageContaining(f);
    }
  }

  @Test
  void invalidMetadata() {
    MemoryStore s = new MemoryStore();
    s.put("arr/zarr.json", "{not json".getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(s, "zarr.json", "not valid JSON");
    s.put("arr/zarr.json", "[1, 2]".getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(s, "expected a JSON object");
    assertBadMetadata(withV3("[4]", "float16", "[2]", "0", BYTES_ZSTD), "data_type", "float16");
    assertBadMetadata(
        withV3("[4]", "float64", "[2]", "0", "[{\"name\": \"bytes\"}, {\"name\": \"lzma\"}]"),
        "unknown codec",
        "lzma");
    assertBadMetadata(withV3("[-4]", "float64", "[2]", "0", BYTES_ZSTD), "shape");
    assertBadMetadata(
        withV3("[99999999999999999999999]", "float64", "[2]", "0", BYTES_ZSTD), "shape", "64 bits");
    assertBadMetadata(
        withV3("[100000, 100000]", "float64", "[100000, 100000]", "0", BYTES_ZSTD),
        "chunk",
        "2^31");
    assertBadMetadata(withV3("[4]", "float64", "[0]", "0", BYTES_ZSTD), "chunk", "1..2^31-1");
    assertBadMetadata(withV3("[4]", "float64", "[2, 2]", "0", BYTES_ZSTD), "dimensions");
    assertBadMetadata(withV3("[4]", "uint8", "[2]", "300", BYTES_ZSTD), "fill_value", "range");
    assertBadMetadata(withV3("[4]", "float64", "[2]", "\"banana\"", BYTES_ZSTD), "fill_value");
    assertBadMetadata(
        withV3("[4]", "float64", "[2]", "0", "[{\"name\": \"zstd\"}]"), "array-to-bytes");
    MemoryStore v2 = new MemoryStore();
    v2.put(
        "arr/.zarray",
        ("{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\":"
                + " \"|S5\", \"compressor\": null, \"fill_value\": null, \"order\": \"C\","
                + " \"filters\": null}")
            .getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(v2, ".zarray", "dtype", "S5");
    v2.put(
        "arr/.zarray",
        ("{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\":"
                + " \"<f8\", \"compressor\": {\"id\": \"bz2\"}, \"fill_value\": null, \"order\": \"C\","
                + " \"filters\": null}")
            .getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(v2, "compressor", "bz2");
    assertThatThrownBy(() -> ZarrArray.open(new MemoryStore(), "nothing"))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("nothing")
        .hasMessageContaining("no zarr.json");
  }

  public static ZarrArray arrayWith(Store s, int format, Compression c, boolean crc) {
    var b =
        ZarrArray.create(s, "arr")
            .zarrFormat(format)
            .shape(8, 8)
            .chunks(4, 4)
            .dtype(DType.FLOAT64)
            .compression(c);
    if (crc) {
      b.crc32c();
    }
    ZarrArray a = b.build();
    a.write(new long[2], ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {8, 8}, 1));
    return a;
  }

  @Test
  void truncatedAndCorruptChunks() {
    List<Object[]> variants =
        List.of(
            new Object[] {3, Compression.zstd(1), false},
            new Object[] {3, Compression.gzip(1), false},
            new Object[] {3, Compression.none(), false},
            new Object[] {3, Compression.zstd(1), true},
            new Object[] {2, Compression.lz4(), false},
            new Object[] {2, Compression.zlib(1), false},
            new Object[] {
              2, Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE), false
            });
    for (Object[] v : variants) {
      MemoryStore s = new MemoryStore();
      ZarrArray a = arrayWith(s, (Integer) v[0], (Compression) v[1], (Boolean) v[2]);
      String key = a.chunkKey(1, 0);
      byte[] good = s.get(key);
      s.put(key, Arrays.copyOf(good, good.length / 2));
      assertThatThrownBy(() -> a.readChunk(1, 0), Arrays.toString(v))
          .isInstanceOf(ZarrFormatException.class)
          .hasMessageContaining(key);
      if ((Boolean) v[2]) {
        byte[] bad = good.clone();
        bad[bad.length / 2] ^= 0x5A;
        s.put(key, bad);
        assertThatThrownBy(() -> a.readChunk(1, 0))
            .isInstanceOf(ZarrFormatException.class)
            .hasMessageContaining("crc32c")
            .hasMessageContaining(key);
      }
      s.put(key, good);
      assertThat(a.readChunk(1, 0).shape()).containsExactly(4, 4);
    }
  }

  @Test
  void hugeDeclaredSizesAreRejectedBeforeAllocating() {
    MemoryStore s = new MemoryStore();
    ZarrArray a = arrayWith(s, 2, Compression.lz4(), false);
    byte[] bomb = new byte[16];
    ByteBuffer.wrap(bomb).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.MAX_VALUE);
    s.put(a.chunkKey(0, 0), bomb);
    assertThatThrownBy(() -> a.readChunk(0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("declares")
        .hasMessageContaining("arr/0.0");
    ZarrArray b =
        arrayWith(
            new MemoryStore(),
            2,
            Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.BYTE),
            false);
    byte[] blosc = b.store().get(b.chunkKey(0, 0));
    ByteBuffer.wrap(blosc).order(ByteOrder.LITTLE_ENDIAN).putInt(4, Integer.MAX_VALUE);
    b.store().put(b.chunkKey(0, 0), blosc);
    assertThatThrownBy(() -> b.readChunk(0, 0))
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("declares");
  }

  @Test
  void corruptShards() {
    MemoryStore s = new MemoryStore();
    ZarrArray a =
        ZarrArray.create(s, "arr").shape(8, 8).chunks(8, 8).innerChunks(4, 4).crc32c().build();
    a.write(new long[2], ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {8, 8}, 2));
    byte[] good = s.get("arr/c/0/0");
    s.put("arr/c/0/0", Arrays.copyOf(good, 10));
    assertThatThrownBy(() -> a.read())
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("arr/c/0/0");
    byte[] bad = good.clone();
    bad[bad.length - 10] ^= 1; // inside the index
    s.put("arr/c/0/0", bad);
    assertThatThrownBy(() -> a.read())
        .isInstanceOf(ZarrFormatException.class)
        .hasMessageContaining("crc32c");
  }

  @Test
  void failedWritesModifyNothing() {
    MemoryStore s = new MemoryStore();
    ZarrArray a = arrayWith(s, 3, Compression.zstd(1), false);
    Map<String, byte[]> before = new TreeMap<>();
    for (String k : s.list("")) {
      before.put(k, s.get(k));
    }
    assertThatThrownBy(() -> a.write(new long[] {6, 6}, NDArray.zeros(DType.FLOAT64, 4, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside");
    assertThatThrownBy(() -> a.write(new long[] {0, 0}, NDArray.zeros(DType.FLOAT32, 4, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dtype");
    assertThatThrownBy(() -> a.writeChunk(new long[] {1, 1}, NDArray.zeros(DType.FLOAT64, 3, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shape");
    assertThatThrownBy(() -> a.writeChunk(new long[] {2, 0}, NDArray.zeros(DType.FLOAT64, 4, 4)))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> ZarrArray.create(s, "arr").shape(3).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overwrite");
    assertThatThrownBy(
            () -> ZarrArray.create(s, "arr2").shape(3).compression(Compression.lz4()).build())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(s.list("")).containsExactlyElementsOf(before.keySet());
    for (var e : before.entrySet()) {
      assertThat(s.get(e.getKey())).isEqualTo(e.getValue());
    }
  }

  @Test
  void storeFailuresAreZarrStoreExceptions(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("file");
    Files.write(file, new byte[] {1});
    Store s = new FileSystemStore(file);
    assertThatThrownBy(() -> s.put("a/b", new byte[1]))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("a/b");
  }
}
