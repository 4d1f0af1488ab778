package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarr-python (Debian's python3-zarr 2.x, which reads only format 2) reads the v2 arrays this
 * library writes: every dtype with every compressor, order F, big endian, '/' keys, NaN and complex
 * fill values, a group with attributes and xarray's {@code _ARRAY_DIMENSIONS}. Skipped when no
 * Python with zarr is installed.
 */
@Tag("interop")
public class ZarrPythonInteropTest {

  public static String pythonWithZarr() {
    for (String py : List.of("/usr/bin/python3", "python3", "/usr/local/bin/python3")) {
      try {
        Process p =
            new ProcessBuilder(py, "-c", "import zarr, numpy").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0) {
          return py;
        }
      } catch (IOException | InterruptedException e) {
        // try the next candidate
      }
    }
    return null;
  }

  @Test
  void zarrPythonReadsOurV2Output(@TempDir Path dir) throws Exception {
    String py = pythonWithZarr();
    Assumptions.assumeTrue(py != null, "no python3 with zarr installed");
    Store store = new FileSystemStore(dir.resolve("data.zarr"));
    ZarrGroup g = ZarrGroup.create(store, "", 2, Map.of("title", "interop"));
    List<String> cases = new ArrayList<>();
    int n = 0;
    for (DType d : DType.values()) {
      for (Compression c : ZarrRoundTripTest.compressions(2)) {
        String name = "a" + (n++);
        ZarrArray a = g.createArray(name).shape(7, 5).chunks(3, 2).dtype(d).compression(c).build();
        NDArray data = ZarrRoundTripTest.randomArray(d, new long[] {7, 5}, n);
        a.write(new long[2], data);
        Npy.write(dir.resolve(name + ".npy"), data);
        cases.add(name + " " + name + ".npy");
      }
    }
    g.createGroup("sub", Map.of("k", 1));
    for (DType d : new DType[] {DType.FLOAT64, DType.INT32, DType.COMPLEX128, DType.UINT16}) {
      String name = "sub/f" + d;
      Object fill = d.isComplex() ? new Complex(1.5, Double.NaN) : d.isFloating() ? Double.NaN : 3;
      ZarrArray a =
          g.createArray(name)
              .shape(6, 5, 4)
              .chunks(4, 2, 3)
              .dtype(d)
              .order(MemoryOrder.F)
              .byteOrder(ByteOrder.BIG_ENDIAN)
              .separator("/")
              .fillValue(fill)
              .dimensionNames("t", "y", "x")
              .compression(Compression.zstd(1))
              .build();
      NDArray data = NDArray.full(d, fill, 6, 5, 4);
      NDArray part = ZarrRoundTripTest.randomArray(d, new long[] {3, 5, 2}, 77);
      a.write(new long[] {1, 0, 1}, part);
      data.setRegion(new long[] {1, 0, 1}, part);
      Npy.write(dir.resolve("f" + d + ".npy"), data);
      cases.add(name + " f" + d + ".npy t,y,x");
    }
    ZarrArray s = g.createArray("scalar").shape().dtype(DType.INT64).build();
    s.write(new long[0], NDArray.scalar(DType.INT64, -5L));
    Npy.write(dir.resolve("scalar.npy"), NDArray.scalar(DType.INT64, -5L));
    cases.add("scalar scalar.npy");
    Files.write(dir.resolve("cases.txt"), cases);
    Path script = Paths.get(getClass().getResource("/interop/check_v2.py").toURI());
    Process p =
        new ProcessBuilder(py, script.toString(), dir.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.lines().filter(l -> l.startsWith("OK ")).count())
        .as(out)
        .isEqualTo(cases.size());
  }
}
