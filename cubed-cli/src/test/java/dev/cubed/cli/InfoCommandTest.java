package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrGroup;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class InfoCommandTest {

  static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void printsArrayAndGroupMetadata(@TempDir Path dir) {
    FileSystemStore store = new FileSystemStore(dir.resolve("g.zarr"));
    ZarrGroup g = ZarrGroup.create(store, "", 3, Map.of("title", "demo"));
    var a =
        g.createArray("temp")
            .shape(10, 6)
            .chunks(4, 4)
            .dtype(DType.FLOAT32)
            .fillValue(Double.NaN)
            .compression(Compression.zstd(1))
            .dimensionNames("y", "x")
            .attributes(Map.of("units", "K"))
            .build();
    a.write(new long[] {0, 0}, NDArray.full(DType.FLOAT32, 1.5, 4, 4));
    g.createGroup("sub", Map.of());

    String[] r = run("info", dir.resolve("g.zarr") + "#temp");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains("format:          v3")
        .contains("shape:           (10, 6)")
        .contains("chunks:          (4, 4)")
        .contains("dtype:           float32")
        .contains("fill value:      NaN")
        .contains("zstd")
        .contains("chunks written:  1 of 6")
        .contains("[y, x]")
        .contains("units: K");

    r = run("info", dir.resolve("g.zarr").toString());
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1])
        .contains("Zarr group")
        .contains("title: demo")
        .contains("temp  array float32")
        .contains("sub/  group");

    r = run("info", dir.resolve("missing").toString());
    assertThat(r[0]).isNotEqualTo("0");
  }

  @Test
  void printsV2Fixture() throws Exception {
    Path fx =
        Path.of(InfoCommandTest.class.getResource("/").toURI())
            .resolve(
                "../../../cubed-core/src/test/resources/fixtures/zarr/v2_f8_blosc_zstd_bitshuffle.zarr")
            .normalize();
    String[] r = run("info", fx.toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("format:          v2").contains("blosc").contains("float64");
  }
}
