package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory model of a stored array read by regions ({@code XpIndexing.readRegions}, xarray's
 * {@code open_zarr(chunks=...)} on other chunks than the stored ones): a block cut from a chunk
 * whose codec cannot decode a region straight into the block (Blosc) holds the whole stored chunk,
 * decoded, and its stored bytes beside the block, and the plan counts them; a local zstd chunk
 * decodes into the block through the decoder's slices only.
 */
class RegionReadMemoryTest {
  @TempDir Path dir;

  private ZarrArray stored(String name, Compression c, NDArray a) {
    ZarrArray z =
        ZarrArray.create(new FileSystemStore(dir.resolve("in")), name)
            .shape(a.shape())
            .chunks(2000, 100)
            .dtype(DType.FLOAT64)
            .compression(c)
            .build();
    z.write(new long[2], a);
    return z;
  }

  private static long projected(CubedArray r) {
    return r.plan().ops().stream().mapToLong(PlanSummary.OpInfo::projectedMem).max().orElseThrow();
  }

  @Test
  void aBlockCutFromAChunkReadWholeCountsTheChunk() {
    Random rnd = new Random(4);
    NDArray a = NDArray.zeros(DType.FLOAT64, 4000, 100);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, rnd.nextDouble());
    }
    Spec spec = EngineTestSupport.tinySpec(dir.resolve("work"), 200_000_000);
    long chunkBytes = 2000L * 100 * 8;
    Compression[] cs = {
      Compression.zstd(1),
      Compression.blosc(Compression.BloscCodec.ZSTD, 1, Compression.Shuffle.BYTE),
      Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.NONE)
    };
    long[] proj = new long[cs.length];
    NDArray[] got = new NDArray[cs.length];
    for (int k = 0; k < cs.length; k++) {
      CubedArray x = Cubed.fromZarr(stored("a" + k, cs[k], a), spec);
      // blocks of 100 time steps: each cuts a twentieth of a stored chunk
      CubedArray r = Xp.add(XpIndexing.readRegions(x, 100, 100), 1.0);
      proj[k] = projected(r);
      got[k] = r.compute();
    }
    assertThat(proj[1] - proj[0])
        .as("Blosc: the stored chunk and its bytes instead of the decoder's slices")
        .isEqualTo(2 * chunkBytes - dev.cubed.zarr.codec.StreamedDecode.SLICE_BYTES);
    assertThat(proj[2]).isEqualTo(proj[1]);
    for (int k = 0; k < cs.length; k++) {
      for (int i = 0; i < a.size(); i += 997) {
        assertThat(got[k].getDouble(i)).isEqualTo(a.getDouble(i) + 1.0);
      }
    }
  }
}
