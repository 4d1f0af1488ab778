package dev.cubed.nd.elementwise;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * Builders turning per-element functions into row loops over the generic representations of {@link
 * Loops}: real floats as {@code double[]}, integers as {@code long[]}, complex numbers as
 * interleaved {@code double[]}, bools as {@code boolean[]}. Predicates write {@code boolean[]}.
 * Complex element functions write their result into a scratch {@code double[2]}.
 */
final class Kernels {
  private Kernels() {}

  /** A predicate on two doubles. */
  @FunctionalInterface
  interface DD2Z {
    boolean test(double a, double b);
  }

  /** A predicate on two longs. */
  @FunctionalInterface
  interface LL2Z {
    boolean test(long a, long b);
  }

  /** A function of two bools. */
  @FunctionalInterface
  interface ZZ2Z {
    boolean apply(boolean a, boolean b);
  }

  /** A complex function of two complex numbers, writing (re, im) into {@code r}. */
  @FunctionalInterface
  interface C2 {
    void apply(double ar, double ai, double br, double bi, double[] r);
  }

  /** A predicate on two complex numbers. */
  @FunctionalInterface
  interface C2Z {
    boolean test(double ar, double ai, double br, double bi);
  }

  /** A complex function of one complex number, writing (re, im) into {@code r}. */
  @FunctionalInterface
  interface C1 {
    void apply(double re, double im, double[] r);
  }

  /** A real function of one complex number. */
  @FunctionalInterface
  interface C1R {
    double apply(double re, double im);
  }

  /** A predicate on one complex number. */
  @FunctionalInterface
  interface C1Z {
    boolean test(double re, double im);
  }

  /** A predicate on a double. */
  @FunctionalInterface
  interface D1Z {
    boolean test(double a);
  }

  /** A predicate on a long. */
  @FunctionalInterface
  interface L1Z {
    boolean test(long a);
  }

  // ---------------------------------------------------------------- binary

  static Loops.Binary real(DoubleBinaryOperator f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      double[] a = (double[]) x;
      double[] b = (double[]) y;
      double[] o = (double[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.applyAsDouble(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static Loops.Binary realTest(DD2Z f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      double[] a = (double[]) x;
      double[] b = (double[]) y;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.test(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static Loops.Binary ints(LongBinaryOperator f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      long[] a = (long[]) x;
      long[] b = (long[]) y;
      long[] o = (long[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.applyAsLong(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static Loops.Binary intsTest(LL2Z f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      long[] a = (long[]) x;
      long[] b = (long[]) y;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.test(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static Loops.Binary bools(ZZ2Z f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      boolean[] a = (boolean[]) x;
      boolean[] b = (boolean[]) y;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[oo + i] = f.apply(a[xo + i * xs], b[yo + i * ys]);
      }
    };
  }

  static Loops.Binary complex(C2 f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      double[] a = (double[]) x;
      double[] b = (double[]) y;
      double[] o = (double[]) out;
      double[] r = new double[2];
      for (int i = 0; i < n; i++) {
        int p = 2 * (xo + i * xs);
        int q = 2 * (yo + i * ys);
        f.apply(a[p], a[p + 1], b[q], b[q + 1], r);
        o[2 * (oo + i)] = r[0];
        o[2 * (oo + i) + 1] = r[1];
      }
    };
  }

  static Loops.Binary complexTest(C2Z f) {
    return (x, xo, xs, y, yo, ys, out, oo, n) -> {
      double[] a = (double[]) x;
      double[] b = (double[]) y;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        int p = 2 * (xo + i * xs);
        int q = 2 * (yo + i * ys);
        o[oo + i] = f.test(a[p], a[p + 1], b[q], b[q + 1]);
      }
    };
  }

  // ---------------------------------------------------------------- unary

  static Loops.Unary real(DoubleUnaryOperator f) {
    return (x, out, n) -> {
      double[] a = (double[]) x;
      double[] o = (double[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.applyAsDouble(a[i]);
      }
    };
  }

  static Loops.Unary realTest(D1Z f) {
    return (x, out, n) -> {
      double[] a = (double[]) x;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.test(a[i]);
      }
    };
  }

  static Loops.Unary ints(LongUnaryOperator f) {
    return (x, out, n) -> {
      long[] a = (long[]) x;
      long[] o = (long[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.applyAsLong(a[i]);
      }
    };
  }

  static Loops.Unary intsTest(L1Z f) {
    return (x, out, n) -> {
      long[] a = (long[]) x;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.test(a[i]);
      }
    };
  }

  /** Copies the input (for functions that are the identity on a kind, e.g. floor on integers). */
  static final Loops.Unary IDENTITY =
      (x, out, n) -> System.arraycopy(x, 0, out, 0, Array.getLength(out));

  static Loops.Unary complex(C1 f) {
    return (x, out, n) -> {
      double[] a = (double[]) x;
      double[] o = (double[]) out;
      double[] r = new double[2];
      for (int i = 0; i < n; i++) {
        f.apply(a[2 * i], a[2 * i + 1], r);
        o[2 * i] = r[0];
        o[2 * i + 1] = r[1];
      }
    };
  }

  static Loops.Unary complexToReal(C1R f) {
    return (x, out, n) -> {
      double[] a = (double[]) x;
      double[] o = (double[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.apply(a[2 * i], a[2 * i + 1]);
      }
    };
  }

  static Loops.Unary complexTest(C1Z f) {
    return (x, out, n) -> {
      double[] a = (double[]) x;
      boolean[] o = (boolean[]) out;
      for (int i = 0; i < n; i++) {
        o[i] = f.test(a[2 * i], a[2 * i + 1]);
      }
    };
  }

  static Loops.Unary boolConst(boolean v) {
    return (x, out, n) -> Arrays.fill((boolean[]) out, v);
  }
}
