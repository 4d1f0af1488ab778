package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge call storeRegion: a lazy write into a box of an existing Zarr array, aligned to the
 * target's chunks (partial edge chunks merged with what the target holds), refused when the box
 * does not fit or the dtypes differ.
 */
class StoreRegionTest {
  @TempDir Path tmp;

  private Spec spec() {
    return Spec.builder().allowedMem("200MB").reservedMem(0).workDir(tmp.resolve("work")).build();
  }

  private ZarrArray target(long n, long chunk) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(tmp.resolve("t.zarr")), "")
            .shape(n, 3)
            .chunks(chunk, 3)
            .dtype(DType.FLOAT64)
            .build();
    double[] minus = new double[(int) n * 3];
    java.util.Arrays.fill(minus, -1);
    z.write(new long[] {0, 0}, NDArray.of(minus, n, 3));
    return z;
  }

  @Test
  void writesTheBoxOffTheChunkBoundariesAndKeepsTheRest() {
    ZarrArray z = target(20, 4);
    double[] v = new double[5 * 3];
    for (int i = 0; i < v.length; i++) {
      v[i] = i;
    }
    CubedArray x = Cubed.fromArray(NDArray.of(v, 5, 3), new long[] {2, 3}, spec());
    CubedArray w = StoreRegion.region(x, z, new long[] {6, 0});
    // rechunked to the target's chunks at origin 6: blocks 6..8, 8..11
    assertThat(w.shape()).containsExactly(2, 1);
    Cubed.compute(w);
    NDArray got = ZarrArray.open(z.store(), "").read();
    for (int r = 0; r < 20; r++) {
      for (int c = 0; c < 3; c++) {
        double want = r >= 6 && r < 11 ? (r - 6) * 3 + c : -1;
        assertThat(got.getDouble(r * 3 + c)).as("row %d col %d", r, c).isEqualTo(want);
      }
    }
  }

  @Test
  void alignedSizesFollowTheTargetChunks() {
    assertThat(StoreRegion.alignedSizes(5, 6, 4)).containsExactly(2, 3);
    assertThat(StoreRegion.alignedSizes(8, 4, 4)).containsExactly(4, 4);
    assertThat(StoreRegion.alignedSizes(3, 1, 10)).containsExactly(3);
    assertThat(StoreRegion.alignedSizes(11, 0, 4)).containsExactly(4, 4, 3);
  }

  @Test
  void refusesABoxOutsideTheTargetAndAnotherDtype() {
    ZarrArray z = target(10, 4);
    CubedArray x = Cubed.fromArray(NDArray.of(new double[6], 2, 3), new long[] {2, 3}, spec());
    assertThatThrownBy(() -> StoreRegion.region(x, z, new long[] {9, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not fit the target of shape (10, 3)");
    CubedArray f = Cubed.fromArray(NDArray.of(new float[6], 2, 3), new long[] {2, 3}, spec());
    assertThatThrownBy(() -> StoreRegion.region(f, z, new long[] {0, 0}))
        .hasMessageContaining("cast it first");
    assertThatThrownBy(() -> Calls.call(new Calls.Session(), "storeRegion", List.of(1L)))
        .hasMessageContaining("expected (handle, target path, origin)");
  }
}
