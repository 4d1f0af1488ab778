package dev.cubed.cli;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The quadratic_means workload of docs/benchmarks.md on the engine. */
final class QuadraticMeansDemo {
  static final double G = 0.6180339887498949;
  static final double S = 0.41421356237309515;

  record Params(int t, int y, int x, int tchunk) {}

  record Result(double sumUu, double sumVv, double sumUv, double wallSeconds, PlanSummary plan) {}

  private QuadraticMeansDemo() {}

  /**
   * The parameters of a size: {@code small} and {@code medium} of docs/benchmarks.md, or the total
   * size of U and V (e.g. {@code 1.5TB}, {@code 150GB}) on medium's (Y, X) grid and time chunk,
   * labelled the way Python Cubed's published series labels it: one time step of U and V is 2 * 987
   * * 1920 * 8 B = 30.3 MB, and the series calls T = 50, 500, 5,000, 50,000 "1.5GB" ... "1.5TB", so
   * T = size / 30 MB (rounded up to whole time chunks); {@code 1.5TB} is T = 50,000 (1.52 TB).
   *
   * @throws IllegalArgumentException if {@code size} is neither a name nor a byte size, or is below
   *     one time chunk (300 MB)
   */
  static Params params(String size) {
    switch (size) {
      case "small":
        return new Params(50, 247, 480, 10);
      case "medium":
        return new Params(100, 987, 1920, 10);
      default:
        break;
    }
    long bytes;
    try {
      bytes = Spec.parseBytes(size);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'" + size + "' is not small, medium or a total input" + " size such as 1.5TB or 150GB",
          e);
    }
    int tchunk = 10;
    long chunks =
        (bytes + BYTES_PER_LABELLED_STEP * tchunk - 1) / (BYTES_PER_LABELLED_STEP * tchunk);
    if (bytes < BYTES_PER_LABELLED_STEP * tchunk || chunks * tchunk > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "'"
              + size
              + "' is out of range: give a total input"
              + " size from 300MB (one time chunk of "
              + tchunk
              + " steps) to "
              + PlanSummary.bytes((Integer.MAX_VALUE / tchunk) * tchunk * BYTES_PER_LABELLED_STEP));
    }
    return new Params((int) (chunks * tchunk), 987, 1920, tchunk);
  }

  /** The published series' bytes per time step of U and V together, as its labels count them. */
  static final long BYTES_PER_LABELLED_STEP = 30_000_000L;

  /** Bytes of U and V together. */
  static long inputBytes(Params p) {
    return 2L * p.t() * p.y() * p.x() * Double.BYTES;
  }

  /**
   * U and V as Zarr arrays with metadata only (no chunk is written or allocated): the inputs of a
   * dry run at any size. Reading a chunk of them gives the fill value. Their metadata is in a
   * temporary local directory (removed when the JVM exits), where a real run's inputs are, so the
   * plan counts what reading them costs there (chunks decoded from their files: no copy of the
   * stored bytes) and the dry run's figures are the real run's.
   */
  static ZarrArray[] virtualInputs(Params p) {
    long[] shape = {p.t(), 1, p.y(), p.x()};
    long[] chunks = {p.tchunk(), 1, p.y(), p.x()};
    Path dir;
    try {
      dir = Files.createTempDirectory("cubed-dry-run-");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a temporary directory for the dry"
              + " run's input metadata (java.io.tmpdir="
              + System.getProperty("java.io.tmpdir")
              + ")",
          e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
    Store store = new FileSystemStore(dir);
    return new ZarrArray[] {
      ZarrArray.create(store, "U.zarr").shape(shape).chunks(chunks).dtype(DType.FLOAT64).build(),
      ZarrArray.create(store, "V.zarr").shape(shape).chunks(chunks).dtype(DType.FLOAT64).build()
    };
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // best effort at exit: a temporary directory of a few small metadata files
    }
  }

  static double u(long t, long y, long x) {
    return 0.5 + 0.5 * Math.sin(G * t + S * y + x);
  }

  static double v(long t, long y, long x) {
    return 0.5 + 0.5 * Math.cos(G * t - S * y + x);
  }

  /** Writes U and V to Zarr under {@code dir} (chunks (tchunk, 1, Y, X)); returns them. */
  static ZarrArray[] writeInputs(Params p, Path dir, Spec spec) {
    return writeInputs(p, new FileSystemStore(dir), spec);
  }

  /** Writes U and V as {@code U.zarr} and {@code V.zarr} in {@code store} (local or S3). */
  static ZarrArray[] writeInputs(Params p, Store store, Spec spec) {
    long[] shape = {p.t(), 1, p.y(), p.x()};
    long[] chunks = {p.tchunk(), 1, p.y(), p.x()};
    long yx = (long) p.y() * p.x();
    long xs = p.x();
    CubedArray u =
        Cubed.fromFunction(
            shape,
            chunks,
            DType.FLOAT64,
            (b, i, flat, in, bc) -> {
              long t = flat / yx;
              long r = flat % yx;
              b.setDouble(i, u(t, r / xs, r % xs));
            },
            spec);
    CubedArray v =
        Cubed.fromFunction(
            shape,
            chunks,
            DType.FLOAT64,
            (b, i, flat, in, bc) -> {
              long t = flat / yx;
              long r = flat % yx;
              b.setDouble(i, v(t, r / xs, r % xs));
            },
            spec);
    ZarrArray uz =
        ZarrArray.create(store, "U.zarr")
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .overwrite()
            .build();
    ZarrArray vz =
        ZarrArray.create(store, "V.zarr")
            .shape(shape)
            .chunks(chunks)
            .dtype(DType.FLOAT64)
            .overwrite()
            .build();
    Cubed.store(List.of(u, v), List.of(uz, vz), ComputeOptions.defaults());
    return new ZarrArray[] {uz, vz};
  }

  /**
   * Blocks merged per task in each round of the means' tree reductions. Partial reductions stream
   * their blocks, so this does not change a task's memory; it sets how many partial results are
   * written: about (time blocks / splitEvery) per mean in the first round. 10 is the tree of Python
   * Cubed's published 1.5 TB run.
   */
  static final int SPLIT_EVERY = 10;

  /**
   * The fusion limit the demo sets: at least the engine's default, and enough for a first-round
   * task of the means' trees to read {@code splitEvery} blocks of each of its two inputs with the
   * product computed inline (so the product is never written). Partial reductions stream their
   * blocks one at a time, so reading more blocks costs no memory.
   */
  static int maxInputBlocks(int splitEvery) {
    return Math.max(Spec.defaults().maxInputBlocks(), 2 * splitEvery);
  }

  /** {@link #means(ZarrArray, ZarrArray, Spec, int)} with {@link #SPLIT_EVERY}. */
  static CubedArray[] means(ZarrArray uz, ZarrArray vz, Spec spec) {
    return means(uz, vz, spec, SPLIT_EVERY);
  }

  /**
   * Plans the three means (lazy). If the plan on the stored chunks does not fit allowedMem, U and V
   * are first rechunked along y (halving the y chunk until the plan fits), as a user would.
   */
  static CubedArray[] means(ZarrArray uz, ZarrArray vz, Spec spec, int splitEvery) {
    CubedArray u = Cubed.fromZarr(uz, spec);
    CubedArray v = Cubed.fromZarr(vz, spec);
    CubedArray[] m = means(u, v, splitEvery);
    long[] c = uz.chunks();
    long yc = c[2];
    while (Cubed.plan(List.of(m)).summary().maxProjectedMem() > spec.allowedMem() && yc > 1) {
      yc = (yc + 1) / 2;
      CubedArray ur = Xp.rechunk(u, c[0], c[1], yc, c[3]);
      CubedArray vr = Xp.rechunk(v, c[0], c[1], yc, c[3]);
      m = means(ur, vr, splitEvery);
    }
    return m;
  }

  private static CubedArray[] means(CubedArray u, CubedArray v, int splitEvery) {
    Axes time = Axes.of(0);
    return new CubedArray[] {
      Xp.mean(Xp.multiply(u, u), time, splitEvery),
      Xp.mean(Xp.multiply(v, v), time, splitEvery),
      Xp.mean(Xp.multiply(u, v), time, splitEvery)
    };
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
    return run(uz, vz, spec, opts, SPLIT_EVERY);
  }

  /** Runs the timed phase with {@code splitEvery} blocks merged per task in the means' trees. */
  static Result run(ZarrArray uz, ZarrArray vz, Spec spec, ComputeOptions opts, int splitEvery) {
    CubedArray[] m = means(uz, vz, spec, splitEvery);
    PlanSummary plan = Cubed.plan(List.of(m)).summary();
    long t0 = System.nanoTime();
    List<NDArray> r = Cubed.compute(opts, m);
    double wall = (System.nanoTime() - t0) / 1e9;
    return new Result(sum(r.get(0)), sum(r.get(1)), sum(r.get(2)), wall, plan);
  }
}
