package dev.cubed.nd.fft;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.testing.NDAssert;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares {@link Fft} with NumPy on the vectors of {@code scripts/golden/fft.py}.
 *
 * <p>Tolerance for transforms: every element (each part) within {@code 8 * eps * max(1, log2 N) *
 * max|expected|}, where N is the larger of the input and output sizes and eps the machine epsilon
 * of the result's precision. The rounding error of an FFT grows like {@code eps * log N} times the
 * norm of the data, so it is measured against the largest output magnitude rather than per element
 * (small outputs are differences of large terms and carry absolute, not relative, error). float32
 * results: NumPy computes in single precision while this library computes in double and rounds, so
 * the difference is NumPy's single-precision error. Frequencies and shifts must match exactly.
 */
class FftGoldenTest {
  private static final Map<String, Map<String, NDArray>> FAMILIES = new HashMap<>();

  private static synchronized Map<String, NDArray> family(String name) {
    return FAMILIES.computeIfAbsent(
        name,
        f -> {
          try (InputStream in =
              FftGoldenTest.class.getResourceAsStream("/golden/fft/" + f + ".npz")) {
            return Npy.readNpz(in, f + ".npz");
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (InputStream in = FftGoldenTest.class.getResourceAsStream("/golden/fft/cases.json")) {
      JsonNode root = new ObjectMapper().readTree(in);
      for (JsonNode c : root) {
        String label =
            c.get("id").asText()
                + " "
                + c.get("family").asText()
                + " "
                + c.get("fn").asText()
                + " n="
                + c.get("n")
                + " axis="
                + c.get("axis")
                + " s="
                + c.get("s")
                + " axes="
                + c.get("axes")
                + " norm="
                + c.get("norm").asText()
                + (c.get("dtype").isNull() ? "" : " dtype=" + c.get("dtype").asText());
        out.add(Arguments.of(label, c));
      }
    }
    assertThat(out).hasSizeGreaterThan(500);
    return out.stream();
  }

  private static int[] ints(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    int[] a = new int[n.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = n.get(i).asInt();
    }
    return a;
  }

  private static Integer intOrNull(JsonNode n) {
    return n == null || n.isNull() ? null : n.asInt();
  }

  private static DType freqDtype(JsonNode c) {
    JsonNode d = c.get("dtype");
    return d == null || d.isNull() ? DType.FLOAT64 : DType.fromName(d.asText());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesNumpy(String label, JsonNode c) {
    Map<String, NDArray> fam = family(c.get("family").asText());
    NDArray expected = fam.get(c.get("id").asText() + "_out");
    NDArray x = c.get("x").isNull() ? null : fam.get(c.get("x").asText());
    String fn = c.get("fn").asText();
    Integer n = intOrNull(c.get("n"));
    int axis = c.get("axis").asInt();
    int[] s = ints(c.get("s"));
    int[] axes = ints(c.get("axes"));
    Fft.Norm norm = Fft.Norm.valueOf(c.get("norm").asText().toUpperCase(Locale.ROOT));
    NDArray actual =
        switch (fn) {
          case "fft" -> Fft.fft(x, n, axis, norm);
          case "ifft" -> Fft.ifft(x, n, axis, norm);
          case "rfft" -> Fft.rfft(x, n, axis, norm);
          case "irfft" -> Fft.irfft(x, n, axis, norm);
          case "hfft" -> Fft.hfft(x, n, axis, norm);
          case "ihfft" -> Fft.ihfft(x, n, axis, norm);
          case "fftn" -> Fft.fftn(x, s, axes, norm);
          case "ifftn" -> Fft.ifftn(x, s, axes, norm);
          case "rfftn" -> Fft.rfftn(x, s, axes, norm);
          case "irfftn" -> Fft.irfftn(x, s, axes, norm);
          case "fftfreq" -> Fft.fftfreq(n, c.get("d").asDouble(), freqDtype(c));
          case "rfftfreq" -> Fft.rfftfreq(n, c.get("d").asDouble(), freqDtype(c));
          case "fftshift" -> axes == null ? Fft.fftshift(x) : Fft.fftshift(x, axes);
          case "ifftshift" -> axes == null ? Fft.ifftshift(x) : Fft.ifftshift(x, axes);
          default -> throw new AssertionError("unknown function " + fn);
        };
    if (fn.endsWith("freq") || fn.endsWith("shift")) {
      NDAssert.assertExact(expected, actual, label);
      return;
    }
    assertThat(actual.dtype()).as(label + " dtype").isEqualTo(expected.dtype());
    assertThat(actual.shape()).as(label + " shape").isEqualTo(expected.shape());
    double eps = expected.dtype().realPart() == DType.FLOAT32 ? 0x1p-23 : 0x1p-52;
    long bigN = Math.max(Math.max(x.size(), expected.size()), 2);
    double maxAbs = 0;
    for (int i = 0; i < expected.size(); i++) {
      maxAbs = Math.max(maxAbs, Math.hypot(expected.getDouble(i), expected.getImag(i)));
    }
    double tol = 8 * eps * Math.max(1, Math.log(bigN) / Math.log(2)) * maxAbs;
    for (int i = 0; i < expected.size(); i++) {
      double dr = Math.abs(expected.getDouble(i) - actual.getDouble(i));
      double di = Math.abs(expected.getImag(i) - actual.getImag(i));
      if (!(dr <= tol && di <= tol)) {
        throw new AssertionError(
            label
                + ": element "
                + i
                + " is "
                + actual.getObject(i)
                + ", expected "
                + expected.getObject(i)
                + " (tolerance "
                + tol
                + ")");
      }
    }
  }
}
