package dev.cubed.nd.elementwise;

/**
 * Rounding functions: ceil, floor and trunc (real numeric; integers are returned unchanged) and
 * round (numeric; half to even, each part of a complex number separately).
 */
final class Rounding {
  private Rounding() {}

  static final UnaryOp CEIL =
      UnaryOp.of("ceil", Accept.REAL_NUMERIC).real(Kernels.real(Math::ceil)).ints(Kernels.IDENTITY);
  static final UnaryOp FLOOR =
      UnaryOp.of("floor", Accept.REAL_NUMERIC)
          .real(Kernels.real(Math::floor))
          .ints(Kernels.IDENTITY);
  static final UnaryOp TRUNC =
      UnaryOp.of("trunc", Accept.REAL_NUMERIC)
          .real(Kernels.real(a -> a < 0 ? Math.ceil(a) : Math.floor(a)))
          .ints(Kernels.IDENTITY);
  static final UnaryOp ROUND =
      UnaryOp.of("round", Accept.NUMERIC)
          .real(Kernels.real(Math::rint))
          .ints(Kernels.IDENTITY)
          .complex(
              Kernels.complex(
                  (x, y, r) -> {
                    r[0] = Math.rint(x);
                    r[1] = Math.rint(y);
                  }));
}
