package dev.cubed.bench.userpath;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The user-path program at a tiny size on inputs this test writes (Zarr v3, zstd, edge chunks
 * smaller than the others), each expression's checksums against values computed here by plain loops
 * over the same data.
 */
class UserPathTest {
  static final int T = 6;
  static final int Y = 5;
  static final int X = 7;
  static final int N = 24;
  static final int RT = 4;
  static final int RY = 12;
  static final int RX = 12;

  static double[][][] u = new double[T][Y][X];
  static double[][][] v = new double[T][Y][X];
  static double[][] a = new double[N][N];
  static double[][] b = new double[N][N];
  static double[][][] r = new double[RT][RY][RX];
  static double[][][] nan = new double[RT][RY][RX];

  @TempDir static Path dir;

  static Path inputs;

  @BeforeAll
  static void writeInputs() {
    inputs = dir.resolve("in");
    FileSystemStore store = new FileSystemStore(inputs);
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        for (int x = 0; x < X; x++) {
          u[t][y][x] = 0.5 + 0.5 * Math.sin(0.7 * t + 0.3 * y + x);
          v[t][y][x] = 0.5 + 0.5 * Math.cos(0.9 * t - 0.2 * y + x);
        }
      }
    }
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        a[i][j] = 0.5 + 0.5 * Math.sin(0.61 * i + j);
        b[i][j] = 0.5 + 0.5 * Math.cos(0.61 * i - j);
      }
    }
    for (int t = 0; t < RT; t++) {
      for (int y = 0; y < RY; y++) {
        for (int x = 0; x < RX; x++) {
          r[t][y][x] = Math.sin(t + 0.4 * y + 1.3 * x);
        }
      }
    }
    write(
        store,
        "U",
        new long[] {T, 1, Y, X},
        new long[] {4, 1, Y, X},
        (c) -> u[(int) c[0]][(int) c[2]][(int) c[3]]);
    write(
        store,
        "V",
        new long[] {T, 1, Y, X},
        new long[] {4, 1, Y, X},
        (c) -> v[(int) c[0]][(int) c[2]][(int) c[3]]);
    write(store, "A", new long[] {N, N}, new long[] {5, 5}, (c) -> a[(int) c[0]][(int) c[1]]);
    write(store, "B", new long[] {N, N}, new long[] {5, 5}, (c) -> b[(int) c[0]][(int) c[1]]);
    write(
        store,
        "R",
        new long[] {RT, RY, RX},
        new long[] {1, RY, RX},
        (c) -> r[(int) c[0]][(int) c[1]][(int) c[2]]);
    for (int t = 0; t < RT; t++) {
      for (int y = 0; y < RY; y++) {
        for (int x = 0; x < RX; x++) {
          nan[t][y][x] = (t + y + x) % 10 == 0 ? Double.NaN : r[t][y][x];
        }
      }
    }
    write(
        store,
        "N",
        new long[] {RT, RY, RX},
        new long[] {3, 5, RX},
        (c) -> nan[(int) c[0]][(int) c[1]][(int) c[2]]);
    // M: V > 0.5 as a bool array (written as 1.0 / 0.0, stored as bool)
    write(
        store,
        "M",
        DType.BOOL,
        new long[] {T, 1, Y, X},
        new long[] {4, 1, Y, X},
        (c) -> v[(int) c[0]][(int) c[2]][(int) c[3]] > 0.5 ? 1 : 0);
  }

  interface Element {
    double at(long[] index);
  }

  /** A float64 Zarr v3 array with zstd, written chunk by chunk (edge chunks cut to the shape). */
  static void write(FileSystemStore store, String name, long[] shape, long[] chunks, Element f) {
    write(store, name, DType.FLOAT64, shape, chunks, f);
  }

  /** As above in dtype FLOAT64 or BOOL (non-zero is true). */
  static void write(
      FileSystemStore store, String name, DType dtype, long[] shape, long[] chunks, Element f) {
    ZarrArray z =
        ZarrArray.create(store, name + ".zarr")
            .shape(shape)
            .chunks(chunks)
            .dtype(dtype)
            .compression(Compression.zstd(3))
            .build();
    long[] grid = z.chunkGridShape();
    long count = z.chunkCount();
    for (long k = 0; k < count; k++) {
      long[] coords = new long[grid.length];
      long rest = k;
      for (int d = grid.length - 1; d >= 0; d--) {
        coords[d] = rest % grid[d];
        rest /= grid[d];
      }
      long[] cs = z.chunkShape(coords);
      int size = 1;
      for (long s : cs) {
        size *= (int) s;
      }
      double[] data = new double[size];
      long[] idx = new long[cs.length];
      for (int i = 0; i < size; i++) {
        int q = i;
        for (int d = cs.length - 1; d >= 0; d--) {
          idx[d] = coords[d] * chunks[d] + q % cs[d];
          q /= (int) cs[d];
        }
        data[i] = f.at(idx);
      }
      NDArray block = NDArray.of(data, cs);
      if (dtype == DType.BOOL) {
        block = NDArray.zeros(DType.BOOL, cs);
        for (int i = 0; i < size; i++) {
          block.setBoolean(i, data[i] != 0);
        }
      }
      z.writeChunk(coords, block);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> runExpression(String name, String... more) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] args =
        Stream.concat(
                Stream.of(
                    name,
                    "--inputs",
                    inputs.toString(),
                    "--workers",
                    "2",
                    "--allowed-mem",
                    "200MB",
                    "--work-dir",
                    dir.resolve("work").toString(),
                    "--size",
                    "tiny"),
                Stream.of(more))
            .toArray(String[]::new);
    int rc = UserPath.run("userpath", args, new PrintWriter(out), new PrintWriter(err));
    assertThat(rc).as(err.toString()).isZero();
    Map<String, Object> json = new ObjectMapper().readValue(out.toString().strip(), Map.class);
    assertThat(json)
        .containsEntry("workload", name)
        .containsEntry("api", "public")
        .containsKeys("wall_seconds", "peak_rss_bytes", "tasks");
    return (Map<String, Object>) json.get("checksums");
  }

  static void assertClose(Object actual, double expected) {
    double got = ((Number) actual).doubleValue();
    assertThat(Math.abs(got - expected))
        .as("%s against %s", got, expected)
        .isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(expected)));
  }

  @Test
  void quadraticMeans() throws Exception {
    double uu = 0;
    double vv = 0;
    double uv = 0;
    for (int y = 0; y < Y; y++) {
      for (int x = 0; x < X; x++) {
        double su = 0;
        double sv = 0;
        double suv = 0;
        for (int t = 0; t < T; t++) {
          su += u[t][y][x] * u[t][y][x];
          sv += v[t][y][x] * v[t][y][x];
          suv += u[t][y][x] * v[t][y][x];
        }
        uu += su / T;
        vv += sv / T;
        uv += suv / T;
      }
    }
    Map<String, Object> c = runExpression("quadratic_means");
    assertClose(c.get("sum_uu"), uu);
    assertClose(c.get("sum_vv"), vv);
    assertClose(c.get("sum_uv"), uv);
  }

  @Test
  void whereChain() throws Exception {
    double s = 0;
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        for (int x = 0; x < X; x++) {
          double p = u[t][y][x];
          s += p > 0.5 ? Math.sqrt(p * v[t][y][x]) : Math.exp(-p);
        }
      }
    }
    assertClose(runExpression("where_chain").get("sum"), s);
  }

  @Test
  void stdOverTime() throws Exception {
    double s = 0;
    for (int y = 0; y < Y; y++) {
      for (int x = 0; x < X; x++) {
        double m = 0;
        for (int t = 0; t < T; t++) {
          m += u[t][y][x];
        }
        m /= T;
        double q = 0;
        for (int t = 0; t < T; t++) {
          q += (u[t][y][x] - m) * (u[t][y][x] - m);
        }
        s += Math.sqrt(q / T);
      }
    }
    assertClose(runExpression("std_time").get("sum"), s);
  }

  @Test
  void meanAndArgmax() throws Exception {
    double meanSum = 0;
    for (int j = 0; j < N; j++) {
      double col = 0;
      for (int i = 0; i < N; i++) {
        col += a[i][j];
      }
      meanSum += col / N;
    }
    long argSum = 0;
    long weighted = 0;
    for (int i = 0; i < N; i++) {
      int best = 0;
      for (int j = 1; j < N; j++) {
        if (a[i][j] > a[i][best]) {
          best = j;
        }
      }
      argSum += best;
      weighted += (long) best * (i % 1000);
    }
    Map<String, Object> c = runExpression("mean_argmax");
    assertClose(c.get("mean_sum"), meanSum);
    assertThat(((Number) c.get("argmax_sum")).longValue()).isEqualTo(argSum);
    assertThat(((Number) c.get("argmax_weighted")).longValue()).isEqualTo(weighted);
  }

  @Test
  void rechunkWritesTheTargetChunks() throws Exception {
    double s = 0;
    for (double[][] plane : r) {
      for (double[] row : plane) {
        for (double e : row) {
          s += e;
        }
      }
    }
    Map<String, Object> c = runExpression("rechunk");
    assertThat(c.get("chunks")).isEqualTo(List.of(RT, RY / 6, RX / 6));
    assertClose(c.get("sum"), s);
  }

  @Test
  void addToZarrAndConcat() throws Exception {
    double s = 0;
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        s += a[i][j] + b[i][j];
      }
    }
    assertClose(runExpression("add_to_zarr").get("sum"), s);
    assertClose(runExpression("concat_sum").get("sum"), s);
  }

  @Test
  void broadcastRow() throws Exception {
    double s = 0;
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        s += a[i][j] * b[0][j];
      }
    }
    assertClose(runExpression("broadcast_row").get("sum"), s);
  }

  @Test
  void sliceSum() throws Exception {
    double s = 0;
    for (int i = N / 12; i < 3 * N / 4; i += 2) {
      for (int j = 0; j < N; j += 3) {
        s += a[i][j];
      }
    }
    assertClose(runExpression("slice_sum").get("sum"), s);
  }

  @Test
  void cumsumToZarr() throws Exception {
    double s = 0;
    double last = 0;
    for (int y = 0; y < RY; y++) {
      for (int x = 0; x < RX; x++) {
        double c = 0;
        for (int t = 0; t < RT; t++) {
          c += r[t][y][x];
          s += c;
        }
        last += c;
      }
    }
    Map<String, Object> c = runExpression("cumsum_to_zarr");
    assertClose(c.get("sum"), s);
    assertClose(c.get("last_sum"), last);
  }

  @Test
  void sliceRowMeanAndConcatMean() throws Exception {
    double s = 0;
    double cm = 0;
    int odd = N / 2;
    for (int j = 0; j < N; j++) {
      double col = 0;
      double both = 0;
      for (int i = 0; i < N; i++) {
        if (i % 2 == 1) {
          col += a[i][j] * b[0][j];
        }
        both += a[i][j] + b[i][j];
      }
      s += col / odd;
      cm += both / (2 * N);
    }
    assertClose(runExpression("slice_row_mean").get("sum"), s);
    assertClose(runExpression("concat_mean").get("sum"), cm);
  }

  @Test
  void whereMaskSumAndNanmean() throws Exception {
    double w = 0;
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        for (int x = 0; x < X; x++) {
          w += v[t][y][x] > 0.5 ? u[t][y][x] : 0;
        }
      }
    }
    assertClose(runExpression("where_mask_sum").get("sum"), w);
    double nm = 0;
    for (int y = 0; y < RY; y++) {
      for (int x = 0; x < RX; x++) {
        double sum = 0;
        int n = 0;
        for (int t = 0; t < RT; t++) {
          if (!Double.isNaN(nan[t][y][x])) {
            sum += nan[t][y][x];
            n++;
          }
        }
        nm += sum / n;
      }
    }
    assertClose(runExpression("nanmean_time").get("sum"), nm);
  }

  @Test
  void floorReadsEachInputOnce() throws Exception {
    double sa = 0;
    double sb = 0;
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        sa += a[i][j];
        sb += b[i][j];
      }
    }
    Map<String, Object> c = runExpression("concat_mean", "--floor");
    assertThat(c).containsOnlyKeys("sum_A", "sum_B");
    assertClose(c.get("sum_A"), sa);
    assertClose(c.get("sum_B"), sb);
  }

  @ParameterizedTest
  @ValueSource(strings = {"no_such_expression", "--inputs"})
  void usageErrorsExitTwoWithOneLine(String arg) {
    StringWriter err = new StringWriter();
    int rc =
        UserPath.run(
            "userpath",
            new String[] {arg},
            new PrintWriter(new StringWriter()),
            new PrintWriter(err));
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString().strip()).startsWith("userpath: ").doesNotContain("\n");
  }
}
