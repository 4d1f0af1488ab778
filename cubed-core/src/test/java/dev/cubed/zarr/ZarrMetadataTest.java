package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.StoreTest;
import dev.cubed.zarr.store.Stores;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fill value forms, consolidated metadata, serialization and written metadata documents. */
class ZarrMetadataTest {

  static ZarrArray v3WithFill(String dtype, String fill) {
    MemoryStore s = new MemoryStore();
    s.put(
        "a/zarr.json",
        String.format(ZarrBadInputTest.V3, "[3]", dtype, "[2]", fill, ZarrBadInputTest.BYTES_ZSTD)
            .getBytes(StandardCharsets.UTF_8));
    return ZarrArray.open(s, "a");
  }

  @Test
  void fillValueForms() {
    assertThat((Double) v3WithFill("float64", "\"NaN\"").fillValue()).isNaN();
    assertThat(v3WithFill("float64", "\"Infinity\"").fillValue())
        .isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(v3WithFill("float32", "\"-Infinity\"").fillValue())
        .isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(v3WithFill("float32", "\"0x3fc00000\"").fillValue()).isEqualTo(1.5);
    assertThat(v3WithFill("float64", "\"0x7ff8000000000000\"").fillValue()).isEqualTo(Double.NaN);
    assertThat(v3WithFill("complex64", "[1.0, \"NaN\"]").fillValue())
        .isEqualTo(new Complex(1, Double.NaN));
    assertThat(v3WithFill("complex128", "[\"Infinity\", -2]").fillValue())
        .isEqualTo(new Complex(Double.POSITIVE_INFINITY, -2));
    assertThat(v3WithFill("uint64", "18446744073709551615").fillValue())
        .isEqualTo(new BigInteger("18446744073709551615"));
    assertThat(v3WithFill("bool", "true").fillValue()).isEqualTo(true);
    ZarrArray u = v3WithFill("uint64", "18446744073709551615");
    assertThat(u.read().getLong(2)).isEqualTo(-1L);
    ZarrArray c = v3WithFill("complex64", "[1.0, \"NaN\"]");
    assertThat(c.read().getImag(0)).isNaN();
  }

  @Test
  void writtenFillValuesRoundTrip() {
    MemoryStore s = new MemoryStore();
    Object[][] cases = {
      {DType.FLOAT64, Double.NaN},
      {DType.FLOAT32, Double.NEGATIVE_INFINITY},
      {DType.COMPLEX128, new Complex(Double.POSITIVE_INFINITY, Double.NaN)},
      {DType.UINT64, new BigInteger("18446744073709551615")},
      {DType.INT8, -128},
      {DType.BOOL, true}
    };
    for (int format : new int[] {2, 3}) {
      for (Object[] c : cases) {
        String path = "f" + format + c[0];
        ZarrArray.create(s, path)
            .zarrFormat(format)
            .shape(2)
            .chunks(2)
            .dtype((DType) c[0])
            .fillValue(c[1])
            .build();
        ZarrArray a = ZarrArray.open(s, path);
        NDAssert.assertExact(NDArray.full((DType) c[0], c[1], 2), a.read(), path);
      }
    }
    String json = ZarrArray.open(s, "f3float64").metadataJson();
    assertThat(json).contains("\"fill_value\" : \"NaN\"");
  }

  @Test
  void consolidatedMetadataIsIgnored() {
    MemoryStore s = new MemoryStore();
    s.put(
        "zarr.json",
        ("{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {\"x\": 1},"
                + " \"consolidated_metadata\": {\"kind\": \"inline\", \"must_understand\": false,"
                + " \"metadata\": {\"ghost\": {}}}}")
            .getBytes(StandardCharsets.UTF_8));
    ZarrGroup.create(s, "sub", 3, Map.of());
    ZarrGroup g = ZarrGroup.open(s, "");
    assertThat(g.attributes()).containsEntry("x", 1);
    assertThat(g.members()).containsOnlyKeys("sub");
    MemoryStore s2 = new MemoryStore();
    ZarrGroup g2 = ZarrGroup.create(s2, "", 2, Map.of("y", "z"));
    s2.put(
        ".zmetadata",
        "{\"metadata\": {}, \"zarr_consolidated_format\": 1}".getBytes(StandardCharsets.UTF_8));
    g2.createArray("arr").shape(3).build();
    assertThat(ZarrGroup.open(s2, "").members()).containsOnlyKeys("arr");
    assertThat(ZarrGroup.open(s2, "").attributes()).isEqualTo(Map.of("y", "z"));
  }

  @Test
  void arraysSerializeWithTheirMetadata() throws Exception {
    ZarrArray a =
        ZarrArray.create(Stores.open("memory://ser-test"), "p/q")
            .zarrFormat(2)
            .shape(5, 4)
            .chunks(2, 2)
            .dtype(DType.INT16)
            .fillValue(-3)
            .dimensionNames("a", "b")
            .attributes(Map.of("k", List.of(1, 2)))
            .build();
    a.write(new long[] {1, 1}, NDArray.full(DType.INT16, 9, 2, 2));
    ZarrArray b = (ZarrArray) StoreTest.roundTrip(a);
    assertThat(b.store()).isSameAs(a.store());
    assertThat(b.path()).isEqualTo("p/q");
    assertThat(b.dimensionNames()).containsExactly("a", "b");
    assertThat(b.attributes()).isEqualTo(Map.of("k", List.of(1, 2)));
    NDAssert.assertExact(a.read(), b.read(), "serialized");
    ZarrArray c =
        ZarrArray.create(Stores.open("memory://ser-test"), "s")
            .shape(8)
            .chunks(4)
            .innerChunks(2)
            .crc32c()
            .build();
    assertThat(((ZarrArray) StoreTest.roundTrip(c)).innerChunks()).containsExactly(2);
    Stores.dropMemory("ser-test");
  }

  @Test
  void compressionOfExistingArrays() {
    MemoryStore s = new MemoryStore();
    Compression bl = Compression.blosc(Compression.BloscCodec.ZSTD, 3, Compression.Shuffle.BIT);
    assertThat(
            ZarrArray.create(s, "a").zarrFormat(2).shape(3).compression(bl).build().compression())
        .isEqualTo(bl);
    assertThat(ZarrArray.open(s, "a").compression()).isEqualTo(bl);
    assertThat(
            ZarrArray.create(s, "b")
                .shape(4)
                .chunks(4)
                .innerChunks(2)
                .crc32c()
                .compression(Compression.gzip(3))
                .build()
                .compression())
        .isEqualTo(Compression.gzip(3));
    assertThat(
            ZarrArray.create(s, "c")
                .shape(4)
                .compression(Compression.none())
                .crc32c()
                .build()
                .compression())
        .isEqualTo(Compression.none());
    assertThat(
            ZarrArray.create(s, "d")
                .zarrFormat(2)
                .shape(4)
                .compression(Compression.lz4())
                .build()
                .compression())
        .isEqualTo(Compression.lz4());
  }

  @Test
  void v2AttributesCarryArrayDimensions() {
    MemoryStore s = new MemoryStore();
    ZarrArray.create(s, "x")
        .zarrFormat(2)
        .shape(2, 3)
        .dimensionNames("y", "x")
        .attributes(Map.of("units", "m"))
        .build();
    String attrs = new String(s.get("x/.zattrs"), StandardCharsets.UTF_8);
    assertThat(attrs).contains("_ARRAY_DIMENSIONS").contains("units");
    String zarray = new String(s.get("x/.zarray"), StandardCharsets.UTF_8);
    assertThat(zarray).contains("\"id\" : \"blosc\"").doesNotContain("typesize");
    ZarrArray a = ZarrArray.open(s, "x");
    assertThat(a.attributes()).isEqualTo(Map.of("units", "m"));
    ZarrArray b = a.withAttributes(Map.of("units", "km"));
    assertThat(ZarrArray.open(s, "x").attributes()).isEqualTo(Map.of("units", "km"));
    assertThat(ZarrArray.open(s, "x").dimensionNames()).containsExactly("y", "x");
    assertThat(b.zarrFormat()).isEqualTo(2);
  }
}
