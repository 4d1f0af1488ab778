package dev.cubed;

import dev.cubed.core.Reductions;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.Manipulation;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.elementwise.Elementwise;
import dev.cubed.nd.linalg.Linalg;
import dev.cubed.nd.reduce.Searching;
import dev.cubed.nd.reduce.Statistics;
import dev.cubed.nd.reduce.Utility;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The op generators of {@link DifferentialTest}: each draws one op with random parameters over
 * values already built and states it twice, as the in-memory kernel call and as the chunked call.
 */
final class DiffOps {
  private DiffOps() {}

  /** A value of the program: the kernel's array, the chunked array, and how to compare it. */
  record V(String name, NDArray k, CubedArray c, boolean approx, double scale, boolean loose) {}

  /** How a step's result compares. */
  enum Kind {
    /** Bit-exact (after the same kernel runs per element or in the same order). */
    EXACT,
    /** Floating results that depend on summation order: compared with a tolerance. */
    APPROX,
    /** Moves values only: approximate iff an input is. */
    STRUCTURAL,
    /**
     * Complex products (prod, cumulative_prod): approximate, and with a non-finite factor the
     * NaN/inf pattern of NumPy's naive complex multiply depends on the multiplication order (a tree
     * or block scan multiplies in another order than the kernel's left-to-right loop), so only
     * "non-finite" is compared there.
     */
    PRODUCT,
    /**
     * min/max: exact except the sign of a zero result when +0 and -0 tie (unspecified, as in NumPy,
     * whose result depends on its loop layout): compared like APPROX.
     */
    TIES
  }

  /** One op: its text, inputs, and the kernel and chunked forms. */
  record Step(
      String text,
      List<V> in,
      Function<NDArray[], NDArray> k,
      Function<CubedArray[], CubedArray> c,
      Kind kind) {}

  /** Makes new leaves (random data and chunking) for ops that need a partner of some shape. */
  interface Leaves {
    V leaf(DType t, long[] shape);
  }

  record U(String name, Function<NDArray, NDArray> k, Function<CubedArray, CubedArray> c) {}

  record B(
      String name,
      BiFunction<NDArray, NDArray, NDArray> k,
      BiFunction<CubedArray, CubedArray, CubedArray> c) {}

  static final List<U> UNARY =
      List.of(
          new U("abs", Elementwise::abs, Xp::abs),
          new U("acos", Elementwise::acos, Xp::acos),
          new U("acosh", Elementwise::acosh, Xp::acosh),
          new U("asin", Elementwise::asin, Xp::asin),
          new U("asinh", Elementwise::asinh, Xp::asinh),
          new U("atan", Elementwise::atan, Xp::atan),
          new U("atanh", Elementwise::atanh, Xp::atanh),
          new U("bitwise_invert", Elementwise::bitwiseInvert, Xp::bitwiseInvert),
          new U("ceil", Elementwise::ceil, Xp::ceil),
          new U("conj", Elementwise::conj, Xp::conj),
          new U("cos", Elementwise::cos, Xp::cos),
          new U("cosh", Elementwise::cosh, Xp::cosh),
          new U("exp", Elementwise::exp, Xp::exp),
          new U("expm1", Elementwise::expm1, Xp::expm1),
          new U("floor", Elementwise::floor, Xp::floor),
          new U("imag", Elementwise::imag, Xp::imag),
          new U("isfinite", Elementwise::isfinite, Xp::isfinite),
          new U("isinf", Elementwise::isinf, Xp::isinf),
          new U("isnan", Elementwise::isnan, Xp::isnan),
          new U("log", Elementwise::log, Xp::log),
          new U("log1p", Elementwise::log1p, Xp::log1p),
          new U("log2", Elementwise::log2, Xp::log2),
          new U("log10", Elementwise::log10, Xp::log10),
          new U("logical_not", Elementwise::logicalNot, Xp::logicalNot),
          new U("negative", Elementwise::negative, Xp::negative),
          new U("positive", Elementwise::positive, Xp::positive),
          new U("real", Elementwise::real, Xp::real),
          new U("reciprocal", Elementwise::reciprocal, Xp::reciprocal),
          new U("round", Elementwise::round, Xp::round),
          new U("sign", Elementwise::sign, Xp::sign),
          new U("signbit", Elementwise::signbit, Xp::signbit),
          new U("sin", Elementwise::sin, Xp::sin),
          new U("sinh", Elementwise::sinh, Xp::sinh),
          new U("sqrt", Elementwise::sqrt, Xp::sqrt),
          new U("square", Elementwise::square, Xp::square),
          new U("tan", Elementwise::tan, Xp::tan),
          new U("tanh", Elementwise::tanh, Xp::tanh),
          new U("trunc", Elementwise::trunc, Xp::trunc));

  static final List<B> BINARY =
      List.of(
          new B("add", Elementwise::add, Xp::add),
          new B("subtract", Elementwise::subtract, Xp::subtract),
          new B("multiply", Elementwise::multiply, Xp::multiply),
          new B("divide", Elementwise::divide, Xp::divide),
          new B("floor_divide", Elementwise::floorDivide, Xp::floorDivide),
          new B("remainder", Elementwise::remainder, Xp::remainder),
          new B("pow", Elementwise::pow, Xp::pow),
          new B("maximum", Elementwise::maximum, Xp::maximum),
          new B("minimum", Elementwise::minimum, Xp::minimum),
          new B("equal", Elementwise::equal, Xp::equal),
          new B("not_equal", Elementwise::notEqual, Xp::notEqual),
          new B("less", Elementwise::less, Xp::less),
          new B("less_equal", Elementwise::lessEqual, Xp::lessEqual),
          new B("greater", Elementwise::greater, Xp::greater),
          new B("greater_equal", Elementwise::greaterEqual, Xp::greaterEqual),
          new B("logical_and", Elementwise::logicalAnd, Xp::logicalAnd),
          new B("logical_or", Elementwise::logicalOr, Xp::logicalOr),
          new B("logical_xor", Elementwise::logicalXor, Xp::logicalXor),
          new B("bitwise_and", Elementwise::bitwiseAnd, Xp::bitwiseAnd),
          new B("bitwise_or", Elementwise::bitwiseOr, Xp::bitwiseOr),
          new B("bitwise_xor", Elementwise::bitwiseXor, Xp::bitwiseXor),
          new B("bitwise_left_shift", Elementwise::bitwiseLeftShift, Xp::bitwiseLeftShift),
          new B("bitwise_right_shift", Elementwise::bitwiseRightShift, Xp::bitwiseRightShift),
          new B("atan2", Elementwise::atan2, Xp::atan2),
          new B("hypot", Elementwise::hypot, Xp::hypot),
          new B("copysign", Elementwise::copysign, Xp::copysign),
          new B("nextafter", Elementwise::nextafter, Xp::nextafter),
          new B("logaddexp", Elementwise::logaddexp, Xp::logaddexp));

  /** Draws one step over {@code vals}, or null when the drawn op does not apply. */
  static Step draw(Random r, List<V> vals, Leaves leaves) {
    int w = r.nextInt(100);
    if (w < 14) {
      return unary(r, exact(r, vals));
    } else if (w < 28) {
      return binary(r, exact(r, vals), vals, leaves);
    } else if (w < 32) {
      V x = exact(r, vals);
      DType t = DiffData.dtype(r);
      return x == null
          ? null
          : new Step(
              "astype(" + x.name() + ", " + t + ")",
              List.of(x),
              a -> a[0].astype(t),
              a -> Xp.astype(a[0], t),
              Kind.EXACT);
    } else if (w < 44) {
      return reduction(r, exact(r, vals));
    } else if (w < 48) {
      return arg(r, exact(r, vals));
    } else if (w < 52) {
      return cumulative(r, exact(r, vals));
    } else if (w < 60) {
      return join(r, any(r, vals), vals, leaves);
    } else if (w < 72) {
      return shapeOp(r, any(r, vals));
    } else if (w < 80) {
      return getItem(r, any(r, vals));
    } else if (w < 88) {
      return contraction(r, exact(r, vals), leaves);
    } else if (w < 94) {
      return rechunk(r, any(r, vals));
    } else {
      return DiffOpsMore.draw(r, vals, leaves);
    }
  }

  static V any(Random r, List<V> vals) {
    return vals.get(
        vals.size()
            - 1
            - Math.min(vals.size() - 1, r.nextInt(4) == 0 ? r.nextInt(vals.size()) : r.nextInt(2)));
  }

  /** A value whose elements are exact (approximate ones feed only moving ops). */
  static V exact(Random r, List<V> vals) {
    List<V> ok = vals.stream().filter(v -> !v.approx()).toList();
    return ok.isEmpty() ? null : ok.get(ok.size() - 1 - r.nextInt(Math.min(3, ok.size())));
  }

  static Step unary(Random r, V x) {
    if (x == null) {
      return null;
    }
    U u = UNARY.get(r.nextInt(UNARY.size()));
    return new Step(
        u.name() + "(" + x.name() + ")",
        List.of(x),
        a -> u.k().apply(a[0]),
        a -> u.c().apply(a[0]),
        Kind.EXACT);
  }

  static Step binary(Random r, V x, List<V> vals, Leaves leaves) {
    if (x == null) {
      return null;
    }
    B b = BINARY.get(r.nextInt(BINARY.size()));
    V y;
    int pick = r.nextInt(10);
    if (pick < 3) {
      y = x;
    } else if (pick < 5) {
      y = exact(r, vals);
    } else {
      // a broadcast partner: trailing axes of x, some set to 1, maybe one more leading axis
      long[] s = x.k().shape();
      int keep = r.nextInt(s.length + 1);
      long[] t = Arrays.copyOfRange(s, s.length - keep, s.length);
      for (int i = 0; i < t.length; i++) {
        if (r.nextInt(4) == 0) {
          t[i] = 1;
        }
      }
      if (keep == s.length && r.nextInt(5) == 0) {
        long[] u = new long[t.length + 1];
        u[0] = 1 + r.nextInt(2);
        System.arraycopy(t, 0, u, 1, t.length);
        t = u;
      }
      y = leaves.leaf(r.nextInt(3) == 0 ? x.k().dtype() : DiffData.dtype(r), t);
    }
    V yy = y;
    boolean swap = r.nextBoolean();
    V p = swap ? yy : x;
    V q = swap ? x : yy;
    return new Step(
        b.name() + "(" + p.name() + ", " + q.name() + ")",
        List.of(p, q),
        a -> b.k().apply(a[0], a[1]),
        a -> b.c().apply(a[0], a[1]),
        Kind.EXACT);
  }

  static Axes axes(Random r, int nd) {
    Axes a;
    if (nd == 0 || r.nextInt(4) == 0) {
      a = Axes.all();
    } else {
      List<Integer> l = new ArrayList<>();
      for (int i = 0; i < nd; i++) {
        if (r.nextBoolean()) {
          l.add(r.nextInt(5) == 0 ? i - nd : i);
        }
      }
      if (l.isEmpty()) {
        l.add(r.nextInt(nd));
      }
      a = Axes.of(l.stream().mapToInt(Integer::intValue).toArray());
    }
    return r.nextInt(3) == 0 ? a.keepDims() : a;
  }

  static Step reduction(Random r, V x) {
    if (x == null) {
      return null;
    }
    Reductions.Op[] ops = {
      Reductions.Op.SUM,
      Reductions.Op.PROD,
      Reductions.Op.MIN,
      Reductions.Op.MAX,
      Reductions.Op.MEAN,
      Reductions.Op.VAR,
      Reductions.Op.STD,
      Reductions.Op.ALL,
      Reductions.Op.ANY
    };
    Reductions.Op op = ops[r.nextInt(ops.length)];
    Axes ax = axes(r, x.k().ndim());
    int corr = r.nextInt(4) == 0 ? r.nextInt(8) : r.nextInt(2);
    int split = 2 + r.nextInt(3);
    Function<NDArray[], NDArray> k =
        a ->
            switch (op) {
              case SUM -> Statistics.sum(a[0], ax);
              case PROD -> Statistics.prod(a[0], ax);
              case MIN -> Statistics.min(a[0], ax);
              case MAX -> Statistics.max(a[0], ax);
              case MEAN -> Statistics.mean(a[0], ax);
              case VAR -> Statistics.var(a[0], ax, corr);
              case STD -> Statistics.std(a[0], ax, corr);
              case ALL -> Utility.all(a[0], ax);
              case ANY -> Utility.any(a[0], ax);
              default -> throw new IllegalStateException();
            };
    Kind kind =
        switch (op) {
          case SUM, MEAN, VAR, STD -> Kind.APPROX;
          case PROD -> Kind.PRODUCT;
          case MIN, MAX -> Kind.TIES;
          default -> Kind.EXACT;
        };
    return new Step(
        op.name().toLowerCase()
            + "("
            + x.name()
            + ", "
            + ax
            + ", correction="
            + corr
            + ", split="
            + split
            + ")",
        List.of(x),
        k,
        a -> XpReduce.reduce(a[0], op, ax, split, corr),
        kind);
  }

  static Step arg(Random r, V x) {
    if (x == null) {
      return null;
    }
    boolean max = r.nextBoolean();
    int nd = x.k().ndim();
    int axis = nd == 0 ? 0 : r.nextInt(nd);
    String n = max ? "argmax" : "argmin";
    return new Step(
        n + "(" + x.name() + ", " + axis + ")",
        List.of(x),
        a -> max ? Searching.argmax(a[0], Axes.of(axis)) : Searching.argmin(a[0], Axes.of(axis)),
        a -> max ? Xp.argmax(a[0], axis) : Xp.argmin(a[0], axis),
        Kind.EXACT);
  }

  static Step cumulative(Random r, V x) {
    if (x == null) {
      return null;
    }
    boolean prod = r.nextBoolean();
    int nd = x.k().ndim();
    int axis = nd == 0 ? 0 : r.nextInt(nd);
    String n = prod ? "cumulative_prod" : "cumulative_sum";
    return new Step(
        n + "(" + x.name() + ", " + axis + ")",
        List.of(x),
        a ->
            prod
                ? Statistics.cumulativeProd(a[0], axis, Statistics.Initial.EXCLUDE)
                : Statistics.cumulativeSum(a[0], axis, Statistics.Initial.EXCLUDE),
        a -> prod ? Xp.cumulativeProd(a[0], axis) : Xp.cumulativeSum(a[0], axis),
        prod ? Kind.PRODUCT : Kind.APPROX);
  }

  static Step join(Random r, V x, List<V> vals, Leaves leaves) {
    long[] s = x.k().shape();
    boolean stack = r.nextInt(3) == 0 || s.length == 0;
    int n = 1 + r.nextInt(3);
    List<V> in = new ArrayList<>();
    in.add(x);
    int axis = stack ? r.nextInt(s.length + 1) : r.nextInt(s.length);
    for (int i = 1; i < n; i++) {
      long[] t = s.clone();
      if (!stack) {
        t[axis] = DiffData.dim(r);
      }
      List<V> same = new ArrayList<>();
      for (V v : vals) {
        if (Arrays.equals(v.k().shape(), t)) {
          same.add(v);
        }
      }
      in.add(
          !same.isEmpty() && r.nextBoolean()
              ? same.get(r.nextInt(same.size()))
              : leaves.leaf(r.nextBoolean() ? x.k().dtype() : DiffData.dtype(r), t));
    }
    int ax = r.nextBoolean() ? axis : axis - (s.length + (stack ? 1 : 0));
    StringBuilder names = new StringBuilder();
    for (V v : in) {
      names.append(names.length() == 0 ? "" : ", ").append(v.name());
    }
    return new Step(
        (stack ? "stack([" : "concat([") + names + "], " + ax + ")",
        in,
        a -> stack ? Manipulation.stack(a, ax) : Manipulation.concat(a, ax),
        a -> stack ? Xp.stack(List.of(a), ax) : Xp.concat(List.of(a), ax),
        Kind.STRUCTURAL);
  }

  static Step shapeOp(Random r, V x) {
    long[] s = x.k().shape();
    int nd = s.length;
    switch (r.nextInt(5)) {
      case 0 -> {
        List<Integer> p = new ArrayList<>();
        for (int i = 0; i < nd; i++) {
          p.add(i);
        }
        Collections.shuffle(p, r);
        int[] perm = p.stream().mapToInt(Integer::intValue).toArray();
        return new Step(
            "permute_dims(" + x.name() + ", " + Arrays.toString(perm) + ")",
            List.of(x),
            a -> a[0].permuteDims(perm),
            a -> Xp.permuteDims(a[0], perm),
            Kind.STRUCTURAL);
      }
      case 1 -> {
        int ax = r.nextInt(2 * nd + 3) - nd - 1;
        return new Step(
            "expand_dims(" + x.name() + ", " + ax + ")",
            List.of(x),
            a -> Manipulation.expandDims(a[0], ax),
            a -> Xp.expandDims(a[0], ax),
            Kind.STRUCTURAL);
      }
      case 2 -> {
        List<Integer> ones = new ArrayList<>();
        for (int i = 0; i < nd; i++) {
          if (s[i] == 1 && r.nextInt(3) != 0) {
            ones.add(i);
          }
        }
        if (nd > 0 && r.nextInt(8) == 0) {
          ones.add(r.nextInt(nd)); // maybe not size 1: both must refuse
        }
        int[] ax = ones.stream().distinct().mapToInt(Integer::intValue).toArray();
        return new Step(
            "squeeze(" + x.name() + ", " + Arrays.toString(ax) + ")",
            List.of(x),
            a -> Manipulation.squeeze(a[0], ax),
            a -> Xp.squeeze(a[0], ax),
            Kind.STRUCTURAL);
      }
      case 3 -> {
        long[] t = reshapeTarget(r, s);
        return new Step(
            "reshape(" + x.name() + ", " + Shapes.format(t) + ")",
            List.of(x),
            a -> Manipulation.reshape(a[0], t),
            a -> Xp.reshape(a[0], t),
            Kind.STRUCTURAL);
      }
      default -> {
        int extra = r.nextInt(2);
        long[] t = new long[nd + extra];
        for (int i = 0; i < extra; i++) {
          t[i] = 1 + r.nextInt(3);
        }
        for (int i = 0; i < nd; i++) {
          t[extra + i] = s[i] == 1 && r.nextBoolean() ? r.nextInt(4) : s[i];
        }
        if (nd > 0 && r.nextInt(10) == 0) {
          t[extra + r.nextInt(nd)] += 1; // usually incompatible: both must refuse
        }
        return new Step(
            "broadcast_to(" + x.name() + ", " + Shapes.format(t) + ")",
            List.of(x),
            a -> Manipulation.broadcastTo(a[0], t),
            a -> Xp.broadcastTo(a[0], t),
            Kind.STRUCTURAL);
      }
    }
  }

  static long[] reshapeTarget(Random r, long[] s) {
    long size = Shapes.size(s);
    int mode = r.nextInt(4);
    if (mode == 0) {
      return new long[] {r.nextBoolean() ? -1 : size};
    }
    List<Long> f = new ArrayList<>();
    long left = size;
    for (long d = 2; d <= left && f.size() < 3; d++) {
      while (left % d == 0 && left > 1 && f.size() < 3 && r.nextInt(3) != 0) {
        f.add(d);
        left /= d;
      }
    }
    if (size == 0) {
      f.add(0L);
      f.add((long) r.nextInt(3));
      left = 1;
    }
    f.add(left);
    Collections.shuffle(f, r);
    long[] t = f.stream().mapToLong(Long::longValue).toArray();
    if (mode == 1) {
      t[r.nextInt(t.length)] = -1; // next to a 0 both must refuse
    }
    return t;
  }

  static Step getItem(Random r, V x) {
    long[] s = x.k().shape();
    List<Index> idx = new ArrayList<>();
    for (int i = 0; i < s.length; i++) {
      long n = s[i];
      int kind = r.nextInt(10);
      if (kind < 2 && (n > 0 || r.nextInt(4) == 0)) {
        idx.add(Index.at(n == 0 ? 0 : r.nextInt((int) (2 * n)) - n));
      } else if (kind < 8) {
        long[] steps = {1, 1, 1, 2, 3, -1, -2};
        long step = steps[r.nextInt(steps.length)];
        Long lo = r.nextBoolean() ? null : (long) (r.nextInt((int) (2 * n + 3)) - n - 1);
        Long hi = r.nextBoolean() ? null : (long) (r.nextInt((int) (2 * n + 3)) - n - 1);
        idx.add(Index.slice(lo, hi, step));
      } else if (kind == 8) {
        idx.add(Index.newAxis());
        i--;
      } else {
        idx.add(Index.all());
      }
      if (idx.size() > s.length + 2) {
        break;
      }
    }
    if (r.nextInt(8) == 0) {
      idx.add(r.nextInt(idx.size() + 1), Index.ellipsis());
    }
    Index[] ix = idx.toArray(new Index[0]);
    return new Step(
        "getitem(" + x.name() + ", " + Arrays.toString(ix) + ")",
        List.of(x),
        a -> Indexing.get(a[0], ix),
        a -> Xp.getItem(a[0], ix),
        Kind.STRUCTURAL);
  }

  static Step contraction(Random r, V x, Leaves leaves) {
    if (x == null || x.k().ndim() == 0) {
      return null;
    }
    long[] s = x.k().shape();
    int nd = s.length;
    DType t = r.nextInt(3) == 0 ? x.k().dtype() : DiffData.dtype(r);
    if (r.nextBoolean()) {
      long n = s[nd - 1];
      long m = DiffData.dim(r);
      long[] ys =
          switch (r.nextInt(3)) {
            case 0 -> new long[] {n};
            case 1 -> new long[] {n, m};
            default -> new long[] {1 + r.nextInt(2), n, m};
          };
      V y = leaves.leaf(t, ys);
      boolean swap = nd == 1 && r.nextBoolean();
      V p = swap ? y : x;
      V q = swap ? x : y;
      return new Step(
          "matmul(" + p.name() + ", " + q.name() + ")",
          List.of(p, q),
          a -> Linalg.matmul(a[0], a[1]),
          a -> Xp.matmul(a[0], a[1]),
          Kind.APPROX);
    }
    int k = r.nextInt(Math.min(2, nd) + 1);
    List<Integer> pick = new ArrayList<>();
    for (int i = 0; i < nd; i++) {
      pick.add(i);
    }
    Collections.shuffle(pick, r);
    int[] axA = new int[k];
    int extra = r.nextInt(2);
    long[] ys = new long[k + extra];
    List<Integer> pos = new ArrayList<>();
    for (int i = 0; i < k + extra; i++) {
      pos.add(i);
    }
    Collections.shuffle(pos, r);
    int[] axB = new int[k];
    for (int i = 0; i < k; i++) {
      axA[i] = pick.get(i);
      axB[i] = pos.get(i);
      ys[axB[i]] = s[axA[i]];
    }
    for (int i = k; i < k + extra; i++) {
      ys[pos.get(i)] = DiffData.dim(r);
    }
    V y = leaves.leaf(t, ys);
    int split = 2 + r.nextInt(3);
    return new Step(
        "tensordot("
            + x.name()
            + ", "
            + y.name()
            + ", "
            + Arrays.toString(axA)
            + ", "
            + Arrays.toString(axB)
            + ")",
        List.of(x, y),
        a -> Linalg.tensordot(a[0], a[1], axA, axB),
        a -> Xp.tensordot(a[0], a[1], axA, axB, split),
        Kind.APPROX);
  }

  static Step rechunk(Random r, V x) {
    long[] s = x.k().shape();
    if (r.nextBoolean()) {
      long[][] b = DiffData.blocks(r, s);
      return new Step(
          "rechunk(" + x.name() + ", " + Arrays.deepToString(b) + ")",
          List.of(x),
          a -> a[0],
          a -> Xp.rechunk(a[0], b),
          Kind.STRUCTURAL);
    }
    long[] c = DiffData.chunks(r, s);
    return new Step(
        "rechunk(" + x.name() + ", " + Shapes.format(c) + ")",
        List.of(x),
        a -> a[0],
        a -> Xp.rechunk(a[0], c),
        Kind.STRUCTURAL);
  }
}
