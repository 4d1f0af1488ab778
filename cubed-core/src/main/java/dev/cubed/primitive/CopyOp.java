package dev.cubed.primitive;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.RunBoxes;
import dev.cubed.nd.Shapes;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.zarr.MissingChunkException;
import dev.cubed.zarr.ZarrArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One rechunk stage: copies {@code source} into {@code target} (same shape and dtype, other
 * chunks). Each task handles one copy region (a whole multiple of the target's chunks): it holds
 * one buffer per target chunk of the region, reads the overlapping source chunks one at a time and
 * copies each straight into the target chunk buffers it overlaps (no region-sized staging array, no
 * second copy per target chunk), then writes the target chunks. Projected memory = reserved +
 * source chunk x (1 + readCopies) + region (the target chunk buffers) + target chunk x writeCopies.
 *
 * <p>A consuming copy ({@code consume}, for a multistage rechunk's intermediate source read by this
 * copy only) deletes, after its target chunks are written, the source chunks lying wholly inside
 * its region: no other task reads them, and their file pages are freed while the stage runs instead
 * of at the end of the compute. A consuming task run again after such a deletion (resume after a
 * crash between the deletion and the completion marker, a retry, a backup task) finds its target
 * chunks all written and returns; a missing source chunk with a target chunk also missing is an
 * engine error ({@link MissingChunkException}).
 */
public final class CopyOp {
  private CopyOp() {}

  /** Projected memory of a copy task. */
  public static long projectedMem(
      long reserved,
      long srcChunkBytes,
      long regionBytes,
      long dstChunkBytes,
      int readCopies,
      int writeCopies) {
    return projectedMem(
        reserved, srcChunkBytes, regionBytes, dstChunkBytes, readCopies, writeCopies, false);
  }

  /**
   * Projected memory of a copy task; {@code streamed} ({@link #streams}): two source chunks (the
   * run being copied may span two), a run and a box of it, and the encoded target chunk, instead of
   * the target chunk buffers.
   */
  public static long projectedMem(
      long reserved,
      long srcChunkBytes,
      long regionBytes,
      long dstChunkBytes,
      int readCopies,
      int writeCopies,
      boolean streamed) {
    if (streamed) {
      return reserved
          + 2 * srcChunkBytes * (1 + readCopies)
          + 2 * Math.min(dstChunkBytes, RUN)
          + dstChunkBytes * writeCopies;
    }
    return reserved
        + srcChunkBytes * (1 + readCopies)
        + Math.max(regionBytes, dstChunkBytes)
        + dstChunkBytes * writeCopies;
  }

  /** Bytes of a run of a streamed target chunk (at most; the codec's block). */
  private static final long RUN = 256 << 10;

  /**
   * True if a copy with these chunks and region writes each target chunk while reading it from the
   * source, a run at a time ({@link ZarrArray#writeChunk(long[],
   * dev.cubed.zarr.codec.ChunkElements)}), instead of filling a buffer per target chunk first: the
   * region is one target chunk, the target encodes runs ({@code targetStreams}), and on every axis
   * but the first a target chunk lies inside one source chunk, so the target's C-order runs walk
   * the source chunks along the first axis, each read once while at most two are held.
   */
  public static boolean streams(
      long[] srcChunks, long[] dstChunks, long[] region, boolean targetStreams) {
    if (!targetStreams || dstChunks.length == 0 || !Arrays.equals(region, dstChunks)) {
      return false;
    }
    for (int d = 1; d < dstChunks.length; d++) {
      if (srcChunks[d] % dstChunks[d] != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Builds the copy operation.
   *
   * @param region copy region shape, a multiple of the target's chunks (clipped at the edges)
   */
  public static Operation build(
      String name, ZarrArray source, ZarrArray target, long[] region, long projectedMem) {
    return build(name, source, target, region, projectedMem, null, false);
  }

  /**
   * Builds the copy operation with known dependencies (see {@link Operation#dependencies()}).
   *
   * @param region copy region shape, a multiple of the target's chunks (clipped at the edges)
   * @param consume delete the source chunks wholly inside a region once its target chunks are
   *     written (only for an intermediate source that no other operation reads)
   */
  public static Operation build(
      String name,
      ZarrArray source,
      ZarrArray target,
      long[] region,
      long projectedMem,
      List<String> dependencies,
      boolean consume) {
    long[] shape = target.shape();
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
    long[] reg = region.clone();
    TaskFunction fn = key -> copyRegion(source, target, reg, key, consume);
    return new Operation(name, keys, fn, projectedMem, dependencies);
  }

  /** The task: copies region {@code key} of {@code target} from {@code source}. */
  static void copyRegion(
      ZarrArray source, ZarrArray target, long[] region, long[] key, boolean consume)
      throws Exception {
    if (streams(source.chunks(), target.chunks(), region, target.streamsWrites())) {
      copyStreamed(source, target, key, consume);
      return;
    }
    long[] shape = target.shape();
    long[] tc = target.chunks();
    long[] sc = source.chunks();
    int nd = shape.length;
    long[] start = new long[nd];
    long[] end = new long[nd];
    long[] t0 = new long[nd]; // first target chunk of the region
    long[] tg = new long[nd]; // target chunks of the region per axis
    long[] s0 = new long[nd]; // first source chunk overlapping the region
    long[] sg = new long[nd]; // source chunks overlapping the region per axis
    for (int i = 0; i < nd; i++) {
      start[i] = key[i] * region[i];
      end[i] = Math.min(shape[i], start[i] + region[i]);
      t0[i] = start[i] / tc[i];
      tg[i] = (end[i] - 1) / tc[i] - t0[i] + 1;
      s0[i] = start[i] / sc[i];
      sg[i] = (end[i] - 1) / sc[i] - s0[i] + 1;
    }
    int mult = target.dtype().isComplex() ? 2 : 1;
    int nt = Math.toIntExact(Shapes.size(tg));
    NDArray[] bufs = new NDArray[nt];
    long[][] tStart = new long[nt][];
    for (int f = 0; f < nt; f++) {
      long[] c = add(t0, Shapes.unravel(tg, f));
      tStart[f] = mul(c, tc);
      bufs[f] = NDArray.zeros(target.dtype(), target.chunkShape(c));
    }
    long ns = Shapes.size(sg);
    List<long[]> inside = new ArrayList<>();
    long[] lo = new long[nd];
    long[] hi = new long[nd];
    long[] box = new long[nd];
    long[] inSrc = new long[nd];
    long[] inDst = new long[nd];
    for (long f = 0; f < ns; f++) {
      long[] c = add(s0, Shapes.unravel(sg, f));
      NDArray src;
      try {
        src = source.readChunk(c);
      } catch (MissingChunkException e) {
        if (consume && allWritten(target, t0, tg)) {
          return; // an earlier run of this task wrote the targets and consumed its sources
        }
        throw e;
      }
      long[] cStart = mul(c, sc);
      long[] cShape = src.shape();
      boolean whole = true;
      for (int i = 0; i < nd; i++) {
        long a = Math.max(start[i], cStart[i]);
        long b = Math.min(end[i], cStart[i] + cShape[i]);
        lo[i] = a / tc[i] - t0[i];
        hi[i] = (b - 1) / tc[i] - t0[i];
        whole &= cStart[i] >= start[i] && cStart[i] + cShape[i] <= end[i];
      }
      if (whole) {
        inside.add(c);
      }
      long[] t = lo.clone();
      while (true) {
        int tf = 0;
        for (int i = 0; i < nd; i++) {
          tf = tf * (int) tg[i] + (int) t[i];
        }
        NDArray dst = bufs[tf];
        long[] dShape = dst.shape();
        for (int i = 0; i < nd; i++) {
          long a = Math.max(Math.max(start[i], cStart[i]), tStart[tf][i]);
          long b = Math.min(Math.min(end[i], cStart[i] + cShape[i]), tStart[tf][i] + dShape[i]);
          box[i] = b - a;
          inSrc[i] = a - cStart[i];
          inDst[i] = a - tStart[tf][i];
        }
        NDArray.copyBox(src.data(), cShape, inSrc, dst.data(), dShape, inDst, box, mult);
        int k = nd - 1;
        while (k >= 0 && ++t[k] > hi[k]) {
          t[k] = lo[k];
          k--;
        }
        if (k < 0) {
          break;
        }
      }
    }
    for (int f = 0; f < nt; f++) {
      target.writeChunk(add(t0, Shapes.unravel(tg, f)), bufs[f]);
      bufs[f] = null; // written: garbage before the next chunk is encoded
    }
    if (consume) {
      for (long[] c : inside) {
        source.store().delete(source.chunkKey(c));
      }
    }
  }

  /**
   * Writes target chunk {@code key} from its runs ({@link #streams}): each run is the few boxes of
   * the chunk it covers ({@link RunBoxes}), each box copied from the one or two source chunks it
   * overlaps along the first axis; the two source chunks read last are kept.
   */
  private static void copyStreamed(ZarrArray source, ZarrArray target, long[] key, boolean consume)
      throws Exception {
    long[] tc = target.chunks();
    long[] sc = source.chunks();
    int nd = tc.length;
    long[] origin = mul(key, tc);
    long[] cs = target.chunkShape(key);
    int mult = target.dtype().isComplex() ? 2 : 1;
    SourceChunks held = new SourceChunks(source);
    // the run and the box scratch are reused from run to run (ChunkElements: the writer consumes
    // a run before asking for the next), so a task makes no garbage per run
    NDArray[] reuse = new NDArray[2];
    try {
      target.writeChunk(
          key,
          (start, count) -> {
            if (reuse[0] == null || reuse[0].size() != count) {
              reuse[0] = NDArray.zeros(target.dtype(), new long[] {count});
            }
            NDArray run = reuse[0];
            for (RunBoxes.Box b : RunBoxes.of(cs, start, count)) {
              long boxSize = Shapes.size(b.shape());
              if (reuse[1] == null || reuse[1].size() < boxSize) {
                reuse[1] = NDArray.zeros(target.dtype(), new long[] {Math.max(boxSize, count)});
              }
              NDArray box = reuse[1]; // the box's elements in C order at its start
              long a0 = origin[0] + b.start()[0];
              long a1 = a0 + b.shape()[0];
              for (long c0 = a0 / sc[0]; c0 * sc[0] < a1; c0++) {
                long[] c = new long[nd];
                c[0] = c0;
                for (int d = 1; d < nd; d++) {
                  c[d] = (origin[d] + b.start()[d]) / sc[d];
                }
                NDArray src = held.get(c);
                long[] inSrc = new long[nd];
                long[] inBox = new long[nd];
                long[] part = b.shape().clone();
                long lo = Math.max(a0, c0 * sc[0]);
                long hi = Math.min(a1, c0 * sc[0] + src.shape()[0]);
                part[0] = hi - lo;
                inSrc[0] = lo - c0 * sc[0];
                inBox[0] = lo - a0;
                for (int d = 1; d < nd; d++) {
                  inSrc[d] = origin[d] + b.start()[d] - c[d] * sc[d];
                }
                NDArray.copyBox(
                    src.data(), src.shape(), inSrc, box.data(), b.shape(), inBox, part, mult);
              }
              System.arraycopy(
                  box.data(), 0, run.data(), (int) (b.flat() - start) * mult, (int) boxSize * mult);
            }
            return run;
          });
    } catch (MissingChunkException e) {
      if (consume && target.chunkExists(key)) {
        return; // an earlier run of this task wrote the target and consumed its sources
      }
      throw e;
    }
    if (consume) {
      long[] s0 = new long[nd];
      long[] sg = new long[nd];
      for (int i = 0; i < nd; i++) {
        s0[i] = origin[i] / sc[i];
        sg[i] = (origin[i] + cs[i] - 1) / sc[i] - s0[i] + 1;
      }
      for (long f = 0; f < Shapes.size(sg); f++) {
        long[] c = add(s0, Shapes.unravel(sg, f));
        boolean inside = true;
        for (int i = 0; i < nd; i++) {
          long cStart = c[i] * sc[i];
          long cEnd = Math.min(source.shape()[i], cStart + sc[i]);
          inside &= cStart >= origin[i] && cEnd <= origin[i] + cs[i];
        }
        if (inside) {
          source.store().delete(source.chunkKey(c));
        }
      }
    }
  }

  /** The two source chunks read last, by coordinates. */
  private static final class SourceChunks {
    private final ZarrArray source;
    private long[] lastKey;
    private NDArray last;
    private long[] prevKey;
    private NDArray prev;

    SourceChunks(ZarrArray source) {
      this.source = source;
    }

    NDArray get(long[] c) {
      if (lastKey != null && Arrays.equals(lastKey, c)) {
        return last;
      }
      if (prevKey != null && Arrays.equals(prevKey, c)) {
        return prev;
      }
      NDArray a = source.readChunk(c);
      prevKey = lastKey;
      prev = last;
      lastKey = c.clone();
      last = a;
      return a;
    }
  }

  private static boolean allWritten(ZarrArray target, long[] t0, long[] tg) {
    long nt = Shapes.size(tg);
    for (long f = 0; f < nt; f++) {
      if (!target.chunkExists(add(t0, Shapes.unravel(tg, f)))) {
        return false;
      }
    }
    return true;
  }

  private static long[] add(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] + b[i];
    }
    return r;
  }

  private static long[] mul(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] * b[i];
    }
    return r;
  }
}
