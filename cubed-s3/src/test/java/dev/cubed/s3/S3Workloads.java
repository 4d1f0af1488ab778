package dev.cubed.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The five workloads of the benchmark suite (docs/perf/workloads.md) at the small size, written
 * against the public API with their stored inputs, outputs and intermediates in object storage: the
 * inputs under {@code inputs} (a store URI, written once by {@link #writeInputs}, not timed),
 * outputs under {@code outputs}, intermediates in the spec's work directory. Each returns the
 * suite's checksums, computed the suite's way. Shared by the Beam and Spark modules' tests (this
 * module's test-jar).
 */
public final class S3Workloads {
  static final double G = 0.6180339887498949;
  static final double S = 0.41421356237309515;

  /** The workload names, in the suite's order. */
  public static final List<String> NAMES =
      List.of("quadratic_means", "add", "matmul", "rechunk", "reduce");

  /**
   * NumPy's checksums of the small size, as docs/perf/workloads.md publishes them (from
   * scripts/perf/workloads_numpy.py): workload name to checksum name to a Double, a Long or a List
   * of Longs.
   */
  public static Map<String, Map<String, Object>> numpyChecksums() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "perf", "workloads.md"));
    int begin = doc.indexOf("<!-- workloads:small:begin -->");
    int end = doc.indexOf("<!-- workloads:small:end -->");
    int at = begin < 0 || end < begin ? -1 : doc.indexOf("Checksums (NumPy)", begin);
    Matcher m =
        Pattern.compile("^- (\\w+): `(\\{.*})`$", Pattern.MULTILINE)
            .matcher(at < 0 ? "" : doc.substring(at, end));
    Map<String, Map<String, Object>> all = new LinkedHashMap<>();
    ObjectMapper om = new ObjectMapper();
    while (at >= 0 && m.find()) {
      Map<String, Object> sums = new LinkedHashMap<>();
      om.readTree(m.group(2))
          .fields()
          .forEachRemaining(
              e -> {
                JsonNode v = e.getValue();
                Object o;
                if (v.isArray()) {
                  List<Long> l = new ArrayList<>();
                  v.forEach(x -> l.add(x.asLong()));
                  o = l;
                } else {
                  o = v.isIntegralNumber() ? (Object) v.asLong() : (Object) v.asDouble();
                }
                sums.put(e.getKey(), o);
              });
      all.put(m.group(1), sums);
    }
    if (!all.keySet().containsAll(NAMES)) {
      throw new IllegalStateException(
          "docs/perf/workloads.md lists NumPy checksums for "
              + all.keySet()
              + ", not for every one of "
              + NAMES);
    }
    return all;
  }

  private final String inputs;
  private final String outputs;
  private final ComputeOptions opts;
  private int runs;

  /** Workloads reading {@code inputs}, writing under {@code outputs}, computing with opts. */
  public S3Workloads(String inputs, String outputs, ComputeOptions opts) {
    this.inputs = inputs;
    this.outputs = outputs;
    this.opts = opts;
  }

  /** Writes the stored inputs: U and V of quadratic_means, X of rechunk (chunk by chunk). */
  public void writeInputs() {
    Store in = Stores.open(inputs);
    for (String name : List.of("U", "V")) {
      boolean cos = name.equals("V");
      ZarrArray z =
          ZarrArray.create(in, name)
              .shape(50, 1, 247, 480)
              .chunks(10, 1, 247, 480)
              .dtype(DType.FLOAT64)
              .overwrite()
              .build();
      for (int c = 0; c < 5; c++) {
        NDArray b = NDArray.zeros(DType.FLOAT64, 10, 1, 247, 480);
        double[] d = (double[]) b.data();
        int i = 0;
        for (int t = c * 10; t < c * 10 + 10; t++) {
          for (int y = 0; y < 247; y++) {
            for (int x = 0; x < 480; x++) {
              d[i++] =
                  cos
                      ? 0.5 + 0.5 * Math.cos(G * (double) t - S * (double) y + (double) x)
                      : 0.5 + 0.5 * Math.sin(G * (double) t + S * (double) y + (double) x);
            }
          }
        }
        z.writeChunk(new long[] {c, 0, 0, 0}, b);
      }
    }
    ZarrArray x =
        ZarrArray.create(in, "X")
            .shape(200, 250, 250)
            .chunks(1, 250, 250)
            .dtype(DType.FLOAT64)
            .overwrite()
            .build();
    for (int t = 0; t < 200; t++) {
      NDArray b = NDArray.zeros(DType.FLOAT64, 1, 250, 250);
      double[] d = (double[]) b.data();
      int i = 0;
      for (int y = 0; y < 250; y++) {
        for (int xx = 0; xx < 250; xx++) {
          d[i++] = 0.5 + 0.5 * Math.sin(G * (double) t + S * (double) y + (double) xx);
        }
      }
      x.writeChunk(new long[] {t, 0, 0}, b);
    }
  }

  /** Runs one workload on the spec's executor and work directory; returns its checksums. */
  public Map<String, Object> run(String name, Spec spec) {
    runs++;
    return switch (name) {
      case "quadratic_means" -> quadraticMeans(spec);
      case "add" -> add(spec);
      case "matmul" -> matmul(spec);
      case "rechunk" -> rechunk(spec);
      case "reduce" -> reduce(spec);
      default -> throw new IllegalArgumentException("unknown workload " + name);
    };
  }

  /** A(i, j) = 0.5 + 0.5 sin(G i + j), generated inside the tasks. */
  static CubedArray a(long n, long m, long c, Spec spec) {
    return Cubed.fromFunction(
        new long[] {n, m},
        new long[] {c, c},
        DType.FLOAT64,
        (b, i, flat, in, bc) ->
            b.setDouble(i, 0.5 + 0.5 * Math.sin(G * (double) (flat / m) + (double) (flat % m))),
        spec);
  }

  /** B(i, j) = 0.5 + 0.5 cos(G i - j), generated inside the tasks. */
  static CubedArray b(long n, long m, long c, Spec spec) {
    return Cubed.fromFunction(
        new long[] {n, m},
        new long[] {c, c},
        DType.FLOAT64,
        (b, i, flat, in, bc) ->
            b.setDouble(i, 0.5 + 0.5 * Math.cos(G * (double) (flat / m) - (double) (flat % m))),
        spec);
  }

  static double sum(NDArray a) {
    double s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getDouble(i);
    }
    return s;
  }

  private Map<String, Object> quadraticMeans(Spec spec) {
    CubedArray u = Cubed.fromZarr(ZarrArray.open(Stores.open(inputs), "U"), spec);
    CubedArray v = Cubed.fromZarr(ZarrArray.open(Stores.open(inputs), "V"), spec);
    List<NDArray> r =
        Cubed.compute(
            opts, Xp.mean(u.multiply(u), 0), Xp.mean(v.multiply(v), 0), Xp.mean(u.multiply(v), 0));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sum_uu", sum(r.get(0)));
    m.put("sum_vv", sum(r.get(1)));
    m.put("sum_uv", sum(r.get(2)));
    return m;
  }

  private Map<String, Object> add(Spec spec) {
    CubedArray c = a(2500, 2500, 500, spec).add(b(2500, 2500, 500, spec));
    ZarrArray written = Cubed.toZarr(c, Stores.open(outputs), "add-C-" + runs, opts);
    double s = Cubed.fromZarr(written, spec).sum().compute(opts).getDouble(0);
    return Map.of("sum", s);
  }

  private Map<String, Object> matmul(Spec spec) {
    CubedArray p = Xp.matmul(a(2500, 2500, 500, spec), b(2500, 2500, 500, spec));
    return Map.of("sum", p.sum().compute(opts).getDouble(0));
  }

  private Map<String, Object> rechunk(Spec spec) {
    CubedArray x = Cubed.fromZarr(ZarrArray.open(Stores.open(inputs), "X"), spec);
    ZarrArray out =
        Cubed.toZarr(x.rechunk(200, 50, 50), Stores.open(outputs), "rechunk-out-" + runs, opts);
    double sum = 0;
    double weighted = 0;
    long[] grid = out.chunkGridShape();
    long[] c = out.chunks();
    for (long gy = 0; gy < grid[1]; gy++) {
      for (long gx = 0; gx < grid[2]; gx++) {
        NDArray blk = out.readChunk(0, gy, gx);
        int i = 0;
        for (long t = 0; t < c[0]; t++) {
          for (long y = gy * c[1]; y < (gy + 1) * c[1]; y++) {
            for (long xx = gx * c[2]; xx < (gx + 1) * c[2]; xx++) {
              double v = blk.getDouble(i++);
              sum += v;
              weighted += v * ((t + 2 * y + 3 * xx) % 7);
            }
          }
        }
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sum", sum);
    m.put("weighted_sum", weighted);
    m.put("chunks", List.of(c[0], c[1], c[2]));
    return m;
  }

  private Map<String, Object> reduce(Spec spec) {
    CubedArray x = a(3500, 3500, 700, spec);
    List<NDArray> r = Cubed.compute(opts, Xp.mean(x, 0), Xp.argmax(x, 1));
    double ms = 0;
    double mq = 0;
    for (int i = 0; i < r.get(0).size(); i++) {
      double v = r.get(0).getDouble(i);
      ms += v;
      mq += v * v;
    }
    long as = 0;
    long aw = 0;
    for (int i = 0; i < r.get(1).size(); i++) {
      long v = r.get(1).getLong(i);
      as += v;
      aw += v * (i % 1000);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean_sum", ms);
    m.put("mean_sumsq", mq);
    m.put("argmax_sum", as);
    m.put("argmax_weighted", aw);
    return m;
  }
}
