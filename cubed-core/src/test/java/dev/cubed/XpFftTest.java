package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.fft.Fft;
import dev.cubed.nd.fft.Fft.Norm;
import dev.cubed.plan.node.PlanSummary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fft extension on chunked arrays against the kernel on the same data: every dtype, random
 * shapes (zero-length and size-1 axes), regular chunks with partial edges and irregular chunks,
 * random n/s, axis/axes and norm, at an allowedMem of 16 KB; refusal of an axis too long for a
 * task.
 */
class XpFftTest extends ChunkedVsKernel {
  static final long MEM = 16 * 1024;

  @Override
  Spec spec() {
    return Spec.builder().workDir(dir).allowedMem(MEM).reservedMem(1000).workers(2).build();
  }

  private static Integer n(Random r) {
    return r.nextInt(3) == 0 ? null : r.nextInt(9) - 1;
  }

  @Test
  void oneDimensionalTransformsAgreeWithKernel() {
    Random r = new Random(400);
    Norm[] norms = Norm.values();
    for (DType t : DiffData.DTYPES) {
      In x = input(r, t, shape(r, 1));
      int nd = x.k().ndim();
      int axis = r.nextInt(2 * nd) - nd;
      Norm norm = norms[r.nextInt(3)];
      Integer n = n(r);
      String d = t + Arrays.toString(x.k().shape()) + " n " + n + " axis " + axis + " " + norm;
      check(
          "fft " + d,
          () -> Fft.fft(x.k(), n, axis, norm),
          () -> XpFft.fft(x.c(), n, axis, norm),
          true);
      check(
          "ifft " + d,
          () -> Fft.ifft(x.k(), n, axis, norm),
          () -> XpFft.ifft(x.c(), n, axis, norm),
          true);
      check(
          "rfft " + d,
          () -> Fft.rfft(x.k(), n, axis, norm),
          () -> XpFft.rfft(x.c(), n, axis, norm),
          true);
      check(
          "irfft " + d,
          () -> Fft.irfft(x.k(), n, axis, norm),
          () -> XpFft.irfft(x.c(), n, axis, norm),
          true);
      check(
          "hfft " + d,
          () -> Fft.hfft(x.k(), n, axis, norm),
          () -> XpFft.hfft(x.c(), n, axis, norm),
          true);
      check(
          "ihfft " + d,
          () -> Fft.ihfft(x.k(), n, axis, norm),
          () -> XpFft.ihfft(x.c(), n, axis, norm),
          true);
      check("fft default " + d, () -> Fft.fft(x.k()), () -> XpFft.fft(x.c()), true);
    }
    assertNoFailures();
  }

  @Test
  void nDimensionalTransformsAgreeWithKernel() {
    Random r = new Random(401);
    Norm[] norms = Norm.values();
    for (DType t : DiffData.DTYPES) {
      In x = input(r, t, shape(r, 1));
      int nd = x.k().ndim();
      int k = r.nextInt(nd + 1);
      int[] axes = null;
      if (r.nextBoolean()) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < nd; i++) {
          all.add(i);
        }
        Collections.shuffle(all, r);
        axes =
            all.subList(0, Math.max(1, k)).stream()
                .mapToInt(i -> r.nextBoolean() ? i : i - nd)
                .toArray();
      }
      int[] s = null;
      if (r.nextBoolean()) {
        s = new int[axes == null ? Math.max(1, k) : axes.length];
        for (int i = 0; i < s.length; i++) {
          s[i] = r.nextInt(4) == 0 ? -1 : 1 + r.nextInt(6);
        }
      }
      Norm norm = norms[r.nextInt(3)];
      int[] fa = axes;
      int[] fs = s;
      String d =
          t
              + Arrays.toString(x.k().shape())
              + " s "
              + Arrays.toString(s)
              + " axes "
              + Arrays.toString(axes)
              + " "
              + norm;
      check(
          "fftn " + d,
          () -> Fft.fftn(x.k(), fs, fa, norm),
          () -> XpFft.fftn(x.c(), fs, fa, norm),
          true);
      check(
          "ifftn " + d,
          () -> Fft.ifftn(x.k(), fs, fa, norm),
          () -> XpFft.ifftn(x.c(), fs, fa, norm),
          true);
      check(
          "rfftn " + d,
          () -> Fft.rfftn(x.k(), fs, fa, norm),
          () -> XpFft.rfftn(x.c(), fs, fa, norm),
          true);
      check(
          "irfftn " + d,
          () -> Fft.irfftn(x.k(), fs, fa, norm),
          () -> XpFft.irfftn(x.c(), fs, fa, norm),
          true);
      check("fftn default " + d, () -> Fft.fftn(x.k()), () -> XpFft.fftn(x.c()), true);
      int[] sh = r.nextBoolean() ? null : new int[] {r.nextInt(nd)};
      check(
          "fftshift " + Arrays.toString(sh) + " " + d,
          () -> Fft.fftshift(x.k(), sh),
          () -> XpFft.fftshift(x.c(), sh),
          false);
      check(
          "ifftshift " + Arrays.toString(sh) + " " + d,
          () -> Fft.ifftshift(x.k(), sh),
          () -> XpFft.ifftshift(x.c(), sh),
          false);
    }
    for (int n : new int[] {1, 2, 7, 10, 33}) {
      for (DType t : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
        double dd = n % 2 == 0 ? 0.25 : -3.0;
        long chunk = 1 + r.nextInt(8);
        check(
            "fftfreq " + n + " " + t,
            () -> Fft.fftfreq(n, dd, t),
            () -> XpFft.fftfreq(n, dd, t, chunk, spec()),
            false);
        check(
            "rfftfreq " + n + " " + t,
            () -> Fft.rfftfreq(n, dd, t),
            () -> XpFft.rfftfreq(n, dd, t, chunk, spec()),
            false);
      }
    }
    check(
        "fftfreq 0",
        () -> Fft.fftfreq(0, 1, DType.FLOAT64),
        () -> XpFft.fftfreq(0, 1, DType.FLOAT64, 4, spec()),
        false);
    check(
        "fftfreq int dtype",
        () -> Fft.fftfreq(4, 1, DType.INT32),
        () -> XpFft.fftfreq(4, 1, DType.INT32, 4, spec()),
        false);
    assertNoFailures();
  }

  @Test
  void longAxesAreTransformedInBlocksThatFitAndTooLongAnAxisIsRefused() {
    Random r = new Random(402);
    // 64 lines of 24 complex128 values: whole lines per block, several blocks
    NDArray a = XpLinalgTest.gauss(r, DType.COMPLEX128, 24, 64);
    CubedArray c = Cubed.fromArray(a, new long[] {5, 16}, spec());
    CubedArray f = XpFft.fft(c, null, 0, Norm.ORTHO);
    PlanSummary p = f.plan();
    assertTrue(p.maxProjectedMem() <= MEM, p.toString());
    long tasks =
        p.ops().stream()
            .filter(
                o ->
                    o.name().startsWith("fft")
                        || o.fused().stream().anyMatch(n -> n.startsWith("fft")))
            .mapToLong(PlanSummary.OpInfo::tasks)
            .sum();
    assertTrue(
        tasks > 1, "64 lines of 24 complex values at 16 KB should take several blocks: " + p);
    assertNull(
        DifferentialTest.compare(Fft.fft(a, null, 0, Norm.ORTHO), f.compute(), true, 1, false));
    CubedArray longLine =
        Cubed.fromArray(XpLinalgTest.gauss(r, DType.FLOAT64, 3, 2000), new long[] {3, 100}, spec());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> XpFft.rfft(longLine));
    assertTrue(
        e.getMessage().startsWith("rfft: one line of 2000 float64 along axes [1]"), e.getMessage());
    assertTrue(e.getMessage().contains("more than allowedMem 16384 B"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> XpFft.fftn(longLine, null, new int[] {0, 1}, Norm.BACKWARD));
    assertTrue(
        e.getMessage().startsWith("fftn: one line of 3x2000 float64 along axes [0, 1]"),
        e.getMessage());
    // the other axis is fine
    assertEquals(
        null,
        DifferentialTest.compare(
            Fft.fft(longLine.compute(), null, 0, Norm.BACKWARD),
            XpFft.fft(longLine, null, 0, Norm.BACKWARD).compute(),
            true,
            1,
            false));
  }
}
