package dev.cubed.nd.elementwise;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * float64 sin and cos over arrays, the same bits on every path: {@link TrigPoly}'s argument
 * reduction and polynomials, on vector lanes with the JDK Vector API ({@code jdk.incubator.vector})
 * when the JVM runs with {@code --add-modules jdk.incubator.vector} ({@link VectorTrig}), element
 * by element otherwise. Results are within 2 ulp of the exact sin and cos (within 1 ulp for all but
 * about one in 10,000 arguments; they may differ from {@code Math.sin}/{@code Math.cos} in the last
 * bits) and do not depend on the machine, the module, or how far the JIT has got: a chunk
 * recomputed by a retry or a backup task equals the first computation to the bit. (The Vector API's
 * own {@code SIN}/{@code COS} did not: compiled, they are the JDK's vector math library, which
 * differs from {@code Math.sin} in about one result in 500; in the Java fallback they are {@code
 * Math.sin} itself, so a JVM's first chunks and its later ones differed.)
 *
 * <p>The vector path is fast only once the JIT has compiled it (before that the Vector API runs in
 * its Java fallback, hundreds of times slower than the element loop). So each JVM starts on the
 * element loop and times the vector path on the first {@link #PROBE} elements of each call; after
 * {@link #HOT_CALLS} calls in a row in which those ran at compiled speed it switches for good
 * ({@link #JIT_OPTIONS} make that happen after a few hundred calls). Either way the results are the
 * same. The kernel's float64 {@code sin} and {@code cos} and the benchmark inputs use this class.
 */
public final class FastTrig {
  private FastTrig() {}

  private static final boolean VECTOR = vectorAvailable();

  /**
   * Elements per call that time the vector path while it warms up (eight 512-bit vectors: enough
   * loop iterations that the JIT soon finds the loop hot, few enough that the Java fallback costs
   * little before it does).
   */
  static final int PROBE = 64;

  /**
   * JVM options that have the JIT compile the vector loop after a few dozen calls instead of
   * thousands (a per-method compile threshold; the results do not change, only how soon the vector
   * path is fast): {@code ./cubed} and the processes executor's workers start with them. {@code
   * quiet} keeps the JVM from echoing the command on standard output.
   */
  public static final List<String> JIT_OPTIONS =
      List.of(
          "-XX:CompileCommand=quiet",
          "-XX:CompileCommand=option,dev.cubed.nd.elementwise.VectorTrig::eval,double,CompileThresholdScaling,0.01");

  /** Consecutive calls at compiled speed after which the vector path is taken for good. */
  static final int HOT_CALLS = 3;

  /**
   * A probe of {@link #PROBE} elements at or below this many nanoseconds ran compiled code (about
   * 100 ns compiled, 50,000 in the Java fallback).
   */
  private static final long HOT_NANOS = 1_000;

  private static volatile boolean vectorHot;
  private static final AtomicInteger hotStreak = new AtomicInteger();

  private static boolean vectorAvailable() {
    if (Boolean.getBoolean("cubed.noVectorTrig")
        || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return false;
    }
    try {
      double[] probe = {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};
      VectorTrig.sin(probe, 0, probe, 0, probe.length);
      return true;
    } catch (LinkageError | RuntimeException e) {
      return false;
    }
  }

  /** True when the Vector API path is in use (see the class comment). */
  public static boolean vectorized() {
    return VECTOR;
  }

  /** True once this JVM runs the vector path at compiled speed (see the class comment). */
  static boolean vectorHot() {
    return vectorHot;
  }

  /**
   * {@code dst[dstOff + i] = sin(src[srcOff + i])} for {@code i} in {@code [0, n)}; {@code src} and
   * {@code dst} may be the same array at the same offset.
   *
   * @throws ArrayIndexOutOfBoundsException if a range leaves its array
   */
  public static void sin(double[] src, int srcOff, double[] dst, int dstOff, int n) {
    apply(false, src, srcOff, dst, dstOff, n);
  }

  /** Like {@link #sin} for cos. */
  public static void cos(double[] src, int srcOff, double[] dst, int dstOff, int n) {
    apply(true, src, srcOff, dst, dstOff, n);
  }

  private static void apply(
      boolean cos, double[] src, int srcOff, double[] dst, int dstOff, int n) {
    check(src, srcOff, dst, dstOff, n);
    int done = 0;
    if (VECTOR) {
      if (vectorHot) {
        vector(cos, src, srcOff, dst, dstOff, n);
        return;
      }
      // a call shorter than a probe takes the element loop: the fallback would cost it more
      if (n >= PROBE) {
        long t0 = System.nanoTime();
        vector(cos, src, srcOff, dst, dstOff, PROBE);
        long t = System.nanoTime() - t0;
        if (t > HOT_NANOS) {
          hotStreak.set(0);
        } else if (hotStreak.incrementAndGet() >= HOT_CALLS) {
          vectorHot = true;
        }
        done = PROBE;
      }
    }
    for (int i = done; i < n; i++) {
      dst[dstOff + i] = TrigPoly.eval(cos, src[srcOff + i]);
    }
  }

  private static void vector(
      boolean cos, double[] src, int srcOff, double[] dst, int dstOff, int n) {
    if (cos) {
      VectorTrig.cos(src, srcOff, dst, dstOff, n);
    } else {
      VectorTrig.sin(src, srcOff, dst, dstOff, n);
    }
  }

  private static void check(double[] src, int srcOff, double[] dst, int dstOff, int n) {
    if (n < 0 || srcOff < 0 || dstOff < 0 || srcOff > src.length - n || dstOff > dst.length - n) {
      throw new ArrayIndexOutOfBoundsException(
          "FastTrig: range of "
              + n
              + " elements from "
              + srcOff
              + " (source length "
              + src.length
              + ") or "
              + dstOff
              + " (destination length "
              + dst.length
              + ") leaves its array");
    }
  }

  /** The kernel's contiguous float64 sin loop. */
  static final Loops.Unary SIN_F64 = (x, out, n) -> sin((double[]) x, 0, (double[]) out, 0, n);

  /** The kernel's contiguous float64 cos loop. */
  static final Loops.Unary COS_F64 = (x, out, n) -> cos((double[]) x, 0, (double[]) out, 0, n);
}
