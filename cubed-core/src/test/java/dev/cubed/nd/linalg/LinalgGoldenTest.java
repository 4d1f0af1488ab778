package dev.cubed.nd.linalg;

import static dev.cubed.nd.linalg.LinalgGolden.assertNormClose;
import static dev.cubed.nd.linalg.LinalgGolden.tol;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares Linalg with NumPy's outputs stored by scripts/golden/linalg.py, case by case. Results of
 * matrix algorithms are compared normwise ({@link LinalgGolden#tol}); norms elementwise (relative
 * 1e-13 for float64: a sum of positive terms in a different order; 1e-5 for float32, where NumPy
 * sums in single precision); integer results exactly.
 */
class LinalgGoldenTest {

  static List<String> det() {
    return LinalgGolden.names("det");
  }

  static List<String> slogdet() {
    return LinalgGolden.names("slogdet");
  }

  static List<String> inv() {
    return LinalgGolden.names("inv");
  }

  static List<String> solve() {
    return LinalgGolden.names("solve");
  }

  static List<String> cholesky() {
    return LinalgGolden.names("cholesky");
  }

  static List<String> matrixPower() {
    return LinalgGolden.names("matrix_power");
  }

  static List<String> pinv() {
    return LinalgGolden.names("pinv");
  }

  static List<String> matrixRank() {
    return LinalgGolden.names("matrix_rank");
  }

  static List<String> matrixNorm() {
    return LinalgGolden.names("matrix_norm");
  }

  static List<String> vectorNorm() {
    return LinalgGolden.names("vector_norm");
  }

  static List<String> diagonal() {
    return LinalgGolden.names("diagonal");
  }

  static List<String> cross() {
    return LinalgGolden.names("cross");
  }

  static List<String> svd() {
    return LinalgGolden.names("svd");
  }

  static List<String> eigh() {
    return LinalgGolden.names("eigh");
  }

  private static Map<String, NDArray> c(String fn, String name) {
    return LinalgGolden.cases(fn).get(name);
  }

  @ParameterizedTest
  @MethodSource
  void det(String name) {
    Map<String, NDArray> c = c("det", name);
    NDArray out = c.get("out");
    assertNormClose(out, Linalg.det(c.get("x")), tol(out.dtype()), "det " + name);
  }

  @ParameterizedTest
  @MethodSource
  void slogdet(String name) {
    Map<String, NDArray> c = c("slogdet", name);
    Linalg.SlogdetResult r = Linalg.slogdet(c.get("x"));
    NDArray sign = c.get("sign");
    assertNormClose(sign, r.sign(), tol(sign.dtype()), "slogdet sign " + name);
    assertNormClose(c.get("logabsdet"), r.logabsdet(), tol(sign.dtype()), "slogdet log " + name);
  }

  @ParameterizedTest
  @MethodSource
  void inv(String name) {
    Map<String, NDArray> c = c("inv", name);
    NDArray out = c.get("out");
    assertNormClose(out, Linalg.inv(c.get("x")), tol(out.dtype()), "inv " + name);
  }

  @ParameterizedTest
  @MethodSource
  void solve(String name) {
    Map<String, NDArray> c = c("solve", name);
    NDArray out = c.get("out");
    assertNormClose(out, Linalg.solve(c.get("x1"), c.get("x2")), tol(out.dtype()), "solve " + name);
  }

  @ParameterizedTest
  @MethodSource
  void cholesky(String name) {
    Map<String, NDArray> c = c("cholesky", name);
    NDArray out = c.get("out");
    assertNormClose(out, Linalg.cholesky(c.get("x")), tol(out.dtype()), "cholesky " + name);
    assertNormClose(
        c.get("upper"),
        Linalg.cholesky(c.get("x"), Linalg.Triangle.UPPER),
        tol(out.dtype()),
        "cholesky upper " + name);
  }

  @ParameterizedTest
  @MethodSource
  void matrixPower(String name) {
    Map<String, NDArray> c = c("matrix_power", name);
    int checked = 0;
    for (Map.Entry<String, NDArray> e : c.entrySet()) {
      if (!e.getKey().startsWith("out_p")) {
        continue;
      }
      int n = Integer.parseInt(e.getKey().substring(5).replace('m', '-'));
      NDArray out = e.getValue();
      assertNormClose(
          out,
          Linalg.matrixPower(c.get("x"), n),
          tol(out.dtype()),
          "matrix_power " + name + " n=" + n);
      checked++;
    }
    assertThat(checked).isPositive();
  }

  @ParameterizedTest
  @MethodSource
  void pinv(String name) {
    Map<String, NDArray> c = c("pinv", name);
    NDArray out = c.get("out");
    NDArray rtol = c.get("rtol");
    NDArray got =
        rtol == null
            ? Linalg.pinv(c.get("x"))
            : rtol.ndim() == 0
                ? Linalg.pinv(c.get("x"), rtol.getDouble(0))
                : Linalg.pinv(c.get("x"), rtol);
    // the rtol cases keep singular values down to 1e-6 (condition up to 1e6), so the result carries
    // ~cond * eps relative error: tolerance x 1e4. A wrong cut would change entries by ~1e3..1e6.
    double t = tol(out.dtype()) * (rtol == null ? 1 : 1e4);
    assertNormClose(out, got, t, "pinv " + name);
  }

  @ParameterizedTest
  @MethodSource
  void matrixRank(String name) {
    Map<String, NDArray> c = c("matrix_rank", name);
    NDArray rtol = c.get("rtol");
    NDArray got =
        rtol == null
            ? Linalg.matrixRank(c.get("x"))
            : rtol.ndim() == 0
                ? Linalg.matrixRank(c.get("x"), rtol.getDouble(0))
                : Linalg.matrixRank(c.get("x"), rtol);
    NDAssert.assertExact(c.get("out"), got, "matrix_rank " + name);
  }

  private static double normRtol(DType dt) {
    return dt.realPart() == DType.FLOAT32 ? 1e-5 : 1e-13;
  }

  @ParameterizedTest
  @MethodSource
  void matrixNorm(String name) {
    Map<String, NDArray> c = c("matrix_norm", name);
    int checked = 0;
    for (Map.Entry<String, NDArray> e : c.entrySet()) {
      if (!e.getKey().startsWith("out_")) {
        continue;
      }
      Linalg.MatrixNormOrder ord =
          switch (e.getKey().substring(4)) {
            case "fro" -> Linalg.MatrixNormOrder.FRO;
            case "nuc" -> Linalg.MatrixNormOrder.NUC;
            case "1" -> Linalg.MatrixNormOrder.ONE;
            case "m1" -> Linalg.MatrixNormOrder.NEG_ONE;
            case "2" -> Linalg.MatrixNormOrder.TWO;
            case "m2" -> Linalg.MatrixNormOrder.NEG_TWO;
            case "inf" -> Linalg.MatrixNormOrder.INF;
            case "minf" -> Linalg.MatrixNormOrder.NEG_INF;
            default -> throw new AssertionError(e.getKey());
          };
      NDArray out = e.getValue();
      // singular-value norms come from an SVD: normwise tolerance; the rest are sums
      double rt =
          ord == Linalg.MatrixNormOrder.NUC
                  || ord == Linalg.MatrixNormOrder.TWO
                  || ord == Linalg.MatrixNormOrder.NEG_TWO
              ? tol(out.dtype())
              : normRtol(out.dtype());
      NDAssert.assertClose(
          out,
          Linalg.matrixNorm(c.get("x"), ord, Linalg.KeepDims.DROP),
          rt,
          4,
          "matrix_norm " + name + " " + ord);
      NDArray kept = Linalg.matrixNorm(c.get("x"), ord, Linalg.KeepDims.KEEP);
      long[] ks = kept.shape();
      assertThat(ks[ks.length - 1]).isEqualTo(1);
      assertThat(ks[ks.length - 2]).isEqualTo(1);
      checked++;
    }
    assertThat(checked).isPositive();
  }

  @ParameterizedTest
  @MethodSource
  void vectorNorm(String name) {
    Map<String, NDArray> c = c("vector_norm", name);
    NDArray axesArr = c.get("axes");
    int checked = 0;
    for (Map.Entry<String, NDArray> e : c.entrySet()) {
      if (!e.getKey().startsWith("out_")) {
        continue;
      }
      String[] parts = e.getKey().split("_");
      double ord =
          switch (parts[1]) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "minf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(parts[1].replace('m', '-').replace('p', '.'));
          };
      Axes axes;
      if (axesArr == null) {
        axes = Axes.all();
      } else {
        int[] ax = new int[axesArr.size()];
        for (int i = 0; i < ax.length; i++) {
          ax[i] = (int) axesArr.getLong(i);
        }
        axes = Axes.of(ax);
      }
      if (parts[2].equals("k")) {
        axes = axes.keepDims();
      }
      NDArray out = e.getValue();
      NDAssert.assertClose(
          out,
          Linalg.vectorNorm(c.get("x"), axes, ord),
          normRtol(out.dtype()),
          4,
          "vector_norm " + name + " ord=" + ord + " " + axes);
      checked++;
    }
    assertThat(checked).isPositive();
  }

  @ParameterizedTest
  @MethodSource
  void diagonal(String name) {
    Map<String, NDArray> c = c("diagonal", name);
    int checked = 0;
    for (Map.Entry<String, NDArray> e : c.entrySet()) {
      String k = e.getKey();
      if (!k.contains("_o")) {
        continue;
      }
      int off = Integer.parseInt(k.substring(k.indexOf("_o") + 2).replace('m', '-'));
      NDArray out = e.getValue();
      if (k.startsWith("diag")) {
        NDAssert.assertExact(out, Linalg.diagonal(c.get("x"), off), "diagonal " + name + " " + off);
      } else {
        NDAssert.assertClose(
            out,
            Linalg.trace(c.get("x"), off, null),
            normRtol(out.dtype()),
            4,
            "trace " + name + " " + off);
      }
      checked++;
    }
    assertThat(checked).isPositive();
  }

  @ParameterizedTest
  @MethodSource
  void cross(String name) {
    Map<String, NDArray> c = c("cross", name);
    NDArray out = c.get("out");
    int axis = -Integer.parseInt(name.substring(name.lastIndexOf("_a") + 2));
    NDArray got = Linalg.cross(c.get("x1"), c.get("x2"), axis);
    // float32 products are rounded as NumPy rounds them; complex parts are computed in double
    NDAssert.assertClose(
        out, got, out.dtype().isComplex() ? normRtol(out.dtype()) : 0, 1, "cross " + name);
  }

  @ParameterizedTest
  @MethodSource
  void svd(String name) {
    Map<String, NDArray> c = c("svd", name);
    NDArray s = c.get("s");
    assertNormClose(s, Linalg.svdvals(c.get("x")), tol(s.dtype()), "svdvals " + name);
  }

  @ParameterizedTest
  @MethodSource
  void eigh(String name) {
    Map<String, NDArray> c = c("eigh", name);
    NDArray w = c.get("w");
    assertNormClose(w, Linalg.eigvalsh(c.get("x")), tol(w.dtype()), "eigvalsh " + name);
  }
}
