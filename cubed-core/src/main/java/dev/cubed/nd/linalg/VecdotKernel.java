package dev.cubed.nd.linalg;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;

/**
 * {@code vecdot}: broadcasts both operands to the full shape, moves the contracted axis last and
 * sums {@code conj(x1) * x2} over each lane in the working representation of {@link Compute}. Real
 * floats accumulate in double (float32 rounds once at the end).
 */
final class VecdotKernel {
  private VecdotKernel() {}

  static NDArray vecdot(DType dt, NDArray x1, NDArray x2, long[] full, int axis) {
    int nd = full.length;
    int[] perm = new int[nd];
    int p = 0;
    for (int i = 0; i < nd; i++) {
      if (i != axis) {
        perm[p++] = i;
      }
    }
    perm[nd - 1] = axis;
    NDArray a = x1.broadcastTo(full).permuteDims(perm);
    NDArray b = x2.broadcastTo(full).permuteDims(perm);
    long[] outShape = new long[nd - 1];
    for (int i = 0; i < nd - 1; i++) {
      outShape[i] = full[perm[i]];
    }
    int k = (int) full[axis];
    int lanes = Shapes.intSize("vecdot", outShape);
    Object ca = Compute.operand(a, dt);
    Object cb = Compute.operand(b, dt);
    Object c = Compute.allocate(dt, lanes);
    switch (dt) {
      case FLOAT64, FLOAT32 -> {
        for (int l = 0; l < lanes; l++) {
          double s = 0;
          int o = l * k;
          if (dt == DType.FLOAT64) {
            double[] u = (double[]) ca;
            double[] v = (double[]) cb;
            for (int i = 0; i < k; i++) {
              s += u[o + i] * v[o + i];
            }
            ((double[]) c)[l] = s;
          } else {
            float[] u = (float[]) ca;
            float[] v = (float[]) cb;
            for (int i = 0; i < k; i++) {
              s += (double) u[o + i] * v[o + i];
            }
            ((float[]) c)[l] = (float) s;
          }
        }
      }
      case COMPLEX64, COMPLEX128 -> {
        double[] u = (double[]) ca;
        double[] v = (double[]) cb;
        double[] r = (double[]) c;
        for (int l = 0; l < lanes; l++) {
          double sr = 0;
          double si = 0;
          int o = 2 * l * k;
          for (int i = 0; i < 2 * k; i += 2) {
            double ar = u[o + i];
            double ai = u[o + i + 1];
            double br = v[o + i];
            double bi = v[o + i + 1];
            sr += ar * br + ai * bi;
            si += ar * bi - ai * br;
          }
          r[2 * l] = sr;
          r[2 * l + 1] = si;
        }
      }
      default -> {
        long[] u = (long[]) ca;
        long[] v = (long[]) cb;
        long[] r = (long[]) c;
        for (int l = 0; l < lanes; l++) {
          long s = 0;
          int o = l * k;
          for (int i = 0; i < k; i++) {
            s += u[o + i] * v[o + i];
          }
          r[l] = s;
        }
      }
    }
    return Compute.result(dt, c, outShape);
  }
}
