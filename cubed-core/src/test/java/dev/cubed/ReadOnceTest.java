package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.CountingStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user-path expressions over concatenations and strided slices read each stored chunk they
 * touch once, counted at the store (not from the plan's figures, which are upper bounds), and leave
 * the untouched chunks unread.
 */
class ReadOnceTest {
  @TempDir Path dir;

  static final int N = 40;
  static final int C = 8;

  private Spec spec() {
    return Spec.builder().workDir(dir).allowedMem("200MB").workers(2).build();
  }

  private static ZarrArray stored(CountingStore store, String name, double offset) {
    ZarrArray z =
        ZarrArray.create(store, name).shape(N, N).chunks(C, C).dtype(DType.FLOAT64).build();
    double[] data = new double[N * N];
    for (int i = 0; i < data.length; i++) {
      data[i] = offset + Math.sin(0.37 * i);
    }
    z.write(new long[] {0, 0}, NDArray.of(data, N, N));
    return z;
  }

  private static double sum(NDArray x) {
    double s = 0;
    for (int i = 0; i < x.size(); i++) {
      s += x.getDouble(i);
    }
    return s;
  }

  /** The chunk keys of one array among the store's reads, and how often each was read. */
  private static Map<String, Integer> readsOf(CountingStore store, String name) {
    return store.reads.entrySet().stream()
        .filter(e -> e.getKey().startsWith(name + "/"))
        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  @Test
  void concatReadsEachChunkOfBothInputsOnce() {
    CountingStore store = new CountingStore();
    ZarrArray az = stored(store, "a", 0);
    ZarrArray bz = stored(store, "b", 1);
    CubedArray a = Cubed.fromZarr(az, spec());
    CubedArray b = Cubed.fromZarr(bz, spec());
    int grid = (N + C - 1) / C;
    for (CubedArray expr :
        List.of(Xp.sum(Xp.concat(List.of(a, b), 0)), Xp.mean(Xp.concat(List.of(a, b), 0), 0))) {
      store.reads.clear();
      NDArray got = expr.compute();
      assertThat(readsOf(store, "a"))
          .hasSize(grid * grid)
          .allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(readsOf(store, "b"))
          .hasSize(grid * grid)
          .allSatisfy((k, n) -> assertThat(n).isOne());
      double want = sum(az.read()) + sum(bz.read());
      double scale = expr.ndim() == 0 ? 1 : 2.0 * N;
      assertThat(sum(got) * scale)
          .isCloseTo(want, org.assertj.core.data.Offset.offset(1e-9 * want));
    }
  }

  @Test
  void stridedSlicesReadOnlyTheChunksTheyTouchOnce() {
    CountingStore store = new CountingStore();
    ZarrArray az = stored(store, "a", 0);
    ZarrArray bz = stored(store, "b", 1);
    CubedArray a = Cubed.fromZarr(az, spec());
    CubedArray b = Cubed.fromZarr(bz, spec());
    NDArray av = az.read();
    NDArray bv = bz.read();
    // slice_sum: rows 3 .. 29 step 2 (chunk rows 0..3), every third column (all chunk columns)
    store.reads.clear();
    NDArray s =
        Xp.sum(Xp.getItem(a, Index.slice(N / 12L, 3L * N / 4, 2), Index.slice(null, null, 3)))
            .compute();
    int grid = (N + C - 1) / C;
    assertThat(readsOf(store, "a")).hasSize(4 * grid).allSatisfy((k, n) -> assertThat(n).isOne());
    double want = 0;
    for (int i = N / 12; i < 3 * N / 4; i += 2) {
      for (int j = 0; j < N; j += 3) {
        want += av.getDouble(i * N + j);
      }
    }
    assertThat(s.getDouble(0)).isCloseTo(want, org.assertj.core.data.Offset.offset(1e-9));
    // slice_row_mean: odd rows of a (every chunk) times row 0 of b (its first chunk row only)
    store.reads.clear();
    NDArray m =
        Xp.mean(
                Xp.multiply(
                    Xp.getItem(a, Index.slice(1L, null, 2), Index.all()),
                    Xp.getItem(b, Index.at(0), Index.all())),
                0)
            .compute();
    assertThat(readsOf(store, "a"))
        .hasSize(grid * grid)
        .allSatisfy((k, n) -> assertThat(n).isOne());
    assertThat(readsOf(store, "b")).hasSize(grid).allSatisfy((k, n) -> assertThat(n).isOne());
    for (int j = 0; j < N; j++) {
      double col = 0;
      for (int i = 1; i < N; i += 2) {
        col += av.getDouble(i * N + j) * bv.getDouble(j);
      }
      assertThat(m.getDouble(j))
          .isCloseTo(col / (N / 2), org.assertj.core.data.Offset.offset(1e-12));
    }
  }
}
