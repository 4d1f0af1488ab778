package dev.cubed.spark;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.Stores;
import dev.cubed.zarr.ZarrArray;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The five workloads of the benchmark suite (docs/perf/workloads.md) at the small size, written
 * against the public API with every stored input, intermediate and output on S3
 * ({@code s3://data/...}, work directory {@code s3://work/...}). Inputs follow the suite's index
 * formulas; stored inputs are written with the threads executor (not timed in the suite either),
 * the workload itself runs with the given options. Each returns the suite's checksums.
 */
final class S3Workloads {
  static final double G = 0.6180339887498949;
  static final double S = 0.41421356237309515;

  /** NumPy's checksums of the small size (docs/perf/workloads.md). */
  static final Map<String, Map<String, Object>> NUMPY = Map.of(
      "quadratic_means", Map.of("sum_uu", 44459.952431602345, "sum_vv", 44459.94364437888,
          "sum_uv", 29782.59454779417),
      "add", Map.of("sum", 6249999.991371165),
      "matmul", Map.of("sum", 3906249989.307884),
      "rechunk", Map.of("sum", 6249991.822526063, "weighted_sum", 18749973.136350363,
          "chunks", List.of(200L, 50L, 50L)),
      "reduce", Map.of("mean_sum", 1750.000017051746, "mean_sumsq", 875.0002355951227,
          "argmax_sum", 6126789L, "argmax_weighted", 2837471628L));

  /** The workload names, in the suite's order. */
  static final List<String> NAMES = List.of("quadratic_means", "add", "matmul", "rechunk",
      "reduce");

  private S3Workloads() {}

  static Spec spec(String name) {
    return Spec.builder().workDir("s3://work/" + name).allowedMem("2GB").reservedMem("100MB")
        .build();
  }

  /** Writes a workload's stored inputs (quadratic_means, rechunk) with the threads executor. */
  static void prepare(String name) {
    Spec spec = spec(name + "-inputs");
    switch (name) {
      case "quadratic_means" -> {
        long t = 50;
        long y = 247;
        long x = 480;
        long[] shape = {t, 1, y, x};
        long[] chunks = {10, 1, y, x};
        Cubed.toZarr(Cubed.fromFunction(shape, chunks, DType.FLOAT64, (b, i, flat, in, bc) -> {
          long tt = flat / (y * x);
          long r = flat % (y * x);
          b.setDouble(i, 0.5 + 0.5 * Math.sin(G * (double) tt + S * (double) (r / x)
              + (double) (r % x)));
        }, spec), Stores.open("s3://data/qm/u.zarr"), "", true);
        Cubed.toZarr(Cubed.fromFunction(shape, chunks, DType.FLOAT64, (b, i, flat, in, bc) -> {
          long tt = flat / (y * x);
          long r = flat % (y * x);
          b.setDouble(i, 0.5 + 0.5 * Math.cos(G * (double) tt - S * (double) (r / x)
              + (double) (r % x)));
        }, spec), Stores.open("s3://data/qm/v.zarr"), "", true);
      }
      case "rechunk" -> {
        long y = 250;
        long x = 250;
        Cubed.toZarr(Cubed.fromFunction(new long[] {200, y, x}, new long[] {1, y, x},
            DType.FLOAT64, (b, i, flat, in, bc) -> {
              long tt = flat / (y * x);
              long r = flat % (y * x);
              b.setDouble(i, 0.5 + 0.5 * Math.sin(G * (double) tt + S * (double) (r / x)
                  + (double) (r % x)));
            }, spec), Stores.open("s3://data/rechunk/x.zarr"), "", true);
      }
      default -> {
        // add, matmul and reduce generate their inputs inside their tasks
      }
    }
  }

  /** A(i, j) = 0.5 + 0.5 sin(G i + j), generated in its tasks. */
  static CubedArray a(long n, long c, Spec spec) {
    return Cubed.fromFunction(new long[] {n, n}, new long[] {c, c}, DType.FLOAT64,
        (b, i, flat, in, bc) -> b.setDouble(i, 0.5 + 0.5 * Math.sin(G * (double) (flat / n)
            + (double) (flat % n))), spec);
  }

  /** B(i, j) = 0.5 + 0.5 cos(G i - j). */
  static CubedArray b(long n, long c, Spec spec) {
    return Cubed.fromFunction(new long[] {n, n}, new long[] {c, c}, DType.FLOAT64,
        (b, i, flat, in, bc) -> b.setDouble(i, 0.5 + 0.5 * Math.cos(G * (double) (flat / n)
            - (double) (flat % n))), spec);
  }

  /**
   * Runs a workload (after {@link #prepare}) with the options; returns its checksums. Outputs go
   * under {@code s3://data/<tag>/}.
   */
  static Map<String, Object> run(String name, ComputeOptions opts, String tag) {
    Spec spec = spec(name);
    Map<String, Object> sums = new LinkedHashMap<>();
    switch (name) {
      case "quadratic_means" -> {
        CubedArray u = Cubed.fromZarr("s3://data/qm/u.zarr", spec);
        CubedArray v = Cubed.fromZarr("s3://data/qm/v.zarr", spec);
        List<NDArray> r = Cubed.compute(opts, Xp.mean(u.multiply(u), 0),
            Xp.mean(v.multiply(v), 0), Xp.mean(u.multiply(v), 0));
        sums.put("sum_uu", sum(r.get(0)));
        sums.put("sum_vv", sum(r.get(1)));
        sums.put("sum_uv", sum(r.get(2)));
      }
      case "add" -> {
        Cubed.toZarr(Xp.add(a(2500, 500, spec), b(2500, 500, spec)),
            Stores.open("s3://data/" + tag + "/add/c.zarr"), "", opts);
        CubedArray c = Cubed.fromZarr("s3://data/" + tag + "/add/c.zarr", spec);
        sums.put("sum", Cubed.compute(opts, Xp.sum(c)).get(0).getDouble(0));
      }
      case "matmul" -> sums.put("sum", Cubed.compute(opts, Xp.sum(Xp.matmul(a(2500, 500, spec),
          b(2500, 500, spec)))).get(0).getDouble(0));
      case "rechunk" -> {
        Cubed.toZarr(Xp.rechunk(Cubed.fromZarr("s3://data/rechunk/x.zarr", spec), 200, 50, 50),
            Stores.open("s3://data/" + tag + "/rechunk/out.zarr"), "", opts);
        ZarrArray out = ZarrArray.open("s3://data/" + tag + "/rechunk/out.zarr");
        NDArray o = out.read();
        double s = 0;
        double w = 0;
        int k = 0;
        for (long t = 0; t < 200; t++) {
          for (long y = 0; y < 250; y++) {
            for (long x = 0; x < 250; x++) {
              double d = o.getDouble(k++);
              s += d;
              w += d * ((t + 2 * y + 3 * x) % 7);
            }
          }
        }
        sums.put("sum", s);
        sums.put("weighted_sum", w);
        sums.put("chunks", java.util.Arrays.stream(out.chunks()).boxed().toList());
      }
      case "reduce" -> {
        CubedArray x = a(3500, 700, spec);
        List<NDArray> r = Cubed.compute(opts, Xp.mean(x, 0), Xp.argmax(x, 1));
        double s = 0;
        double sq = 0;
        for (int i = 0; i < r.get(0).size(); i++) {
          double d = r.get(0).getDouble(i);
          s += d;
          sq += d * d;
        }
        long am = 0;
        long aw = 0;
        for (int i = 0; i < r.get(1).size(); i++) {
          long v = r.get(1).getLong(i);
          am += v;
          aw += v * (i % 1000);
        }
        sums.put("mean_sum", s);
        sums.put("mean_sumsq", sq);
        sums.put("argmax_sum", am);
        sums.put("argmax_weighted", aw);
      }
      default -> throw new IllegalArgumentException("unknown workload " + name);
    }
    return sums;
  }

  static double sum(NDArray a) {
    double s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getDouble(i);
    }
    return s;
  }

}
