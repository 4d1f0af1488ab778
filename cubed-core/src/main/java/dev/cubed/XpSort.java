package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.core.Runs;
import dev.cubed.core.SampleSort;
import dev.cubed.core.Selection;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.sort.Sorting;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sorting, set and leading-mask functions of {@link Xp} (final and package-private; the contract of
 * {@code Xp.sort} is on {@link Xp}). See docs/api/sorting.md for how memory is bounded.
 */
final class XpSort {
  private XpSort() {}

  static CubedArray sort(CubedArray x) {
    return sort(x, -1, false, true);
  }

  static CubedArray sort(CubedArray x, int axis) {
    return sort(x, axis, false, true);
  }

  static CubedArray sort(CubedArray x, int axis, boolean descending) {
    return sort(x, axis, descending, true);
  }

  static CubedArray sort(CubedArray x, int axis, boolean descending, boolean stable) {
    return sorted("sort", x, axis, descending, false);
  }

  static CubedArray argsort(CubedArray x) {
    return argsort(x, -1, false, true);
  }

  static CubedArray argsort(CubedArray x, int axis) {
    return argsort(x, axis, false, true);
  }

  static CubedArray argsort(CubedArray x, int axis, boolean descending) {
    return argsort(x, axis, descending, true);
  }

  static CubedArray argsort(CubedArray x, int axis, boolean descending, boolean stable) {
    return sorted("argsort", x, axis, descending, true);
  }

  private static CubedArray sorted(String fn, CubedArray x, int axis, boolean desc, boolean arg) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          fn + ": a 0-d array has no axis to sort; use " + "expand_dims first");
    }
    int ax = Shapes.normalizeAxis(fn, axis, x.ndim());
    Sorting.Order order = desc ? Sorting.Order.DESCENDING : Sorting.Order.ASCENDING;
    DType outType = arg ? DType.INT64 : x.dtype();
    long n = x.shape()[ax];
    if (x.size() == 0) {
      return arg ? XpUnary.astype(x, DType.INT64) : x;
    }
    if (n <= 1 && !arg) {
      return x;
    }
    if (fitsOneTask(x, n, outType)) {
      return simple(fn, x, ax, order, arg);
    }
    if (x.ndim() == 1) {
      return lane(x, order, arg ? SampleSort.Carry.INDEX : SampleSort.Carry.VALUES);
    }
    int nd = x.ndim();
    int[] perm = new int[nd];
    int at = 0;
    for (int d = 0; d < nd; d++) {
      if (d != ax) {
        perm[at++] = d;
      }
    }
    perm[nd - 1] = ax;
    CubedArray moved = XpManip.permuteDims(x, perm);
    long lanes = x.size() / n;
    CubedArray rows = XpManip.reshape(moved, lanes, n);
    List<CubedArray> out = new ArrayList<>();
    for (long l = 0; l < lanes; l++) {
      CubedArray one = XpManip.getItem(rows, Index.at(l), Index.all());
      out.add(lane(one, order, arg ? SampleSort.Carry.INDEX : SampleSort.Carry.VALUES));
    }
    CubedArray joined = XpManip.reshape(XpManip.stack(out, 0), moved.shape());
    int[] back = new int[nd];
    for (int d = 0; d < nd; d++) {
      back[perm[d]] = d;
    }
    CubedArray r = XpManip.permuteDims(joined, back);
    return XpBlocks.wrap(Core.rechunk(r.node(), x.node().chunkGrid()), x);
  }

  private static long budget(CubedArray x) {
    return x.spec().allowedMem() - x.spec().reservedMem();
  }

  /** Bytes per element of a one-block sort task besides its lane scratch (in, out, copies). */
  private static long simpleBytes(DType in, DType out) {
    return 2L * in.itemSize() + 3L * out.itemSize();
  }

  private static boolean fitsOneTask(CubedArray x, long n, DType outType) {
    return n * (simpleBytes(x.dtype(), outType) + 40) <= budget(x);
  }

  /** The axis rechunked to one block (other axes shrunk to fit), the kernel per block. */
  private static CubedArray simple(
      String fn, CubedArray x, int ax, Sorting.Order order, boolean arg) {
    DType outType = arg ? DType.INT64 : x.dtype();
    long n = x.shape()[ax];
    ArrayNode whole = Core.rechunk(x.node(), laneChunks(x, ax, outType));
    long extra = 40 * n + whole.chunkBytes() / x.dtype().itemSize() * outType.itemSize();
    Blockwise op =
        new Blockwise(
            fn,
            c -> List.of(BlockKeys.one(c)),
            (args, c) ->
                arg
                    ? Sorting.argsort((NDArray) args.get(0), ax, order)
                    : Sorting.sort((NDArray) args.get(0), ax, order),
            new int[] {1},
            new int[] {1},
            extra);
    ArrayNode out = new ArrayNode.Computed(op, List.of(whole), whole.chunkGrid(), outType, null);
    return XpBlocks.wrap(Core.rechunk(out, x.node().chunkGrid()), x);
  }

  /**
   * Whether the lanes of {@code x} along {@code ax} (of length {@code n}) can be sorted one block
   * per lane in a task, with {@link #laneChunks} (else the distributed sample sort runs).
   */
  static boolean lanesFitOneTask(CubedArray x, int ax, DType outType) {
    return fitsOneTask(x, x.shape()[ax], outType);
  }

  /**
   * The chunks of a one-block-per-lane sort of {@code x} along {@code ax}: the axis whole, the
   * other axes halved (widest first) until a block, its output of {@code outType} and a lane's
   * scratch fit the task budget.
   */
  static long[] laneChunks(CubedArray x, int ax, DType outType) {
    long n = x.shape()[ax];
    long[] chunks = x.node().chunkGrid().maxChunks();
    chunks[ax] = Math.max(1, n);
    long per = simpleBytes(x.dtype(), outType);
    while (true) {
      long block = 1;
      int widest = -1;
      for (int d = 0; d < chunks.length; d++) {
        block *= chunks[d];
        if (d != ax && chunks[d] > 1 && (widest < 0 || chunks[d] > chunks[widest])) {
          widest = d;
        }
      }
      if (block * per + 40 * n <= budget(x) || widest < 0) {
        break;
      }
      chunks[widest] = (chunks[widest] + 1) / 2;
    }
    return chunks;
  }

  /** The distributed sort of a 1-d x (values or global indices), in x's grid. */
  private static CubedArray lane(CubedArray x, Sorting.Order order, SampleSort.Carry carry) {
    Lane l = new Lane(x, order, null);
    return l.result(carry, null);
  }

  /**
   * The eager passes of one sample sort of the 1-d {@code keys} (samples unless splitters are
   * given, then per-block bucket counts), shared by the lazy results asked of it.
   */
  static final class Lane {
    private final CubedArray x;
    private final Sorting.Order order;
    private final SampleSort.Splitters splitters;
    private final long[][] counts;
    private final long g;
    private final CubedArray src;

    Lane(CubedArray x0, Sorting.Order order, SampleSort.Splitters given) {
      this.x = x0;
      this.order = order;
      long n = x0.size();
      long b = budget(x0);
      // blocks small enough for the sample, count and partition tasks (about 6 copies + keys)
      long maxBlock = Math.max(1, b / (6L * Math.max(8, x0.dtype().itemSize()) + 48));
      long cmax = x0.node().chunkGrid().maxChunks()[0];
      this.src = cmax > maxBlock ? XpBlocks.rechunk(x0, maxBlock) : x0;
      long c = src.node().chunkGrid().maxChunks()[0];
      // largest bucket: its values, carried values (8), argsort scratch, output and its regrid
      long m =
          Math.max(2, b / (SampleSort.bucketBytesPerElement(x0.dtype(), DType.INT64) + 8L * 8));
      SampleSort.Splitters sp = given;
      long[][] cnt = null;
      for (int attempt = 0; ; attempt++) {
        long buckets = Math.max(2, ceil(2 * n, m)) << attempt;
        if (given == null) {
          int s = (int) Math.min(c, Math.min(1 << 16, ceil(4 * n, m) << attempt));
          NDArray samples = XpBlocks.wrap(SampleSort.samples(src.node(), s, order), src).compute();
          sp = SampleSort.Splitters.of(samples, (int) Math.min(buckets, Integer.MAX_VALUE / 2));
        }
        NDArray cs = XpBlocks.wrap(SampleSort.counts(src.node(), sp, order), src).compute();
        cnt = toMatrix(cs);
        long largest = 0;
        for (int j = 0; j < sp.buckets(); j++) {
          long t = 0;
          for (long[] row : cnt) {
            t += row[j];
          }
          largest = Math.max(largest, t);
        }
        if (largest <= m || given != null || attempt == 3) {
          break;
        }
      }
      this.splitters = sp;
      this.counts = cnt;
      this.g = Math.max(1, ceil(c, sp.buckets()));
    }

    SampleSort.Splitters splitters() {
      return splitters;
    }

    /** The sorted values, global indices or payload values (payload: 1-d, keys' length). */
    CubedArray result(SampleSort.Carry carry, CubedArray payload) {
      ArrayNode keyNode = src.node();
      ArrayNode vals =
          narrow(SampleSort.partition(keyNode, null, SampleSort.Carry.VALUES, splitters, order));
      ArrayNode carried = null;
      if (carry != SampleSort.Carry.VALUES) {
        ArrayNode pay = null;
        if (carry == SampleSort.Carry.PAYLOAD) {
          pay =
              payload.node().chunkGrid().equals(keyNode.chunkGrid())
                  ? payload.node()
                  : Core.rechunk(payload.node(), keyNode.chunkGrid());
        }
        carried = narrow(SampleSort.partition(keyNode, pay, carry, splitters, order));
      }
      ArrayNode out = SampleSort.buckets(vals, carried, counts, g, order);
      return XpBlocks.wrap(SampleSort.toGrid(out, x.node().chunkGrid(), budget(x)), x);
    }

    private ArrayNode narrow(ArrayNode rows) {
      return Core.rechunk(rows, new long[] {1, g});
    }
  }

  private static long[][] toMatrix(NDArray a) {
    int p = (int) a.shape()[0];
    int b = (int) a.shape()[1];
    long[] d = (long[]) a.data();
    long[][] r = new long[p][b];
    for (int i = 0; i < p; i++) {
      System.arraycopy(d, i * b, r[i], 0, b);
    }
    return r;
  }

  private static long ceil(long a, long b) {
    return (a + b - 1) / b;
  }

  // ------------------------------------------------------------------ unique

  static CubedArray uniqueValues(CubedArray x) {
    return new Grouping(x, false).values();
  }

  static Uniques.Counts uniqueCounts(CubedArray x) {
    Grouping gr = new Grouping(x, false);
    return new Uniques.Counts(gr.values(), gr.counts());
  }

  static Uniques.Inverse uniqueInverse(CubedArray x) {
    Grouping gr = new Grouping(x, true);
    return new Uniques.Inverse(gr.values(), gr.inverse());
  }

  static Uniques.All uniqueAll(CubedArray x) {
    Grouping gr = new Grouping(x, true);
    return new Uniques.All(gr.values(), gr.indices(), gr.inverse(), gr.counts());
  }

  /** The sorted flattened input, its run starts and their per-block counts. */
  private static final class Grouping {
    private final CubedArray x;
    private final CubedArray flat;
    private final CubedArray sorted;
    private final CubedArray perm;
    private final CubedArray starts;
    private final long[] blockCounts;

    Grouping(CubedArray x, boolean needPerm) {
      this.x = x;
      CubedArray f = x.ndim() == 1 ? x : XpManip.reshape(x, x.size());
      this.flat = f;
      long n = f.size();
      if (n == 0) {
        sorted = f;
        perm =
            XpBlocks.wrap(
                Core.elemwise("astype", b -> b[0].astype(DType.INT64), DType.INT64, f.node()), f);
        starts = null;
        blockCounts = null;
        return;
      }
      Sorting.Order asc = Sorting.Order.ASCENDING;
      if (fitsOneTask(f, n, DType.INT64)) {
        sorted = simple("sort", f, 0, asc, false);
        perm = needPerm ? simple("argsort", f, 0, asc, true) : null;
      } else {
        Lane lane = new Lane(f, asc, null);
        sorted = lane.result(SampleSort.Carry.VALUES, null);
        perm = needPerm ? lane.result(SampleSort.Carry.INDEX, null) : null;
      }
      starts =
          XpBlocks.wrap(
              f.dtype().isComplex() ? complexStarts(sorted.node()) : Runs.starts(sorted.node()),
              sorted);
      NDArray c = XpBlocks.wrap(Selection.counts(starts.node()), starts).compute();
      blockCounts = (long[]) c.astype(DType.INT64).data();
    }

    CubedArray values() {
      return starts == null
          ? sorted
          : XpBlocks.wrap(Selection.masked(sorted.node(), starts.node(), blockCounts), x);
    }

    CubedArray indices() {
      return starts == null
          ? perm
          : XpBlocks.wrap(Selection.masked(perm.node(), starts.node(), blockCounts), x);
    }

    CubedArray counts() {
      if (starts == null) {
        return perm;
      }
      long n = flat.size();
      CubedArray pos =
          XpBlocks.wrap(
              Selection.nonzeroCoordinate(starts.node(), blockCounts, new long[] {n}, 0), x);
      long k = pos.size();
      CubedArray end = Cubed.fromArray(NDArray.full(DType.INT64, n, 1), new long[] {1}, x.spec());
      CubedArray next =
          k == 1
              ? end
              : XpManip.concat(List.of(XpManip.getItem(pos, Index.slice(1L, null)), end), 0);
      return XpBinary.SUBTRACT.apply(next, pos);
    }

    CubedArray inverse() {
      if (starts == null) {
        return XpManip.reshape(perm, x.shape());
      }
      long n = flat.size();
      CubedArray gid =
          XpBinary.SUBTRACT.apply(
              XpReduce.cumulativeSum(XpUnary.astype(starts, DType.INT64), 0), (Object) 1L);
      CubedArray scattered;
      if (fitsOneTask(flat, n, DType.INT64)) {
        // one task: inverse[perm[i]] = gid[i]
        ArrayNode p1 = Core.rechunk(perm.node(), new long[] {-1});
        ArrayNode g1 = Core.rechunk(gid.node(), new long[] {-1});
        Blockwise op =
            new Blockwise(
                "unique_inverse",
                c -> List.of(BlockKeys.one(0), BlockKeys.one(0)),
                (args, c) -> {
                  NDArray pb = (NDArray) args.get(0);
                  NDArray gb = (NDArray) args.get(1);
                  long[] r = new long[pb.size()];
                  for (int i = 0; i < r.length; i++) {
                    r[(int) pb.getLong(i)] = gb.getLong(i);
                  }
                  return new NDArray(DType.INT64, new long[] {r.length}, r);
                },
                new int[] {1, 1},
                new int[] {1, 1},
                0);
        ArrayNode inv =
            new ArrayNode.Computed(
                op, List.of(p1, g1), new long[] {n}, new long[] {n}, DType.INT64, null);
        scattered = XpBlocks.wrap(Core.rechunk(inv, flat.node().chunkGrid()), x);
      } else {
        // perm is a permutation of [0, n): the splitters are known (equal ranges of indices)
        Lane probe = new Lane(perm, Sorting.Order.ASCENDING, evenSplitters(perm, n));
        scattered = probe.result(SampleSort.Carry.PAYLOAD, gid);
      }
      return x.ndim() == 1 ? scattered : XpManip.reshape(scattered, x.shape());
    }

    /**
     * {@link Runs#starts} for a sorted complex 1-d array: true at the first element, at one
     * differing from its predecessor and at every value with a NaN part (each is distinct, as the
     * kernel's {@code Sets}); {@code -0.0} equals {@code 0.0} in either part. Block j reads blocks
     * j-1 and j together (only the last element of j-1 is used).
     */
    private static ArrayNode complexStarts(ArrayNode sorted) {
      BlockwiseFunction bf =
          (args, c) -> {
            @SuppressWarnings("unchecked")
            List<NDArray> bs = (List<NDArray>) args.get(0);
            NDArray cur = bs.get(bs.size() - 1);
            int n = cur.size();
            boolean[] out = new boolean[n];
            boolean hasPrev = bs.size() == 2;
            double pre = 0;
            double pim = 0;
            if (hasPrev) {
              NDArray p = bs.get(0);
              pre = p.getDouble(p.size() - 1);
              pim = p.getImag(p.size() - 1);
            }
            for (int i = 0; i < n; i++) {
              double re = cur.getDouble(i);
              double im = cur.getImag(i);
              // NaN compares unequal to everything, so a value with a NaN part always starts a run
              out[i] = (i == 0 && !hasPrev) || !(re == pre && im == pim);
              pre = re;
              pim = im;
            }
            return new NDArray(DType.BOOL, new long[] {n}, out);
          };
      KeyFunction keys =
          c ->
              List.of(
                  c[0] == 0
                      ? BlockKeys.many(List.of(new long[] {0}))
                      : BlockKeys.many(List.of(new long[] {c[0] - 1}, new long[] {c[0]})));
      long c = sorted.chunkGrid().maxChunks()[0];
      return new ArrayNode.Computed(
          new Blockwise("unique_starts", keys, bf, new int[] {2}, new int[] {2}, 8 * c),
          List.of(sorted),
          sorted.chunkGrid(),
          DType.BOOL,
          null);
    }

    private static SampleSort.Splitters evenSplitters(CubedArray perm, long n) {
      long b = budget(perm);
      long m =
          Math.max(2, b / (SampleSort.bucketBytesPerElement(DType.INT64, DType.INT64) + 8L * 8));
      int buckets = (int) Math.max(2, ceil(2 * n, m));
      long[] v = new long[buckets - 1];
      long[] g = new long[buckets - 1];
      for (int t = 1; t < buckets; t++) {
        v[t - 1] = (long) ((double) t * n / buckets);
        g[t - 1] = -1;
      }
      long[] keys =
          Sorting.keys(new NDArray(DType.INT64, new long[] {v.length}, v), Sorting.Order.ASCENDING);
      return new SampleSort.Splitters(keys, g);
    }
  }

  // ------------------------------------------------------------------ leading masks

  /**
   * {@code x[mask]} for a bool mask over x's leading dimensions ({@code mask.shape ==
   * x.shape[:k]}): shape {@code (count,) + x.shape[k:]}. x is reshaped to (rows, rest) and the mask
   * to 1-d blocks matching x's rows; a counting pass over the mask runs at once; output block (j,
   * m) reads one block of x and of the mask.
   */
  static CubedArray getMaskLeading(CubedArray x, CubedArray mask) {
    int k = mask.ndim();
    long[] xs = x.shape();
    long rows = 1;
    for (int d = 0; d < k; d++) {
      rows *= xs[d];
    }
    long[] inner = Arrays.copyOfRange(xs, k, xs.length);
    long rest = Shapes.size(inner);
    CubedArray x2 = XpManip.reshape(x, rows, rest);
    CubedArray fm = mask.ndim() == 1 ? mask : XpManip.reshape(mask, rows);
    long[] rowBlocks = x2.chunks()[0];
    if (!Arrays.equals(fm.chunks()[0], rowBlocks)) {
      fm = XpBlocks.rechunk(fm, new long[][] {rowBlocks});
    }
    long[] counts;
    if (rows == 0) {
      counts = new long[0];
    } else {
      NDArray c = XpBlocks.wrap(Selection.counts(fm.node()), fm).compute();
      counts = (long[]) c.data();
    }
    CubedArray sel = XpBlocks.wrap(Selection.maskedRows(x2.node(), fm.node(), counts), x);
    long[] out = new long[inner.length + 1];
    out[0] = sel.shape()[0];
    System.arraycopy(inner, 0, out, 1, inner.length);
    return XpManip.reshape(sel, out);
  }
}
