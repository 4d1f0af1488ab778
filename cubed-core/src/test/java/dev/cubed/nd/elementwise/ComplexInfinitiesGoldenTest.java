package dev.cubed.nd.elementwise;

import dev.cubed.nd.Axes;
import dev.cubed.nd.GoldenCases;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.testing.NDAssert;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Complex products with infinities and NaNs against NumPy 2.x
 * (scripts/golden/complex_infinities.py): matmul, tensordot, prod and cumulative_prod must use
 * NumPy's naive complex multiply (ac - bd) + (ad + bc)j, so an inf * 0 part gives NaN (e.g.
 * nan+nanj, not a "recovered" inf+infj); prod starts from 1+0j, cumulative_prod from the first
 * element, as NumPy. Compared exactly (NaN = NaN).
 */
class ComplexInfinitiesGoldenTest {
  private final Map<String, NDArray> g = GoldenCases.load("linear_algebra", "complex_infinities");

  @Test
  void matmulAndTensordotMatchNumPy() {
    for (int i = 0; i < 3; i++) {
      NDAssert.assertExact(
          g.get("matmul" + i + "_out"),
          Linalg.matmul(g.get("matmul" + i + "_a"), g.get("matmul" + i + "_b")),
          "matmul case " + i);
      NDAssert.assertExact(
          g.get("tensordot" + i + "_out"),
          Linalg.tensordot(
              g.get("tensordot" + i + "_a"),
              g.get("tensordot" + i + "_b"),
              new int[] {1, 2},
              new int[] {0, 1}),
          "tensordot case " + i);
    }
  }

  @Test
  void prodAndCumulativeProdMatchNumPy() {
    for (int i = 0; i < 3; i++) {
      NDArray a = g.get("prod" + i + "_a");
      NDAssert.assertExact(
          g.get("prod" + i + "_out"), Statistics.prod(a, Axes.of(1)), "prod case " + i);
      NDAssert.assertExact(
          g.get("cumprod" + i + "_out"),
          Statistics.cumulativeProd(a, 1, Statistics.Initial.EXCLUDE),
          "cumulative_prod case " + i);
    }
  }
}
