package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RechunkCommandTest {
  @TempDir Path dir;

  @Test
  void rechunksKeepingDtypeFillAndAttributes() {
    NDArray a = NDArray.zeros(DType.INT16, 40, 30, 20);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, (i * 7919L) % 30000 - 15000);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(a.shape())
            .chunks(1L, 30, 20)
            .dtype(DType.INT16)
            .fillValue(-7)
            .zarrFormat(2)
            .attributes(Map.of("units", "m"))
            .build();
    src.write(new long[3], a);
    int code =
        new CommandLine(new RechunkCommand())
            .execute(
                dir.resolve("src.zarr").toString(),
                dir.resolve("dst.zarr").toString(),
                "--chunks",
                "40,7,5",
                "--allowed-mem",
                "200kB",
                "--reserved-mem",
                "1kB",
                "--work-dir",
                dir.resolve("work").toString(),
                "--zarr-format",
                "3");
    assertThat(code).isZero();
    ZarrArray dst = ZarrArray.open(new FileSystemStore(dir.resolve("dst.zarr")), "");
    assertThat(dst.chunks()).containsExactly(40, 7, 5);
    assertThat(dst.dtype()).isEqualTo(DType.INT16);
    assertThat(dst.zarrFormat()).isEqualTo(3);
    assertThat(((Number) dst.fillValue()).longValue()).isEqualTo(-7);
    assertThat(dst.attributes()).containsEntry("units", "m");
    assertThat(dst.read()).isEqualTo(a);
  }
}
