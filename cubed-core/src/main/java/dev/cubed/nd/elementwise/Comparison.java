package dev.cubed.nd.elementwise;

import static dev.cubed.nd.DType.FLOAT32;
import static dev.cubed.nd.DType.FLOAT64;
import static dev.cubed.nd.DType.INT32;
import static dev.cubed.nd.DType.INT64;

/**
 * Comparisons (bool results; NaN compares unequal, unsigned integers compare as unsigned), the
 * logical functions on bool arrays, and the classification predicates isnan, isinf, isfinite and
 * signbit.
 */
final class Comparison {
  private Comparison() {}

  static final BinaryOp EQUAL =
      BinaryOp.predicate("equal", Accept.ANY)
          .real(Kernels.realTest((a, b) -> a == b))
          .ints(Kernels.intsTest((a, b) -> a == b))
          .complex(Kernels.complexTest((ar, ai, br, bi) -> ar == br && ai == bi))
          .bools(Kernels.bools((a, b) -> a == b))
          .fast(FLOAT64, FastCompareFloat.EQUAL_F64)
          .fast(FLOAT32, FastCompareFloat.EQUAL_F32)
          .fast(INT32, FastCompareInt.EQUAL_I32)
          .fast(INT64, FastCompareInt.EQUAL_I64);

  static final BinaryOp NOT_EQUAL =
      BinaryOp.predicate("not_equal", Accept.ANY)
          .real(Kernels.realTest((a, b) -> a != b))
          .ints(Kernels.intsTest((a, b) -> a != b))
          .complex(Kernels.complexTest((ar, ai, br, bi) -> ar != br || ai != bi))
          .bools(Kernels.bools((a, b) -> a != b))
          .fast(FLOAT64, FastCompareFloat.NOT_EQUAL_F64)
          .fast(FLOAT32, FastCompareFloat.NOT_EQUAL_F32)
          .fast(INT32, FastCompareInt.NOT_EQUAL_I32)
          .fast(INT64, FastCompareInt.NOT_EQUAL_I64);

  static final BinaryOp LESS =
      BinaryOp.predicate("less", Accept.REAL_NUMERIC)
          .real(Kernels.realTest((a, b) -> a < b))
          .ints(Kernels.intsTest((a, b) -> a < b))
          .u64(Kernels.intsTest((a, b) -> Long.compareUnsigned(a, b) < 0))
          .fast(FLOAT64, FastCompareFloat.LESS_F64)
          .fast(FLOAT32, FastCompareFloat.LESS_F32)
          .fast(INT32, FastCompareInt.LESS_I32)
          .fast(INT64, FastCompareInt.LESS_I64);

  static final BinaryOp LESS_EQUAL =
      BinaryOp.predicate("less_equal", Accept.REAL_NUMERIC)
          .real(Kernels.realTest((a, b) -> a <= b))
          .ints(Kernels.intsTest((a, b) -> a <= b))
          .u64(Kernels.intsTest((a, b) -> Long.compareUnsigned(a, b) <= 0))
          .fast(FLOAT64, FastCompareFloat.LESS_EQUAL_F64)
          .fast(FLOAT32, FastCompareFloat.LESS_EQUAL_F32)
          .fast(INT32, FastCompareInt.LESS_EQUAL_I32)
          .fast(INT64, FastCompareInt.LESS_EQUAL_I64);

  static final BinaryOp GREATER =
      BinaryOp.predicate("greater", Accept.REAL_NUMERIC)
          .real(Kernels.realTest((a, b) -> a > b))
          .ints(Kernels.intsTest((a, b) -> a > b))
          .u64(Kernels.intsTest((a, b) -> Long.compareUnsigned(a, b) > 0))
          .fast(FLOAT64, FastCompareFloat.GREATER_F64)
          .fast(FLOAT32, FastCompareFloat.GREATER_F32)
          .fast(INT32, FastCompareInt.GREATER_I32)
          .fast(INT64, FastCompareInt.GREATER_I64);

  static final BinaryOp GREATER_EQUAL =
      BinaryOp.predicate("greater_equal", Accept.REAL_NUMERIC)
          .real(Kernels.realTest((a, b) -> a >= b))
          .ints(Kernels.intsTest((a, b) -> a >= b))
          .u64(Kernels.intsTest((a, b) -> Long.compareUnsigned(a, b) >= 0))
          .fast(FLOAT64, FastCompareFloat.GREATER_EQUAL_F64)
          .fast(FLOAT32, FastCompareFloat.GREATER_EQUAL_F32)
          .fast(INT32, FastCompareInt.GREATER_EQUAL_I32)
          .fast(INT64, FastCompareInt.GREATER_EQUAL_I64);

  static final BinaryOp LOGICAL_AND =
      BinaryOp.predicate("logical_and", Accept.BOOL).bools(Kernels.bools((a, b) -> a & b));
  static final BinaryOp LOGICAL_OR =
      BinaryOp.predicate("logical_or", Accept.BOOL).bools(Kernels.bools((a, b) -> a | b));
  static final BinaryOp LOGICAL_XOR =
      BinaryOp.predicate("logical_xor", Accept.BOOL).bools(Kernels.bools((a, b) -> a ^ b));

  private static final Loops.Unary NOT =
      (x, out, n) -> {
        boolean[] a = (boolean[]) x;
        boolean[] o = (boolean[]) out;
        for (int i = 0; i < n; i++) {
          o[i] = !a[i];
        }
      };

  static final UnaryOp LOGICAL_NOT = UnaryOp.of("logical_not", Accept.BOOL).bools(NOT);

  static final UnaryOp ISNAN =
      UnaryOp.of("isnan", Accept.ANY, UnaryOp.Out.BOOL)
          .real(Kernels.realTest(Double::isNaN))
          .complex(Kernels.complexTest((x, y) -> Double.isNaN(x) || Double.isNaN(y)))
          .ints(Kernels.boolConst(false))
          .bools(Kernels.boolConst(false))
          .fast(FLOAT64, Comparison::isnanF64)
          .fast(FLOAT32, Comparison::isnanF32);

  /** isnan on float64 storage: NaN is the one value not equal to itself. */
  private static void isnanF64(Object x, Object out, int n) {
    double[] a = (double[]) x;
    boolean[] o = (boolean[]) out;
    for (int i = 0; i < n; i++) {
      o[i] = a[i] != a[i];
    }
  }

  /** isnan on float32 storage, without widening to float64 first. */
  private static void isnanF32(Object x, Object out, int n) {
    float[] a = (float[]) x;
    boolean[] o = (boolean[]) out;
    for (int i = 0; i < n; i++) {
      o[i] = a[i] != a[i];
    }
  }

  static final UnaryOp ISINF =
      UnaryOp.of("isinf", Accept.ANY, UnaryOp.Out.BOOL)
          .real(Kernels.realTest(Double::isInfinite))
          .complex(Kernels.complexTest((x, y) -> Double.isInfinite(x) || Double.isInfinite(y)))
          .ints(Kernels.boolConst(false))
          .bools(Kernels.boolConst(false));

  static final UnaryOp ISFINITE =
      UnaryOp.of("isfinite", Accept.ANY, UnaryOp.Out.BOOL)
          .real(Kernels.realTest(Double::isFinite))
          .complex(Kernels.complexTest((x, y) -> Double.isFinite(x) && Double.isFinite(y)))
          .ints(Kernels.boolConst(true))
          .bools(Kernels.boolConst(true));

  static final UnaryOp SIGNBIT =
      UnaryOp.of("signbit", Accept.REAL_FLOATING, UnaryOp.Out.BOOL)
          .real(Kernels.realTest(a -> Double.doubleToRawLongBits(a) < 0));
}
