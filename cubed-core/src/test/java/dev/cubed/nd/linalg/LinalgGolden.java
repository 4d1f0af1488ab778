package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.nd.Shapes;
import dev.cubed.testing.NDAssert;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Loads the linalg golden files (written by scripts/golden/linalg.py) grouped by case, and holds
 * the normwise comparison the linalg tests use.
 */
final class LinalgGolden {
  private static final Map<String, Map<String, Map<String, NDArray>>> CACHE = new TreeMap<>();

  private LinalgGolden() {}

  /** Cases of one golden file: case name -> field -> array. */
  static synchronized Map<String, Map<String, NDArray>> cases(String function) {
    return CACHE.computeIfAbsent(
        function,
        f -> {
          String res = "/golden/linalg/" + f + ".npz";
          try (InputStream in = LinalgGolden.class.getResourceAsStream(res)) {
            if (in == null) {
              throw new IllegalStateException("missing resource " + res);
            }
            Map<String, NDArray> all = Npy.readNpz(in, res);
            Map<String, Map<String, NDArray>> byCase = new TreeMap<>();
            for (Map.Entry<String, NDArray> e : all.entrySet()) {
              String key =
                  e.getKey().endsWith(".npy")
                      ? e.getKey().substring(0, e.getKey().length() - 4)
                      : e.getKey();
              int sep = key.indexOf("__");
              byCase
                  .computeIfAbsent(key.substring(0, sep), k -> new TreeMap<>())
                  .put(key.substring(sep + 2), e.getValue());
            }
            return byCase;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  static List<String> names(String function) {
    return new ArrayList<>(cases(function).keySet());
  }

  /**
   * Normwise tolerance for results of backward-stable algorithms on the well-conditioned golden
   * matrices (condition numbers below ~10, sizes up to 5). float64: NumPy's LAPACK and ours each
   * err by about n * cond * eps64 ~ 1e-14 (observed: below 1e-14), so 1e-13. float32: NumPy
   * computes in single precision (eps32 = 1.2e-7; bound n * cond * eps32 ~ 6e-6, observed below
   * 3e-6) while we compute in double and round, so the difference is NumPy's own single-precision
   * error: 2e-5. (Both observed figures were checked by tightening the tolerance until it failed.)
   */
  static double tol(DType dt) {
    return dt.realPart() == DType.FLOAT32 ? 2e-5 : 1e-13;
  }

  /**
   * Same dtype and shape; NaN and infinities at the same places; every finite element (each part)
   * within {@code rtol * max(1, max |expected|)} of the expected one; integers and bools exact.
   */
  static void assertNormClose(NDArray expected, NDArray actual, double rtol, String what) {
    if (expected.dtype() != actual.dtype()) {
      throw new AssertionError(
          what + ": dtype " + actual.dtype() + ", expected " + expected.dtype());
    }
    if (!Arrays.equals(expected.shape(), actual.shape())) {
      throw new AssertionError(
          what
              + ": shape "
              + Shapes.format(actual.shape())
              + ", expected "
              + Shapes.format(expected.shape()));
    }
    DType dt = expected.dtype();
    if (!dt.isFloating()) {
      NDAssert.assertExact(expected, actual, what);
      return;
    }
    double scale = 1;
    for (int i = 0; i < expected.size(); i++) {
      double m = Math.hypot(expected.getDouble(i), expected.getImag(i));
      if (Double.isFinite(m)) {
        scale = Math.max(scale, m);
      }
    }
    double tol = rtol * scale;
    for (int i = 0; i < expected.size(); i++) {
      for (int part = 0; part < 2; part++) {
        double e = part == 0 ? expected.getDouble(i) : expected.getImag(i);
        double a = part == 0 ? actual.getDouble(i) : actual.getImag(i);
        boolean ok =
            Double.isNaN(e)
                ? Double.isNaN(a)
                : Double.isInfinite(e) ? e == a : Math.abs(e - a) <= tol;
        if (!ok) {
          throw new AssertionError(
              what
                  + ": element "
                  + i
                  + (part == 0 ? " (re)" : " (im)")
                  + " is "
                  + a
                  + ", expected "
                  + e
                  + " (tolerance "
                  + tol
                  + ", dtype "
                  + dt
                  + ", shape "
                  + Shapes.format(expected.shape())
                  + ")");
        }
      }
    }
  }

  /** Max over the stack of max |a_ij - b_ij| for two same-shaped complex-or-real stacks. */
  static double maxDiff(double[] a, double[] b) {
    double d = 0;
    for (int i = 0; i < a.length; i++) {
      d = Math.max(d, Math.abs(a[i] - b[i]));
    }
    return d;
  }
}
