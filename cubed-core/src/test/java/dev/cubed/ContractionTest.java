package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.testing.NDAssert;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Chunked matmul/tensordot against the kernel on the same data, multi-round trees, edge chunks. */
class ContractionTest {
  @TempDir Path dir;

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 300_000);
  }

  static NDArray random(long seed, DType t, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      if (t == DType.INT64) {
        a.setLong(i, r.nextLong());
      } else if (t == DType.UINT64 || t == DType.UINT8 || t == DType.UINT32) {
        a.setLong(i, t == DType.UINT64 ? r.nextLong() : r.nextInt(200));
      } else if (t.isComplex()) {
        a.setComplex(i, r.nextDouble() * 4 - 2, r.nextDouble() * 4 - 2);
      } else if (t.isFloating()) {
        a.setDouble(i, r.nextDouble() * 4 - 2);
      } else {
        a.setLong(i, r.nextInt(200) - 100);
      }
    }
    return a;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // dtype, a shape, a chunks, b shape, b chunks
        Arguments.of(
            DType.FLOAT64,
            new long[] {9, 23},
            new long[] {4, 3},
            new long[] {23, 5},
            new long[] {2, 2}),
        Arguments.of(
            DType.FLOAT32,
            new long[] {9, 23},
            new long[] {4, 2},
            new long[] {23, 5},
            new long[] {3, 3}),
        Arguments.of(
            DType.INT64,
            new long[] {7, 30},
            new long[] {3, 2},
            new long[] {30, 6},
            new long[] {2, 4}),
        Arguments.of(
            DType.UINT64,
            new long[] {5, 17},
            new long[] {2, 3},
            new long[] {17, 3},
            new long[] {3, 2}),
        Arguments.of(
            DType.INT32,
            new long[] {6, 11},
            new long[] {5, 2},
            new long[] {11, 4},
            new long[] {2, 3}),
        Arguments.of(
            DType.UINT8,
            new long[] {6, 11},
            new long[] {5, 1},
            new long[] {11, 4},
            new long[] {2, 3}),
        Arguments.of(
            DType.COMPLEX128,
            new long[] {4, 13},
            new long[] {3, 2},
            new long[] {13, 3},
            new long[] {2, 2}),
        // batched with broadcast batch axes
        Arguments.of(
            DType.FLOAT64,
            new long[] {3, 1, 5, 14},
            new long[] {2, 1, 2, 3},
            new long[] {4, 14, 3},
            new long[] {3, 4, 2}),
        Arguments.of(
            DType.INT64,
            new long[] {2, 5, 14},
            new long[] {1, 2, 3},
            new long[] {14, 3},
            new long[] {5, 2}),
        // vectors
        Arguments.of(
            DType.FLOAT64, new long[] {19}, new long[] {4}, new long[] {19, 3}, new long[] {5, 2}),
        Arguments.of(
            DType.INT64, new long[] {2, 19}, new long[] {1, 4}, new long[] {19}, new long[] {3}),
        Arguments.of(
            DType.FLOAT32, new long[] {19}, new long[] {4}, new long[] {19}, new long[] {6}));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void matmulMatchesKernel(DType t, long[] as, long[] ac, long[] bs, long[] bc) {
    NDArray a = random(1, t, as);
    NDArray b = random(2, t, bs);
    NDArray want = Linalg.matmul(a, b);
    for (int split : new int[] {2, 3}) {
      CubedArray m =
          Xp.matmul(Cubed.fromArray(a, ac, spec()), Cubed.fromArray(b, bc, spec()), split);
      NDArray got = m.compute();
      assertThat(got.dtype()).isEqualTo(want.dtype());
      if (t.isFloating() || t.isComplex()) {
        NDAssert.assertClose(want, got, t == DType.FLOAT32 ? 1e-5 : 1e-12, 0, "matmul " + t);
      } else {
        NDAssert.assertExact(want, got, "matmul " + t);
      }
    }
  }

  @Test
  void int64BeyondTwoToThe53IsExact() {
    NDArray a = NDArray.zeros(DType.INT64, 3, 10);
    NDArray b = NDArray.zeros(DType.INT64, 10, 2);
    for (int i = 0; i < a.size(); i++) {
      a.setLong(i, (1L << 53) + 1 + i);
    }
    for (int i = 0; i < b.size(); i++) {
      b.setLong(i, 1 + (i % 3));
    }
    NDArray got =
        Xp.matmul(
                Cubed.fromArray(a, new long[] {2, 3}, spec()),
                Cubed.fromArray(b, new long[] {3, 1}, spec()),
                2)
            .compute();
    NDAssert.assertExact(Linalg.matmul(a, b), got, "int64 > 2^53");
  }

  @Test
  void multiRoundTreeWritesFewPartialProducts() {
    NDArray a = random(3, DType.FLOAT64, 8, 64);
    NDArray b = random(4, DType.FLOAT64, 64, 8);
    CubedArray m =
        Xp.matmul(
            Cubed.fromArray(a, new long[] {8, 4}, spec()),
            Cubed.fromArray(b, new long[] {4, 8}, spec()),
            4);
    PlanSummary p = m.plan();
    // 16 k blocks, 4 per first-round task: 4 partial products of 8x8 float64 written, not 16
    assertThat(p.intermediateBytesWritten()).isLessThanOrEqualTo(4L * 8 * 8 * 8);
    assertThat(p.ops().stream().filter(o -> o.name().contains("matmul")).count())
        .isGreaterThanOrEqualTo(2);
    NDAssert.assertClose(Linalg.matmul(a, b), m.compute(), 1e-12, 0, "tree");
  }

  @Test
  void tensordotMatchesKernel() {
    for (DType t : new DType[] {DType.FLOAT64, DType.INT64, DType.FLOAT32}) {
      NDArray a = random(5, t, 5, 6, 7);
      NDArray b = random(6, t, 7, 4, 6);
      NDArray want = Linalg.tensordot(a, b, new int[] {1, 2}, new int[] {2, 0});
      NDArray got =
          Xp.tensordot(
                  Cubed.fromArray(a, new long[] {2, 4, 3}, spec()),
                  Cubed.fromArray(b, new long[] {2, 3, 5}, spec()),
                  new int[] {1, 2},
                  new int[] {2, 0},
                  2)
              .compute();
      if (t == DType.INT64) {
        NDAssert.assertExact(want, got, "tensordot");
      } else {
        NDAssert.assertClose(want, got, t == DType.FLOAT32 ? 1e-5 : 1e-12, 0, "tensordot");
      }
    }
  }

  @Test
  void emptyContractionIsZeros() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 3, 0);
    NDArray b = NDArray.zeros(DType.FLOAT64, 0, 2);
    NDAssert.assertExact(
        Linalg.matmul(a, b),
        Xp.matmul(
                Cubed.fromArray(a, new long[] {2, 1}, spec()),
                Cubed.fromArray(b, new long[] {1, 2}, spec()))
            .compute(),
        "empty");
  }

  @Test
  void badInputsNameTheFunction() {
    CubedArray x = Cubed.fromArray(random(1, DType.FLOAT64, 3, 4), new long[] {2, 2}, spec());
    CubedArray bx = Cubed.fromArray(NDArray.zeros(DType.BOOL, 4, 2), new long[] {2, 2}, spec());
    assertThatThrownBy(() -> Xp.matmul(x, x))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("matmul: shapes (3, 4) and (3, 4) are not aligned");
    assertThatThrownBy(() -> Xp.matmul(x, bx))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("matmul")
        .hasMessageContaining("bool");
    CubedArray b3 =
        Cubed.fromArray(random(1, DType.FLOAT64, 2, 4, 1), new long[] {1, 2, 1}, spec());
    CubedArray a3 =
        Cubed.fromArray(random(1, DType.FLOAT64, 3, 3, 4), new long[] {1, 2, 2}, spec());
    assertThatThrownBy(() -> Xp.matmul(a3, b3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not broadcast");
  }

  @Test
  void defaultPolicyFoldsWhenTheOutputHasManyBlocks() {
    NDArray a = random(7, DType.FLOAT64, 20, 30);
    NDArray b = random(8, DType.FLOAT64, 30, 20);
    // 5 x 5 = 25 output blocks, 6 k blocks: one task per output block, no partial products (at
    // most the product itself is stored, when the fusion limits keep it from the sum)
    CubedArray m =
        Xp.matmul(
            Cubed.fromArray(a, new long[] {4, 5}, spec()),
            Cubed.fromArray(b, new long[] {5, 4}, spec()));
    CubedArray total = Xp.sum(m);
    assertThat(m.plan().ops()).hasSize(1);
    assertThat(total.plan().intermediateBytesWritten()).isLessThan(20L * 20 * 8 + 1000);
    NDAssert.assertClose(Linalg.matmul(a, b), m.compute(), 1e-12, 0, "fold");
    // one output block, 40 k blocks: 16 groups of up to 3 pairs, then a tree of 4 (2 rounds)
    NDArray v = random(9, DType.FLOAT64, 2, 80);
    NDArray w = random(10, DType.FLOAT64, 80, 2);
    CubedArray vw =
        Xp.matmul(
            Cubed.fromArray(v, new long[] {2, 2}, spec()),
            Cubed.fromArray(w, new long[] {2, 2}, spec()));
    PlanSummary p = vw.plan();
    assertThat(p.ops().stream().filter(o -> o.name().startsWith("matmul")).count()).isEqualTo(3);
    NDAssert.assertClose(Linalg.matmul(v, w), vw.compute(), 1e-12, 0, "tree");
    assertThatThrownBy(
            () ->
                Xp.matmul(
                    Cubed.fromArray(v, new long[] {2, 2}, spec()),
                    Cubed.fromArray(w, new long[] {2, 2}, spec()),
                    1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("splitEvery");
  }

  /**
   * sum(A @ B) where each matmul task reads 6 + 6 blocks (above the fusion limit of 10): the sum's
   * first round (one block per task) is fused into the matmul tasks, so the product is never
   * written, and the tree rounds stay separate (one task per output block, not one task overall).
   */
  @Test
  void sumOfMatmulReadingMoreThanTheFusionLimitWritesNoProduct() {
    NDArray a = random(11, DType.FLOAT64, 20, 30);
    NDArray b = random(12, DType.FLOAT64, 30, 20);
    CubedArray total =
        Xp.sum(
            Xp.matmul(
                Cubed.fromArray(a, new long[] {4, 5}, spec()),
                Cubed.fromArray(b, new long[] {5, 4}, spec())));
    PlanSummary p = total.plan();
    assertThat(p.ops()).noneMatch(o -> o.name().startsWith("matmul"));
    assertThat(p.ops())
        .anyMatch(o -> o.fused().stream().anyMatch(f -> f.startsWith("matmul")) && o.tasks() == 25);
    assertThat(p.intermediateBytesWritten()).isLessThan(20L * 20 * 8 / 4);
    double want = 0;
    NDArray prod = Linalg.matmul(a, b);
    for (int i = 0; i < prod.size(); i++) {
      want += prod.getDouble(i);
    }
    assertThat(total.compute().getDouble(0))
        .isCloseTo(want, Offset.offset(1e-9 * Math.max(1, Math.abs(want))));
  }
}
