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
          if (into && ZarrChunks.readInto(z, c, inChunk, box, null, out, inRegion)) {
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

  /** {@link ZarrArray#readStrided}: chunk by chunk, each touched chunk read once. */
  static NDArray readStrided(ZarrArray z, long[] start, long[] step, long[] count) {
    int nd = z.ndim();
    long[] ashape = z.shape();
    if (start.length != nd || step.length != nd || count.length != nd) {
      throw new IllegalArgumentException(
          "readStrided: start "
              + Arrays.toString(start)
              + ", step "
              + Arrays.toString(step)
              + " and count "
              + Arrays.toString(count)
              + " must have "
              + nd
              + " dimensions like array '"
              + z.path()
              + "' of shape "
              + Shapes.format(ashape));
    }
    for (int i = 0; i < nd; i++) {
      if (step[i] < 1
          || count[i] < 0
          || start[i] < 0
          || (count[i] > 0 && start[i] + (count[i] - 1) * step[i] >= ashape[i])) {
        throw new IllegalArgumentException(
            "readStrided: "
                + count[i]
                + " elements from "
                + start[i]
                + " every "
                + step[i]
                + " (steps must be at least 1) are not inside dimension "
                + i
                + " of array '"
                + z.path()
                + "' of shape "
                + Shapes.format(ashape));
      }
    }
    Shapes.intSize("readStrided", count);
    NDArray out = NDArray.zeros(z.dtype(), count);
    if (Shapes.size(count) == 0) {
      return out;
    }
    long[] chunks = z.chunks();
    // per axis, the runs of selected positions falling in one chunk: {chunk, first j, n}
    long[][][] runs = new long[nd][][];
    for (int i = 0; i < nd; i++) {
      java.util.List<long[]> l = new java.util.ArrayList<>();
      for (long j = 0; j < count[i]; ) {
        long p = start[i] + j * step[i];
        long c = p / chunks[i];
        long n = Math.min(count[i] - j, ((c + 1) * chunks[i] - 1 - p) / step[i] + 1);
        l.add(new long[] {c, j, n});
        j += n;
      }
      runs[i] = l.toArray(new long[0][]);
    }
    boolean into = ZarrChunks.readsInto(z);
    int mult = z.dtype().isComplex() ? 2 : 1;
    int[] at = new int[nd];
    long[] c = new long[nd];
    long[] lo = new long[nd];
    long[] box = new long[nd];
    long[] dstAt = new long[nd];
    while (true) {
      for (int i = 0; i < nd; i++) {
        long[] r = runs[i][at[i]];
        c[i] = r[0];
        lo[i] = start[i] + r[1] * step[i] - r[0] * chunks[i];
        box[i] = r[2];
        dstAt[i] = r[1];
      }
      if (!(into && ZarrChunks.readInto(z, c.clone(), lo, box, step, out, dstAt))) {
        NDArray chunk = z.readChunk(c.clone());
        copyStrided(chunk, lo, box, step, out, dstAt, mult);
      }
      int k = nd - 1;
      while (k >= 0 && ++at[k] == runs[k].length) {
        at[k] = 0;
        k--;
      }
      if (k < 0) {
        return out;
      }
    }
  }

  /** Every {@code step[i]}-th element of the box at {@code lo} of {@code src} into {@code dst}. */
  private static void copyStrided(
      NDArray src, long[] lo, long[] box, long[] step, NDArray dst, long[] dstAt, int mult) {
    int nd = box.length;
    long[] ss = Shapes.strides(src.shape());
    long[] ds = Shapes.strides(dst.shape());
    long n = Shapes.size(box);
    long[] idx = new long[nd];
    for (long f = 0; f < n; f++) {
      long si = 0;
      long di = 0;
      for (int i = 0; i < nd; i++) {
        si += (lo[i] + idx[i] * step[i]) * ss[i];
        di += (dstAt[i] + idx[i]) * ds[i];
      }
      System.arraycopy(src.data(), (int) si * mult, dst.data(), (int) di * mult, mult);
      for (int i = nd - 1; i >= 0; i--) {
        if (++idx[i] < box[i]) {
          break;
        }
        idx[i] = 0;
      }
    }
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
