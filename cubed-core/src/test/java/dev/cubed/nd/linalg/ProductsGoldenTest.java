package dev.cubed.nd.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.GoldenCases;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.testing.NDAssert;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * matmul, tensordot, vecdot, matrix_transpose and outer against NumPy (scripts/golden/
 * linear_algebra.py). Integer-valued cases are exact for every dtype (all partial sums are exactly
 * representable). Random-normal float cases allow, per element, the a-priori rounding bound stored
 * by the script: 2 * gamma_k * (|x1| @ |x2|) with gamma_k = k eps / (1 - k eps), which holds for
 * any summation order (BLAS blocking and FMA differ from NumPy's), so a failure means a real error.
 */
class ProductsGoldenTest {

  private static int[] ints(NDArray a) {
    int[] r = new int[a.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = (int) a.getLong(i);
    }
    return r;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "mixed"
      })
  void productsMatchNumpy(String file) throws Exception {
    Map<String, NDArray> g = GoldenCases.load("linear_algebra", file);
    int checked = 0;
    for (int i = 0; g.containsKey("mm" + i + "_x1"); i++, checked++) {
      NDArray x1 = g.get("mm" + i + "_x1");
      NDArray x2 = g.get("mm" + i + "_x2");
      NDArray want = g.get("mm" + i + "_out");
      NDArray got = Linalg.matmul(x1, x2);
      String what =
          file
              + " matmul "
              + i
              + " "
              + Shapes.format(x1.shape())
              + " @ "
              + Shapes.format(x2.shape());
      NDArray bound = g.get("mm" + i + "_bound");
      if (bound == null) {
        NDAssert.assertExact(want, got, what);
      } else {
        assertThat(got.dtype()).isEqualTo(want.dtype());
        assertThat(got.shape()).isEqualTo(want.shape());
        for (int e = 0; e < want.size(); e++) {
          double b = bound.getDouble(e);
          assertThat(Math.abs(got.getDouble(e) - want.getDouble(e)))
              .as(what + " re " + e)
              .isLessThanOrEqualTo(b);
          assertThat(Math.abs(got.getImag(e) - want.getImag(e)))
              .as(what + " im " + e)
              .isLessThanOrEqualTo(b);
        }
      }
    }
    for (int i = 0; g.containsKey("td" + i + "_x1"); i++, checked++) {
      NDArray out =
          Linalg.tensordot(
              g.get("td" + i + "_x1"),
              g.get("td" + i + "_x2"),
              ints(g.get("td" + i + "_axes1")),
              ints(g.get("td" + i + "_axes2")));
      NDAssert.assertExact(g.get("td" + i + "_out"), out, file + " tensordot " + i);
    }
    for (int i = 0; g.containsKey("vd" + i + "_x1"); i++, checked++) {
      NDArray out =
          Linalg.vecdot(
              g.get("vd" + i + "_x1"),
              g.get("vd" + i + "_x2"),
              (int) g.get("vd" + i + "_axis").getLong(0));
      NDAssert.assertExact(g.get("vd" + i + "_out"), out, file + " vecdot " + i);
    }
    for (int i = 0; g.containsKey("ou" + i + "_x1"); i++, checked++) {
      NDArray out = Linalg.outer(g.get("ou" + i + "_x1"), g.get("ou" + i + "_x2"));
      NDAssert.assertExact(g.get("ou" + i + "_out"), out, file + " outer " + i);
    }
    assertThat(checked).isGreaterThan(10);
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void matrixTransposeMatchesNumpy(DType dt) throws Exception {
    Map<String, NDArray> g = GoldenCases.load("linear_algebra", dt.standardName());
    int i = 0;
    for (; g.containsKey("mt" + i + "_x"); i++) {
      NDAssert.assertExact(
          g.get("mt" + i + "_out"),
          Linalg.matrixTranspose(g.get("mt" + i + "_x")),
          dt + " matrix_transpose " + i);
    }
    assertThat(i).isEqualTo(4);
  }

  @Test
  void bigFloat64ProductAgreesWithNaiveLoop() {
    int m = 70;
    int k = 130;
    int n = 90;
    Random r = new Random(5);
    double[] a = new double[m * k];
    double[] b = new double[k * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextInt(7) - 3;
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextInt(7) - 3;
    }
    NDArray c = Linalg.matmul(NDArray.of(a, m, k), NDArray.of(b, k, n));
    NDArray cl =
        Linalg.matmul(
            NDArray.of(a, m, k).astype(DType.INT64), NDArray.of(b, k, n).astype(DType.INT64));
    for (int i = 0; i < m * n; i++) {
      assertThat(c.getDouble(i)).isEqualTo((double) cl.getLong(i));
    }
  }

  /**
   * matmulAccumulate against add(acc, matmul): integer-valued operands make both exact, so they
   * must agree bit for bit. 2-D float products of the accumulator's dtype and shape are added into
   * the accumulator itself (same object back); every other case returns a new array.
   */
  @ParameterizedTest
  @ValueSource(strings = {"float64", "float32", "mixed", "int64", "broadcastAcc"})
  void matmulAccumulateEqualsAddOfProduct(String kind) {
    Random r = new Random(kind.hashCode());
    int m = 37;
    int k = 300;
    int n = 23;
    DType ta =
        kind.equals("float32") ? DType.FLOAT32 : kind.equals("int64") ? DType.INT64 : DType.FLOAT64;
    DType tb = kind.equals("mixed") || kind.equals("float32") ? DType.FLOAT32 : ta;
    NDArray a = NDArray.zeros(ta, m, k);
    NDArray b = NDArray.zeros(tb, k, n);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, r.nextInt(9) - 4);
    }
    for (int i = 0; i < b.size(); i++) {
      b.setDouble(i, r.nextInt(9) - 4);
    }
    DType tc = DType.resultType(ta, tb);
    NDArray acc = kind.equals("broadcastAcc") ? NDArray.zeros(tc, 1, n) : NDArray.zeros(tc, m, n);
    for (int i = 0; i < acc.size(); i++) {
      acc.setDouble(i, r.nextInt(1000) - 500);
    }
    NDArray want = Elementwise.add(acc, Linalg.matmul(a, b));
    NDArray got = Linalg.matmulAccumulate(acc, a, b);
    NDAssert.assertExact(want, got, "matmulAccumulate " + kind);
    boolean inPlace = !kind.equals("int64") && !kind.equals("broadcastAcc");
    assertThat(got == acc).as("accumulated in place: " + kind).isEqualTo(inPlace);
  }

  @Test
  void errorsNameFunctionAndShapes() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 3, 4);
    NDArray b = NDArray.zeros(DType.FLOAT64, 5, 2);
    assertThatThrownBy(() -> Linalg.matmul(a, b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "matmul: shapes (3, 4) and (5, 2) are not aligned: dimension 1 of x1 (4) != "
                + "dimension 0 of x2 (5)");
    assertThatThrownBy(
            () ->
                Linalg.matmul(
                    NDArray.zeros(DType.FLOAT64, 2, 3, 4), NDArray.zeros(DType.FLOAT64, 3, 4, 2)))
        .hasMessageContaining("matmul: batch dimensions");
    assertThatThrownBy(() -> Linalg.matmul(NDArray.scalar(DType.FLOAT64, 1.0), a))
        .hasMessageContaining("matmul: operands must have at least one dimension");
    assertThatThrownBy(() -> Linalg.matmul(NDArray.zeros(DType.BOOL, 2, 2), a))
        .hasMessageContaining("matmul: x1 has dtype bool");
    assertThatThrownBy(() -> Linalg.tensordot(a, b, 1))
        .hasMessageContaining("tensordot: shapes (3, 4) and (5, 2) are not aligned");
    assertThatThrownBy(() -> Linalg.tensordot(a, b, 3)).hasMessageContaining("tensordot: axes=3");
    assertThatThrownBy(() -> Linalg.tensordot(a, b, new int[] {0}, new int[] {0, 1}))
        .hasMessageContaining("same length");
    assertThatThrownBy(() -> Linalg.vecdot(a, NDArray.zeros(DType.FLOAT64, 3)))
        .hasMessageContaining("vecdot:");
    assertThatThrownBy(
            () ->
                Linalg.vecdot(
                    NDArray.zeros(DType.FLOAT64, 3, 1), NDArray.zeros(DType.FLOAT64, 3, 4), -1))
        .hasMessageContaining("vecdot: shapes (3, 1) and (3, 4) differ along the contracted axis");
    assertThatThrownBy(() -> Linalg.vecdot(a, a, 2)).hasMessageContaining("vecdot: axis 2");
    assertThatThrownBy(() -> Linalg.matrixTranspose(NDArray.zeros(DType.INT8, 3)))
        .hasMessageContaining("matrix_transpose: x must have at least 2 dimensions");
    assertThatThrownBy(() -> Linalg.outer(a, a))
        .hasMessageContaining("outer: operands must be 1-d");
  }

  /**
   * Native OpenBLAS routines may use stack buffers (its LU crashes on 1 MB stacks); gemm through
   * matmul must work on small-stack worker threads, for matrix-matrix and matrix-vector shapes.
   */
  @Test
  void blasProductsRunOnSmallStackThreads() throws Exception {
    Throwable[] failure = new Throwable[1];
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                for (int n : new int[] {1, 7, 100, 257, 600}) {
                  NDArray x = NDArray.ones(DType.FLOAT64, n, n);
                  assertThat(Linalg.matmul(x, x).getDouble(0)).isEqualTo(n);
                  NDArray f = x.astype(DType.FLOAT32);
                  assertThat(Linalg.matmul(f, f).getDouble(n * n - 1)).isEqualTo(n);
                  assertThat(Linalg.matmul(x, NDArray.ones(DType.FLOAT64, n)).getDouble(0))
                      .isEqualTo(n);
                }
              } catch (Throwable e) {
                failure[0] = e;
              }
            },
            "small-stack",
            256 * 1024);
    t.start();
    t.join();
    assertThat(failure[0]).isNull();
  }

  @Test
  void blasIsNativeWhenOpenBlasInstalled() {
    String d = Blas.describe();
    assertThat(d).startsWith("BLAS implementation dev.ludovic.netlib.blas.");
    if (Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libopenblas.so.0"))) {
      assertThat(d).contains("JNIBLAS").contains("libopenblas");
    }
  }
}
