package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;

/** Reductions of complex arrays expressed through reductions of real arrays. */
final class ComplexReductions {
  private ComplexReductions() {}

  /**
   * Whether {@code op} of a complex array goes through {@link #reduce}; the others (prod with a
   * complex state; min/max/argmin/argmax, which reject complex) go to the tree reduction directly.
   */
  static boolean handles(Reductions.Op op) {
    return switch (op) {
      case SUM, MEAN, VAR, STD, ALL, ANY -> true;
      default -> false;
    };
  }

  /**
   * Complex reductions through real ones: sum and mean reduce the real and imaginary parts
   * separately (mean then combines them as the kernel does: a non-finite part makes the other part
   * NaN); var = var(re) + var(im) (real), std its square root; all/any test x != 0.
   */
  static CubedArray reduce(
      CubedArray x, Reductions.Op op, Axes axes, int splitEvery, int correction) {
    switch (op) {
      case SUM, MEAN -> {
        CubedArray re = XpReduce.reduce(XpUnary.real(x), op, axes, splitEvery, correction);
        CubedArray im = XpReduce.reduce(XpUnary.imag(x), op, axes, splitEvery, correction);
        DType t = x.dtype();
        boolean mean = op == Reductions.Op.MEAN;
        return XpBlocks.wrap(
            Core.elemwise(
                op.name().toLowerCase(),
                b -> {
                  NDArray out = NDArray.zeros(t, b[0].shape());
                  for (int i = 0; i < out.size(); i++) {
                    double r = b[0].getDouble(i);
                    double m = b[1].getDouble(i);
                    if (mean) {
                      // as the kernel (and NumPy, which divides by the count as a complex number):
                      // a NaN
                      // or an infinity in one part makes the other part NaN; (a + b*0)/n == a/n +
                      // (b/n)*0
                      out.setComplex(i, r + m * 0.0, m - r * 0.0);
                    } else {
                      out.setComplex(i, r, m);
                    }
                  }
                  return out;
                },
                t,
                re.node(),
                im.node()),
            x);
      }
      case VAR, STD -> {
        CubedArray v =
            XpBinary.ADD.apply(
                XpReduce.reduce(XpUnary.real(x), Reductions.Op.VAR, axes, splitEvery, correction),
                XpReduce.reduce(XpUnary.imag(x), Reductions.Op.VAR, axes, splitEvery, correction));
        return op == Reductions.Op.STD ? XpUnary.sqrt(v) : v;
      }
      case ALL, ANY -> {
        CubedArray nz = XpBlocks.ew("not_equal", b -> Elementwise.notEqual(b[0], 0), x);
        return XpReduce.reduce(nz, op, axes, splitEvery, correction);
      }
      default ->
          throw new UnsupportedOperationException(
              op.name().toLowerCase()
                  + ": complex dtypes are not supported by the chunked reduction yet (got "
                  + x.dtype()
                  + ")");
    }
  }
}
