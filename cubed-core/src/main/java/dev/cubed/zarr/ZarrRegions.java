package dev.cubed.zarr;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.CodecPipeline;
import dev.cubed.zarr.codec.ShardingCodec;
import java.util.Arrays;

/**
 * Reads and writes of boxes of a {@link ZarrArray} that span any number of chunks: the chunks a box
 * intersects, each read (or a shard read in part, or a local {@code bytes} + zstd, gzip or zlib
 * chunk decoded only up to the box's last byte, straight into the result) or written whole, partial
 * chunks read, modified and rewritten.
 */
final class ZarrRegions {
  private ZarrRegions() {}

  private static void checkRegion(ZarrArray z, String fn, long[] start, long[] shape) {
    long[] ashape = z.shape();
    String path = z.path();
    if (start.length != ashape.length || shape.length != ashape.length) {
      throw new IllegalArgumentException(
          fn
              + ": start "
              + Arrays.toString(start)
              + " and shape "
              + Shapes.format(shape)
              + " must have "
              + ashape.length
              + " dimensions like array '"
              + path
              + "' of shape "
              + Shapes.format(ashape));
    }
    for (int i = 0; i < start.length; i++) {
      if (start[i] < 0 || shape[i] < 0 || start[i] + shape[i] > ashape[i]) {
        throw new IllegalArgumentException(
            fn
                + ": region at "
                + Arrays.toString(start)
                + " of shape "
                + Shapes.format(shape)
                + " is outside array '"
                + path
                + "' of shape "
                + Shapes.format(ashape)
                + " in dimension "
                + i);
      }
    }
  }

  /** Calls {@code visitor} for each chunk intersecting the box, with the intersection. */
  private static void forEachChunk(ZarrArray z, long[] start, long[] shape, ChunkVisitor visitor) {
    int nd = start.length;
    long[] chunks = z.chunks();
    long[] ashape = z.shape();
    if (Shapes.size(shape) == 0) {
      return;
    }
    long[] lo = new long[nd];
    long[] hi = new long[nd];
    for (int i = 0; i < nd; i++) {
      lo[i] = start[i] / chunks[i];
      hi[i] = (start[i] + shape[i] - 1) / chunks[i];
    }
    long[] c = lo.clone();
    while (true) {
      long[] cstart = new long[nd];
      long[] inChunk = new long[nd];
      long[] inRegion = new long[nd];
      long[] box = new long[nd];
      for (int i = 0; i < nd; i++) {
        cstart[i] = c[i] * chunks[i];
        long a = Math.max(start[i], cstart[i]);
        long b = Math.min(start[i] + shape[i], Math.min(cstart[i] + chunks[i], ashape[i]));
        inChunk[i] = a - cstart[i];
        inRegion[i] = a - start[i];
        box[i] = b - a;
      }
      visitor.visit(c.clone(), inChunk, inRegion, box);
      int k = nd - 1;
      while (k >= 0) {
        if (++c[k] <= hi[k]) {
          break;
        }
        c[k] = lo[k];
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  private interface ChunkVisitor {
    void visit(long[] coords, long[] inChunk, long[] inRegion, long[] box);
  }

  /** {@link ZarrArray#read(long[], long[])}: the box, chunk by chunk (shards read in part). */
  static NDArray read(ZarrArray z, long[] start, long[] shape) {
    checkRegion(z, "read", start, shape);
    Shapes.intSize("read", shape);
    long[] whole = wholeChunk(z, start, shape);
    if (whole != null) {
      return z.readChunk(whole); // the box is one stored chunk: read as it is, not copied
    }
    NDArray out = NDArray.zeros(z.dtype(), shape);
    int mult = z.dtype().isComplex() ? 2 : 1;
    ShardingCodec shard = partialShardReader(z);
    boolean into = ZarrChunks.readsInto(z);
    forEachChunk(
        z,
        start,
        shape,
        (c, inChunk, inRegion, box) -> {
          long[] cs = z.chunkShape(c);
          if (shard != null && !Arrays.equals(box, cs)) {
            String key = z.chunkKey(c);
            NDArray part =
                shard.readRegion(
                    z.store(),
                    key,
                    z.chunks(),
                    inChunk,
                    box,
                    "zarr array '" + z.path() + "' shard '" + key + "'");
            NDArray.copyBox(
                part.data(), box, new long[box.length], out.data(), shape, inRegion, box, mult);
            return;
          }
          if (into && ZarrChunks.readInto(z, c, inChunk, box, out, inRegion)) {
            return; // decoded up to the box's last byte, straight into out
          }
          NDArray chunk = z.readChunk(c);
          if (Arrays.equals(box, out.shape()) && Arrays.equals(box, chunk.shape())) {
            System.arraycopy(chunk.data(), 0, out.data(), 0, chunk.size() * mult);
          } else {
            NDArray.copyBox(
                chunk.data(), chunk.shape(), inChunk, out.data(), shape, inRegion, box, mult);
          }
        });
    return out;
  }

  /**
   * The coordinates of the stored chunk that is exactly the box {@code [start, start + shape)}
   * (clipped at the array's edge), or null.
   */
  private static long[] wholeChunk(ZarrArray z, long[] start, long[] shape) {
    long[] chunks = z.chunks();
    long[] ashape = z.shape();
    long[] c = new long[start.length];
    for (int i = 0; i < start.length; i++) {
      if (chunks[i] <= 0 || shape[i] == 0 || start[i] % chunks[i] != 0) {
        return null;
      }
      c[i] = start[i] / chunks[i];
      if (shape[i] != Math.min(chunks[i], ashape[i] - start[i])) {
        return null;
      }
    }
    return c;
  }

  /** {@link ZarrArray#write(long[], NDArray)}: whole chunks replaced, partial ones rewritten. */
  static void write(ZarrArray z, long[] start, NDArray data) {
    if (data.dtype() != z.dtype()) {
      throw new IllegalArgumentException(
          "write: data dtype "
              + data.dtype()
              + " differs from the dtype "
              + z.dtype()
              + " of array '"
              + z.path()
              + "'; convert with astype first");
    }
    long[] shape = data.shape();
    checkRegion(z, "write", start, shape);
    int mult = z.dtype().isComplex() ? 2 : 1;
    forEachChunk(
        z,
        start,
        shape,
        (c, inChunk, inRegion, box) -> {
          long[] cs = z.chunkShape(c);
          NDArray chunk;
          if (Arrays.equals(box, cs)) {
            chunk = Arrays.equals(box, shape) ? data : data.getRegion(inRegion, box);
          } else {
            chunk = z.readChunk(c);
            NDArray.copyBox(data.data(), shape, inRegion, chunk.data(), cs, inChunk, box, mult);
          }
          z.writeChunk(c, chunk);
        });
  }

  /** The sharding codec of {@code z} if partial shard reads apply (no codecs around it). */
  static ShardingCodec partialShardReader(ZarrArray z) {
    return z.metadata().codec instanceof CodecPipeline p
            && p.arrayBytes instanceof ShardingCodec s
            && p.transposes.isEmpty()
            && p.bytesCodecs.isEmpty()
            && z.ndim() > 0
        ? s
        : null;
  }
}
