package dev.cubed.cli;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.PlanSummary;
import dev.cubed.zarr.FileSystemStore;
import dev.cubed.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.List;

/** The quadratic_means workload of docs/benchmarks.md on the engine. */
final class QuadraticMeans {
  static final double G = 0.6180339887498949;
  static final double S = 0.41421356237309515;

  record Params(int t, int y, int x, int tchunk) {}

  record Result(double sumUu, double sumVv, double sumUv, double wallSeconds, PlanSummary plan) {}

  private QuadraticMeans() {}

  static Params params(String size) {
    return switch (size) {
      case "small" -> new Params(50, 247, 480, 10);
      case "medium" -> new Params(100, 987, 1920, 10);
      default -> throw new IllegalArgumentException("demo: --size must be small or medium, got '"
          + size + "'");
    };
  }

  static double u(long t, long y, long x) {
    return 0.5 + 0.5 * Math.sin(G * t + S * y + x);
  }

  static double v(long t, long y, long x) {
    return 0.5 + 0.5 * Math.cos(G * t - S * y + x);
  }

  /** Writes U and V to Zarr under {@code dir} (chunks (tchunk, 1, Y, X)); returns them. */
  static ZarrArray[] writeInputs(Params p, Path dir, Spec spec) {
    long[] shape = {p.t(), 1, p.y(), p.x()};
    long[] chunks = {p.tchunk(), 1, p.y(), p.x()};
    long yx = (long) p.y() * p.x();
    long xs = p.x();
    CubedArray u = Cubed.fromFunction(shape, chunks, DType.FLOAT64, (b, i, flat, in, bc) -> {
      long t = flat / yx;
      long r = flat % yx;
      b.setDouble(i, u(t, r / xs, r % xs));
    }, spec);
    CubedArray v = Cubed.fromFunction(shape, chunks, DType.FLOAT64, (b, i, flat, in, bc) -> {
      long t = flat / yx;
      long r = flat % yx;
      b.setDouble(i, v(t, r / xs, r % xs));
    }, spec);
    FileSystemStore store = new FileSystemStore(dir);
    ZarrArray uz = ZarrArray.create(store, "U.zarr").shape(shape).chunks(chunks)
        .dtype(DType.FLOAT64).overwrite().build();
    ZarrArray vz = ZarrArray.create(store, "V.zarr").shape(shape).chunks(chunks)
        .dtype(DType.FLOAT64).overwrite().build();
    Cubed.store(List.of(u, v), List.of(uz, vz), ComputeOptions.defaults());
    return new ZarrArray[] {uz, vz};
  }

  /**
   * Plans the three means (lazy). If the plan on the stored chunks does not fit allowedMem, U and
   * V are first rechunked along y (halving the y chunk until the plan fits), as a user would.
   */
  static CubedArray[] means(ZarrArray uz, ZarrArray vz, Spec spec) {
    CubedArray u = Cubed.fromZarr(uz, spec);
    CubedArray v = Cubed.fromZarr(vz, spec);
    CubedArray[] m = means(u, v);
    long[] c = uz.chunks();
    long yc = c[2];
    while (Cubed.plan(List.of(m)).summary().maxProjectedMem() > spec.allowedMem() && yc > 1) {
      yc = (yc + 1) / 2;
      CubedArray ur = Xp.rechunk(u, c[0], c[1], yc, c[3]);
      CubedArray vr = Xp.rechunk(v, c[0], c[1], yc, c[3]);
      m = means(ur, vr);
    }
    return m;
  }

  private static CubedArray[] means(CubedArray u, CubedArray v) {
    return new CubedArray[] {Xp.mean(Xp.multiply(u, u), 0), Xp.mean(Xp.multiply(v, v), 0),
        Xp.mean(Xp.multiply(u, v), 0)};
  }

  static double sum(NDArray a) {
    double s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getDouble(i);
    }
    return s;
  }

  /** Runs the timed phase: the three means in one compute. */
  static Result run(ZarrArray uz, ZarrArray vz, Spec spec, ComputeOptions opts) {
    CubedArray[] m = means(uz, vz, spec);
    PlanSummary plan = Cubed.plan(List.of(m)).summary();
    long t0 = System.nanoTime();
    List<NDArray> r = Cubed.compute(opts, m);
    double wall = (System.nanoTime() - t0) / 1e9;
    return new Result(sum(r.get(0)), sum(r.get(1)), sum(r.get(2)), wall, plan);
  }
}
