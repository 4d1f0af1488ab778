package dev.cubed.nd.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.Axes;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.testing.NDAssert;
import java.util.List;
import java.util.function.Function;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Errors (named function, shapes, dtypes, position in the stack) and option handling. */
class LinalgErrorTest {

  /** A stack of two 2x2 matrices whose second one is singular. */
  private static NDArray stackWithSingular(DType dt) {
    return NDArray.of(new double[] {2, 1, 1, 3, 1, 2, 2, 4}, 2, 2, 2).astype(dt);
  }

  @ParameterizedTest
  @EnumSource(names = {"FLOAT32", "FLOAT64", "COMPLEX64", "COMPLEX128", "INT64"})
  void singularMatricesAreNamed(DType dt) {
    NDArray x = stackWithSingular(dt);
    assertThatThrownBy(() -> Linalg.inv(x))
        .isInstanceOf(Linalg.LinAlgException.class)
        .hasMessageContaining("inv: singular matrix")
        .hasMessageContaining("[1]");
    NDArray b = NDArray.ones(dt, 2, 2, 1);
    assertThatThrownBy(() -> Linalg.solve(x, b))
        .isInstanceOf(Linalg.LinAlgException.class)
        .hasMessageContaining("solve: singular matrix")
        .hasMessageContaining("[1]");
    assertThatThrownBy(() -> Linalg.matrixPower(x, -1))
        .isInstanceOf(Linalg.LinAlgException.class)
        .hasMessageContaining("singular");
    // det and slogdet of a singular matrix are 0 and (0, -inf), not errors
    assertThat(Linalg.det(x).getDouble(1)).isZero();
    Linalg.SlogdetResult s = Linalg.slogdet(x);
    assertThat(s.sign().getDouble(1)).isZero();
    assertThat(s.logabsdet().getDouble(1)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(s.sign().getDouble(0)).isEqualTo(1.0);
    assertThat(Linalg.matrixRank(x).getLong(1)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(names = {"FLOAT32", "FLOAT64", "COMPLEX64", "COMPLEX128"})
  void choleskyOfIndefiniteMatrix(DType dt) {
    NDArray x = NDArray.of(new double[] {4, 0, 0, 1, 1, 2, 2, 1}, 2, 2, 2).astype(dt);
    assertThatThrownBy(() -> Linalg.cholesky(x))
        .isInstanceOf(Linalg.LinAlgException.class)
        .hasMessageContaining("cholesky: matrix is not positive definite")
        .hasMessageContaining("[1]");
  }

  @Test
  void nonSquareAndTooFewDimensions() {
    NDArray rect = NDArray.zeros(DType.FLOAT64, 2, 3, 4);
    for (Function<NDArray, Object> f :
        List.<Function<NDArray, Object>>of(
            Linalg::det,
            Linalg::inv,
            Linalg::cholesky,
            Linalg::eigh,
            Linalg::eigvalsh,
            Linalg::slogdet,
            x -> Linalg.matrixPower(x, 2))) {
      assertThatThrownBy(() -> f.apply(rect))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("square")
          .hasMessageContaining("(2, 3, 4)");
    }
    NDArray vec = NDArray.zeros(DType.FLOAT64, 3);
    assertThatThrownBy(() -> Linalg.svd(vec)).hasMessageContaining("svd: x must have at least 2");
    assertThatThrownBy(() -> Linalg.qr(vec)).hasMessageContaining("qr:");
    assertThatThrownBy(() -> Linalg.trace(vec)).hasMessageContaining("trace:");
    assertThatThrownBy(() -> Linalg.diagonal(vec)).hasMessageContaining("diagonal:");
    assertThatThrownBy(() -> Linalg.matrixNorm(vec)).hasMessageContaining("matrix_norm:");
  }

  @Test
  void wrongDtypes() {
    NDArray b = NDArray.zeros(DType.BOOL, 2, 2);
    assertThatThrownBy(() -> Linalg.inv(b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inv: x has dtype bool");
    assertThatThrownBy(() -> Linalg.svd(b)).hasMessageContaining("svd: x has dtype bool");
    assertThatThrownBy(() -> Linalg.vectorNorm(b)).hasMessageContaining("vector_norm");
    assertThatThrownBy(() -> Linalg.trace(b)).hasMessageContaining("trace: x has dtype bool");
    assertThatThrownBy(
            () -> Linalg.cross(NDArray.zeros(DType.BOOL, 3), NDArray.zeros(DType.BOOL, 3)))
        .hasMessageContaining("cross");
    assertThatThrownBy(() -> Linalg.matrixPower(b, 2)).hasMessageContaining("matrix_power");
    // diagonal is defined for every dtype
    assertThat(Linalg.diagonal(b).dtype()).isEqualTo(DType.BOOL);
  }

  @Test
  void solveShapeRules() {
    NDArray a = Linalg.matrixPower(Creation.eye(3, 3, 0, DType.FLOAT64).reshape(1, 3, 3), 1);
    assertThatThrownBy(() -> Linalg.solve(a, NDArray.zeros(DType.FLOAT64, 4)))
        .hasMessageContaining("solve: x1 (1, 3, 3) and x2 (4,) are not aligned");
    assertThatThrownBy(() -> Linalg.solve(a, NDArray.zeros(DType.FLOAT64, 2, 4, 1)))
        .hasMessageContaining("not aligned");
    assertThatThrownBy(() -> Linalg.solve(a, NDArray.scalar(1.0))).hasMessageContaining("0-d");
    NDArray batchA = NDArray.zeros(DType.FLOAT64, 2, 3, 3);
    assertThatThrownBy(() -> Linalg.solve(batchA, NDArray.zeros(DType.FLOAT64, 3, 3, 1)))
        .hasMessageContaining("solve");
    // 1-D x2 is one vector for every matrix of the stack: result (..., M)
    NDArray eyes = Creation.eye(3, 3, 0, DType.FLOAT32).broadcastTo(4, 3, 3);
    NDArray v = NDArray.of(new float[] {1, 2, 3}, 3);
    NDArray x = Linalg.solve(eyes, v);
    assertThat(x.shape()).containsExactly(4, 3);
    assertThat(x.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(x.getDouble(11)).isEqualTo(3.0);
    // mixed dtypes promote
    assertThat(Linalg.solve(eyes, v.astype(DType.COMPLEX128)).dtype()).isEqualTo(DType.COMPLEX128);
    // a (M, 1) x2 broadcasts as a stack of one matrix
    assertThat(Linalg.solve(eyes, v.reshape(3, 1)).shape()).containsExactly(4, 3, 1);
  }

  @Test
  void crossErrors() {
    NDArray v3 = NDArray.zeros(DType.INT32, 3);
    assertThatThrownBy(() -> Linalg.cross(NDArray.zeros(DType.INT32, 2), v3))
        .hasMessageContaining("cross: the vectors along axis -1 must have 3 elements");
    assertThatThrownBy(() -> Linalg.cross(v3, v3, -2)).hasMessageContaining("axis -2");
    assertThatThrownBy(() -> Linalg.cross(NDArray.zeros(DType.INT32, 2, 3), v3, 1))
        .hasMessageContaining("non-negative");
    assertThatThrownBy(
            () -> Linalg.cross(NDArray.zeros(DType.INT32, 2, 3), NDArray.zeros(DType.INT32, 4, 3)))
        .hasMessageContaining("cross");
    // non-negative axis with equal ranks is accepted
    NDArray a = NDArray.of(new long[] {1, 0, 0}, 3);
    NDArray b = NDArray.of(new long[] {0, 1, 0}, 3);
    NDAssert.assertExact(NDArray.of(new long[] {0, 0, 1}, 3), Linalg.cross(a, b, 0), "cross");
  }

  @Test
  void normErrorsAndOptions() {
    NDArray x = NDArray.of(new double[] {3, -4, 0, 12}, 2, 2);
    assertThatThrownBy(() -> Linalg.vectorNorm(x, Axes.all(), Double.NaN))
        .hasMessageContaining("vector_norm: ord must be");
    assertThatThrownBy(() -> Linalg.vectorNorm(x, Axes.of(2), 2))
        .hasMessageContaining("vector_norm");
    assertThatThrownBy(
            () ->
                Linalg.vectorNorm(
                    NDArray.zeros(DType.FLOAT64, 0), Axes.all(), Double.POSITIVE_INFINITY))
        .hasMessageContaining("empty");
    assertThatThrownBy(
            () ->
                Linalg.matrixNorm(
                    NDArray.zeros(DType.FLOAT64, 0, 2),
                    Linalg.MatrixNormOrder.TWO,
                    Linalg.KeepDims.DROP))
        .hasMessageContaining("empty");
    assertThat(Linalg.vectorNorm(x).getDouble(0)).isEqualTo(13.0);
    assertThat(Linalg.vectorNorm(x, Axes.of(0, 1).keepDims(), 1).shape()).containsExactly(1, 1);
    assertThat(Linalg.vectorNorm(x, Axes.of(-1), Double.POSITIVE_INFINITY).getDouble(1))
        .isEqualTo(12.0);
    assertThat(Linalg.matrixNorm(x, Linalg.MatrixNormOrder.INF, Linalg.KeepDims.KEEP).shape())
        .containsExactly(1, 1);
    assertThat(Linalg.vectorNorm(NDArray.of(new float[] {3, 4}, 2)).dtype())
        .isEqualTo(DType.FLOAT32);
    assertThat(Linalg.vectorNorm(NDArray.zeros(DType.COMPLEX64, 2)).dtype())
        .isEqualTo(DType.FLOAT32);
  }

  @Test
  void traceDtypeOption() {
    NDArray x = NDArray.of(new byte[] {100, 1, 2, 100}, 2, 2);
    assertThat(Linalg.trace(x).dtype()).isEqualTo(DType.INT64);
    assertThat(Linalg.trace(x).getLong(0)).isEqualTo(200);
    NDArray as8 = Linalg.trace(x, 0, DType.INT8);
    assertThat(as8.dtype()).isEqualTo(DType.INT8);
    assertThat(as8.getLong(0)).isEqualTo((byte) 200);
    assertThat(Linalg.trace(x, 0, DType.FLOAT64).getDouble(0)).isEqualTo(200.0);
    assertThat(Linalg.trace(x.astype(DType.UINT8)).dtype()).isEqualTo(DType.UINT64);
    assertThat(Linalg.trace(x, 1, null).getLong(0)).isEqualTo(1);
    assertThat(Linalg.trace(x, 2, null).getLong(0)).isZero();
  }

  @Test
  void emptyStacksAndEmptyMatrices() {
    NDArray e = NDArray.zeros(DType.FLOAT64, 0, 3, 3);
    assertThat(Linalg.inv(e).shape()).containsExactly(0, 3, 3);
    assertThat(Linalg.det(e).shape()).containsExactly(0);
    assertThat(Linalg.svd(e).U().shape()).containsExactly(0, 3, 3);
    NDArray z = NDArray.zeros(DType.COMPLEX128, 2, 0, 3);
    Linalg.SvdResult s = Linalg.svd(z);
    assertThat(s.U().shape()).containsExactly(2, 0, 0);
    assertThat(s.S().shape()).containsExactly(2, 0);
    assertThat(s.Vh().shape()).containsExactly(2, 3, 3);
    assertThat(Linalg.qr(z, Linalg.QrMode.COMPLETE).R().shape()).containsExactly(2, 0, 3);
    assertThat(Linalg.pinv(z).shape()).containsExactly(2, 3, 0);
    assertThat(Linalg.matrixRank(z).getLong(1)).isZero();
    NDArray zz = NDArray.zeros(DType.FLOAT64, 0, 0);
    assertThat(Linalg.det(zz).getDouble(0)).isEqualTo(1.0);
    assertThat(Linalg.inv(zz).shape()).containsExactly(0, 0);
    assertThat(Linalg.eigh(zz).eigenvalues().shape()).containsExactly(0);
  }

  @ParameterizedTest
  @EnumSource(names = {"FLOAT64", "COMPLEX128"})
  void svdOfNonFiniteMatrixIsAnError(DType dt) {
    NDArray x = NDArray.ones(dt, 2, 2, 2);
    x.setDouble(5, Double.NaN);
    for (Function<NDArray, Object> f :
        List.<Function<NDArray, Object>>of(
            Linalg::svd, Linalg::svdvals, Linalg::pinv, Linalg::matrixRank)) {
      assertThatThrownBy(() -> f.apply(x))
          .isInstanceOf(Linalg.LinAlgException.class)
          .hasMessageContaining("SVD did not converge")
          .hasMessageContaining("[1]");
    }
  }

  /**
   * Regression: native OpenBLAS dgetrf crashed the JVM (SIGSEGV) for n >= ~100 on threads with the
   * default stack; the LU now runs on the Java LAPACK. A crash here would kill the test JVM.
   */
  @Test
  void largeRealLuRunsOnOrdinaryThreads() {
    int n = 160;
    NDArray a = LinalgDecompositionTest.random(DType.FLOAT64, 11, n, n);
    NDArray inv = Linalg.inv(a);
    double[] prod =
        MatrixStack.matmul(
            MatrixStack.read(inv, 0, n * n), MatrixStack.read(a, 0, n * n), n, n, n, false);
    assertThat(LinalgGolden.maxDiff(prod, MatrixStack.identity(n, false))).isLessThan(1e-9);
    assertThat(Linalg.det(a).getDouble(0)).isFinite();
  }

  /** Entries near the overflow and underflow limits: the Jacobi methods scale first. */
  @ParameterizedTest
  @EnumSource(names = {"FLOAT64", "COMPLEX128"})
  void extremeMagnitudes(DType dt) {
    for (double scale : new double[] {1e200, 1e-200}) {
      // symmetric positive definite: singular values = eigenvalues = (7 +- sqrt(5)) / 2
      NDArray x = NDArray.of(new double[] {3 * scale, scale, scale, 4 * scale}, 2, 2).astype(dt);
      double hi = (7 + Math.sqrt(5)) / 2;
      double lo = (7 - Math.sqrt(5)) / 2;
      Offset<Double> eps = Offset.offset(1e-12);
      NDArray s = Linalg.svdvals(x);
      assertThat(s.getDouble(0) / scale).isCloseTo(hi, eps);
      assertThat(s.getDouble(1) / scale).isCloseTo(lo, eps);
      NDArray w = Linalg.eigvalsh(x);
      assertThat(w.getDouble(0) / scale).isCloseTo(lo, eps);
      assertThat(w.getDouble(1) / scale).isCloseTo(hi, eps);
    }
  }
}
