package dev.cubed.primitive;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.zarr.ZarrArray;
import java.util.ArrayList;
import java.util.List;

/**
 * One rechunk stage: copies {@code source} into {@code target} (same shape and dtype, other
 * chunks). Each task handles one copy region (a whole multiple of the target's chunks): it reads the
 * overlapping source blocks one at a time into a region buffer and writes the target chunks it
 * covers. Projected memory = reserved + source chunk x (1 + readCopies) + region buffer (unless the
 * region is one target chunk) + target chunk x (1 + writeCopies).
 */
public final class CopyOp {
  private CopyOp() {}

  /** Projected memory of a copy task. */
  public static long projectedMem(long reserved, long srcChunkBytes, long regionBytes,
      long dstChunkBytes, int readCopies, int writeCopies) {
    long buffer = regionBytes == dstChunkBytes ? 0 : regionBytes;
    return reserved + srcChunkBytes * (1 + readCopies) + buffer
        + dstChunkBytes * (1 + writeCopies);
  }

  /**
   * Builds the copy operation.
   *
   * @param region copy region shape, a multiple of the target's chunks (clipped at the edges)
   */
  public static Operation build(String name, ZarrArray source, ZarrArray target, long[] region,
      long projectedMem) {
    return build(name, source, target, region, projectedMem, null);
  }

  /**
   * Builds the copy operation with known dependencies (see {@link Operation#dependencies()}).
   *
   * @param region copy region shape, a multiple of the target's chunks (clipped at the edges)
   */
  public static Operation build(String name, ZarrArray source, ZarrArray target, long[] region,
      long projectedMem, List<String> dependencies) {
    long[] shape = target.shape();
    long[] tc = target.chunks();
    int nd = shape.length;
    long[] grid = new long[nd];
    for (int i = 0; i < nd; i++) {
      grid[i] = shape[i] == 0 ? 0 : (shape[i] + region[i] - 1) / region[i];
    }
    List<long[]> keys = new ArrayList<>();
    long n = Shapes.size(grid);
    for (long f = 0; f < n; f++) {
      keys.add(Shapes.unravel(grid, f));
    }
    TaskFunction fn = key -> {
      long[] start = new long[nd];
      long[] rs = new long[nd];
      for (int i = 0; i < nd; i++) {
        start[i] = key[i] * region[i];
        rs[i] = Math.min(region[i], shape[i] - start[i]);
      }
      NDArray buf = source.read(start, rs);
      long[] c0 = new long[nd];
      long[] cg = new long[nd];
      for (int i = 0; i < nd; i++) {
        c0[i] = start[i] / tc[i];
        cg[i] = (rs[i] + tc[i] - 1) / tc[i];
      }
      long m = Shapes.size(cg);
      for (long f = 0; f < m; f++) {
        long[] rel = Shapes.unravel(cg, f);
        long[] coords = new long[nd];
        long[] off = new long[nd];
        for (int i = 0; i < nd; i++) {
          coords[i] = c0[i] + rel[i];
          off[i] = rel[i] * tc[i];
        }
        long[] cs = target.chunkShape(coords);
        NDArray chunk = m == 1 ? buf : buf.getRegion(off, cs);
        target.writeChunk(coords, chunk);
      }
    };
    return new Operation(name, keys, fn, projectedMem, dependencies);
  }
}
