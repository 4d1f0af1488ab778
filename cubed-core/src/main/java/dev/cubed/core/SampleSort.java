package dev.cubed.core;

import dev.cubed.nd.Creation;
import dev.cubed.nd.DType;
import dev.cubed.nd.Indexing;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.nd.sort.Sorting;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The ops of the distributed sample sort of a 1-d array (real or bool dtype) whose whole length
 * does not fit one task. Every element is ordered by the pair (sort key, global index), the key
 * being the kernel's {@link Sorting#keys} (NaN last, descending complemented), so all pairs are
 * distinct and ties are split by index: equal values still spread over buckets, and sorting each
 * bucket stably gives the stable order.
 *
 * <p>Steps (the caller runs the first two eagerly, as data-dependent passes): {@link #samples}
 * (each block sorted, {@code s} regularly spaced pairs kept), {@link Splitters#of} (B-1 splitters
 * at regular ranks of the sorted samples), {@link #counts} (per block, elements per bucket), then
 * the lazy {@link #partition} (each block grouped by bucket, stable, one row per block), rechunked
 * by the caller to narrow column chunks so a bucket reads little beyond its pieces, and {@link
 * #buckets} (each bucket gathers its pieces, in block order, and sorts them stably).
 */
public final class SampleSort {
  private SampleSort() {}

  /** Kernel scratch of {@link Sorting#argsort} per element: keys, temp keys, two int perms, out. */
  public static final long ARGSORT_BYTES = 32;

  /** What the partition carries along with each element. */
  public enum Carry {
    /** The element's value. */
    VALUES,
    /** The element's global index (int64). */
    INDEX,
    /** The value of a payload array at the element's position. */
    PAYLOAD
  }

  /**
   * The B-1 splitters between B buckets, as (key, global index) pairs in ascending order; bucket of
   * an element = number of splitters not greater than its pair.
   */
  public record Splitters(long[] keys, long[] index) implements Serializable {
    /** Number of buckets. */
    public int buckets() {
      return keys.length + 1;
    }

    int bucketOf(long k, long g) {
      int lo = 0;
      int hi = keys.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (compare(keys[mid], index[mid], k, g) <= 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /**
     * Splitters at regular ranks of the samples computed by {@link #samples} ({@code (p, 2s)}
     * int64, pairs with index -1 unused).
     */
    public static Splitters of(NDArray samples, int buckets) {
      long[] d = (long[]) samples.data();
      int n = 0;
      for (int i = 1; i < d.length; i += 2) {
        if (d[i] >= 0) {
          n++;
        }
      }
      long[][] pairs = new long[n][];
      int at = 0;
      for (int i = 0; i + 1 < d.length; i += 2) {
        if (d[i + 1] >= 0) {
          pairs[at++] = new long[] {d[i], d[i + 1]};
        }
      }
      Arrays.sort(pairs, (a, b) -> compare(a[0], a[1], b[0], b[1]));
      int b = Math.max(1, Math.min(buckets, n));
      long[] k = new long[b - 1];
      long[] g = new long[b - 1];
      for (int t = 1; t < b; t++) {
        long[] p = pairs[(int) ((long) t * n / b)];
        k[t - 1] = p[0];
        g[t - 1] = p[1];
      }
      return new Splitters(k, g);
    }
  }

  static int compare(long k1, long g1, long k2, long g2) {
    int c = Long.compareUnsigned(k1, k2);
    return c != 0 ? c : Long.compare(g1, g2);
  }

  /**
   * Per block of the 1-d x: its {@code s} regularly spaced (key, global index) pairs in sorted
   * order (all its pairs when it has fewer; the rest have index -1), as a {@code (p, 2s)} int64
   * array, one row per block. Memory: one input block and the kernel's argsort scratch.
   */
  public static ArrayNode samples(ArrayNode x, int s, Sorting.Order order) {
    check(x);
    long[] starts = x.chunkGrid().offsets(0);
    long p = x.numBlocks()[0];
    long c = x.chunkGrid().maxChunks()[0];
    KeyFunction keys = co -> List.of(BlockKeys.one(co[0]));
    BlockwiseFunction bf =
        (args, co) -> {
          NDArray b = (NDArray) args.get(0);
          int n = b.size();
          long[] k = Sorting.keys(b, order);
          NDArray perm = Sorting.argsort(b, 0, order);
          long[] out = new long[2 * s];
          long base = starts[(int) co[0]];
          for (int j = 0; j < s; j++) {
            if (n == 0 || (n < s && j >= n)) {
              out[2 * j] = 0;
              out[2 * j + 1] = -1;
              continue;
            }
            int pos = n <= s ? j : (int) ((long) j * n / s);
            int idx = (int) perm.getLong(pos);
            out[2 * j] = k[idx];
            out[2 * j + 1] = base + idx;
          }
          return new NDArray(DType.INT64, new long[] {1, 2L * s}, out);
        };
    return new ArrayNode.Computed(
        new Blockwise(
            "sort_samples", keys, bf, new int[] {1}, new int[] {1}, c * (8 + ARGSORT_BYTES)),
        List.of(x),
        new long[] {p, 2L * s},
        new long[] {1, 2L * s},
        DType.INT64,
        null);
  }

  /**
   * Per block of the 1-d x, the number of its elements in each bucket, as a {@code (p, B)} int64
   * array. Memory: one input block and its keys.
   */
  public static ArrayNode counts(ArrayNode x, Splitters sp, Sorting.Order order) {
    check(x);
    long[] starts = x.chunkGrid().offsets(0);
    long p = x.numBlocks()[0];
    int nb = sp.buckets();
    long c = x.chunkGrid().maxChunks()[0];
    KeyFunction keys = co -> List.of(BlockKeys.one(co[0]));
    BlockwiseFunction bf =
        (args, co) -> {
          NDArray b = (NDArray) args.get(0);
          long[] k = Sorting.keys(b, order);
          long base = starts[(int) co[0]];
          long[] out = new long[nb];
          for (int i = 0; i < k.length; i++) {
            out[sp.bucketOf(k[i], base + i)]++;
          }
          return new NDArray(DType.INT64, new long[] {1, nb}, out);
        };
    return new ArrayNode.Computed(
        new Blockwise("sort_counts", keys, bf, new int[] {1}, new int[] {1}, c * 8 + nb * 8L),
        List.of(x),
        new long[] {p, nb},
        new long[] {1, nb},
        DType.INT64,
        null);
  }

  /**
   * Each block of the 1-d x grouped by bucket (stable: index order within a bucket), as row i of a
   * {@code (p, c)} array (c the largest block; short rows padded) in chunks {@code (1, c)}: the
   * values, the global indices (int64) or the values of {@code payload} (a 1-d array with x's
   * grid), by {@code carry}. Memory: one block of x (and of the payload), keys and bucket ids.
   */
  public static ArrayNode partition(
      ArrayNode x, ArrayNode payload, Carry carry, Splitters sp, Sorting.Order order) {
    check(x);
    if (carry == Carry.PAYLOAD && !payload.chunkGrid().equals(x.chunkGrid())) {
      throw new IllegalArgumentException(
          "sort: the payload's blocks "
              + payload.chunkGrid()
              + " differ from the keys' "
              + x.chunkGrid());
    }
    long[] starts = x.chunkGrid().offsets(0);
    long p = x.numBlocks()[0];
    long c = Math.max(1, x.chunkGrid().maxChunks()[0]);
    int nb = sp.buckets();
    DType out =
        switch (carry) {
          case VALUES -> x.dtype();
          case INDEX -> DType.INT64;
          case PAYLOAD -> payload.dtype();
        };
    KeyFunction keys =
        carry == Carry.PAYLOAD
            ? co -> List.of(BlockKeys.one(co[0]), BlockKeys.one(co[0]))
            : co -> List.of(BlockKeys.one(co[0]));
    BlockwiseFunction bf =
        (args, co) -> {
          NDArray b = (NDArray) args.get(0);
          int n = b.size();
          long[] k = Sorting.keys(b, order);
          long base = starts[(int) co[0]];
          int[] bucket = new int[n];
          int[] at = new int[nb + 1];
          for (int i = 0; i < n; i++) {
            bucket[i] = sp.bucketOf(k[i], base + i);
            at[bucket[i] + 1]++;
          }
          for (int j = 0; j < nb; j++) {
            at[j + 1] += at[j];
          }
          long[] dest = new long[n];
          for (int i = 0; i < n; i++) {
            dest[i] = at[bucket[i]]++;
          }
          NDArray src =
              switch (carry) {
                case VALUES -> b;
                case INDEX -> Creation.arange(base, base + n, 1);
                case PAYLOAD -> (NDArray) args.get(1);
              };
          // scatter: row[dest[i]] = src[i], i.e. row = src[argsort(dest)]; dest is a permutation
          long[] inv = new long[n];
          for (int i = 0; i < n; i++) {
            inv[(int) dest[i]] = i;
          }
          NDArray row = NDArray.zeros(out, 1, c);
          NDArray moved = Indexing.take(src, new NDArray(DType.INT64, new long[] {n}, inv), 0);
          row.setRegion(new long[] {0, 0}, moved.reshape(1, n));
          return row;
        };
    long item = out.itemSize();
    long extra = c * (8 + 4 + 8 + 8 + item);
    int[] ones = carry == Carry.PAYLOAD ? new int[] {1, 1} : new int[] {1};
    List<ArrayNode> ins = carry == Carry.PAYLOAD ? List.of(x, payload) : List.of(x);
    return new ArrayNode.Computed(
        new Blockwise("sort_partition", keys, bf, ones, ones.clone(), extra),
        ins,
        new long[] {p, c},
        new long[] {1, c},
        out,
        null);
  }

  /**
   * The sorted buckets: output block j is bucket {@code map[j]} (empty buckets dropped), sorted
   * stably by the keys of {@code vals}; it holds the carried values ({@code carried}, or the values
   * themselves when null). {@code vals} and {@code carried} are the {@link #partition} rows
   * rechunked to {@code (1, g)}; {@code counts[i][b]} are the elements of block i in bucket b. Each
   * task streams, one chunk at a time, the chunks holding its pieces (block order), then sorts them
   * with the kernel. Memory: the bucket's values and carried values, the kernel's argsort scratch
   * and the output block.
   */
  public static ArrayNode buckets(
      ArrayNode vals, ArrayNode carried, long[][] counts, long g, Sorting.Order order) {
    int p = counts.length;
    int nb = p == 0 ? 0 : counts[0].length;
    long[][] rowStart = new long[p][nb];
    long[] size = new long[nb];
    for (int i = 0; i < p; i++) {
      long at = 0;
      for (int b = 0; b < nb; b++) {
        rowStart[i][b] = at;
        at += counts[i][b];
        size[b] += counts[i][b];
      }
    }
    List<Long> sizes = new ArrayList<>();
    List<Integer> mapL = new ArrayList<>();
    long total = 0;
    int maxReads = 1;
    long maxSize = 0;
    for (int b = 0; b < nb; b++) {
      if (size[b] > 0) {
        sizes.add(size[b]);
        mapL.add(b);
        total += size[b];
        maxSize = Math.max(maxSize, size[b]);
        int reads = 0;
        for (int i = 0; i < p; i++) {
          if (counts[i][b] > 0) {
            reads += (int) ((rowStart[i][b] + counts[i][b] - 1) / g - rowStart[i][b] / g + 1);
          }
        }
        maxReads = Math.max(maxReads, reads);
      }
    }
    int[] map = mapL.stream().mapToInt(Integer::intValue).toArray();
    ChunkGrid grid =
        ChunkGrid.of(
            new long[] {total}, new long[][] {sizes.stream().mapToLong(Long::longValue).toArray()});
    KeyFunction keys =
        co -> {
          int b = map[(int) co[0]];
          List<long[]> l = new ArrayList<>();
          for (int i = 0; i < p; i++) {
            if (counts[i][b] > 0) {
              for (long k = rowStart[i][b] / g; k <= (rowStart[i][b] + counts[i][b] - 1) / g; k++) {
                l.add(new long[] {i, k});
              }
            }
          }
          return carried == null
              ? List.of(BlockKeys.stream(l))
              : List.of(BlockKeys.stream(l), BlockKeys.stream(l));
        };
    DType vt = vals.dtype();
    BlockwiseFunction bf =
        (args, co) -> {
          int b = map[(int) co[0]];
          int n = (int) size[b];
          @SuppressWarnings("unchecked")
          Iterator<NDArray> vs = (Iterator<NDArray>) args.get(0);
          @SuppressWarnings("unchecked")
          Iterator<NDArray> cs = carried == null ? null : (Iterator<NDArray>) args.get(1);
          NDArray v = NDArray.zeros(vt, n);
          NDArray cv = carried == null ? null : NDArray.zeros(carried.dtype(), n);
          int at = 0;
          for (int i = 0; i < p; i++) {
            if (counts[i][b] == 0) {
              continue;
            }
            long from = rowStart[i][b];
            long to = from + counts[i][b];
            for (long k = from / g; k <= (to - 1) / g; k++) {
              NDArray vb = vs.next();
              NDArray cb = cs == null ? null : cs.next();
              long lo = Math.max(from, k * g) - k * g;
              long hi = Math.min(to, (k + 1) * g) - k * g;
              int len = (int) (hi - lo);
              v.setRegion(
                  new long[] {at},
                  vb.getRegion(new long[] {0, lo}, new long[] {1, len}).reshape(len));
              if (cv != null) {
                cv.setRegion(
                    new long[] {at},
                    cb.getRegion(new long[] {0, lo}, new long[] {1, len}).reshape(len));
              }
              at += len;
            }
          }
          NDArray perm = Sorting.argsort(v, 0, order);
          return Indexing.take(cv == null ? v : cv, perm, 0);
        };
    DType out = carried == null ? vt : carried.dtype();
    long extra = maxSize * (vt.itemSize() + (carried == null ? 0 : out.itemSize()) + ARGSORT_BYTES);
    int[] held = carried == null ? new int[] {1} : new int[] {1, 1};
    int[] reads = carried == null ? new int[] {maxReads} : new int[] {maxReads, maxReads};
    List<ArrayNode> ins = carried == null ? List.of(vals) : List.of(vals, carried);
    return new ArrayNode.Computed(
        new Blockwise("sort_buckets", keys, bf, held, reads, extra), ins, grid, out, null);
  }

  /**
   * The sorted buckets moved to {@code grid} (the input's): in one regrid step (each output block
   * reads the buckets it overlaps) when that task fits {@code budget} bytes, else through the
   * multistage rechunk.
   */
  public static ArrayNode toGrid(ArrayNode sorted, ChunkGrid grid, long budget) {
    long item = sorted.dtype().itemSize();
    long outBlock = item;
    for (long c : grid.maxChunks()) {
      outBlock *= Math.max(1, c);
    }
    long regrid =
        Regrid.maxOverlap(sorted.chunkGrid(), grid) * sorted.chunkBytes() * 2 + outBlock * 2;
    return regrid <= budget ? Regrid.to(sorted, grid) : Core.rechunk(sorted, grid);
  }

  /** Per-element bytes of a {@link #buckets} task (besides its output block). */
  public static long bucketBytesPerElement(DType values, DType carried) {
    return values.itemSize() + (carried == null ? 0 : carried.itemSize()) + ARGSORT_BYTES;
  }

  private static void check(ArrayNode x) {
    if (x.shape().length != 1) {
      throw new IllegalArgumentException(
          "sample sort: expected a 1-d array, got shape " + Shapes.format(x.shape()));
    }
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException(
          "sort: complex arrays are sorted only when the sorted "
              + "axis fits one task (the distributed sort orders real and bool values); got "
              + x.dtype()
              + " of shape "
              + Shapes.format(x.shape())
              + "; raise allowedMem");
    }
  }
}
