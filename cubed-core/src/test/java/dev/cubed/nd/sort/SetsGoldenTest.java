package dev.cubed.nd.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.GoldenCases;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.testing.NDAssert;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** unique_* and isin against NumPy (scripts/golden/sets.py); all comparisons exact. */
class SetsGoldenTest {

  @ParameterizedTest
  @EnumSource(DType.class)
  void uniqueMatchesNumpy(DType dt) throws Exception {
    Map<String, NDArray> g = GoldenCases.load("sets", dt.standardName());
    int i = 0;
    for (; g.containsKey("u" + i + "_x"); i++) {
      NDArray x = g.get("u" + i + "_x");
      String what = dt + " unique case " + i + " shape " + Shapes.format(x.shape());
      Sets.UniqueAll all = Sets.uniqueAll(x);
      NDAssert.assertExact(g.get("u" + i + "_values"), all.values(), what + " values");
      NDAssert.assertExact(g.get("u" + i + "_indices"), all.indices(), what + " indices");
      NDAssert.assertExact(g.get("u" + i + "_inverse"), all.inverseIndices(), what + " inverse");
      NDAssert.assertExact(g.get("u" + i + "_counts"), all.counts(), what + " counts");
      Sets.UniqueCounts uc = Sets.uniqueCounts(x);
      NDAssert.assertExact(g.get("u" + i + "_values"), uc.values(), what + " counts.values");
      NDAssert.assertExact(g.get("u" + i + "_counts"), uc.counts(), what + " counts.counts");
      Sets.UniqueInverse ui = Sets.uniqueInverse(x);
      NDAssert.assertExact(g.get("u" + i + "_values"), ui.values(), what + " inverse.values");
      NDAssert.assertExact(g.get("u" + i + "_inverse"), ui.inverseIndices(), what + " inverse");
      NDAssert.assertExact(
          g.get("u" + i + "_values"), Sets.uniqueValues(x), what + " uniqueValues");
    }
    assertThat(i).isEqualTo(7);
    checkIsin(g, dt.standardName());
  }

  @ParameterizedTest
  @ValueSource(strings = "isin_mixed")
  void isinMixedDtypes(String file) throws Exception {
    checkIsin(GoldenCases.load("sets", file), file);
  }

  private static void checkIsin(Map<String, NDArray> g, String what) {
    int i = 0;
    for (; g.containsKey("i" + i + "_x1"); i++) {
      NDArray x1 = g.get("i" + i + "_x1");
      NDArray x2 = g.get("i" + i + "_x2");
      String w = what + " isin " + i + " " + x1.dtype() + " in " + x2.dtype();
      NDAssert.assertExact(g.get("i" + i + "_in"), Sets.isin(x1, x2), w);
      NDAssert.assertExact(
          g.get("i" + i + "_notin"), Sets.isin(x1, x2, Sets.Membership.NOT_IN), w + " invert");
    }
    assertThat(i).isGreaterThanOrEqualTo(5);
  }
}
