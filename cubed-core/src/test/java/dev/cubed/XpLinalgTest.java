package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.plan.node.PlanSummary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The linalg extension on chunked arrays against the kernel on the same data, at an allowedMem of
 * 16 KB (TSQR takes several row blocks), regular chunks with partial edges and irregular chunks,
 * float32, float64, complex64, complex128 (and an integer dtype, promoted, where defined).
 */
class XpLinalgTest extends ChunkedVsKernel {
  static final long MEM = 16 * 1024;
  static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128};

  @Override
  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem(MEM).reservedMem(1000).workers(2).build();
  }

  /** Gaussian values (well conditioned), complex parts too. */
  static NDArray gauss(Random r, DType t, long... shape) {
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      if (t.isComplex()) {
        a.setComplex(i, r.nextGaussian(), r.nextGaussian());
      } else if (t.isFloating()) {
        a.setDouble(i, r.nextGaussian());
      } else {
        a.setLong(i, r.nextInt(9) - 4);
      }
    }
    return a;
  }

  /** Hermitian positive-definite stack: B B^H + n I. */
  static NDArray spd(Random r, DType t, long[] batch, int n) {
    NDArray b =
        gauss(r, t.isComplex() ? DType.COMPLEX128 : DType.FLOAT64, XpNorms.cat(batch, n, n));
    NDArray bh = Linalg.matrixTranspose(t.isComplex() ? Elementwise.conj(b) : b);
    NDArray a = Linalg.matmul(b, bh);
    for (int i = 0; i < a.size(); i++) {
      long rc = i % (n * (long) n);
      if (rc / n == rc % n) {
        a.setComplex(i, a.getDouble(i) + n, a.getImag(i));
      }
    }
    return a.astype(t);
  }

  CubedArray chunked(Random r, NDArray a) {
    return r.nextBoolean()
        ? Cubed.fromArray(a, DiffData.chunks(r, a.shape()), spec())
        : Cubed.fromArray(a, DiffData.blocks(r, a.shape()), spec());
  }

  static long[] batch(Random r) {
    long[] b = new long[r.nextInt(3)];
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextInt(4);
    }
    return b;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void squareMatrixFunctionsAgreeWithKernel(int dt) {
    DType t = FLOATS[dt];
    Random r = new Random(300 + dt);
    for (int round = 0; round < 2; round++) {
      long[] b = batch(r);
      int n = 1 + r.nextInt(5);
      NDArray a = gauss(r, t, XpNorms.cat(b, n, n));
      CubedArray c = chunked(r, a);
      String d = t + Arrays.toString(a.shape()) + " round " + round;
      check("det " + d, () -> Linalg.det(a), () -> XpLinalg.det(c), true);
      check("inv " + d, () -> Linalg.inv(a), () -> XpLinalg.inv(c), true);
      check(
          "slogdet sign " + d,
          () -> Linalg.slogdet(a).sign(),
          () -> XpLinalg.slogdet(c).sign(),
          true);
      check(
          "slogdet log " + d,
          () -> Linalg.slogdet(a).logabsdet(),
          () -> XpLinalg.slogdet(c).logabsdet(),
          true);
      int p = r.nextInt(6) - 2;
      check(
          "matrix_power " + p + " " + d,
          () -> Linalg.matrixPower(a, p),
          () -> XpLinalg.matrixPower(c, p),
          true);
      check("pinv " + d, () -> Linalg.pinv(a), () -> XpLinalg.pinv(c), true);
      check("matrix_rank " + d, () -> Linalg.matrixRank(a), () -> XpLinalg.matrixRank(c), true);
      check("svdvals " + d, () -> Linalg.svdvals(a), () -> XpLinalg.svdvals(c), true);
      check(
          "eig values " + d,
          () -> Linalg.eig(a).eigenvalues(),
          () -> XpLinalg.eig(c).eigenvalues(),
          true);
      check(
          "eig vectors " + d,
          () -> Linalg.eig(a).eigenvectors(),
          () -> XpLinalg.eig(c).eigenvectors(),
          true);
      check("eigvals " + d, () -> Linalg.eigvals(a), () -> XpLinalg.eigvals(c), true);
      NDArray v = gauss(r, r.nextBoolean() ? t : DType.FLOAT64, n);
      CubedArray cv = chunked(r, v);
      check("solve vector " + d, () -> Linalg.solve(a, v), () -> XpLinalg.solve(c, cv), true);
      long[] b2 = b.length > 0 && r.nextBoolean() ? new long[] {1} : b;
      NDArray m = gauss(r, t, XpNorms.cat(b2, n, 1 + r.nextInt(3)));
      CubedArray cm = chunked(r, m);
      check(
          "solve matrix " + Arrays.toString(m.shape()) + " " + d,
          () -> Linalg.solve(a, m),
          () -> XpLinalg.solve(c, cm),
          true);
      NDArray s = spd(r, t, b, n);
      CubedArray cs = chunked(r, s);
      check("cholesky " + d, () -> Linalg.cholesky(s), () -> XpLinalg.cholesky(cs), true);
      check(
          "cholesky upper " + d,
          () -> Linalg.cholesky(s, Linalg.Triangle.UPPER),
          () -> XpLinalg.cholesky(cs, Linalg.Triangle.UPPER),
          true);
      check("eigvalsh " + d, () -> Linalg.eigvalsh(s), () -> XpLinalg.eigvalsh(cs), true);
      check(
          "eigh values " + d,
          () -> Linalg.eigh(s).eigenvalues(),
          () -> XpLinalg.eigh(cs).eigenvalues(),
          true);
      check(
          "eigh vectors " + d,
          () -> Linalg.eigh(s).eigenvectors(),
          () -> XpLinalg.eigh(cs).eigenvectors(),
          true);
      for (Linalg.MatrixNormOrder o : Linalg.MatrixNormOrder.values()) {
        boolean keep = r.nextBoolean();
        NDArray rect = gauss(r, t, XpNorms.cat(b, 1 + r.nextInt(4), 1 + r.nextInt(4)));
        CubedArray cr = chunked(r, rect);
        check(
            "matrix_norm " + o + " keep " + keep + " " + Arrays.toString(rect.shape()),
            () -> Linalg.matrixNorm(rect, o, keep ? Linalg.KeepDims.KEEP : Linalg.KeepDims.DROP),
            () -> XpLinalg.matrixNorm(cr, o, keep ? Linalg.KeepDims.KEEP : Linalg.KeepDims.DROP),
            true);
      }
    }
    NDArray ints = gauss(r, DType.INT32, 2, 3, 3);
    CubedArray ci = chunked(r, ints);
    check("det int32", () -> Linalg.det(ints), () -> XpLinalg.det(ci), true);
    check(
        "matrix_power int32",
        () -> Linalg.matrixPower(ints, 3),
        () -> XpLinalg.matrixPower(ci, 3),
        false);
    NDArray rect = gauss(r, t, 2, 3, 4);
    CubedArray cr = chunked(r, rect);
    check("det of non-square", () -> Linalg.det(rect), () -> XpLinalg.det(cr), true);
    NDArray sq = gauss(r, t, 2, 3, 3);
    CubedArray csq = chunked(r, sq);
    NDArray v4 = gauss(r, t, 4);
    CubedArray cv4 = chunked(r, v4);
    check("solve misaligned", () -> Linalg.solve(sq, v4), () -> XpLinalg.solve(csq, cv4), true);
    NDArray b3 = gauss(r, t, 3, 3, 2);
    CubedArray cb3 = chunked(r, b3);
    check("solve batch mismatch", () -> Linalg.solve(sq, b3), () -> XpLinalg.solve(csq, cb3), true);
    NDArray b1 = gauss(r, t, 3, 2);
    CubedArray cb1 = chunked(r, b1);
    check("solve 2-d rhs", () -> Linalg.solve(sq, b1), () -> XpLinalg.solve(csq, cb1), true);
    NDArray bools = NDArray.zeros(DType.BOOL, 2, 2);
    CubedArray cbools = chunked(r, bools);
    check("inv bool", () -> Linalg.inv(bools), () -> XpLinalg.inv(cbools), true);
    assertNoFailures();
  }

  /** |Q| and |R| are unique for a full-rank x (QR is unique up to a unit diagonal). */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void tallSkinnyQrAndSvdAgreeWithKernel(int dt) {
    DType t = FLOATS[dt];
    Random r = new Random(310 + dt);
    for (int round = 0; round < 2; round++) {
      int m = 40 + r.nextInt(60);
      int n = 1 + r.nextInt(5);
      NDArray a = gauss(r, t, m, n);
      long rows = 12 + r.nextInt(12);
      CubedArray c =
          round == 1
              ? Cubed.fromArray(a, new long[][] {irregular(r, m), {n}}, spec())
              : Cubed.fromArray(a, new long[] {rows, 1 + r.nextInt(n)}, spec());
      String d = t + Arrays.toString(a.shape()) + " round " + round;
      XpLinalg.Qr qr = XpLinalg.qr(c);
      PlanSummary plan = qr.R().plan();
      long blocks =
          plan.ops().stream()
              .filter(
                  o ->
                      o.name().contains("qr_block_r")
                          || o.fused().stream().anyMatch(f -> f.contains("qr_block_r")))
              .mapToLong(PlanSummary.OpInfo::tasks)
              .max()
              .orElse(0);
      NDArray q = qr.Q().compute();
      NDArray rr = qr.R().compute();
      Linalg.QrResult want = Linalg.qr(a);
      check(
          "|Q| " + d + " (" + blocks + " row blocks)",
          () -> Elementwise.abs(want.Q()),
          () -> Xp.abs(qr.Q()),
          true);
      check("|R| " + d, () -> Elementwise.abs(want.R()), () -> Xp.abs(qr.R()), true);
      check("QR = x " + d, () -> a.astype(want.R().dtype()), () -> Xp.matmul(qr.Q(), qr.R()), true);
      check("mode r " + d, () -> rr, () -> XpLinalg.qr(c, XpLinalg.QrMode.R).R(), true);
      assertNull(XpLinalg.qr(c, XpLinalg.QrMode.R).Q());
      assertEquals(m, q.shape(0));
      XpLinalg.Svd svd = XpLinalg.svd(c);
      Linalg.SvdResult ws = Linalg.svd(a, Linalg.SvdMode.REDUCED);
      check("svd S " + d, ws::S, svd::S, true);
      check("svd |U| " + d, () -> Elementwise.abs(ws.U()), () -> Xp.abs(svd.U()), true);
      check("svd |Vh| " + d, () -> Elementwise.abs(ws.Vh()), () -> Xp.abs(svd.Vh()), true);
      check("svdvals " + d, () -> Linalg.svdvals(a), () -> XpLinalg.svdvals(c), true);
      assertTrue(
          blocks >= 3, d + ": TSQR should take several row blocks, took " + blocks + ": " + plan);
    }
    for (long[] shape : new long[][] {{0, 3}, {5, 0}, {1, 4}, {3, 3}}) {
      NDArray e = gauss(r, t, shape);
      CubedArray ce = Cubed.fromArray(e, new long[] {2, 2}, spec());
      String d = "degenerate " + t + Arrays.toString(shape);
      check(
          "qr R " + d,
          () -> Elementwise.abs(Linalg.qr(e).R()),
          () -> Xp.abs(XpLinalg.qr(ce).R()),
          true);
      check(
          "qr Q " + d,
          () -> Elementwise.abs(Linalg.qr(e).Q()),
          () -> Xp.abs(XpLinalg.qr(ce).Q()),
          true);
      check("svdvals " + d, () -> Linalg.svdvals(e), () -> XpLinalg.svdvals(ce), true);
      check(
          "svd S " + d,
          () -> Linalg.svd(e, Linalg.SvdMode.REDUCED).S(),
          () -> XpLinalg.svd(ce).S(),
          true);
      check(
          "svd |U| " + d,
          () -> Elementwise.abs(Linalg.svd(e, Linalg.SvdMode.REDUCED).U()),
          () -> Xp.abs(XpLinalg.svd(ce).U()),
          true);
    }
    assertNoFailures();
  }

  /** Row blocks of 10 to 24 rows. */
  static long[] irregular(Random r, long m) {
    List<Long> l = new ArrayList<>();
    for (long left = m; left > 0; ) {
      long s = Math.min(left, 10 + r.nextInt(15));
      l.add(s);
      left -= s;
    }
    return l.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void diagonalTraceOuterCrossAndVectorNormAgreeWithKernel() {
    Random r = new Random(320);
    for (int round = 0; round < 2; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 2));
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        int off = r.nextInt(7) - 3;
        check(
            "diagonal " + off + " " + d,
            () -> Linalg.diagonal(x.k(), off),
            () -> XpLinalg.diagonal(x.c(), off),
            false);
        DType tt = r.nextInt(3) == 0 ? DType.FLOAT64 : null;
        check(
            "trace " + off + " " + tt + " " + d,
            () -> Linalg.trace(x.k(), off, tt),
            () -> XpLinalg.trace(x.c(), off, tt),
            true);
        In v1 = input(r, t, new long[] {DiffData.dim(r)});
        In v2 = input(r, DiffData.dtype(r), new long[] {DiffData.dim(r)});
        check(
            "outer " + d,
            () -> Linalg.outer(v1.k(), v2.k()),
            () -> XpLinalg.outer(v1.c(), v2.c()),
            false);
        long[] cs = x.k().shape().clone();
        int ax = r.nextInt(cs.length);
        cs[ax] = 3;
        In c1 = input(r, t, cs);
        long[] cs2 = cs.clone();
        if (ax != 0 && r.nextBoolean()) {
          cs2[0] = 1;
        }
        In c2 = input(r, DiffData.dtype(r), cs2);
        int axis = r.nextBoolean() ? ax : ax - cs.length;
        check(
            "cross axis " + axis + " " + Arrays.toString(cs) + " " + d,
            () -> Linalg.cross(c1.k(), c2.k(), axis),
            () -> XpLinalg.cross(c1.c(), c2.c(), axis),
            true);
        double[] ords = {2, 1, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, 3, -1.5};
        double ord = ords[r.nextInt(ords.length)];
        int nd = x.k().ndim();
        Axes axes = r.nextBoolean() ? Axes.all() : Axes.of(r.nextInt(nd));
        Axes ka = r.nextBoolean() ? axes.keepDims() : axes;
        check(
            "vector_norm " + ord + " " + ka + " " + d,
            () -> Linalg.vectorNorm(x.k(), ka, ord),
            () -> XpLinalg.vectorNorm(x.c(), ka, ord),
            true);
      }
    }
    assertNoFailures();
  }

  @Test
  void aMatrixTooLargeForATaskIsRefusedNamingTheFunctionAndSize() {
    Random r = new Random(330);
    CubedArray big =
        Cubed.fromArray(gauss(r, DType.FLOAT64, 2, 40, 40), new long[] {1, 10, 10}, spec());
    for (Supplier<Object> f :
        List.<Supplier<Object>>of(
            () -> XpLinalg.inv(big),
            () -> XpLinalg.det(big),
            () -> XpLinalg.eigh(big),
            () -> XpLinalg.matrixNorm(big, Linalg.MatrixNormOrder.TWO, Linalg.KeepDims.DROP))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, f::get);
      assertTrue(
          e.getMessage().contains("one 40x40 float64 matrix needs a projected")
              && e.getMessage().contains("allowedMem 16384 B"),
          e.getMessage());
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> XpLinalg.inv(big));
    assertTrue(e.getMessage().startsWith("inv: "), e.getMessage());
    // the reductions need no whole matrix: fro and inf norms of the same array compute
    NDArray a = gauss(r, DType.FLOAT64, 2, 40, 40);
    CubedArray ca = Cubed.fromArray(a, new long[] {1, 10, 10}, spec());
    assertNull(
        DifferentialTest.compare(
            Linalg.matrixNorm(a), XpLinalg.matrixNorm(ca).compute(), true, 1, false));
    // TSQR: the stacked R factors of many row blocks do not fit one task
    CubedArray wide =
        Cubed.fromArray(gauss(r, DType.FLOAT64, 400, 12), new long[] {12, 12}, spec());
    e = assertThrows(IllegalArgumentException.class, () -> XpLinalg.qr(wide));
    assertTrue(e.getMessage().contains("qr: the stacked R factors"), e.getMessage());
    CubedArray tooWide =
        Cubed.fromArray(gauss(r, DType.FLOAT64, 4, 400), new long[] {4, 40}, spec());
    e = assertThrows(IllegalArgumentException.class, () -> XpLinalg.svdvals(tooWide));
    assertTrue(e.getMessage().contains("svdvals: one row of 400"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> XpLinalg.eigvals(big));
    assertTrue(e.getMessage().startsWith("eigvals: one 40x40 float64 matrix"), e.getMessage());
    CubedArray cx = Cubed.fromArray(gauss(r, DType.COMPLEX64, 2, 2), new long[] {1, 2}, spec());
    assertEquals(DType.COMPLEX64, XpLinalg.eigvals(cx).dtype(), "complex eigvals is built");
    CubedArray tall = Cubed.fromArray(gauss(r, DType.FLOAT64, 60, 2), new long[] {10, 2}, spec());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> XpLinalg.qr(tall, XpLinalg.QrMode.COMPLETE));
    assertTrue(e.getMessage().startsWith("qr: one 60x2 float64 matrix"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void completeQrAgreesWithKernel(int dt) {
    Random r = new Random(7100 + dt);
    DType t = FLOATS[dt];
    for (long[] shape : new long[][] {{9, 4}, {4, 6}, {2, 7, 3}, {3, 0, 2}, {5, 5}}) {
      NDArray a = gauss(r, t, shape);
      CubedArray c = chunked(r, a);
      XpLinalg.Qr got = XpLinalg.qr(c, XpLinalg.QrMode.COMPLETE);
      Linalg.QrResult want = Linalg.qr(a, Linalg.QrMode.COMPLETE);
      NDArray q = got.Q().compute();
      NDArray rr = got.R().compute();
      String what = "qr complete " + t + " " + Arrays.toString(shape);
      assertEquals(Arrays.toString(want.Q().shape()), Arrays.toString(q.shape()), what);
      assertEquals(Arrays.toString(want.R().shape()), Arrays.toString(rr.shape()), what);
      assertEquals(want.Q().dtype(), q.dtype(), what);
      double tol = t == DType.FLOAT32 || t == DType.COMPLEX64 ? 1e-5 : 1e-12;
      for (int i = 0; i < q.size(); i++) {
        assertEquals(want.Q().getDouble(i), q.getDouble(i), tol, what + " Q[" + i + "]");
        assertEquals(want.Q().getImag(i), q.getImag(i), tol, what + " Q[" + i + "]");
      }
      for (int i = 0; i < rr.size(); i++) {
        assertEquals(want.R().getDouble(i), rr.getDouble(i), tol, what + " R[" + i + "]");
        assertEquals(want.R().getImag(i), rr.getImag(i), tol, what + " R[" + i + "]");
      }
    }
  }

  @Test
  void manyMatricesAreBatchedIntoBlocksThatFitAndThePlanAgrees() {
    Random r = new Random(331);
    NDArray a = gauss(r, DType.FLOAT64, 60, 4, 4);
    CubedArray c = Cubed.fromArray(a, new long[] {60, 2, 2}, spec());
    CubedArray inv = XpLinalg.inv(c);
    PlanSummary p = inv.plan();
    assertTrue(p.maxProjectedMem() <= MEM, p.toString());
    long tasks =
        p.ops().stream()
            .filter(
                o ->
                    o.name().startsWith("inv")
                        || o.fused().stream().anyMatch(n -> n.startsWith("inv")))
            .mapToLong(PlanSummary.OpInfo::tasks)
            .sum();
    assertTrue(tasks > 1, "60 4x4 matrices at 16 KB should take several blocks: " + p);
    assertNull(DifferentialTest.compare(Linalg.inv(a), inv.compute(), true, 1, false));
  }
}
