package dev.cubed.core;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.ArrayNode;
import dev.cubed.primitive.BlockFunction;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Chunked manipulation: permuteDims, expandDims, squeeze, broadcastTo, concat, stack. */
public final class Manip {
  private Manip() {}

  private static ArrayNode oneToOne(String name, ArrayNode x, long[] shape, long[] chunks,
      KeyFunction keys, BlockFunction fn) {
    return new ArrayNode.Computed(new Blockwise(name, keys, fn, new int[] {1}, new int[] {1}, 0),
        List.of(x), shape, chunks, x.dtype(), null);
  }

  /**
   * Permutes the axes.
   *
   * @throws IllegalArgumentException if {@code axes} is not a permutation of the dimensions
   */
  public static ArrayNode permuteDims(ArrayNode x, int... axes) {
    int nd = x.shape().length;
    int[] ax = new int[axes.length];
    for (int i = 0; i < axes.length; i++) {
      ax[i] = Shapes.normalizeAxis("permute_dims", axes[i], nd);
    }
    if (ax.length != nd || Arrays.stream(ax).distinct().count() != nd) {
      throw new IllegalArgumentException("permute_dims: axes " + Arrays.toString(axes)
          + " must name each of the " + nd + " dimensions once");
    }
    long[] s = new long[nd];
    long[] c = new long[nd];
    for (int i = 0; i < nd; i++) {
      s[i] = x.shape()[ax[i]];
      c[i] = x.chunks()[ax[i]];
    }
    return oneToOne("permute_dims", x, s, c, k -> {
      long[] in = new long[nd];
      for (int i = 0; i < nd; i++) {
        in[ax[i]] = k[i];
      }
      return List.of(BlockKeys.one(in));
    }, (args, k) -> ((NDArray) args.get(0)).permuteDims(ax));
  }

  /**
   * Inserts an axis of size 1 at {@code axis} (in the result's numbering).
   *
   * @throws IllegalArgumentException if the axis is out of range
   */
  public static ArrayNode expandDims(ArrayNode x, int axis) {
    int nd = x.shape().length + 1;
    int a = Shapes.normalizeAxis("expand_dims", axis, nd);
    long[] s = new long[nd];
    long[] c = new long[nd];
    for (int i = 0, j = 0; i < nd; i++) {
      s[i] = i == a ? 1 : x.shape()[j];
      c[i] = i == a ? 1 : x.chunks()[j++];
    }
    return oneToOne("expand_dims", x, s, c, k -> {
      long[] in = new long[nd - 1];
      for (int i = 0, j = 0; i < nd; i++) {
        if (i != a) {
          in[j++] = k[i];
        }
      }
      return List.of(BlockKeys.one(in));
    }, (args, k) -> {
      NDArray b = (NDArray) args.get(0);
      long[] bs = new long[nd];
      for (int i = 0, j = 0; i < nd; i++) {
        bs[i] = i == a ? 1 : b.shape(j++);
      }
      return b.reshape(bs);
    });
  }

  /**
   * Removes axes of size 1.
   *
   * @throws IllegalArgumentException if an axis does not have size 1
   */
  public static ArrayNode squeeze(ArrayNode x, int... axes) {
    int nd = x.shape().length;
    int[] ax = Shapes.normalizeAxes("squeeze", axes, nd);
    boolean[] drop = new boolean[nd];
    for (int a : ax) {
      if (x.shape()[a] != 1) {
        throw new IllegalArgumentException("squeeze: axis " + a + " of shape "
            + Shapes.format(x.shape()) + " has size " + x.shape()[a] + ", not 1");
      }
      drop[a] = true;
    }
    int no = nd - ax.length;
    long[] s = new long[no];
    long[] c = new long[no];
    for (int i = 0, j = 0; i < nd; i++) {
      if (!drop[i]) {
        s[j] = x.shape()[i];
        c[j++] = x.chunks()[i];
      }
    }
    return oneToOne("squeeze", x, s, c, k -> {
      long[] in = new long[nd];
      for (int i = 0, j = 0; i < nd; i++) {
        in[i] = drop[i] ? 0 : k[j++];
      }
      return List.of(BlockKeys.one(in));
    }, (args, k) -> {
      NDArray b = (NDArray) args.get(0);
      long[] bs = new long[no];
      for (int i = 0, j = 0; i < nd; i++) {
        if (!drop[i]) {
          bs[j++] = b.shape(i);
        }
      }
      return b.reshape(bs);
    });
  }

  /**
   * Broadcasts to {@code shape} (new axes and size-1 axes get one chunk of the whole axis).
   *
   * @throws IllegalArgumentException if the shapes are not broadcast-compatible
   */
  public static ArrayNode broadcastTo(ArrayNode x, long[] shape) {
    Shapes.checkBroadcastTo("broadcast_to", x.shape(), shape);
    int nd = shape.length;
    int off = nd - x.shape().length;
    long[] c = new long[nd];
    for (int i = 0; i < nd; i++) {
      boolean kept = i >= off && x.shape()[i - off] == shape[i];
      c[i] = kept ? x.chunks()[i - off] : Math.max(1, shape[i]);
    }
    long[] xs = x.shape();
    return oneToOne("broadcast_to", x, shape, c, k -> {
      long[] in = new long[xs.length];
      for (int i = 0; i < xs.length; i++) {
        in[i] = xs[i] == shape[i + off] ? k[i + off] : 0;
      }
      return List.of(BlockKeys.one(in));
    }, (args, k) -> {
      long[] bs = new long[nd];
      for (int i = 0; i < nd; i++) {
        bs[i] = Math.min(c[i], shape[i] - k[i] * c[i]);
      }
      return ((NDArray) args.get(0)).broadcastTo(bs).copy();
    });
  }

  /**
   * Joins arrays along an existing axis. Inputs are rechunked to the first array's chunks on the
   * other axes; the output has the first array's chunk size along {@code axis}; each output block
   * streams the input blocks it overlaps.
   *
   * @throws IllegalArgumentException if shapes differ off the axis or dtypes differ
   */
  public static ArrayNode concat(List<ArrayNode> xs, int axis) {
    ArrayNode first = xs.get(0);
    int nd = first.shape().length;
    int a = Shapes.normalizeAxis("concat", axis, nd);
    long[] shape = first.shape();
    shape[a] = 0;
    List<ArrayNode> ins = new ArrayList<>();
    long[] starts = new long[xs.size() + 1];
    for (int j = 0; j < xs.size(); j++) {
      ArrayNode x = xs.get(j);
      if (x.dtype() != first.dtype()) {
        throw new IllegalArgumentException("concat: dtypes " + first.dtype() + " and " + x.dtype()
            + " differ; convert with astype first");
      }
      for (int i = 0; i < nd; i++) {
        if (i != a && x.shape()[i] != first.shape()[i]) {
          throw new IllegalArgumentException("concat: shapes " + Shapes.format(first.shape())
              + " and " + Shapes.format(x.shape()) + " differ in dimension " + i);
        }
      }
      long[] want = first.chunks();
      want[a] = x.chunks()[a];
      ins.add(Arrays.equals(want, x.chunks()) ? x : Core.rechunk(x, want));
      starts[j + 1] = starts[j] + x.shape()[a];
      shape[a] += x.shape()[a];
    }
    long[] chunks = first.chunks();
    chunks[a] = Math.max(1, Math.min(chunks[a], Math.max(1, shape[a])));
    long ca = chunks[a];
    long[] inCa = new long[ins.size()];
    for (int j = 0; j < inCa.length; j++) {
      inCa[j] = ins.get(j).chunks()[a];
    }
    long total = shape[a];
    KeyFunction keys = k -> {
      long lo = k[a] * ca;
      long hi = Math.min(total, lo + ca);
      List<BlockKeys> l = new ArrayList<>();
      for (int j = 0; j < inCa.length; j++) {
        List<long[]> ks = new ArrayList<>();
        long s = Math.max(lo, starts[j]);
        long e = Math.min(hi, starts[j + 1]);
        if (s < e) {
          for (long b = (s - starts[j]) / inCa[j]; b <= (e - 1 - starts[j]) / inCa[j]; b++) {
            long[] key = k.clone();
            key[a] = b;
            ks.add(key);
          }
        }
        l.add(BlockKeys.stream(ks));
      }
      return l;
    };
    long[] outChunks = chunks.clone();
    BlockFunction fn = (args, k) -> {
      long[] bs = new long[nd];
      for (int i = 0; i < nd; i++) {
        bs[i] = Math.min(outChunks[i], shape[i] - k[i] * outChunks[i]);
      }
      NDArray out = NDArray.zeros(first.dtype(), bs);
      long lo = k[a] * ca;
      long hi = lo + bs[a];
      for (int j = 0; j < inCa.length; j++) {
        @SuppressWarnings("unchecked")
        java.util.Iterator<NDArray> it = (java.util.Iterator<NDArray>) args.get(j);
        long s = Math.max(lo, starts[j]);
        long e = Math.min(hi, starts[j + 1]);
        if (s >= e) {
          continue;
        }
        long b = (s - starts[j]) / inCa[j];
        while (it.hasNext()) {
          NDArray blk = it.next();
          long bStart = starts[j] + b * inCa[j];
          long from = Math.max(s, bStart);
          long to = Math.min(e, bStart + blk.shape(a));
          long[] src = new long[nd];
          long[] dst = new long[nd];
          long[] box = blk.shape();
          src[a] = from - bStart;
          dst[a] = from - lo;
          box[a] = to - from;
          NDArray.copyBox(blk.data(), blk.shape(), src, out.data(), bs, dst, box,
              first.dtype().isComplex() ? 2 : 1);
          b++;
        }
      }
      return out;
    };
    int[] held = new int[ins.size()];
    int[] reads = new int[ins.size()];
    for (int j = 0; j < held.length; j++) {
      held[j] = 1;
      reads[j] = (int) (ca / Math.max(1, inCa[j]) + 2);
    }
    return new ArrayNode.Computed(new Blockwise("concat", keys, fn, held, reads, 0), ins, shape,
        chunks, first.dtype(), null);
  }

  /** Joins arrays of equal shape along a new axis. */
  public static ArrayNode stack(List<ArrayNode> xs, int axis) {
    int nd = xs.get(0).shape().length + 1;
    int a = Shapes.normalizeAxis("stack", axis, nd);
    List<ArrayNode> ex = new ArrayList<>();
    for (ArrayNode x : xs) {
      if (!Arrays.equals(x.shape(), xs.get(0).shape())) {
        throw new IllegalArgumentException("stack: shapes " + Shapes.format(xs.get(0).shape())
            + " and " + Shapes.format(x.shape()) + " differ");
      }
      ex.add(expandDims(x, a));
    }
    return concat(ex, a);
  }
}
