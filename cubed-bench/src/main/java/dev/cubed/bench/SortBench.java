package dev.cubed.bench;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.PlanFigures;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import java.util.List;
import java.util.Locale;

/**
 * Sorts {@code --values} float64 values of {@code Cubed.random} (seed {@code --seed}, chunks of
 * {@code --chunk}) with the chunked {@code Xp.sort} at {@code --allowed-mem}, and checks the result
 * without holding it: in the same compute, one pass over the input and one over the sorted output
 * give per block the count and two order-independent hashes of the values' bits (their sums must
 * agree: the output is a permutation of the input), and per output block whether it is ascending
 * plus its first and last values (each block's first must not be below the previous block's last).
 * Sorted and the same multiset means equal to the kernel's sort of the same values. Prints one JSON
 * line: wall seconds (eager passes and compute), the plan's largest projected task, this JVM's peak
 * RSS (VmHWM) and the values at ranks near {@code k * values / 8} (block starts) and the last
 * (compare with NumPy's sort of the same values: scripts/perf/sort_numpy.py).
 *
 * <p>Usage: {@code SortBench [--values N] [--chunk C] [--allowed-mem 200MB] [--reserved-mem 50MB]
 * [--workers 2] [--seed 42] [--work-dir DIR]}.
 */
public final class SortBench {
  private SortBench() {}

  /** Runs the benchmark; exits 1 when a check fails. */
  public static void main(String[] args) throws Exception {
    long n = 250_000_000L;
    long chunk = 1_000_000L;
    String allowed = "200MB";
    String reserved = "50MB";
    int workers = 2;
    long seed = 42;
    String workDir = null;
    for (int i = 0; i < args.length; i += 2) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (v == null) {
        throw new IllegalArgumentException("SortBench: option " + args[i] + " needs a value");
      }
      switch (args[i]) {
        case "--values" -> n = Long.parseLong(v.replace("_", ""));
        case "--chunk" -> chunk = Long.parseLong(v.replace("_", ""));
        case "--allowed-mem" -> allowed = v;
        case "--reserved-mem" -> reserved = v;
        case "--workers" -> workers = Integer.parseInt(v);
        case "--seed" -> seed = Long.parseLong(v);
        case "--work-dir" -> workDir = v;
        default ->
            throw new IllegalArgumentException(
                "SortBench: unknown option "
                    + args[i]
                    + " (use --values, --chunk, --allowed-mem, --reserved-mem, --workers, --seed, "
                    + "--work-dir)");
      }
    }
    Spec.Builder b = Spec.builder().allowedMem(allowed).reservedMem(reserved).workers(workers);
    if (workDir != null) {
      b.workDir(workDir);
    }
    Spec spec = b.build();
    try (PeakRssMonitor rss = PeakRssMonitor.start(200)) {
      long t0 = System.nanoTime();
      CubedArray x = Cubed.random(new long[] {n}, new long[] {chunk}, seed, spec);
      CubedArray s = Xp.sort(x);
      long t1 = System.nanoTime();
      CubedArray in = blockStats(x, false);
      CubedArray out = blockStats(s, true);
      PlanFigures summary = Cubed.summary(List.of(in, out));
      System.err.println(summary);
      List<NDArray> r = Cubed.compute(in, out);
      long t2 = System.nanoTime();
      String verdict = verify(n, r.get(0), r.get(1));
      long[] ob = (long[]) r.get(1).data();
      StringBuilder q = new StringBuilder();
      long c = s.chunkShape()[0];
      for (int k = 0; k <= 8; k++) {
        // ranks where an output block starts (its first value is known), and the last rank
        long rank = k == 8 ? n - 1 : (k * (n / 8) / c) * c;
        int blk = (int) (rank / c);
        double v = Double.longBitsToDouble(ob[blk * 6 + (k == 8 ? 5 : 4)]);
        q.append(k == 0 ? "" : ", ").append(String.format(Locale.ROOT, "[%d, %.17g]", rank, v));
      }
      System.out.printf(
          Locale.ROOT,
          "{\"values\": %d, \"chunk\": %d, \"allowed_mem\": %d, "
              + "\"reserved_mem\": %d, \"workers\": %d, \"seed\": %d, \"eager_passes_s\": %.2f, "
              + "\"compute_s\": %.2f, \"total_s\": %.2f, \"max_projected_task\": %d, "
              + "\"intermediate_bytes\": %d, \"peak_rss\": %d, \"max_heap\": %d, \"check\": \"%s\", "
              + "\"ranks\": [%s]}%n",
          n,
          chunk,
          spec.allowedMem(),
          spec.reservedMem(),
          workers,
          seed,
          (t1 - t0) / 1e9,
          (t2 - t1) / 1e9,
          (t2 - t0) / 1e9,
          summary.maxProjectedMem(),
          summary.intermediateBytes(),
          rss.peakBytes(),
          Runtime.getRuntime().maxMemory(),
          verdict,
          q);
      if (!verdict.equals("ok")) {
        System.exit(1);
      }
    }
  }

  static long mix(long z, long k) {
    z = (z + k) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * Per block of the 1-d float64 x: count, two bit hashes and (with {@code order}) whether the
   * block ascends, its first and last values' bits: a {@code (blocks, 6)} int64 array.
   */
  static CubedArray blockStats(CubedArray x, boolean order) {
    long p = x.numBlocks()[0];
    BlockwiseFunction f =
        (args, c) -> {
          NDArray blk = (NDArray) args.get(0);
          double[] d = (double[]) blk.data();
          long h1 = 0;
          long h2 = 0;
          long ascending = 1;
          for (int i = 0; i < d.length; i++) {
            long bits = Double.doubleToRawLongBits(d[i]);
            h1 += mix(bits, 0x9E3779B97F4A7C15L);
            h2 += mix(bits, 0x632BE59BD9B4E019L);
            if (i > 0 && d[i] < d[i - 1]) {
              ascending = 0;
            }
          }
          long first = d.length == 0 ? 0 : Double.doubleToRawLongBits(d[0]);
          long last = d.length == 0 ? 0 : Double.doubleToRawLongBits(d[d.length - 1]);
          return new NDArray(
              DType.INT64,
              new long[] {1, 6},
              new long[] {d.length, h1, h2, order ? ascending : 1, first, last});
        };
    Blockwise op =
        new Blockwise(
            order ? "check_sorted" : "check_input",
            c -> List.of(BlockKeys.one(c[0])),
            f,
            new int[] {1},
            new int[] {1},
            0);
    return Xp.blockwise(op, new long[] {p, 6}, new long[] {1, 6}, DType.INT64, x);
  }

  static String verify(long n, NDArray in, NDArray out) {
    long[] a = (long[]) in.data();
    long[] o = (long[]) out.data();
    long na = 0;
    long no = 0;
    long h1a = 0;
    long h2a = 0;
    long h1o = 0;
    long h2o = 0;
    for (int i = 0; i < a.length; i += 6) {
      na += a[i];
      h1a += a[i + 1];
      h2a += a[i + 2];
    }
    double prevLast = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < o.length; i += 6) {
      no += o[i];
      h1o += o[i + 1];
      h2o += o[i + 2];
      if (o[i + 3] != 1) {
        return "output block " + i / 6 + " is not ascending";
      }
      if (o[i] > 0) {
        double first = Double.longBitsToDouble(o[i + 4]);
        if (first < prevLast) {
          return "output block "
              + i / 6
              + " starts at "
              + first
              + " below the previous block's "
              + "last "
              + prevLast;
        }
        prevLast = Double.longBitsToDouble(o[i + 5]);
      }
    }
    if (na != n || no != n) {
      return "counts differ: input " + na + ", output " + no + ", expected " + n;
    }
    if (h1a != h1o || h2a != h2o) {
      return "the output is not a permutation of the input (hash sums differ)";
    }
    return "ok";
  }
}
