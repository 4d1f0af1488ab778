package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed rechunk --checksum} (issue 24): the v3 target stores a crc32c checksum per chunk, a
 * changed byte in it is reported (exit 1, one line naming the chunk) when it is read, and a v2
 * target is refused as a usage error before anything is written.
 */
class RechunkChecksumTest {
  @TempDir Path dir;

  private NDArray data() {
    NDArray a = NDArray.zeros(DType.FLOAT64, new long[] {40, 30});
    double[] d = (double[]) a.data();
    Random r = new Random(5);
    for (int i = 0; i < d.length; i++) {
      d[i] = Double.longBitsToDouble(r.nextLong() >>> 2);
    }
    return a;
  }

  private String source(int format) {
    Path p = dir.resolve("src" + format + ".zarr");
    if (Files.exists(p)) {
      return p.toString();
    }
    ZarrArray.create(new FileSystemStore(p), "")
        .shape(40, 30)
        .chunks(40, 5)
        .zarrFormat(format)
        .dtype(DType.FLOAT64)
        .build()
        .write(new long[2], data());
    return p.toString();
  }

  private CliErrorsTest.Result rechunk(String src, String dst, String... opts) {
    String[] a = new String[5 + opts.length];
    a[0] = "rechunk";
    a[1] = src;
    a[2] = dst;
    a[3] = "--work-dir";
    a[4] = dir.resolve("work").toString();
    System.arraycopy(opts, 0, a, 5, opts.length);
    return CliErrorsTest.run(a);
  }

  @Test
  void checksumTargetsRoundTripAndAChangedByteIsReported() throws Exception {
    String plain = dir.resolve("plain.zarr").toString();
    assertThat(rechunk(source(3), plain, "--chunks", "8,30").code()).isZero();
    assertThat(Files.readString(Path.of(plain, "zarr.json"))).doesNotContain("crc32c");

    String dst = dir.resolve("dst.zarr").toString();
    CliErrorsTest.Result r = rechunk(source(3), dst, "--chunks", "8,30", "--checksum");
    assertThat(r.code()).as(r.err()).isZero();
    ZarrArray t = ZarrArray.open(dst);
    assertThat(Files.readString(Path.of(dst, "zarr.json"))).contains("\"crc32c\"");
    assertThat(t.read().equals(data())).isTrue();

    Path chunk = Path.of(dst, "c", "2", "0");
    byte[] b = Files.readAllBytes(chunk);
    b[b.length / 2] ^= 0x01;
    Files.write(chunk, b);
    CliErrorsTest.Result again =
        rechunk(dst, dir.resolve("again.zarr").toString(), "--chunks", "40,30");
    String line = again.oneLineError(1, "rechunk");
    assertThat(line)
        .contains("chunk 'c/2/0' in file://")
        .contains("dst.zarr")
        .contains("crc32c checksum mismatch")
        .contains("(corrupt chunk)");
  }

  @Test
  void aV2TargetIsRefusedBeforeAnythingIsWritten() {
    String dst = dir.resolve("v2.zarr").toString();
    String line =
        rechunk(source(2), dst, "--chunks", "8,30", "--checksum").oneLineError(2, "rechunk");
    assertThat(line).contains("--checksum needs a Zarr v3 target").contains("--zarr-format 3");
    line =
        rechunk(source(3), dst, "--chunks", "8,30", "--checksum", "--zarr-format", "2")
            .oneLineError(2, "rechunk");
    assertThat(line).contains("--checksum needs a Zarr v3 target");
    assertThat(Path.of(dst)).doesNotExist();

    assertThat(
            rechunk(source(2), dst, "--chunks", "8,30", "--checksum", "--zarr-format", "3").code())
        .isZero();
    assertThat(ZarrArray.open(dst).zarrFormat()).isEqualTo(3);
    assertThat(ZarrArray.open(dst).read().equals(data())).isTrue();
  }
}
