package dev.cubed.bench.userpath;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The user-path expressions (docs/performance.md, "The user's path"): each written as a user of the
 * public API would write it, on stored Zarr inputs {@code U, V} (4-D), {@code A, B} (2-D) and
 * {@code R}, {@code N} (3-D, N with NaNs) and the bool mask {@code M} (U's shape) under one
 * directory ({@code DIR/U.zarr}, ...); arrays they write go to {@code out} ({@link #WRITTEN}: the
 * caller removes earlier ones first). Each is one compute (add_to_zarr: a write, then a sum of what
 * was written), and yields its checksums. The same expressions in Dask are in {@code
 * scripts/perf/userpath_dask.py}; both compute the same checksums.
 */
final class Expressions {
  private Expressions() {}

  /** One expression: its inputs, its default allowedMem, and its body. */
  record Expression(
      String name, String formula, List<String> inputs, String defaultAllowedMem, Body body) {}

  /** The timed body: opens the inputs, computes, returns the checksums (computed afterwards). */
  interface Body {
    Map<String, Object> run(Path inputs, Path out, Spec spec, ComputeOptions opts);
  }

  static final List<Expression> ALL =
      List.of(
          new Expression(
              "quadratic_means",
              "mean(u*u,0), mean(v*v,0), mean(u*v,0) in one compute",
              List.of("U", "V"),
              "2GB",
              Expressions::quadraticMeans),
          new Expression(
              "where_chain",
              "sum(where(u > 0.5, sqrt(u*v), exp(-u)))",
              List.of("U", "V"),
              "2GB",
              Expressions::whereChain),
          new Expression(
              "std_time",
              "sqrt(mean((u - mean(u,0,keepdims))**2, 0))",
              List.of("U"),
              "2GB",
              Expressions::stdTime),
          new Expression(
              "mean_argmax",
              "mean(A,0) and argmax(A,1) in one compute",
              List.of("A"),
              "500MB",
              Expressions::meanArgmax),
          new Expression(
              "rechunk",
              "toZarr(R.rechunk(T, Y/6, X/6))",
              List.of("R"),
              "500MB",
              Expressions::rechunk),
          new Expression(
              "add_to_zarr",
              "toZarr(A + B), then sum of it read back",
              List.of("A", "B"),
              "500MB",
              Expressions::addToZarr),
          new Expression(
              "broadcast_row",
              "sum(A * B[0, :]) (a row broadcast over A)",
              List.of("A", "B"),
              "500MB",
              Expressions::broadcastRow),
          new Expression(
              "slice_sum",
              "sum(A[n/12 : 3n/4 : 2, ::3])",
              List.of("A"),
              "500MB",
              Expressions::sliceSum),
          new Expression(
              "concat_sum",
              "sum(concat([A, B], 0))",
              List.of("A", "B"),
              "500MB",
              Expressions::concatSum),
          new Expression(
              "cumsum_to_zarr",
              "toZarr(cumulative_sum(R, 0)) (R one time step per chunk)",
              List.of("R"),
              "500MB",
              Expressions::cumsumToZarr),
          new Expression(
              "slice_row_mean",
              "mean(A[1::2, :] * B[0, :], 0) (offset step times a broadcast row)",
              List.of("A", "B"),
              "500MB",
              Expressions::sliceRowMean),
          new Expression(
              "concat_mean",
              "mean(concat([A, B], 0), 0)",
              List.of("A", "B"),
              "500MB",
              Expressions::concatMean),
          new Expression(
              "where_mask_sum",
              "sum(where(M, U, 0), 0) (M a stored bool mask)",
              List.of("M", "U"),
              "2GB",
              Expressions::whereMaskSum),
          new Expression(
              "nanmean_time",
              "nanmean(N, 0) (N with 10% NaNs)",
              List.of("N"),
              "500MB",
              Expressions::nanmeanTime));

  /** The arrays an expression writes into {@code out} (the caller removes earlier ones first). */
  static final List<String> WRITTEN = List.of("rechunked.zarr", "sum_ab.zarr", "cumsum.zarr");

  static Expression byName(String name) {
    for (Expression e : ALL) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown expression '" + name + "'; known: " + names());
  }

  static String names() {
    StringBuilder b = new StringBuilder();
    for (Expression e : ALL) {
      b.append(b.length() == 0 ? "" : ", ").append(e.name());
    }
    return b.toString();
  }

  private static CubedArray open(Path inputs, String name, Spec spec) {
    return Cubed.fromZarr(inputs.resolve(name + ".zarr").toString(), spec);
  }

  static Map<String, Object> quadraticMeans(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray u = open(in, "U", spec);
    CubedArray v = open(in, "V", spec);
    List<NDArray> r =
        Cubed.compute(
            opts,
            Xp.mean(Xp.multiply(u, u), 0),
            Xp.mean(Xp.multiply(v, v), 0),
            Xp.mean(Xp.multiply(u, v), 0));
    return sums("sum_uu", r.get(0), "sum_vv", r.get(1), "sum_uv", r.get(2));
  }

  static Map<String, Object> whereChain(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray u = open(in, "U", spec);
    CubedArray v = open(in, "V", spec);
    CubedArray w = Xp.where(Xp.greater(u, 0.5), Xp.sqrt(Xp.multiply(u, v)), Xp.exp(Xp.negative(u)));
    return sums("sum", Xp.sum(w).compute(opts));
  }

  static Map<String, Object> stdTime(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray u = open(in, "U", spec);
    CubedArray anomaly = Xp.subtract(u, Xp.mean(u, Axes.of(0).keepDims()));
    CubedArray std = Xp.sqrt(Xp.mean(Xp.pow(anomaly, 2), 0));
    NDArray s = std.compute(opts);
    return sums("sum", s);
  }

  static Map<String, Object> meanArgmax(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    List<NDArray> r = Cubed.compute(opts, Xp.mean(a, 0), Xp.argmax(a, 1));
    Map<String, Object> m = sums("mean_sum", r.get(0));
    NDArray am = r.get(1);
    long sum = 0;
    long weighted = 0;
    for (int i = 0; i < am.size(); i++) {
      sum += am.getLong(i);
      weighted += am.getLong(i) * (i % 1000);
    }
    m.put("argmax_sum", sum);
    m.put("argmax_weighted", weighted);
    return m;
  }

  /** The rechunk target of R (T, Y, X): (T, Y/6, X/6), at least 1. */
  static long[] rechunkTarget(long[] shape) {
    return new long[] {shape[0], Math.max(1, shape[1] / 6), Math.max(1, shape[2] / 6)};
  }

  static Map<String, Object> rechunk(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray r = open(in, "R", spec);
    long[] target = rechunkTarget(r.shape());
    ZarrArray written =
        Cubed.toZarr(r.rechunk(target), new FileSystemStore(out), "rechunked.zarr", opts);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("chunks", written.chunks());
    return m;
  }

  /** After the timed phase of rechunk: the sum of what it wrote (read back by the engine). */
  static void rechunkChecksum(Path out, Spec spec, Map<String, Object> m) {
    CubedArray back = Cubed.fromZarr(out.resolve("rechunked.zarr").toString(), spec);
    m.put("sum", Xp.sum(back).compute().getDouble(0));
  }

  static Map<String, Object> addToZarr(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    CubedArray b = open(in, "B", spec);
    ZarrArray c = Cubed.toZarr(Xp.add(a, b), new FileSystemStore(out), "sum_ab.zarr", opts);
    return sums("sum", Xp.sum(Cubed.fromZarr(c, spec)).compute(opts));
  }

  static Map<String, Object> broadcastRow(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    CubedArray b = open(in, "B", spec);
    CubedArray row = Xp.getItem(b, Index.at(0), Index.all());
    return sums("sum", Xp.sum(Xp.multiply(a, row)).compute(opts));
  }

  /** The slice of slice_sum for an n x m array: {@code [n/12 : 3n/4 : 2, ::3]}. */
  static Index[] sliceOf(long n) {
    return new Index[] {Index.slice(n / 12, 3 * n / 4, 2), Index.slice(null, null, 3)};
  }

  static Map<String, Object> sliceSum(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    return sums("sum", Xp.sum(Xp.getItem(a, sliceOf(a.shape()[0]))).compute(opts));
  }

  static Map<String, Object> concatSum(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    CubedArray b = open(in, "B", spec);
    return sums("sum", Xp.sum(Xp.concat(List.of(a, b), 0)).compute(opts));
  }

  static Map<String, Object> cumsumToZarr(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray r = open(in, "R", spec);
    Cubed.toZarr(Xp.cumulativeSum(r, 0), new FileSystemStore(out), "cumsum.zarr", opts);
    return new LinkedHashMap<>();
  }

  /** After the timed phase of cumsum_to_zarr: the sums of what it wrote and of its last step. */
  static void cumsumChecksum(Path out, Spec spec, Map<String, Object> m) {
    CubedArray back = Cubed.fromZarr(out.resolve("cumsum.zarr").toString(), spec);
    List<NDArray> r =
        Cubed.compute(
            Xp.sum(back), Xp.sum(Xp.getItem(back, Index.at(back.shape()[0] - 1), Index.all())));
    m.put("sum", r.get(0).getDouble(0));
    m.put("last_sum", r.get(1).getDouble(0));
  }

  static Map<String, Object> sliceRowMean(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    CubedArray b = open(in, "B", spec);
    CubedArray odd = Xp.getItem(a, Index.slice(1L, null, 2), Index.all());
    CubedArray row = Xp.getItem(b, Index.at(0), Index.all());
    return sums("sum", Xp.mean(Xp.multiply(odd, row), 0).compute(opts));
  }

  static Map<String, Object> concatMean(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray a = open(in, "A", spec);
    CubedArray b = open(in, "B", spec);
    return sums("sum", Xp.mean(Xp.concat(List.of(a, b), 0), 0).compute(opts));
  }

  static Map<String, Object> whereMaskSum(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray m = open(in, "M", spec);
    CubedArray u = open(in, "U", spec);
    return sums("sum", Xp.sum(Xp.where(m, u, 0.0), 0).compute(opts));
  }

  static Map<String, Object> nanmeanTime(Path in, Path out, Spec spec, ComputeOptions opts) {
    CubedArray n = open(in, "N", spec);
    return sums("sum", Xp.nanmean(n, 0).compute(opts));
  }

  /**
   * The read-once floor of an expression: its stored inputs read and decoded once each, in one
   * compute (each summed whole; summing costs a small fraction of decoding). Checksums: the sums.
   */
  static Map<String, Object> floor(Expression e, Path in, Spec spec, ComputeOptions opts) {
    List<CubedArray> sums = new ArrayList<>();
    for (String name : e.inputs()) {
      sums.add(Xp.sum(open(in, name, spec)));
    }
    List<NDArray> r = Cubed.compute(opts, sums.toArray(CubedArray[]::new));
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < r.size(); i++) {
      m.put("sum_" + e.inputs().get(i), r.get(i).getDouble(0));
    }
    return m;
  }

  /** Name, array, name, array, ...: each array's element sum under its name. */
  static Map<String, Object> sums(Object... namesAndArrays) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int k = 0; k < namesAndArrays.length; k += 2) {
      NDArray x = (NDArray) namesAndArrays[k + 1];
      double s = 0;
      for (int i = 0; i < x.size(); i++) {
        s += x.getDouble(i);
      }
      m.put((String) namesAndArrays[k], s);
    }
    return m;
  }
}
