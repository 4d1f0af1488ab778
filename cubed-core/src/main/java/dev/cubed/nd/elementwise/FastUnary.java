package dev.cubed.nd.elementwise;

/**
 * Unary loops on native float64/float32 backing arrays for the cheap functions (negative, abs,
 * square, sqrt), where a per-element call through a shared lambda would cost more than the work.
 * All four are exact in IEEE arithmetic ((float) Math.sqrt of a float is correctly rounded).
 */
final class FastUnary {
  private FastUnary() {}

  static final Loops.Unary NEGATIVE_F64 =
      (x, out, n) -> {
        double[] a = (double[]) x;
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = -a[i];
        }
      };

  static final Loops.Unary NEGATIVE_F32 =
      (x, out, n) -> {
        float[] a = (float[]) x;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = -a[i];
        }
      };

  static final Loops.Unary ABS_F64 =
      (x, out, n) -> {
        double[] a = (double[]) x;
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = Math.abs(a[i]);
        }
      };

  static final Loops.Unary ABS_F32 =
      (x, out, n) -> {
        float[] a = (float[]) x;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = Math.abs(a[i]);
        }
      };

  static final Loops.Unary SQUARE_F64 =
      (x, out, n) -> {
        double[] a = (double[]) x;
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = a[i] * a[i];
        }
      };

  static final Loops.Unary SQUARE_F32 =
      (x, out, n) -> {
        float[] a = (float[]) x;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = a[i] * a[i];
        }
      };

  static final Loops.Unary SQRT_F64 =
      (x, out, n) -> {
        double[] a = (double[]) x;
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = Math.sqrt(a[i]);
        }
      };

  static final Loops.Unary SQRT_F32 =
      (x, out, n) -> {
        float[] a = (float[]) x;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = (float) Math.sqrt(a[i]);
        }
      };
}
