package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forms a Java user reaches for in the first hour, written as docs/library.md writes them:
 * slices with int bounds, NumPy index text, {@code x.get}/{@code x.slice}, {@code Cubed.toZarr(x,
 * path)} symmetric to {@code fromZarr}, zarr-python's default codec, and reductions over {@link
 * Axes} without a splitEvery.
 */
class FirstHourApiTest {
  @TempDir Path dir;

  private Spec spec() {
    return Spec.builder().workDir(dir.resolve("work")).allowedMem("200MB").build();
  }

  private static NDArray grid() {
    return Creation.arange(0, 6 * 20, 1, DType.FLOAT64).reshape(6, 20);
  }

  @Test
  void intBoundsSliceWithoutACast() {
    Index s = Index.slice(5, -5);
    assertThat(s).isEqualTo(new Index.Slice(5L, -5L, 1));
    assertThat(Index.slice(1, 9, 2)).isEqualTo(new Index.Slice(1L, 9L, 2));
    assertThat(Index.from(3)).isEqualTo(new Index.Slice(3L, null, 1));
    assertThat(Index.to(-1)).isEqualTo(new Index.Slice(null, -1L, 1));
    assertThat(Index.step(-2)).isEqualTo(new Index.Slice(null, null, -2));
    assertThat(Index.slice(null, null, -2)).isEqualTo(Index.step(-2));
  }

  @Test
  void numpyIndexTextParses() {
    assertThat(Index.parse("0, ::-2, None, ..."))
        .containsExactly(Index.at(0), Index.step(-2), Index.NEW_AXIS, Index.ELLIPSIS);
    assertThat(Index.parse("[5:-5, 1:]")).containsExactly(Index.slice(5, -5), Index.from(1));
    assertThat(Index.parse("  ")).isEmpty();
    assertThat(Index.parse("-1,")).containsExactly(Index.at(-1));
    assertThat(Index.parse(":3:2, np.newaxis"))
        .containsExactly(new Index.Slice(null, 3L, 2), Index.NEW_AXIS);
    assertThatThrownBy(() -> Index.parse("0, x > 2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x > 2'")
        .hasMessageContaining("not an integer, a slice, None or ...");
    assertThatThrownBy(() -> Index.parse("::0")).hasMessageContaining("step of zero");
    assertThatThrownBy(() -> Index.parse("1:2:3:4")).hasMessageContaining("more than two ':'");
    assertThatThrownBy(() -> Index.parse("0,,1")).hasMessageContaining("empty entry");
  }

  @Test
  void getAndSliceOnTheArrayAgreeWithTheKernel() {
    NDArray g = grid();
    CubedArray x = Cubed.fromArray(g, new long[] {4, 7}, spec());
    assertThat(x.get("1:, 5:-5").compute())
        .isEqualTo(Indexing.get(g, Index.from(1), Index.slice(5, -5)));
    assertThat(x.get(Index.at(-1), Index.step(-3)).compute())
        .isEqualTo(Indexing.get(g, Index.at(-1), Index.step(-3)));
    assertThat(x.get("None, ..., 0").shape()).containsExactly(1, 6);
    assertThat(x.slice(1, 5, -5).compute())
        .isEqualTo(Indexing.get(g, Index.ALL, Index.slice(5, -5)));
    assertThat(x.slice(-2, 4, 0, -1).compute()).isEqualTo(Indexing.get(g, Index.slice(4, 0, -1)));
    assertThatThrownBy(() -> x.slice(2, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("axis 2 is out of range for an array of 2 dimensions");
  }

  @Test
  void reductionsTakeAxesWithoutSplitEvery() {
    NDArray g = grid();
    CubedArray x = Cubed.fromArray(g, new long[] {4, 7}, spec());
    CubedArray m = Xp.mean(x, Axes.of(0).keepDims());
    assertThat(m.shape()).containsExactly(1, 20);
    assertThat(m.compute().getDouble(5)).isEqualTo((5 + 25 + 45 + 65 + 85 + 105) / 6.0);
    assertThat(Xp.sum(x, Axes.of(1)).shape()).containsExactly(6);
    assertThat(Xp.var(x, Axes.of(0), 1).compute().getDouble(0))
        .isCloseTo(
            Xp.var(x, Axes.of(0), 1, Xp.AUTO_SPLIT).compute().getDouble(0),
            org.assertj.core.data.Offset.offset(0.0));
    assertThat(Xp.std(x, Axes.all()).shape()).isEmpty();
    assertThat(Xp.nanmax(x, Axes.of(-1).keepDims()).shape()).containsExactly(6, 1);
  }

  @Test
  void toZarrByPathIsSymmetricToFromZarrAndWritesZarrPythonsDefaultCodec() {
    NDArray g = grid();
    CubedArray x = Cubed.fromArray(g, new long[] {4, 7}, spec());
    String out = dir.resolve("out/uv.zarr").toString();
    ZarrArray z = Cubed.toZarr(x.multiply(2.0), out);
    assertThat(z.compression().kind()).isEqualTo(Compression.Kind.ZSTD);
    assertThat(z.compression().level()).isZero();
    assertThat(z.zarrFormat()).isEqualTo(3);
    CubedArray back = Cubed.fromZarr(out, spec());
    assertThat(back.compute())
        .isEqualTo(Cubed.fromArray(g, new long[] {4, 7}, spec()).multiply(2.0).compute());
    assertThat(back.chunkShape()).containsExactly(4, 7);

    assertThatThrownBy(() -> Cubed.toZarr(x, out)).isInstanceOf(IllegalArgumentException.class);
    Cubed.toZarr(x, out, ZarrWrite.defaults().overwrite());
    assertThat(Cubed.fromZarr(out, spec()).compute()).isEqualTo(g);

    ZarrArray lz =
        Cubed.toZarr(
            x,
            dir.resolve("lz4.zarr").toString(),
            ZarrWrite.defaults()
                .compression(Compression.lz4())
                .zarrFormat(2)
                .attributes(Map.of("units", "K")));
    assertThat(lz.zarrFormat()).isEqualTo(2);
    assertThat(lz.compression().kind()).isEqualTo(Compression.Kind.LZ4);
    assertThat(lz.attributes()).containsEntry("units", "K");
    assertThatThrownBy(() -> ZarrWrite.defaults().zarrFormat(4))
        .hasMessageContaining("4 is not a Zarr format; use 2 or 3");
  }

  @Test
  void theStoreFormOfToZarrWritesZstdToo() {
    CubedArray x = Cubed.fromArray(grid(), new long[] {4, 7}, spec());
    ZarrArray z =
        Cubed.toZarr(x, new dev.cubed.zarr.store.FileSystemStore(dir.resolve("s")), "a.zarr");
    assertThat(z.compression().kind()).isEqualTo(Compression.Kind.ZSTD);
  }

  private static String pythonWithZarr() throws Exception {
    for (String py : new String[] {"/usr/bin/python3", "python3"}) {
      try {
        Process p = new ProcessBuilder(py, "-c", "import zarr").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(2, TimeUnit.MINUTES) && p.exitValue() == 0) {
          return py;
        }
      } catch (java.io.IOException e) {
        // try the next one
      }
    }
    return null;
  }

  @Test
  void zarrPythonReadsAFormat2WriteWithItsDefaults() throws Exception {
    String py = pythonWithZarr();
    Assumptions.assumeTrue(py != null, "no python3 with zarr installed");
    NDArray g = grid();
    CubedArray x = Cubed.fromArray(g, new long[] {4, 7}, spec());
    Path out = dir.resolve("v2.zarr");
    Cubed.toZarr(x, out.toString(), ZarrWrite.defaults().zarrFormat(2));
    Process p =
        new ProcessBuilder(
                py,
                "-c",
                "import sys, zarr, numpy as np; a = zarr.open(sys.argv[1], mode='r');"
                    + " print(a.compressor.codec_id, a.compressor.level, float(np.asarray(a[:]).sum()))",
                out.toString())
            .redirectErrorStream(true)
            .start();
    String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(printed).isEqualTo("zstd 0 " + (119.0 * 120 / 2));
    assertThat(Files.readString(out.resolve(".zarray"))).contains("\"zstd\"");
  }
}
