package dev.cubed;

import dev.cubed.nd.NDArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** zarr-python (Debian's python3-zarr 2.x: format 2 only) as a reader for tests; may be absent. */
final class ZarrPython {
  private ZarrPython() {}

  /** A python3 that imports zarr and numpy, or null. */
  static String find() {
    for (String py : List.of("/usr/bin/python3", "python3", "/usr/local/bin/python3")) {
      try {
        if (exec(py, "import zarr, numpy").startsWith("OK")) {
          return py;
        }
      } catch (IOException | InterruptedException e) {
        // try the next candidate
      }
    }
    return null;
  }

  private static String exec(String py, String script) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(py, "-c", script + "\nprint('OK')").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      return "FAILED " + out;
    }
    return out.endsWith("OK\n") ? "OK" + out.substring(0, out.length() - 3) : out;
  }

  /** zarr.open(path, mode='r')[...] as flat doubles, one per line. */
  static List<Double> read(String py, Path array) throws Exception {
    String out =
        exec(
            py,
            "import zarr\na = zarr.open("
                + quote(array)
                + ", mode='r')\n"
                + "print('\\n'.join(repr(float(v)) for v in a[...].ravel()))");
    if (!out.startsWith("OK")) {
      throw new AssertionError("zarr-python could not read " + array + ": " + out);
    }
    List<Double> vals = new ArrayList<>();
    for (String line : out.substring(2).split("\n")) {
      if (!line.isBlank()) {
        vals.add(Double.parseDouble(line.strip()));
      }
    }
    return vals;
  }

  /** "OPENED" if zarr.open(path, mode='r') succeeds, else "REFUSED <exception type>". */
  static String open(String py, Path array) throws Exception {
    String out =
        exec(
            py,
            "import zarr\ntry:\n    zarr.open("
                + quote(array)
                + ", mode='r')\n"
                + "    print('OPENED')\nexcept Exception as e:\n    print('REFUSED', type(e).__name__)");
    return out.startsWith("OK") ? out.substring(2).strip() : out;
  }

  static List<Double> flat(NDArray a) {
    List<Double> vals = new ArrayList<>();
    for (int i = 0; i < (int) a.size(); i++) {
      vals.add(a.getDouble(i));
    }
    return vals;
  }

  private static String quote(Path p) {
    return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
