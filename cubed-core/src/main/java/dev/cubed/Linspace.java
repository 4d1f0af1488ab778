package dev.cubed;

import dev.cubed.nd.Complex;
import dev.cubed.nd.NDArray;
import java.io.Serializable;

/**
 * The elements of {@code linspace} by flat index, with the kernel's (NumPy's) arithmetic: {@code
 * start + i * step}, {@code step = (stop - start) / div}; when the step rounds to 0 for a non-zero
 * range, {@code start + i / div * (stop - start)}; with the endpoint the last element is stop.
 */
final class Linspace implements Serializable {
  private static final long serialVersionUID = 1L;
  private final double startRe;
  private final double startIm;
  private final double stopRe;
  private final double stopIm;
  private final double deltaRe;
  private final double deltaIm;
  private final double stepRe;
  private final double stepIm;
  private final long num;
  private final long div;
  private final boolean endpoint;
  private final boolean stepZero;

  Linspace(Object start, Object stop, long num, boolean endpoint) {
    Complex s = complex(start);
    Complex e = complex(stop);
    boolean isComplex = start instanceof Complex || stop instanceof Complex;
    this.startRe = s.re();
    this.startIm = s.im();
    this.stopRe = e.re();
    this.stopIm = e.im();
    this.num = num;
    this.endpoint = endpoint;
    this.div = endpoint ? num - 1 : num;
    this.deltaRe = e.re() - s.re();
    this.deltaIm = e.im() - s.im();
    if (div > 0) {
      // as the kernel: NumPy divides a complex delta by the real div through its reciprocal
      stepRe = isComplex ? (deltaRe + deltaIm * 0.0) * (1.0 / div) : deltaRe / div;
      stepIm = isComplex ? (deltaIm - deltaRe * 0.0) * (1.0 / div) : 0;
      stepZero = stepRe == 0 && stepIm == 0;
    } else {
      stepRe = 0;
      stepIm = 0;
      stepZero = false;
    }
  }

  private static Complex complex(Object v) {
    if (v instanceof Complex c) {
      return c;
    }
    if (v instanceof Number n) {
      return new Complex(n.doubleValue(), 0);
    }
    throw new IllegalArgumentException("linspace: start and stop must be numbers, got " + v);
  }

  /** Sets {@code block[i]} to element {@code flat}. */
  void set(NDArray block, int i, long flat) {
    if (endpoint && num > 1 && flat == num - 1) {
      block.setComplex(i, stopRe, stopIm);
      return;
    }
    double re;
    double im;
    if (div > 0 && !stepZero) {
      re = flat * stepRe;
      im = flat * stepIm;
    } else if (div > 0) {
      re = (double) flat / div * deltaRe;
      im = (double) flat / div * deltaIm;
    } else {
      re = flat * deltaRe;
      im = flat * deltaIm;
    }
    block.setComplex(i, re + startRe, im + startIm);
  }
}
