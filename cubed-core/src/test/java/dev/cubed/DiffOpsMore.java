package dev.cubed;

import dev.cubed.DiffOps.Kind;
import dev.cubed.DiffOps.Leaves;
import dev.cubed.DiffOps.Step;
import dev.cubed.DiffOps.V;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Complex;
import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.reduce.Utility;
import dev.cubed.nd.sort.Sets;
import dev.cubed.nd.sort.Sorting;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * More op generators of {@link DifferentialTest} (issue 11's added functions): scalar operands,
 * flattened argmax/argmin, count_nonzero, where, clip, flip, roll, moveaxis, matrix_transpose,
 * vecdot, tile, repeat, tril/triu, diff, isin.
 */
final class DiffOpsMore {
  private DiffOpsMore() {}

  static Step draw(Random r, List<V> vals, Leaves leaves) {
    V x = DiffOps.exact(r, vals);
    if (x == null) {
      return null;
    }
    String n = x.name();
    int nd = x.k().ndim();
    int ax = nd == 0 ? 0 : r.nextInt(nd);
    switch (r.nextInt(17)) {
      case 0:
        {
          String f = XpMoreFunctionsTest.BINARY[r.nextInt(XpMoreFunctionsTest.BINARY.length)];
          Object s = scalar(r);
          boolean left = r.nextBoolean();
          return new Step(
              f + (left ? "(" + s + ", " + n + ")" : "(" + n + ", " + s + ")"),
              List.of(x),
              a -> (NDArray) call(Elementwise.class, f, left, Object.class, s, a[0]),
              a -> (CubedArray) call(Xp.class, f, left, CubedArray.class, s, a[0]),
              Kind.EXACT);
        }
      case 1:
        {
          boolean max = r.nextBoolean();
          return new Step(
              (max ? "argmax(" : "argmin(") + n + ")",
              List.of(x),
              a -> max ? Searching.argmax(a[0]) : Searching.argmin(a[0]),
              a -> max ? Xp.argmax(a[0]) : Xp.argmin(a[0]),
              Kind.EXACT);
        }
      case 2:
        {
          Axes axes = DiffOps.axes(r, nd);
          return new Step(
              "count_nonzero(" + n + ", " + axes + ")",
              List.of(x),
              a -> Searching.countNonzero(a[0], axes),
              a -> Xp.countNonzero(a[0], axes),
              Kind.EXACT);
        }
      case 3:
        {
          V c = leaves.leaf(DType.BOOL, x.k().shape());
          V y = r.nextBoolean() ? leaves.leaf(DiffData.dtype(r), x.k().shape()) : null;
          Object s = scalar(r);
          if (y != null) {
            return new Step(
                "where(" + c.name() + ", " + n + ", " + y.name() + ")",
                List.of(c, x, y),
                a -> Searching.where(a[0], a[1], a[2]),
                a -> Xp.where(a[0], a[1], a[2]),
                Kind.EXACT);
          }
          return new Step(
              "where(" + c.name() + ", " + n + ", " + s + ")",
              List.of(c, x),
              a -> Searching.where(a[0], a[1], s),
              a -> Xp.where(a[0], a[1], s),
              Kind.EXACT);
        }
      case 4:
        {
          Object lo = r.nextInt(3) == 0 ? null : (Object) (long) -r.nextInt(3);
          Object hi = r.nextInt(3) == 0 ? null : (Object) (r.nextBoolean() ? 2.5 : (Object) 3L);
          return new Step(
              "clip(" + n + ", " + lo + ", " + hi + ")",
              List.of(x),
              a -> Elementwise.clip(a[0], lo, hi),
              a -> Xp.clip(a[0], lo, hi),
              Kind.EXACT);
        }
      case 5:
        return new Step(
            "flip(" + n + ", " + ax + ")",
            List.of(x),
            a -> Manipulation.flip(a[0], nd == 0 ? new int[0] : new int[] {ax}),
            a -> Xp.flip(a[0], nd == 0 ? new int[0] : new int[] {ax}),
            Kind.EXACT);
      case 6:
        {
          long sh = r.nextInt(11) - 5;
          boolean flat = nd == 0 || r.nextBoolean();
          return new Step(
              "roll(" + n + ", " + sh + (flat ? ")" : ", " + ax + ")"),
              List.of(x),
              a ->
                  flat
                      ? Manipulation.roll(a[0], sh)
                      : Manipulation.roll(a[0], new long[] {sh}, new int[] {ax}),
              a -> flat ? Xp.roll(a[0], sh) : Xp.roll(a[0], sh, ax),
              Kind.EXACT);
        }
      case 7:
        {
          int dst = nd == 0 ? 0 : r.nextInt(nd);
          return new Step(
              "moveaxis(" + n + ", " + ax + ", " + dst + ")",
              List.of(x),
              a -> Manipulation.moveaxis(a[0], ax, dst),
              a -> Xp.moveaxis(a[0], ax, dst),
              Kind.EXACT);
        }
      case 8:
        return new Step(
            "matrix_transpose(" + n + ")",
            List.of(x),
            a -> Linalg.matrixTranspose(a[0]),
            a -> Xp.matrixTranspose(a[0]),
            Kind.EXACT);
      case 9:
        {
          V y = leaves.leaf(DiffData.dtype(r), x.k().shape());
          return new Step(
              "vecdot(" + n + ", " + y.name() + ")",
              List.of(x, y),
              a -> Linalg.vecdot(a[0], a[1]),
              a -> Xp.vecdot(a[0], a[1]),
              Kind.APPROX);
        }
      case 10:
        {
          long[] reps = new long[r.nextInt(nd + 2)];
          for (int i = 0; i < reps.length; i++) {
            reps[i] = r.nextInt(3);
          }
          return new Step(
              "tile(" + n + ", " + Arrays.toString(reps) + ")",
              List.of(x),
              a -> Manipulation.tile(a[0], reps),
              a -> Xp.tile(a[0], reps),
              Kind.EXACT);
        }
      case 11:
        {
          long rep = r.nextInt(3);
          return new Step(
              "repeat(" + n + ", " + rep + ", " + ax + ")",
              List.of(x),
              a -> Manipulation.repeat(a[0], new long[] {rep}, ax),
              a -> Xp.repeat(a[0], rep, ax),
              Kind.EXACT);
        }
      case 12:
        {
          long k = r.nextInt(5) - 2;
          boolean lower = r.nextBoolean();
          return new Step(
              (lower ? "tril(" : "triu(") + n + ", " + k + ")",
              List.of(x),
              a -> lower ? Creation.tril(a[0], k) : Creation.triu(a[0], k),
              a -> lower ? Xp.tril(a[0], k) : Xp.triu(a[0], k),
              Kind.EXACT);
        }
      case 14:
        {
          if (nd == 0) {
            return null;
          }
          long len = x.k().shape(ax);
          NDArray idx = NDArray.zeros(DType.INT64, r.nextInt(7));
          for (int i = 0; i < idx.size(); i++) {
            idx.setLong(i, len == 0 ? 0 : r.nextInt((int) (2 * len)) - len);
          }
          return new Step(
              "take(" + n + ", " + idx + ", " + ax + ")",
              List.of(x),
              a -> Indexing.take(a[0], idx, ax),
              a -> Xp.take(a[0], idx, ax),
              Kind.EXACT);
        }
      case 15:
        {
          if (nd == 0) {
            return null;
          }
          long len = x.k().shape(ax);
          long[] is = x.k().shape().clone();
          is[ax] = r.nextInt(4);
          NDArray idx = NDArray.zeros(DType.INT64, is);
          for (int i = 0; i < idx.size(); i++) {
            idx.setLong(i, len == 0 ? 0 : r.nextInt((int) len));
          }
          return new Step(
              "take_along_axis(" + n + ", " + idx + ", " + ax + ")",
              List.of(x),
              a -> Indexing.takeAlongAxis(a[0], idx, ax),
              a -> Xp.takeAlongAxis(a[0], idx, ax),
              Kind.EXACT);
        }
      case 16:
        {
          V y = leaves.leaf(x.k().dtype(), new long[] {DiffData.dim(r)});
          Searching.Side side = r.nextBoolean() ? Searching.Side.LEFT : Searching.Side.RIGHT;
          return new Step(
              "searchsorted(sort(" + y.name() + "), " + n + ", " + side + ")",
              List.of(y, x),
              a ->
                  Searching.searchsorted(
                      Sorting.sort(a[0], 0, Sorting.Order.ASCENDING), a[1], side, null),
              a -> Xp.searchsorted(sortedLeaf(a[0]), a[1], side),
              Kind.EXACT);
        }
      default:
        {
          if (r.nextBoolean()) {
            int order = r.nextInt(3);
            return new Step(
                "diff(" + n + ", " + order + ", " + ax + ")",
                List.of(x),
                a -> Utility.diff(a[0], order, ax, null, null),
                a -> Xp.diff(a[0], order, ax, null, null),
                Kind.EXACT);
          }
          V y = leaves.leaf(DiffData.dtype(r), DiffData.shape(r));
          return new Step(
              "isin(" + n + ", " + y.name() + ")",
              List.of(x, y),
              a -> Sets.isin(a[0], a[1]),
              a -> Xp.isin(a[0], a[1]),
              Kind.EXACT);
        }
    }
  }

  /** The leaf sorted in memory (leaves are small), as a one-chunk array on the same spec. */
  private static CubedArray sortedLeaf(CubedArray leaf) {
    NDArray k = leaf.compute();
    if (k.ndim() != 1 || k.dtype().isComplex()) {
      return leaf; // let searchsorted refuse as the kernel does
    }
    return Cubed.asarray(Sorting.sort(k, 0, Sorting.Order.ASCENDING), leaf.spec());
  }

  static Object scalar(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextBoolean();
      case 1 -> (long) (r.nextInt(7) - 3);
      case 2 -> new double[] {0.5, -2.25, -0.0, Double.NaN, 3.0}[r.nextInt(5)];
      default -> new Complex(r.nextInt(5) - 2, 0.5);
    };
  }

  /** Calls the static binary {@code name} of {@code owner} with the scalar left or right. */
  private static Object call(
      Class<?> owner, String name, boolean scalarLeft, Class<?> arrayType, Object s, Object array) {
    try {
      Method m =
          scalarLeft
              ? owner.getMethod(name, Object.class, arrayType)
              : owner.getMethod(name, arrayType, Object.class);
      return scalarLeft ? m.invoke(null, s, array) : m.invoke(null, array, s);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
