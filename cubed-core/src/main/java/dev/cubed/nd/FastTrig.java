package dev.cubed.nd;

/**
 * float64 sin and cos over arrays, with the JDK Vector API ({@code jdk.incubator.vector}) when the
 * JVM runs with {@code --add-modules jdk.incubator.vector}, and a plain {@link Math#sin} /
 * {@link Math#cos} loop otherwise. The choice is made once, when this class initializes: the
 * vector path is taken when the module is in the boot layer and its implementation class loads.
 *
 * <p>The vector path's lanes use the JVM's vector math routines, whose results may differ from
 * {@code Math.sin}/{@code Math.cos} in the last bit or so (about 1 ulp); elements past the last
 * full vector use {@code Math.sin}/{@code Math.cos}. The kernel's float64 {@code sin} and
 * {@code cos} and the benchmark inputs use this class.
 */
public final class FastTrig {
  private FastTrig() {}

  private static final boolean VECTOR = vectorAvailable();

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

  private static void apply(boolean cos, double[] src, int srcOff, double[] dst, int dstOff,
      int n) {
    check(src, srcOff, dst, dstOff, n);
    if (VECTOR) {
      // two methods, not one with the operator as an argument: the JIT compiles a lanewise
      // operator to vector instructions only when it is a constant
      if (cos) {
        VectorTrig.cos(src, srcOff, dst, dstOff, n);
      } else {
        VectorTrig.sin(src, srcOff, dst, dstOff, n);
      }
    } else {
      for (int i = 0; i < n; i++) {
        dst[dstOff + i] = cos ? Math.cos(src[srcOff + i]) : Math.sin(src[srcOff + i]);
      }
    }
  }

  private static void check(double[] src, int srcOff, double[] dst, int dstOff, int n) {
    if (n < 0 || srcOff < 0 || dstOff < 0 || srcOff > src.length - n || dstOff > dst.length - n) {
      throw new ArrayIndexOutOfBoundsException("FastTrig: range of " + n + " elements from "
          + srcOff + " (source length " + src.length + ") or " + dstOff + " (destination length "
          + dst.length + ") leaves its array");
    }
  }

  /** The kernel's contiguous float64 sin loop. */
  static final Loops.Unary SIN_F64 = (x, out, n) -> sin((double[]) x, 0, (double[]) out, 0, n);

  /** The kernel's contiguous float64 cos loop. */
  static final Loops.Unary COS_F64 = (x, out, n) -> cos((double[]) x, 0, (double[]) out, 0, n);
}
