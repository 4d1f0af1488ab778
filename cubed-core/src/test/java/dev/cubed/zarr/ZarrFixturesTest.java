package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.testing.NDAssert;
import dev.cubed.zarr.store.FileSystemStore;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fixture of fixtures/zarr/manifest.json (written by zarr-python 3 and xarray) reads exactly.
 */
class ZarrFixturesTest {

  static Path root() {
    try {
      return Paths.get(ZarrFixturesTest.class.getResource("/fixtures/zarr/manifest.json").toURI())
          .getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<JsonNode> fixtures() throws Exception {
    JsonNode m = new ObjectMapper().readTree(root().resolve("manifest.json").toFile());
    List<JsonNode> out = new ArrayList<>();
    m.get("fixtures").forEach(out::add);
    return out;
  }

  static Stream<Arguments> arrayFixtures() throws Exception {
    return fixtures().stream()
        .filter(f -> f.get("expected").isTextual())
        .map(f -> Arguments.of(f.get("name").asText(), f));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arrayFixtures")
  void readsFixture(String name, JsonNode f) {
    Path dir = root().resolve(f.get("zarr").asText());
    String arrayPath = f.has("array_path") ? f.get("array_path").asText() : "";
    ZarrArray a = ZarrArray.open(new FileSystemStore(dir), arrayPath);
    NDArray expected = Npy.read(root().resolve(f.get("expected").asText()));
    assertThat(a.zarrFormat()).isEqualTo(f.get("zarr_format").asInt());
    List<Long> shape = new ArrayList<>();
    f.get("shape").forEach(n -> shape.add(n.asLong()));
    assertThat(a.shape()).containsExactly(shape.stream().mapToLong(Long::longValue).toArray());
    assertThat(a.dtype()).isEqualTo(expected.dtype());
    NDAssert.assertExact(expected, a.read(), name);
    // a region spanning chunks, offset by one in every dimension where possible
    if (a.ndim() > 0 && expected.size() > 1) {
      long[] start = new long[a.ndim()];
      long[] sh = a.shape();
      for (int i = 0; i < start.length; i++) {
        if (sh[i] > 2) {
          start[i] = 1;
          sh[i] -= 2;
        }
      }
      NDAssert.assertExact(expected.getRegion(start, sh), a.read(start, sh), name + " region");
    }
  }

  @Test
  void groupsHaveMembersAndAttributes() {
    for (String g : List.of("v2_group.zarr", "v3_group.zarr")) {
      ZarrGroup group = ZarrGroup.open(new FileSystemStore(root().resolve(g)), "");
      assertThat(group.attributes())
          .containsEntry("title", "fixture group")
          .containsEntry("answer", 42)
          .containsEntry("nested", Map.of("a", List.of(1, 2, 3)));
      assertThat(group.members()).containsOnlyKeys("sub");
      assertThat(group.members().get("sub")).isEqualTo(ZarrGroup.NodeType.GROUP);
      ZarrGroup sub = group.openGroup("sub");
      assertThat(sub.members()).containsOnlyKeys("a");
      ZarrArray a = sub.openArray("a");
      assertThat(a.attributes()).isEqualTo(Map.of("units", "m"));
      assertThat(a.path()).isEqualTo("sub/a");
    }
  }

  @Test
  void xarrayDatasetsNameTheirDimensions() {
    for (String v : List.of("v2", "v3")) {
      ZarrGroup ds =
          ZarrGroup.open(new FileSystemStore(root().resolve(v + "_xarray_dataset.zarr")), "");
      assertThat(ds.members().keySet()).contains("u", "v", "time", "y", "x");
      ZarrArray u = ds.openArray("u");
      assertThat(u.dimensionNames()).containsExactly("time", "y", "x");
      assertThat(u.attributes()).doesNotContainKey("_ARRAY_DIMENSIONS");
      NDAssert.assertExact(
          Npy.read(root().resolve(v + "_xarray_dataset_u.npy")), u.read(), v + " u");
      ZarrArray vv = ds.openArray("v");
      NDAssert.assertExact(
          Npy.read(root().resolve(v + "_xarray_dataset_v.npy")), vv.read(), v + " v");
      assertThat(vv.dtype()).isEqualTo(DType.FLOAT32);
    }
  }

  @Test
  void dimensionNamesAndMissingChunks() {
    ZarrArray a =
        ZarrArray.open(new FileSystemStore(root().resolve("v3_f8_dimension_names.zarr")), "");
    assertThat(a.dimensionNames()).containsExactly("y", "x");
    ZarrArray m =
        ZarrArray.open(
            new FileSystemStore(root().resolve("v3_f8_missing_chunks_nan_fill.zarr")), "");
    assertThat((Double) m.fillValue()).isNaN();
    assertThat(m.chunksWritten()).isEqualTo(1);
    assertThat(m.chunkExists(1, 1)).isTrue();
    assertThat(m.chunkExists(0, 0)).isFalse();
    ZarrArray m2 =
        ZarrArray.open(
            new FileSystemStore(root().resolve("v2_f8_missing_chunks_nan_fill.zarr")), "");
    assertThat(m2.chunksWritten()).isEqualTo(1);
    ZarrArray sh = ZarrArray.open(new FileSystemStore(root().resolve("v3_f8_sharded.zarr")), "");
    assertThat(sh.chunks()).containsExactly(8, 6);
    assertThat(sh.innerChunks()).containsExactly(4, 3);
    assertThat(sh.chunksWritten()).isEqualTo(sh.chunkCount());
  }
}
