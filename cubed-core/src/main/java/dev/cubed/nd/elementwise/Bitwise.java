package dev.cubed.nd.elementwise;

/**
 * Bitwise functions on integers (and, for and/or/xor/invert, bools). Shifts follow NumPy: a shift
 * count at least the bit width (or negative) gives 0 for left shifts and for right shifts of
 * non-negative values, and -1 for right shifts of negative signed values; right shifts are
 * arithmetic for signed and logical for unsigned dtypes.
 */
final class Bitwise {
  private Bitwise() {}

  static final BinaryOp AND =
      BinaryOp.of("bitwise_and", Accept.INTEGER_OR_BOOL)
          .ints(Kernels.ints((a, b) -> a & b))
          .bools(Kernels.bools((a, b) -> a & b));
  static final BinaryOp OR =
      BinaryOp.of("bitwise_or", Accept.INTEGER_OR_BOOL)
          .ints(Kernels.ints((a, b) -> a | b))
          .bools(Kernels.bools((a, b) -> a | b));
  static final BinaryOp XOR =
      BinaryOp.of("bitwise_xor", Accept.INTEGER_OR_BOOL)
          .ints(Kernels.ints((a, b) -> a ^ b))
          .bools(Kernels.bools((a, b) -> a ^ b));

  static final BinaryOp LEFT_SHIFT =
      BinaryOp.of("bitwise_left_shift", Accept.INTEGER)
          .ints(Kernels.ints((a, b) -> b < 0 || b >= 64 ? 0 : a << b));

  static final BinaryOp RIGHT_SHIFT =
      BinaryOp.of("bitwise_right_shift", Accept.INTEGER)
          .ints(Kernels.ints((a, b) -> b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b))
          .u64(Kernels.ints((a, b) -> b < 0 || b >= 64 ? 0 : a >>> b));

  private static final Loops.Unary NOT =
      (x, out, n) -> {
        boolean[] a = (boolean[]) x;
        boolean[] o = (boolean[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = !a[i];
        }
      };

  static final UnaryOp INVERT =
      UnaryOp.of("bitwise_invert", Accept.INTEGER_OR_BOOL).ints(Kernels.ints(a -> ~a)).bools(NOT);
}
