package dev.cubed.nd.reduce;

import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.WideArrays;

/** Cumulative sums and products along one axis (behind {@link Statistics}). */
final class Cumulative {
  private Cumulative() {}

  static NDArray run(
      String fn, NDArray x, int axis, Statistics.Initial initial, ReduceLoops.Op op) {
    if (x.dtype().isBool()) {
      x = x.astype(DType.INT64);
    }
    Statistics.checkNumeric(fn, x);
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(fn + ": a 0-d array has no axis to accumulate along");
    }
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    DType rt = Statistics.sumType(x.dtype());
    ReduceLayout l = ReduceLayout.of(fn, x, Axes.of(ax));
    int extra = initial == Statistics.Initial.INCLUDE ? 1 : 0;
    long[] outShape = x.shape();
    outShape[ax] += extra;
    int len = l.reduced;
    int outLen = len + extra;
    int inner = l.inner;
    boolean sum = op == ReduceLoops.Op.SUM;
    if (rt.isComplex()) {
      double[] in = WideArrays.complexes(x);
      double[] out = new double[2 * l.outer * outLen * inner];
      for (int o = 0; o < l.outer; o++) {
        for (int i = 0; i < inner; i++) {
          double re = sum ? 0 : 1;
          double im = 0;
          if (extra == 1) {
            out[2 * ((o * outLen) * inner + i)] = re;
          }
          for (int k = 0; k < len; k++) {
            int j = 2 * l.at(o, k, i);
            if (k == 0) {
              re = in[j];
              im = in[j + 1];
            } else if (sum) {
              re += in[j];
              im += in[j + 1];
            } else {
              double a = re * in[j] - im * in[j + 1];
              im = re * in[j + 1] + im * in[j];
              re = a;
            }
            int d = 2 * ((o * outLen + k + extra) * inner + i);
            out[d] = re;
            out[d + 1] = im;
          }
        }
      }
      return WideArrays.fromComplexes(rt, outShape, out);
    }
    if (rt.isRealFloating()) {
      double[] in = WideArrays.doubles(x);
      double[] out = new double[l.outer * outLen * inner];
      for (int o = 0; o < l.outer; o++) {
        for (int i = 0; i < inner; i++) {
          double acc = sum ? 0 : 1;
          if (extra == 1) {
            out[(o * outLen) * inner + i] = acc;
          }
          for (int k = 0; k < len; k++) {
            double v = in[l.at(o, k, i)];
            acc = k == 0 ? v : (sum ? acc + v : acc * v);
            out[(o * outLen + k + extra) * inner + i] = acc;
          }
        }
      }
      return WideArrays.fromDoubles(rt, outShape, out);
    }
    long[] in = WideArrays.longs(x);
    long[] out = new long[l.outer * outLen * inner];
    for (int o = 0; o < l.outer; o++) {
      for (int i = 0; i < inner; i++) {
        long acc = sum ? 0 : 1;
        if (extra == 1) {
          out[(o * outLen) * inner + i] = acc;
        }
        for (int k = 0; k < len; k++) {
          long v = in[l.at(o, k, i)];
          acc = k == 0 ? v : (sum ? acc + v : acc * v);
          out[(o * outLen + k + extra) * inner + i] = acc;
        }
      }
    }
    return WideArrays.fromLongs(rt, outShape, out);
  }
}
