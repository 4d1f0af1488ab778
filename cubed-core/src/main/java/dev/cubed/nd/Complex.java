package dev.cubed.nd;

import java.io.Serializable;

/**
 * A complex scalar (real and imaginary parts as doubles), used for complex fill values, scalar
 * arguments and element access of complex arrays.
 */
public record Complex(double re, double im) implements Serializable {

  public static final Complex ZERO = new Complex(0, 0);

  public static Complex of(double re, double im) {
    return new Complex(re, im);
  }

  @Override
  public String toString() {
    return "(" + re + (im >= 0 || Double.isNaN(im) ? "+" : "") + im + "j)";
  }
}
