package dev.cubed.zarr;

import static dev.cubed.zarr.ZarrBadInputTest.BYTES_ZSTD;
import static dev.cubed.zarr.ZarrBadInputTest.assertBadMetadata;
import static dev.cubed.zarr.ZarrBadInputTest.withV3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One bad metadata document (or store key) per test: each is refused with a {@link
 * dev.cubed.zarr.store.ZarrFormatException} (format errors) or {@link IllegalArgumentException}
 * (bad keys) whose message names the document or key and the rule broken. The rows of
 * docs/reliability.md's "Bad input refused" table point here.
 */
class ZarrMetadataRefusalTest {

  static MemoryStore withV2(
      String shape, String chunks, String dtype, String fill, String compressor) {
    MemoryStore s = new MemoryStore();
    s.put(
        "arr/.zarray",
        String.format(
                "{\"zarr_format\": 2, \"shape\": %s, \"chunks\": %s,"
                    + " \"dtype\": \"%s\", \"compressor\": %s, \"fill_value\": %s, \"order\": \"C\","
                    + " \"filters\": null}",
                shape, chunks, dtype, compressor, fill)
            .getBytes(StandardCharsets.UTF_8));
    return s;
  }

  @Test
  void notJson() {
    MemoryStore s = new MemoryStore();
    s.put("arr/zarr.json", "{\"zarr_format\": 3, \"shape\": [4".getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(s, "arr/zarr.json", "not valid JSON");
    MemoryStore v2 = new MemoryStore();
    v2.put("arr/.zarray", new byte[] {(byte) 0xff, 0, 1});
    assertBadMetadata(v2, "arr/.zarray", "not valid JSON");
  }

  @Test
  void jsonArrayInsteadOfObject() {
    MemoryStore s = new MemoryStore();
    s.put("arr/zarr.json", "[3, \"array\"]".getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(s, "arr/zarr.json", "expected a JSON object", "array");
  }

  @Test
  void shapeWithAString() {
    assertBadMetadata(
        withV3("[\"4\", 2]", "float64", "[2, 2]", "0", BYTES_ZSTD),
        "zarr.json",
        "'shape' entry 0",
        "not an integer");
    assertBadMetadata(
        withV2("\"4\"", "[2]", "<f8", "0", "null"), ".zarray", "'shape'", "not a list of integers");
  }

  @Test
  void negativeShape() {
    assertBadMetadata(
        withV3("[4, -4]", "float64", "[2, 2]", "0", BYTES_ZSTD),
        "'shape'",
        "entry 1",
        "-4",
        "outside 0..2^62");
    assertBadMetadata(withV2("[-1]", "[2]", "<f8", "0", "null"), ".zarray", "'shape'", "-1");
  }

  @Test
  void shapeWhoseBytesOverflowALong() {
    assertBadMetadata(
        withV3("[10000000000, 10000000000]", "float64", "[1000, 1000]", "0", BYTES_ZSTD),
        "zarr.json",
        "field 'shape'",
        "(10000000000, 10000000000) float64",
        "more than 2^63-1");
    assertBadMetadata(
        withV2("[3000000000, 3000000000]", "[1000, 1000]", "<c16", "0", "null"),
        ".zarray",
        "(3000000000, 3000000000) complex128",
        "more than 2^63-1");
  }

  @Test
  @Timeout(120)
  void shapeOf1e18ElementsOpensLazily() {
    // 8e18 bytes fit a long: the metadata is valid; opening it and reading one chunk is cheap
    ZarrArray a =
        ZarrArray.open(
            withV3("[1000000000, 1000000000]", "float64", "[1000, 1000]", "0", BYTES_ZSTD), "arr");
    assertThat(a.chunkCount()).isEqualTo(1_000_000_000_000L);
    assertThat(a.readChunk(999_999, 999_999).getDouble(0)).isEqualTo(0.0);
  }

  @Test
  void hugeJsonNumbers() {
    assertBadMetadata(
        withV3("[99999999999999999999999]", "float64", "[2]", "0", BYTES_ZSTD),
        "'shape' entry 0",
        "64 bits");
    assertBadMetadata(
        withV3("[4]", "float64", "[99999999999]", "0", BYTES_ZSTD),
        "chunk extent 99999999999",
        "1..2^31-1");
    assertBadMetadata(withV3("[4]", "int64", "[2]", "1e400", BYTES_ZSTD), "fill_value");
    assertBadMetadata(
        withV3("[4]", "int64", "[2]", "99999999999999999999999", BYTES_ZSTD),
        "fill_value",
        "outside the range of int64");
  }

  @Test
  void zeroChunk() {
    assertBadMetadata(
        withV3("[4, 4]", "float64", "[2, 0]", "0", BYTES_ZSTD),
        "chunk extent 0 in dimension 1",
        "1..2^31-1");
    assertBadMetadata(withV2("[4]", "[0]", "<f8", "0", "null"), ".zarray", "chunk extent 0");
  }

  @Test
  void chunksLongerOrShorterThanShape() {
    assertBadMetadata(
        withV3("[4]", "float64", "[2, 2]", "0", BYTES_ZSTD),
        "chunk shape [2, 2] has 2 dimensions but shape [4] has 1");
    assertBadMetadata(
        withV2("[4, 4, 4]", "[2]", "<f8", "0", "null"),
        "chunk shape [2] has 1 dimensions but shape [4, 4, 4] has 3");
  }

  @Test
  void unknownDtype() {
    assertBadMetadata(
        withV3("[4]", "float16", "[2]", "0", BYTES_ZSTD),
        "data_type",
        "'float16'",
        "supported are");
    assertBadMetadata(withV2("[4]", "[2]", "|S5", "null", "null"), ".zarray", "dtype", "S5");
  }

  @Test
  void unknownCodec() {
    assertBadMetadata(
        withV3("[4]", "float64", "[2]", "0", "[{\"name\": \"bytes\"}, {\"name\": \"lzma\"}]"),
        "codec 'lzma'",
        "unknown codec",
        "supported are");
    assertBadMetadata(
        withV2("[4]", "[2]", "<f8", "0", "{\"id\": \"bz2\"}"), "unknown compressor id 'bz2'");
    assertBadMetadata(
        withV2("[4]", "[2]", "<f8", "0", "{\"id\": \"blosc\", \"cname\": \"xz\"}"),
        "blosc cname 'xz'");
  }

  @Test
  void fillValueOfTheWrongType() {
    assertBadMetadata(
        withV3("[4]", "float64", "[2]", "\"banana\"", BYTES_ZSTD), "fill_value", "banana");
    assertBadMetadata(
        withV3("[4]", "int32", "[2]", "2.5", BYTES_ZSTD),
        "fill_value",
        "expected an integer for dtype int32");
    assertBadMetadata(
        withV3("[4]", "bool", "[2]", "\"yes\"", BYTES_ZSTD), "fill_value", "true or false");
    assertBadMetadata(withV3("[4]", "uint8", "[2]", "300", BYTES_ZSTD), "fill_value", "range");
  }

  @Test
  void zarrFormat4() {
    MemoryStore s = withV3("[4]", "float64", "[2]", "0", BYTES_ZSTD);
    String doc =
        new String(s.get("arr/zarr.json"), StandardCharsets.UTF_8)
            .replace("\"zarr_format\": 3", "\"zarr_format\": 4");
    s.put("arr/zarr.json", doc.getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(s, "zarr.json", "'zarr_format' is 4", "expected 3");
    MemoryStore v2 = withV2("[4]", "[2]", "<f8", "0", "null");
    doc =
        new String(v2.get("arr/.zarray"), StandardCharsets.UTF_8)
            .replace("\"zarr_format\": 2", "\"zarr_format\": 4");
    v2.put("arr/.zarray", doc.getBytes(StandardCharsets.UTF_8));
    assertBadMetadata(v2, ".zarray", "'zarr_format' is 4", "expected 2");
  }

  @Test
  void keysThatWouldEscapeTheStoreRoot(@TempDir Path dir) throws Exception {
    Path root = dir.resolve("store");
    Files.createDirectories(root);
    Files.writeString(dir.resolve("secret"), "outside");
    FileSystemStore fs = new FileSystemStore(root);
    for (Store s : new Store[] {fs, new MemoryStore()}) {
      assertThatThrownBy(() -> s.get("../secret"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'../secret'")
          .hasMessageContaining("may not escape the store root");
      assertThatThrownBy(() -> s.put("a/../../secret", new byte[1]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'..'");
      assertThatThrownBy(() -> s.get("/etc/passwd"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'/etc/passwd'")
          .hasMessageContaining("absolute paths");
      assertThatThrownBy(() -> s.get("a\\..\\..\\secret"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("backslashes");
      assertThatThrownBy(() -> s.get("C:/x"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("drive letters");
      assertThatThrownBy(() -> ZarrArray.open(s, "../store2"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'..'");
      assertThatThrownBy(() -> ZarrGroup.open(s, "x/../.."))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'..'");
    }
    // a node path with a leading '/' is a path from the store root, not from the file system root
    ZarrArray.create(fs, "/etc/arr").shape(2).dtype(DType.INT8).build();
    assertThat(Files.exists(root.resolve("etc/arr/zarr.json"))).isTrue();
    assertThat(Files.readString(dir.resolve("secret"))).isEqualTo("outside");
  }
}
