package dev.cubed.nd.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Npy;
import dev.cubed.nd.Shapes;
import dev.cubed.testing.NDAssert;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Statistics, Searching and Utility against NumPy's results ({@code scripts/golden/statistics.py}):
 * every function over every dtype the standard defines it for, shapes 0-d to 3-d including empty
 * ones, axis tuples, keepdims, NaN/inf/-0.0 and integer extremes (wrapping sums).
 *
 * <p>Integers and bools must match exactly, and the result dtype must equal NumPy's. Floats: NumPy
 * sums pairwise in the input precision, this library with several double accumulators, so results
 * may differ by rounding: a float element passes if within {@code rtol} of the expected value or
 * within {@code rtol * S}, where S bounds the magnitude of intermediate sums (({@code max|x|^2 +
 * max|x|}) times the element count); rtol is 1e-12 for float64/complex128 and 2e-5 for 32-bit
 * types. NaN positions must match.
 */
class StatisticsGoldenTest {

  @TestFactory
  List<DynamicTest> matchesNumpy() throws Exception {
    JsonNode root;
    try (InputStream in =
        new GZIPInputStream(getClass().getResourceAsStream("/golden/statistics/cases.json.gz"))) {
      root = new ObjectMapper().readTree(in);
    }
    Map<String, NDArray> arrays;
    try (InputStream in = getClass().getResourceAsStream("/golden/statistics/arrays.npz")) {
      arrays = Npy.readNpz(in, "statistics/arrays.npz");
    }
    List<DynamicTest> tests = new ArrayList<>();
    int i = 0;
    for (JsonNode c : root.get("cases")) {
      List<NDArray> in = new ArrayList<>();
      for (JsonNode k : c.get("inputs")) {
        in.add(arrays.get(k.asText()));
      }
      String fn = c.get("fn").asText();
      JsonNode args = c.get("args");
      String name =
          "#"
              + (i++)
              + " "
              + fn
              + " "
              + in.get(0).dtype()
              + " "
              + Shapes.format(in.get(0).shape())
              + " "
              + args;
      tests.add(
          DynamicTest.dynamicTest(
              name,
              () -> {
                if (c.path("error").asBoolean()) {
                  assertThatThrownBy(() -> call(fn, in, args))
                      .isInstanceOf(IllegalArgumentException.class)
                      .hasMessageContaining(fn.replace("cumulative_", "cumulative_"));
                  return;
                }
                NDArray[] got = call(fn, in, args);
                JsonNode outs = c.get("outputs");
                assertThat(got).hasSize(outs.size());
                for (int j = 0; j < got.length; j++) {
                  compare(arrays.get(outs.get(j).asText()), got[j], in.get(0), name);
                }
              }));
    }
    return tests;
  }

  private static Axes axes(JsonNode args) {
    JsonNode a = args.get("axes");
    Axes ax;
    if (a == null || a.isNull()) {
      ax = Axes.all();
    } else {
      int[] v = new int[a.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = a.get(i).asInt();
      }
      ax = Axes.of(v);
    }
    return args.path("keepdims").asBoolean() ? ax.keepDims() : ax;
  }

  private static NDArray[] call(String fn, List<NDArray> in, JsonNode args) {
    NDArray x = in.get(0);
    Axes ax = axes(args);
    return switch (fn) {
      case "sum" -> one(Statistics.sum(x, ax));
      case "prod" -> one(Statistics.prod(x, ax));
      case "min" -> one(Statistics.min(x, ax));
      case "max" -> one(Statistics.max(x, ax));
      case "mean" -> one(Statistics.mean(x, ax));
      case "var" -> one(Statistics.var(x, ax, args.get("correction").asDouble()));
      case "std" -> one(Statistics.std(x, ax, args.get("correction").asDouble()));
      case "all" -> one(Utility.all(x, ax));
      case "any" -> one(Utility.any(x, ax));
      case "count_nonzero" -> one(Searching.countNonzero(x, ax));
      case "argmin", "argmax" -> {
        JsonNode a = args.get("axis");
        Axes axis = a.isNull() ? Axes.all() : Axes.of(a.asInt());
        axis = args.get("keepdims").asBoolean() ? axis.keepDims() : axis;
        yield one(fn.equals("argmin") ? Searching.argmin(x, axis) : Searching.argmax(x, axis));
      }
      case "cumulative_sum", "cumulative_prod" -> {
        Statistics.Initial init =
            args.get("include_initial").asBoolean()
                ? Statistics.Initial.INCLUDE
                : Statistics.Initial.EXCLUDE;
        int axis = args.get("axis").asInt();
        yield one(
            fn.equals("cumulative_sum")
                ? Statistics.cumulativeSum(x, axis, init)
                : Statistics.cumulativeProd(x, axis, init));
      }
      case "nonzero" -> Searching.nonzero(x);
      case "diff" ->
          one(Utility.diff(x, args.get("n").asInt(), args.get("axis").asInt(), null, null));
      case "where" -> one(Searching.where(in.get(0), in.get(1), in.get(2)));
      case "searchsorted" ->
          one(
              Searching.searchsorted(
                  x,
                  in.get(1),
                  args.get("side").asText().equals("left")
                      ? Searching.Side.LEFT
                      : Searching.Side.RIGHT,
                  null));
      default -> throw new AssertionError("unknown function " + fn);
    };
  }

  private static NDArray[] one(NDArray a) {
    return new NDArray[] {a};
  }

  private static void compare(NDArray expected, NDArray actual, NDArray input, String what) {
    if (!expected.dtype().isFloating()) {
      NDAssert.assertExact(expected, actual, what);
      return;
    }
    assertThat(actual.dtype()).as(what + " dtype").isEqualTo(expected.dtype());
    assertThat(actual.shape()).as(what + " shape").isEqualTo(expected.shape());
    boolean f32 = expected.dtype().realPart() == DType.FLOAT32;
    double rtol = f32 ? 2e-5 : 1e-12;
    double maxAbs = 0;
    for (int i = 0; i < input.size(); i++) {
      double v = Math.hypot(input.getDouble(i), input.getImag(i));
      if (Double.isFinite(v)) {
        maxAbs = Math.max(maxAbs, v);
      }
    }
    double scale = (maxAbs * maxAbs + maxAbs) * Math.max(1, input.size());
    for (int i = 0; i < expected.size(); i++) {
      check(expected.getDouble(i), actual.getDouble(i), rtol, scale, what, i);
      check(expected.getImag(i), actual.getImag(i), rtol, scale, what, i);
    }
  }

  private static void check(double e, double a, double rtol, double scale, String what, int i) {
    if (Double.isNaN(e) || Double.isNaN(a) || Double.isInfinite(e) || Double.isInfinite(a)) {
      assertThat(Double.isNaN(a))
          .as(what + " NaN at " + i + ": " + a + " vs " + e)
          .isEqualTo(Double.isNaN(e));
      if (!Double.isNaN(e)) {
        assertThat(a).as(what + " at " + i).isEqualTo(e);
      }
      return;
    }
    double d = Math.abs(e - a);
    assertThat(d <= rtol * Math.abs(e) || d <= rtol * scale)
        .as(what + " element " + i + ": " + a + " vs NumPy " + e)
        .isTrue();
  }
}
