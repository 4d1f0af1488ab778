package dev.cubed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.DiffOps.Kind;
import dev.cubed.DiffOps.Step;
import dev.cubed.DiffOps.V;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.Plan;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.MemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded randomized differential test: random programs (expression DAGs) over every dtype, with
 * zero-length and size-1 axes, regular and irregular chunks, evaluated chunked (several outputs in
 * one compute, at the smallest allowedMem the plan accepts, or for a quarter of the cases at the
 * default 2 GB, where fusion goes further; sometimes one output written to a user target and read
 * back from it) and by the in-memory kernel on whole arrays. Results must agree (bit-exact,
 * NaN-aware, sign of zero included, except for floating results whose summation order differs:
 * relative tolerance against the magnitude sum of the inputs), and so must errors: what the kernel
 * refuses for any data the chunked layer must refuse when the op is built; what it refuses for this
 * data only (e.g. an integer to a negative power) the chunked compute must fail on.
 *
 * <p>{@code -Ddiff.cases=N} (default 1500) and {@code -Ddiff.seed=S} run more or other cases; a
 * failure names the case seed and the program, so {@code -Ddiff.only=i} replays case i alone.
 */
class DifferentialTest {
  private static final long SEED = 0x5EED_11L;
  private static final long RESERVED = 1000;

  @TempDir Path dir;

  private final List<String> failures = new ArrayList<>();
  private final Map<String, Integer> failureKinds = new TreeMap<>();
  private int computed;
  private int outputs;
  private int agreedErrors;
  private int dataErrors;

  @Test
  void chunkedAgreesWithKernel() {
    int cases = Integer.getInteger("diff.cases", 1500);
    long seed = Long.getLong("diff.seed", SEED);
    int only = Integer.getInteger("diff.only", -1);
    long t0 = System.nanoTime();
    for (int i = only >= 0 ? only : 0; i < (only >= 0 ? only + 1 : cases); i++) {
      runCase(seed, i);
    }
    String stats =
        String.format(
            "differential: %d cases, %d computes, %d outputs compared, "
                + "%d errors agreed at build, %d data-dependent errors agreed, %d failures %s in %.1f s",
            only >= 0 ? 1 : cases,
            computed,
            outputs,
            agreedErrors,
            dataErrors,
            failures.size(),
            failureKinds,
            (System.nanoTime() - t0) / 1e9);
    System.out.println(stats);
    assertTrue(
        failures.isEmpty(),
        stats + "\n" + String.join("\n\n", failures.subList(0, Math.min(15, failures.size()))));
    assertTrue(only >= 0 || outputs > cases, "too few outputs compared: " + stats);
  }

  private Spec spec(long allowed) {
    return Spec.builder().workDir(dir).allowedMem(allowed).reservedMem(RESERVED).workers(2).build();
  }

  private void runCase(long seed, int index) {
    Random r = new Random(seed * 1_000_003L + index);
    Spec spec = spec(1L << 30);
    List<V> vals = new ArrayList<>();
    List<String> program = new ArrayList<>();
    DiffOps.Leaves leaves =
        (t, shape) -> {
          NDArray a = DiffData.array(r, t, shape);
          CubedArray c;
          String how;
          if (r.nextInt(3) == 0) {
            long[][] b = DiffData.blocks(r, shape);
            c = Cubed.fromArray(a, b, spec);
            how = Arrays.deepToString(b);
          } else {
            long[] ch = DiffData.chunks(r, shape);
            c = Cubed.fromArray(a, ch, spec);
            how = Arrays.toString(ch);
          }
          if (shape.length > 0 && r.nextInt(4) == 0) {
            // a leaf that comes out of an op (a computed node), not straight from memory
            c = Xp.permuteDims(c, IntStream.range(0, shape.length).toArray());
            how += " then permute_dims (identity)";
          }
          V v = new V("v" + vals.size(), a, c, false, 0, false);
          vals.add(v);
          program.add(
              v.name() + " = leaf " + DiffData.describe(a) + " chunks " + how + " " + brief(a));
          return v;
        };
    int nLeaves = 1 + r.nextInt(2);
    for (int i = 0; i < nLeaves; i++) {
      leaves.leaf(DiffData.dtype(r), DiffData.shape(r));
    }
    List<V> results = new ArrayList<>();
    List<V> failing = new ArrayList<>();
    int steps = 1 + r.nextInt(5);
    for (int s = 0, tries = 0; s < steps && tries < 30; tries++) {
      Step st = DiffOps.draw(r, vals, leaves);
      if (st == null) {
        continue;
      }
      s++;
      V v = apply(seed, index, st, vals, program, failing);
      if (v != null) {
        vals.add(v);
        results.add(v);
      }
    }
    for (V f : failing) {
      try {
        Cubed.compute(new CubedArray(f.c().node(), spec));
        fail(
            seed,
            index,
            program,
            "kernel",
            f.name() + ": the kernel refuses this data but the" + " chunked compute succeeded");
      } catch (RuntimeException e) {
        dataErrors++;
      }
    }
    if (results.isEmpty()) {
      return;
    }
    List<V> outs = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      V v = results.get(results.size() - 1 - r.nextInt(Math.min(results.size(), 4)));
      if (!outs.contains(v)) {
        outs.add(v);
      }
    }
    compute(
        seed,
        index,
        program,
        outs,
        r.nextInt(5) == 0 ? r.nextInt(outs.size()) : -1,
        r.nextInt(4) == 0);
  }

  private V apply(
      long seed, int index, Step st, List<V> vals, List<String> program, List<V> failing) {
    NDArray[] ka = st.in().stream().map(V::k).toArray(NDArray[]::new);
    CubedArray[] ca = st.in().stream().map(V::c).toArray(CubedArray[]::new);
    NDArray kr = null;
    RuntimeException ke = null;
    try {
      kr = st.k().apply(ka);
    } catch (RuntimeException e) {
      ke = e;
    }
    CubedArray cr = null;
    RuntimeException ce = null;
    try {
      cr = st.c().apply(ca);
    } catch (RuntimeException e) {
      ce = e;
    }
    String op = st.text().substring(0, st.text().indexOf('('));
    if (ke != null && ce != null) {
      agreedErrors++;
      if (ke instanceof IllegalArgumentException && !(ce instanceof IllegalArgumentException)) {
        fail(
            seed,
            index,
            withStep(program, st),
            op,
            "the kernel refuses with " + ke + " but the chunked layer with another kind: " + ce);
      }
      return null;
    }
    if (ce != null) {
      fail(
          seed,
          index,
          withStep(program, st),
          op,
          "the chunked layer refuses at build what the"
              + " kernel computes ("
              + DiffData.describe(kr)
              + "): "
              + ce);
      return null;
    }
    if (ke != null) {
      if (refusesAnyData(st, ka)) {
        fail(
            seed,
            index,
            withStep(program, st),
            op,
            "the kernel refuses ("
                + ke
                + ") but the chunked layer builds it ("
                + cr.dtype()
                + Xp.shapeOf(cr)
                + ")");
      } else {
        failing.add(
            new V("v" + vals.size() + "(" + ke.getMessage() + ")", null, cr, false, 0, false));
      }
      return null;
    }
    if (kr.dtype() != cr.dtype() || !Arrays.equals(kr.shape(), cr.shape())) {
      fail(
          seed,
          index,
          withStep(program, st),
          op,
          "built as "
              + cr.dtype()
              + Xp.shapeOf(cr)
              + " but the kernel gives "
              + DiffData.describe(kr));
      return null;
    }
    boolean inApprox = st.in().stream().anyMatch(V::approx);
    boolean floating = kr.dtype().isFloating();
    boolean ordered =
        st.kind() == Kind.APPROX || st.kind() == Kind.PRODUCT || st.kind() == Kind.TIES;
    boolean approx = ordered ? floating : st.kind() == Kind.STRUCTURAL && inApprox;
    boolean loose =
        st.kind() == Kind.PRODUCT
            ? floating
            : st.kind() == Kind.STRUCTURAL && st.in().stream().anyMatch(V::loose);
    double scale = 0;
    if (st.kind() == Kind.APPROX) {
      for (NDArray a : ka) {
        double[] sm = magnitude(a);
        scale += sm[0] * (1 + sm[1]);
      }
    } else {
      for (V v : st.in()) {
        scale = Math.max(scale, v.scale());
      }
    }
    V v = new V("v" + vals.size(), kr, cr, approx, scale, loose);
    program.add(v.name() + " = " + st.text() + " -> " + DiffData.describe(kr));
    return v;
  }

  /** Whether the kernel also refuses inputs of the same dtypes and shapes holding ones. */
  private static boolean refusesAnyData(Step st, NDArray[] ka) {
    NDArray[] ones = new NDArray[ka.length];
    for (int i = 0; i < ka.length; i++) {
      ones[i] = NDArray.ones(ka[i].dtype(), ka[i].shape());
    }
    try {
      st.k().apply(ones);
      return false;
    } catch (RuntimeException e) {
      return true;
    }
  }

  /**
   * Computes the outputs together at the smallest accepted allowedMem; output {@code toTarget} (if
   * >= 0) is written to a user target (Zarr in a MemoryStore, default empty-chunk policy) and read
   * back from it too.
   */
  private void compute(
      long seed, int index, List<String> program, List<V> outs, int toTarget, boolean roomy) {
    MemoryStore store = new MemoryStore();
    List<ArrayNode> nodes = new ArrayList<>();
    for (int i = 0; i < outs.size(); i++) {
      CubedArray c = outs.get(i).c();
      nodes.add((i == toTarget ? Cubed.toZarrLazy(c, store, "target") : c).node());
    }
    long allowed;
    try {
      allowed = roomy ? Spec.DEFAULT_ALLOWED_MEM : smallestAllowedMem(nodes);
    } catch (RuntimeException e) {
      fail(seed, index, program, "plan", "planning failed: " + e);
      return;
    }
    Spec s = spec(allowed);
    CubedArray[] arrays = nodes.stream().map(n -> new CubedArray(n, s)).toArray(CubedArray[]::new);
    List<NDArray> got;
    try {
      got = new ArrayList<>(Cubed.compute(arrays));
      if (toTarget >= 0) {
        got.add(ZarrArray.open(store, "target").read());
      }
    } catch (RuntimeException e) {
      Throwable c = e;
      while (c.getCause() != null) {
        c = c.getCause();
      }
      fail(
          seed,
          index,
          program,
          "compute",
          "compute of "
              + names(outs)
              + " at allowedMem "
              + allowed
              + " failed: "
              + e
              + (c != e ? " (cause " + c + ")" : ""));
      return;
    }
    computed++;
    for (int i = 0; i < got.size(); i++) {
      outputs++;
      V v = outs.get(i < outs.size() ? i : toTarget);
      String m = compare(v.k(), got.get(i), v.approx(), v.scale(), v.loose());
      if (m != null) {
        String line =
            program.stream()
                .filter(l -> l.startsWith(v.name() + " = "))
                .findFirst()
                .orElse(v.name());
        String op = line.substring(line.indexOf(" = ") + 3);
        op = op.contains("(") ? op.substring(0, op.indexOf('(')) : op;
        fail(
            seed,
            index,
            program,
            op,
            v.name()
                + (i >= outs.size() ? " read from its target" : "")
                + " (computed with "
                + names(outs)
                + ", allowedMem "
                + allowed
                + "): "
                + m);
      }
    }
  }

  /** The smallest allowedMem (within 1/16) for which the plan's memory check passes. */
  private long smallestAllowedMem(List<ArrayNode> nodes) {
    long hi =
        Math.max(
            RESERVED + 1, Plan.of(nodes, Cubed.config(spec(1L << 30))).summary().maxProjectedMem());
    if (!fits(nodes, hi)) {
      hi = 1L << 30;
    }
    long lo = RESERVED;
    while (hi - lo > Math.max(1, hi / 16)) {
      long mid = lo + (hi - lo) / 2;
      if (fits(nodes, mid)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private boolean fits(List<ArrayNode> nodes, long allowed) {
    try {
      Plan.of(nodes, Cubed.config(spec(allowed))).checkMemory();
      return true;
    } catch (MemoryBudgetExceededException e) {
      return false;
    }
  }

  private static String names(List<V> outs) {
    return outs.stream().map(V::name).toList().toString();
  }

  private static List<String> withStep(List<String> program, Step st) {
    List<String> p = new ArrayList<>(program);
    p.add("(step) " + st.text());
    return p;
  }

  private void fail(long seed, int index, List<String> program, String kind, String message) {
    failureKinds.merge(kind, 1, Integer::sum);
    failures.add(
        "case "
            + index
            + " (-Ddiff.seed="
            + seed
            + " -Ddiff.only="
            + index
            + "): "
            + message
            + "\n  "
            + String.join("\n  ", program));
  }

  /** Sum and max of the absolute finite values (complex: both parts). */
  private static double[] magnitude(NDArray a) {
    double sum = 0;
    double max = 0;
    boolean cx = a.dtype().isComplex();
    for (int i = 0; i < a.size(); i++) {
      double[] parts =
          cx
              ? new double[] {a.getDouble(i), a.getImag(i)}
              : new double[] {
                a.dtype().isBool()
                    ? (a.getBoolean(i) ? 1 : 0)
                    : a.dtype().isUnsigned()
                        ? NDArray.unsignedToDouble(a.getLong(i))
                        : a.getDouble(i)
              };
      for (double p : parts) {
        if (Double.isFinite(p)) {
          sum += Math.abs(p);
          max = Math.max(max, Math.abs(p));
        }
      }
    }
    return new double[] {sum, max};
  }

  /** Null when equal, else what differs. */
  static String compare(NDArray want, NDArray got, boolean approx, double scale, boolean loose) {
    if (want.dtype() != got.dtype() || !Arrays.equals(want.shape(), got.shape())) {
      return "got " + DiffData.describe(got) + ", want " + DiffData.describe(want);
    }
    DType t = want.dtype();
    double tol = t == DType.FLOAT32 || t == DType.COMPLEX64 ? 2e-4 : 1e-9;
    for (int i = 0; i < want.size(); i++) {
      boolean ok;
      if (t.isBool()) {
        ok = want.getBoolean(i) == got.getBoolean(i);
      } else if (!t.isFloating()) {
        ok = want.getLong(i) == got.getLong(i);
      } else if (loose && t.isComplex() && !finite(want, i)) {
        ok = !finite(got, i);
      } else {
        ok =
            same(want.getDouble(i), got.getDouble(i), approx, tol, scale)
                && (!t.isComplex() || same(want.getImag(i), got.getImag(i), approx, tol, scale));
      }
      if (!ok) {
        return "element "
            + i
            + " (of "
            + want.size()
            + ") is "
            + got.getObject(i)
            + ", want "
            + want.getObject(i)
            + (approx ? " (tolerance " + tol + " x " + scale + ")" : "")
            + "; got "
            + brief(got)
            + " want "
            + brief(want);
      }
    }
    return null;
  }

  private static boolean finite(NDArray a, int i) {
    return Double.isFinite(a.getDouble(i)) && Double.isFinite(a.getImag(i));
  }

  private static boolean same(double a, double b, boolean approx, double tol, double scale) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.isNaN(a) && Double.isNaN(b);
    }
    if (!approx) {
      return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return a == b;
    }
    return Math.abs(a - b) <= tol * (scale + Math.abs(a) + Math.abs(b)) + 1e-300;
  }

  private static String brief(NDArray a) {
    String s = a.toString();
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
