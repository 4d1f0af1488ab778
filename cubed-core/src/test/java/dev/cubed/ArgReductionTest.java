package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.file.Path;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Exact argmin/argmax for every real dtype, complex prod, multi-round trees, edge chunks. */
class ArgReductionTest {
  @TempDir Path dir;

  private Spec spec() {
    return EngineTestSupport.tinySpec(dir, 200_000);
  }

  /** Values with many ties and extremes; int64/uint64 values differ only below 2^53 resolution. */
  static NDArray data(DType t, long seed, long... shape) {
    Random r = new Random(seed);
    NDArray a = NDArray.zeros(t, shape);
    for (int i = 0; i < a.size(); i++) {
      int pick = r.nextInt(8);
      switch (t) {
        case BOOL -> a.setBoolean(i, r.nextBoolean());
        case INT64 ->
            a.setLong(
                i,
                pick == 0
                    ? Long.MIN_VALUE
                    : pick == 1
                        ? Long.MAX_VALUE
                        : pick == 2
                            ? Long.MAX_VALUE - 1
                            : pick == 3 ? Long.MIN_VALUE + 1 : (1L << 60) + r.nextInt(3));
        case UINT64 ->
            a.setLong(
                i,
                pick == 0
                    ? -1L
                    : pick == 1
                        ? -2L
                        : pick == 2
                            ? 0
                            : pick == 3 ? Long.MAX_VALUE : Long.MIN_VALUE + r.nextInt(3));
        case FLOAT32, FLOAT64 ->
            a.setDouble(
                i,
                pick == 0
                    ? Double.NaN
                    : pick == 1
                        ? Double.NEGATIVE_INFINITY
                        : pick == 2
                            ? Double.POSITIVE_INFINITY
                            : pick == 3 ? -0.0 : r.nextInt(5) - 2);
        default -> a.setLong(i, r.nextInt(7) - (t.isUnsigned() ? 0 : 3));
      }
    }
    // a few lanes without NaN so both paths are exercised
    if (t.isFloating()) {
      for (int i = 0; i < shape[1]; i++) {
        if (Double.isNaN(a.getDouble(i))) {
          a.setDouble(i, 1.5);
        }
      }
    }
    return a;
  }

  /** NumPy's rule: first NaN wins; else first strict extreme. */
  static long naiveArg(NDArray a, long[] shape, int axis, long lane, boolean max) {
    long inner = axis == 0 ? shape[1] : 1;
    long base = axis == 0 ? lane : lane * shape[1];
    long n = shape[axis];
    DType t = a.dtype();
    long best = 0;
    for (long j = 1; j < n; j++) {
      int p = (int) (base + best * inner);
      int q = (int) (base + j * inner);
      boolean take;
      if (t.isFloating()) {
        double vp = a.getDouble(p);
        double vq = a.getDouble(q);
        take = !Double.isNaN(vp) && (Double.isNaN(vq) || (max ? vq > vp : vq < vp));
      } else {
        long vp = t.isBool() ? (a.getBoolean(p) ? 1 : 0) : a.getLong(p);
        long vq = t.isBool() ? (a.getBoolean(q) ? 1 : 0) : a.getLong(q);
        int c = t.isUnsigned() ? Long.compareUnsigned(vq, vp) : Long.compare(vq, vp);
        take = max ? c > 0 : c < 0;
      }
      if (take) {
        best = j;
      }
    }
    return best;
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {
        "BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64", "FLOAT32",
        "FLOAT64"
      })
  void argMinMaxExact(DType t) {
    long[] shape = {13, 7};
    NDArray a = data(t, t.ordinal() + 11, shape);
    CubedArray x = Cubed.fromArray(a, new long[] {3, 2}, spec());
    for (int axis = 0; axis < 2; axis++) {
      for (boolean max : new boolean[] {false, true}) {
        NDArray got =
            XpReduce.reduce(
                    x, max ? Reductions.Op.ARGMAX : Reductions.Op.ARGMIN, Axes.of(axis), 2, 0)
                .compute();
        assertThat(got.dtype()).isEqualTo(DType.INT64);
        long lanes = shape[1 - axis];
        assertThat(got.size()).isEqualTo((int) lanes);
        for (long l = 0; l < lanes; l++) {
          assertThat(got.getLong((int) l))
              .as("%s arg%s axis %d lane %d", t, max ? "max" : "min", axis, l)
              .isEqualTo(naiveArg(a, shape, axis, l, max));
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"COMPLEX64", "COMPLEX128"})
  void complexProdAndOrderErrors(DType t) {
    Random r = new Random(3);
    NDArray a = NDArray.zeros(t, 10, 6);
    for (int i = 0; i < a.size(); i++) {
      double ang = r.nextDouble() * 6;
      double mod = 0.8 + r.nextDouble() * 0.4;
      a.setComplex(i, mod * Math.cos(ang), mod * Math.sin(ang));
    }
    CubedArray x = Cubed.fromArray(a, new long[] {3, 4}, spec());
    NDArray got = XpReduce.reduce(x, Reductions.Op.PROD, Axes.of(0), 2, 0).compute();
    assertThat(got.dtype()).isEqualTo(t);
    double tol = t == DType.COMPLEX64 ? 1e-5 : 1e-12;
    for (int j = 0; j < 6; j++) {
      double pr = 1;
      double pi = 0;
      for (int i = 0; i < 10; i++) {
        double xr = a.getDouble(i * 6 + j);
        double xi = a.getImag(i * 6 + j);
        double nr = pr * xr - pi * xi;
        pi = pr * xi + pi * xr;
        pr = nr;
      }
      assertThat(got.getDouble(j)).isCloseTo(pr, Offset.offset(tol));
      assertThat(got.getImag(j)).isCloseTo(pi, Offset.offset(tol));
    }
    for (Reductions.Op op :
        new Reductions.Op[] {
          Reductions.Op.MIN, Reductions.Op.MAX, Reductions.Op.ARGMIN, Reductions.Op.ARGMAX
        }) {
      String name = op.name().toLowerCase();
      assertThatThrownBy(() -> XpReduce.reduce(x, op, Axes.of(0), 2, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(name + ":")
          .hasMessageContaining(t.toString());
    }
  }
}
