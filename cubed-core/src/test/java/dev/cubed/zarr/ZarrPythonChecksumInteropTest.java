package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarr-python 3 reads a checksummed array this library writes (the default codec then crc32c, what
 * {@code Spec.checksum(true)} and {@code cubed rechunk --checksum} write). Skipped without a Python
 * whose zarr is version 3 or later: Debian's python3-zarr 2.x reads only format 2. (The reverse
 * direction is covered by the fixture {@code v3_f8_crc32c}, written by zarr-python 3.1.6.)
 */
@Tag("interop")
class ZarrPythonChecksumInteropTest {

  static String pythonWithZarr3() {
    for (String py : List.of("/usr/bin/python3", "python3", "/usr/local/bin/python3")) {
      try {
        Process p =
            new ProcessBuilder(
                    py,
                    "-c",
                    "import zarr, numpy; " + "assert int(zarr.__version__.split('.')[0]) >= 3")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return py;
        }
      } catch (IOException | InterruptedException e) {
        // try the next candidate
      }
    }
    return null;
  }

  @Test
  void zarrPython3ReadsOurChecksummedDefaultCodec(@TempDir Path dir) throws Exception {
    String py = pythonWithZarr3();
    Assumptions.assumeTrue(py != null, "no python3 with zarr >= 3 installed");
    ZarrArray a =
        ZarrArray.create(new FileSystemStore(dir.resolve("c.zarr")), "")
            .shape(37, 21)
            .chunks(16, 8)
            .dtype(DType.FLOAT64)
            .crc32c()
            .build();
    NDArray data = ZarrRoundTripTest.randomArray(DType.FLOAT64, new long[] {37, 21}, 11);
    a.write(new long[2], data);
    Npy.write(dir.resolve("c.npy"), data);
    Path script = Paths.get(getClass().getResource("/interop/check_v3_crc32c.py").toURI());
    Process p =
        new ProcessBuilder(
                py,
                script.toString(),
                dir.resolve("c.zarr").toString(),
                dir.resolve("c.npy").toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("OK");
  }
}
