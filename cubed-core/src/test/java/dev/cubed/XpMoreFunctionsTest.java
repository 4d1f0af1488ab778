package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.nd.Axes;
import dev.cubed.nd.Complex;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.DataTypes;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Searching;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The chunked functions added for issue 11 (scalar operands, flattened argmax/argmin,
 * count_nonzero, where, clip, flip, roll, moveaxis, matrix_transpose, vecdot, *_like, result_type,
 * can_cast, the inspection namespace) against the kernel on the same data: every dtype, shapes with
 * zero-length and size-1 axes, regular chunks with partial edge blocks and irregular block lists,
 * at an allowedMem of 4 KB. What the kernel refuses must be refused when the op is built.
 */
class XpMoreFunctionsTest extends ChunkedVsKernel {
  private static Object randomScalar(Random r, DType arrayType) {
    return switch (r.nextInt(5)) {
      case 0 -> r.nextBoolean();
      case 1 -> (long) (r.nextInt(7) - 3);
      case 2 -> new double[] {0.5, -2.25, -0.0, Double.NaN, 3.0}[r.nextInt(5)];
      case 3 -> new Complex(r.nextInt(5) - 2, 0.5);
      default ->
          arrayType.isBool()
              ? (Object) r.nextBoolean()
              : arrayType.isComplex()
                  ? new Complex(1.5, -1)
                  : arrayType.isFloating() ? (Object) 1.25 : (Object) (long) (r.nextInt(5) + 1);
    };
  }

  static final String[] BINARY = {
    "add",
    "atan2",
    "bitwiseAnd",
    "bitwiseLeftShift",
    "bitwiseOr",
    "bitwiseRightShift",
    "bitwiseXor",
    "copysign",
    "divide",
    "equal",
    "floorDivide",
    "greater",
    "greaterEqual",
    "hypot",
    "less",
    "lessEqual",
    "logaddexp",
    "logicalAnd",
    "logicalOr",
    "logicalXor",
    "maximum",
    "minimum",
    "multiply",
    "nextafter",
    "notEqual",
    "pow",
    "remainder",
    "subtract"
  };

  private static Object call(Method m, Object a, Object b) {
    try {
      return m.invoke(null, a, b);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void scalarOperandsOfEveryBinaryFunctionAgreeWithKernel() throws Exception {
    Random r = new Random(11);
    for (String name : BINARY) {
      Method kl = Elementwise.class.getMethod(name, Object.class, Object.class);
      Method kr = Elementwise.class.getMethod(name, Object.class, Object.class);
      Method cl = Xp.class.getMethod(name, CubedArray.class, Object.class);
      Method cr = Xp.class.getMethod(name, Object.class, CubedArray.class);
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 0));
        Object s = randomScalar(r, t);
        String w = name + "(" + t + ", " + s + ")";
        check(w, () -> (NDArray) call(kl, x.k(), s), () -> (CubedArray) call(cl, x.c(), s), false);
        check(
            name + "(" + s + ", " + t + ")",
            () -> (NDArray) call(kr, s, x.k()),
            () -> (CubedArray) call(cr, s, x.c()),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void scalarPromotionFollowsTheStandardAndNep50() {
    Spec spec = spec();
    CubedArray i8 = Cubed.fromArray(NDArray.ones(DType.INT8, 5), new long[] {2}, spec);
    CubedArray f32 = Cubed.fromArray(NDArray.ones(DType.FLOAT32, 5), new long[] {2}, spec);
    CubedArray b = Cubed.fromArray(NDArray.ones(DType.BOOL, 5), new long[] {2}, spec);
    assertEquals(DType.INT8, Xp.add(i8, 2).dtype(), "int scalar takes the int array's dtype");
    assertEquals(DType.FLOAT32, Xp.multiply(3, f32).dtype(), "int scalar with float array");
    assertEquals(DType.FLOAT32, f32.add(2.0).dtype(), "float scalar takes float32");
    assertEquals(DType.FLOAT64, Xp.add(i8, 2.5).dtype(), "mixed kind: NumPy 2 gives float64");
    assertEquals(DType.COMPLEX64, Xp.add(f32, new Complex(1, 1)).dtype());
    assertEquals(DType.BOOL, Xp.logicalAnd(b, true).dtype());
    assertEquals(DType.BOOL, i8.less(1).dtype());
    assertEquals(7.0, i8.multiply(3).add(4).sum().compute().getDouble(0) / 5);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Xp.add(i8, "2"));
    assertTrue(
        e.getMessage().startsWith("add: unsupported scalar java.lang.String"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Xp.add(i8, (Object) NDArray.ones(DType.INT8, 1)));
    assertTrue(e.getMessage().contains("add: the scalar operand is an array"), e.getMessage());
    // the instance form with an array argument takes the array-array path
    assertEquals(DType.FLOAT32, i8.add((Object) f32).dtype());
  }

  @Test
  void searchAndSelectionAgreeWithKernel() {
    Random r = new Random(12);
    for (int round = 0; round < 3; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 0));
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        check("argmax " + d, () -> Searching.argmax(x.k()), () -> Xp.argmax(x.c()), false);
        check("argmin " + d, () -> Searching.argmin(x.k()), () -> Xp.argmin(x.c()), false);
        check(
            "count_nonzero " + d,
            () -> Searching.countNonzero(x.k()),
            () -> Xp.countNonzero(x.c()),
            false);
        if (x.k().ndim() > 0) {
          int ax = r.nextInt(x.k().ndim());
          check(
              "count_nonzero axis " + ax + " " + d,
              () -> Searching.countNonzero(x.k(), Axes.of(ax).keepDims()),
              () -> Xp.countNonzero(x.c(), Axes.of(ax).keepDims()),
              false);
        }
        In cond = input(r, DType.BOOL, x.k().shape());
        In y = input(r, DiffData.dtype(r), x.k().shape());
        check(
            "where " + d,
            () -> Searching.where(cond.k(), x.k(), y.k()),
            () -> Xp.where(cond.c(), x.c(), y.c()),
            false);
        Object s = randomScalar(r, t);
        check(
            "where scalar " + s + " " + d,
            () -> Searching.where(cond.k(), x.k(), s),
            () -> Xp.where(cond.c(), x.c(), s),
            false);
        check(
            "where scalar first " + s + " " + d,
            () -> Searching.where(cond.k(), s, x.k()),
            () -> Xp.where(cond.c(), s, x.c()),
            false);
        Object lo = r.nextInt(3) == 0 ? null : (Object) (long) -(r.nextInt(3));
        Object hi = r.nextInt(3) == 0 ? null : (Object) (long) r.nextInt(4);
        check(
            "clip(" + lo + ", " + hi + ") " + d,
            () -> Elementwise.clip(x.k(), lo, hi),
            () -> Xp.clip(x.c(), lo, hi),
            false);
        In bound = input(r, t, x.k().shape());
        check(
            "clip(array, " + hi + ") " + d,
            () -> Elementwise.clip(Elementwise.clip(x.k(), bound.k(), null), null, hi),
            () -> Xp.clip(x.c(), bound.c(), hi),
            false);
        check(
            "clip(array, array) " + d,
            () -> Elementwise.clip(x.k(), bound.k(), y.k().astype(t)),
            () -> Xp.clip(x.c(), bound.c(), Xp.astype(y.c(), t)),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void rearrangingAndVectorFunctionsAgreeWithKernel() {
    Random r = new Random(13);
    for (int round = 0; round < 3; round++) {
      for (DType t : DiffData.DTYPES) {
        In x = input(r, t, shape(r, 1));
        int nd = x.k().ndim();
        String d = t + Arrays.toString(x.k().shape()) + " round " + round;
        int ax = r.nextInt(nd);
        check("flip all " + d, () -> Manipulation.flip(x.k()), () -> Xp.flip(x.c()), false);
        check(
            "flip " + ax + " " + d,
            () -> Manipulation.flip(x.k(), ax),
            () -> Xp.flip(x.c(), ax),
            false);
        long sh = r.nextInt(15) - 7;
        check(
            "roll " + sh + " axis " + ax + " " + d,
            () -> Manipulation.roll(x.k(), new long[] {sh}, new int[] {ax}),
            () -> Xp.roll(x.c(), sh, ax),
            false);
        check(
            "roll flat " + sh + " " + d,
            () -> Manipulation.roll(x.k(), sh),
            () -> Xp.roll(x.c(), sh),
            false);
        int dst = r.nextInt(nd) - (r.nextBoolean() ? nd : 0);
        check(
            "moveaxis " + ax + "->" + dst + " " + d,
            () -> Manipulation.moveaxis(x.k(), ax, dst),
            () -> Xp.moveaxis(x.c(), ax, dst),
            false);
        check(
            "matrix_transpose " + d,
            () -> Linalg.matrixTranspose(x.k()),
            () -> Xp.matrixTranspose(x.c()),
            false);
        In y = input(r, DiffData.dtype(r), x.k().shape());
        boolean approx = Xp.resultType(t, y.k().dtype()).isFloating();
        check(
            "vecdot " + d + " with " + y.k().dtype(),
            () -> Linalg.vecdot(x.k(), y.k()),
            () -> Xp.vecdot(x.c(), y.c()),
            approx);
        check(
            "zeros_like " + d,
            () -> Creation.zerosLike(x.k(), null),
            () -> Xp.zerosLike(x.c()),
            false);
        check(
            "ones_like " + d,
            () -> Creation.onesLike(x.k(), DType.INT16),
            () -> Xp.onesLike(x.c(), DType.INT16),
            false);
        check(
            "full_like " + d,
            () -> Creation.fullLike(x.k(), true, null),
            () -> Xp.fullLike(x.c(), true),
            false);
      }
    }
    assertNoFailures();
  }

  @Test
  void flipOfAPartialEdgeBlockGivesReversedChunksAndOneReadPerTask() {
    NDArray a = Creation.arange(0, 10, 1, DType.FLOAT64).reshape(10);
    CubedArray c = Cubed.fromArray(a, new long[] {4}, spec());
    CubedArray f = Xp.flip(c);
    assertEquals(List.of(2L, 4L, 4L), Arrays.stream(f.chunks()[0]).boxed().toList());
    assertNull(DifferentialTest.compare(Manipulation.flip(a), f.compute(), false, 1, false));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Xp.flip(c, 1));
    assertTrue(e.getMessage().contains("flip"), e.getMessage());
    CubedArray z = Xp.zerosLike(f);
    assertEquals(f.chunks()[0].length, z.chunks()[0].length, "*_like keeps irregular chunks");
    assertThrows(
        IllegalArgumentException.class,
        () -> Xp.argmax(Xp.zeros(new long[] {3, 0}, DType.FLOAT64, new long[] {2, 1}, spec())));
    assertThrows(IllegalArgumentException.class, () -> Xp.matrixTranspose(c));
  }

  @Test
  void resultTypeCanCastAndInspectionNamespace() {
    Spec spec = spec();
    CubedArray i8 = Cubed.fromArray(NDArray.ones(DType.INT8, 3), new long[] {2}, spec);
    CubedArray u8 = Cubed.fromArray(NDArray.ones(DType.UINT8, 3), new long[] {2}, spec);
    assertEquals(DType.INT16, Xp.resultType(i8, u8));
    assertEquals(
        DataTypes.resultType(DType.INT8, DType.FLOAT32, 1.5),
        Xp.resultType(i8, DType.FLOAT32, 1.5));
    assertTrue(Xp.canCast(i8, DType.INT64));
    assertFalse(Xp.canCast(i8, DType.UINT8));
    ArrayApiInfo info = Xp.info();
    assertEquals("cpu", info.defaultDevice());
    assertEquals(List.of("cpu"), info.devices());
    assertEquals(true, info.capabilities().get("boolean indexing"));
    assertTrue(info.capabilities().containsKey("max dimensions"));
    assertEquals(DType.FLOAT64, info.defaultDtypes().get("real floating"));
    assertEquals(DType.INT64, info.defaultDtypes().get("indexing"));
    assertEquals(13, info.dtypes().size());
    assertEquals(
        List.of("uint8", "uint16", "uint32", "uint64"),
        List.copyOf(info.dtypes("cpu", "unsigned integer").keySet()));
    assertThrows(IllegalArgumentException.class, () -> info.dtypes("gpu", null));
  }
}
