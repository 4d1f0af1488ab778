package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.HaloFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Shifted windows of an array on a chosen chunk grid, read from the array itself: element {@code j}
 * of the result is element {@code j + offset} of the source where that lies in the source's valid
 * range, else a fill value. Each output block reads the source blocks it overlaps, its own and a
 * halo of one neighbour along one axis (a {@link HaloFunction}: a cheap elementwise chain below it
 * is recomputed for the halo rather than stored). What it serves:
 *
 * <ul>
 *   <li>{@link #onGrid}: a unit-step slice of x (recorded by {@link #slice}) moved to another grid:
 *       {@code x[1:] - x[:-1]} (xarray's {@code diff}) takes the grid of {@code x[:-1]} and reads
 *       {@code x[1:]} from x's blocks and the first element of the next block, no regridded copy of
 *       either slice stored.
 *   <li>{@link #padded}: a constant pad of such a slice back to the source's length ({@code
 *       pad(x[:-k], (k, 0))}, xarray's {@code shift}) on the source's grid.
 * </ul>
 */
public final class Shifted {
  private Shifted() {}

  /** A unit-step slice: its source and the source index of its first element per axis. */
  private record Slice(ArrayNode x, long[] start) {}

  /** Unit-step slices by result node (by identity; dropped with the node). */
  private static final Map<ArrayNode, Slice> SLICES =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Records that {@code y} is {@code x[start : start + y.shape]} with step 1 on every axis. */
  static ArrayNode slice(ArrayNode y, ArrayNode x, long[] start) {
    if (y != x) {
      SLICES.put(y, new Slice(x, start.clone()));
    }
    return y;
  }

  /** Whether {@code y} is a recorded slice whose grid {@link #onGrid} can change. */
  static boolean movable(ArrayNode y) {
    return SLICES.containsKey(y);
  }

  /**
   * The recorded slice {@code y} on {@code want} (same shape), read from its source; null when y is
   * no recorded slice or an output block would read more than two source blocks along an axis or
   * two along more than one axis (then regrid it).
   */
  static ArrayNode onGrid(ArrayNode y, ChunkGrid want) {
    Slice s = SLICES.get(y);
    if (s == null || !Arrays.equals(want.shape(), y.shape())) {
      return null;
    }
    long[] lo = s.start();
    long[] hi = new long[lo.length];
    for (int d = 0; d < lo.length; d++) {
      hi[d] = lo[d] + y.shape()[d];
    }
    return window("getitem-shifted", s.x(), want, lo, lo, hi, null);
  }

  /**
   * {@code pad(y, widths)} with the constant {@code value} on the grid of y's source when y is a
   * recorded slice and the padded shape is the source's (a shift); else null.
   */
  public static ArrayNode padded(ArrayNode y, long[][] widths, Object value) {
    Slice s = SLICES.get(y);
    if (s == null || (widths.length != 1 && widths.length != y.shape().length)) {
      return null;
    }
    try {
      NDArray.full(y.dtype(), value == null ? 0 : value, 1);
    } catch (IllegalArgumentException e) {
      return null; // the general path says what is wrong
    }
    ArrayNode x = s.x();
    int nd = x.shape().length;
    long[] off = new long[nd];
    long[] hi = new long[nd];
    for (int d = 0; d < nd; d++) {
      long[] w = widths[widths.length == 1 ? 0 : d];
      if (w.length != 2 || w[0] < 0 || w[1] < 0 || w[0] + y.shape()[d] + w[1] != x.shape()[d]) {
        return null;
      }
      off[d] = s.start()[d] - w[0];
      hi[d] = s.start()[d] + y.shape()[d];
    }
    return window("shift", x, x.chunkGrid(), off, s.start(), hi, value == null ? 0 : value);
  }

  /**
   * The window op: output element j (on {@code grid}) is x[j + off] where {@code vlo <= j + off <
   * vhi} on every axis, else {@code fill}; null when a block would read too many source blocks.
   */
  private static ArrayNode window(
      String name, ArrayNode x, ChunkGrid grid, long[] off, long[] vlo, long[] vhi, Object fill) {
    ChunkGrid in = x.chunkGrid();
    int nd = x.shape().length;
    if (Shapes.size(x.shape()) == 0 || Shapes.size(grid.shape()) == 0) {
      return null;
    }
    int haloAxes = 0;
    for (int d = 0; d < nd; d++) {
      long most = 1;
      long[] sizes = grid.sizes(d);
      long at = 0;
      for (long sz : sizes) {
        long[] r = range(at, sz, off[d], vlo[d], vhi[d]);
        if (r != null) {
          most = Math.max(most, in.blockOf(d, r[1] - 1) - in.blockOf(d, r[0]) + 1);
        }
        at += sz;
      }
      if (most > 2) {
        return null;
      }
      haloAxes += most > 1 ? 1 : 0;
    }
    if (haloAxes > 1) {
      return null;
    }
    KeyFunction keys = k -> List.of(BlockKeys.many(sourceBlocks(k, grid, in, off, vlo, vhi)));
    DType dt = x.dtype();
    int mult = dt.isComplex() ? 2 : 1;
    HaloFunction fn =
        (args, k) -> {
          long[] start = grid.blockOffset(k);
          long[] bs = grid.blockShape(k);
          @SuppressWarnings("unchecked")
          List<NDArray> blocks = (List<NDArray>) args.get(0);
          List<long[]> ks = sourceBlocks(k, grid, in, off, vlo, vhi);
          NDArray out = NDArray.zeros(dt, bs);
          if (fill != null) {
            fillOutside(out, start, off, vlo, vhi, fill);
          }
          for (int b = 0; b < ks.size(); b++) {
            NDArray blk = blocks.get(b);
            long[] bStart = in.blockOffset(ks.get(b));
            long[] src = new long[nd];
            long[] dst = new long[nd];
            long[] box = new long[nd];
            boolean empty = false;
            for (int i = 0; i < nd; i++) {
              // source range of this output block, clipped to the valid range and the block
              long a = Math.max(Math.max(start[i] + off[i], vlo[i]), bStart[i]);
              long e =
                  Math.min(Math.min(start[i] + bs[i] + off[i], vhi[i]), bStart[i] + blk.shape(i));
              empty |= e <= a;
              src[i] = a - bStart[i];
              dst[i] = a - off[i] - start[i];
              box[i] = e - a;
            }
            if (!empty) {
              NDArray.copyBox(blk.data(), blk.shape(), src, out.data(), bs, dst, box, mult);
            }
          }
          return out;
        };
    int held = haloAxes > 0 ? 2 : 1;
    return new ArrayNode.Computed(
        new Blockwise(name, keys, fn, new int[] {held}, new int[] {held}, 0),
        List.of(x),
        grid,
        dt,
        null);
  }

  /**
   * Sets to {@code fill} the elements of output block {@code out} (at {@code start}) outside the
   * box whose source lies in the valid range (those the source blocks do not cover): the slabs
   * before and after that box along each axis, so a shift by a few rows writes the fill into those
   * rows only and not over the whole block.
   */
  private static void fillOutside(
      NDArray out, long[] start, long[] off, long[] vlo, long[] vhi, Object fill) {
    int nd = start.length;
    long[] bs = out.shape();
    long[] lo = new long[nd];
    long[] hi = new long[nd];
    for (int i = 0; i < nd; i++) {
      lo[i] = Math.min(bs[i], Math.max(0, vlo[i] - off[i] - start[i]));
      hi[i] = Math.max(lo[i], Math.min(bs[i], vhi[i] - off[i] - start[i]));
      if (lo[i] == hi[i]) {
        out.fill(fill); // nothing valid in this block
        return;
      }
    }
    int mult = out.dtype().isComplex() ? 2 : 1;
    for (int d = 0; d < nd; d++) {
      for (long[] r : new long[][] {{0, lo[d]}, {hi[d], bs[d]}}) {
        if (r[1] <= r[0]) {
          continue;
        }
        long[] at = new long[nd];
        long[] box = bs.clone();
        at[d] = r[0];
        box[d] = r[1] - r[0];
        NDArray f = NDArray.full(out.dtype(), fill, box);
        NDArray.copyBox(f.data(), box, new long[nd], out.data(), bs, at, box, mult);
      }
    }
  }

  /** The valid source range [a, e) of an output range [at, at + size) along one axis, or null. */
  private static long[] range(long at, long size, long off, long vlo, long vhi) {
    long a = Math.max(at + off, vlo);
    long e = Math.min(at + size + off, vhi);
    return e > a ? new long[] {a, e} : null;
  }

  /** The source blocks output block k reads (at least one, so a task always has an input). */
  private static List<long[]> sourceBlocks(
      long[] k, ChunkGrid grid, ChunkGrid in, long[] off, long[] vlo, long[] vhi) {
    int nd = k.length;
    long[] start = grid.blockOffset(k);
    long[] bs = grid.blockShape(k);
    long[] first = new long[nd];
    long[] count = new long[nd];
    for (int d = 0; d < nd; d++) {
      long[] r = range(start[d], bs[d], off[d], vlo[d], vhi[d]);
      if (r == null) {
        // all fill along this axis: read the nearest block (the task needs one input)
        long p = Math.min(Math.max(start[d] + off[d], vlo[d]), vhi[d] - 1);
        first[d] = in.blockOf(d, Math.max(0, p));
        count[d] = 1;
      } else {
        first[d] = in.blockOf(d, r[0]);
        count[d] = in.blockOf(d, r[1] - 1) - first[d] + 1;
      }
    }
    List<long[]> keys = new ArrayList<>();
    long total = Shapes.size(count);
    for (long f = 0; f < total; f++) {
      long[] rel = Shapes.unravel(count, f);
      long[] key = first.clone();
      for (int d = 0; d < nd; d++) {
        key[d] += rel[d];
      }
      keys.add(key);
    }
    return keys;
  }
}
