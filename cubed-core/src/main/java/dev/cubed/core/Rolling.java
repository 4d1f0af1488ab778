package dev.cubed.core;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.window.MovingWindow;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.HaloFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reductions over moving windows along one axis as ONE blockwise op with a halo: output block
 * {@code k} covers windows {@code s .. e - 1} along the axis, which read input elements {@code s ..
 * e + window - 2}, so its task reads its own input blocks plus the following ones up to {@code
 * window - 1} elements further (the halo), joins that span along the axis and runs the {@link
 * MovingWindow} kernel on it. The window axis is never written: the op writes one output the size
 * of its input (less {@code window - 1} along the axis). Output blocks along the axis have the
 * input's largest block size there; the other axes keep the input's blocks.
 */
public final class Rolling {
  private Rolling() {}

  /**
   * {@code op} over every window of {@code window} consecutive elements along {@code axis} ("valid"
   * windows: the axis has {@code n - window + 1} elements in the result), as {@link
   * MovingWindow#reduce}.
   *
   * @throws IllegalArgumentException if the axis is out of range, the window is not between 1 and
   *     the axis' length, or x is complex
   */
  public static ArrayNode reduce(ArrayNode x, int axis, int window, MovingWindow.Op op, int ddof) {
    return reduce(x, axis, window, op, ddof, 0);
  }

  /**
   * {@link #reduce(ArrayNode, int, int, MovingWindow.Op, int)} with NaN for windows of fewer than
   * {@code minCount} values that are not NaN ({@link MovingWindow#reduce(NDArray, int, int,
   * MovingWindow.Op, int, int)}).
   */
  public static ArrayNode reduce(
      ArrayNode x, int axis, int window, MovingWindow.Op op, int ddof, int minCount) {
    if (minCount > 0 && !MovingWindow.countsValues(op, x.dtype())) {
      throw new IllegalArgumentException(
          "rolling: a minimum count applies to nansum, nanmean, nanvar and nanstd of floating"
              + " input, not "
              + op.name().toLowerCase(Locale.ROOT)
              + " of "
              + x.dtype());
    }
    int nd = x.shape().length;
    if (axis < 0 || axis >= nd) {
      throw new IllegalArgumentException(
          "rolling: axis " + axis + " is out of range for a " + nd + "-d array");
    }
    long n = x.shape()[axis];
    if (window < 1 || window > n) {
      throw new IllegalArgumentException(
          "rolling: window "
              + window
              + " must be between 1 and the length "
              + n
              + " of axis "
              + axis);
    }
    ChunkGrid in = x.chunkGrid();
    long m = n - window + 1;
    long c = Math.max(1, in.maxChunks()[axis]);
    int nb = (int) ((m + c - 1) / c);
    long[] sizes = new long[nb];
    for (int j = 0; j < nb; j++) {
      sizes[j] = Math.min(c, m - j * c);
    }
    ChunkGrid out = in.withAxis(axis, sizes);
    // the input blocks along the axis each output block reads: its span plus the halo
    long[] lo = new long[nb];
    long[] hi = new long[nb];
    int held = 1;
    for (int j = 0; j < nb; j++) {
      long s = j * c;
      lo[j] = in.blockOf(axis, s);
      hi[j] = in.blockOf(axis, s + sizes[j] + window - 2);
      held = (int) Math.max(held, hi[j] - lo[j] + 1);
    }
    KeyFunction keys =
        k -> {
          List<long[]> ks = new ArrayList<>();
          int j = (int) k[axis];
          for (long b = lo[j]; b <= hi[j]; b++) {
            long[] key = k.clone();
            key[axis] = b;
            ks.add(key);
          }
          return List.of(BlockKeys.many(ks));
        };
    boolean complex = x.dtype().isComplex();
    HaloFunction fn =
        (args, k) -> {
          @SuppressWarnings("unchecked")
          List<NDArray> blocks = (List<NDArray>) args.get(0);
          int j = (int) k[axis];
          long start = j * c;
          long len = sizes[j] + window - 1;
          NDArray span = span(blocks, in, axis, lo[j], start, len, complex);
          return MovingWindow.reduce(span, axis, window, op, ddof, minCount);
        };
    long itemSize = x.dtype().itemSize();
    long spanBytes = itemSize * (c + window - 1);
    for (int d = 0; d < nd; d++) {
      if (d != axis) {
        spanBytes *= in.maxChunks()[d];
      }
    }
    long extra = spanBytes + MovingWindow.workBytes(window);
    return new ArrayNode.Computed(
        new Blockwise(
            "rolling_" + op.name().toLowerCase(Locale.ROOT),
            keys,
            fn,
            new int[] {held},
            new int[] {held},
            extra),
        List.of(x),
        out,
        MovingWindow.resultType(op, x.dtype()),
        null);
  }

  /**
   * Elements {@code start .. start + len - 1} along {@code axis} of the consecutive input blocks
   * {@code blocks} (the first is block {@code first} along the axis), as one array; the one block
   * itself when it is exactly that span.
   */
  private static NDArray span(
      List<NDArray> blocks,
      ChunkGrid in,
      int axis,
      long first,
      long start,
      long len,
      boolean complex) {
    long[] off = in.offsets(axis);
    NDArray b0 = blocks.get(0);
    if (blocks.size() == 1 && off[(int) first] == start && b0.shape(axis) == len) {
      return b0;
    }
    long[] shape = b0.shape().clone();
    shape[axis] = len;
    NDArray out = NDArray.empty(b0.dtype(), shape);
    int nd = shape.length;
    for (int b = 0; b < blocks.size(); b++) {
      NDArray blk = blocks.get(b);
      long bStart = off[(int) first + b];
      long from = Math.max(start, bStart);
      long to = Math.min(start + len, bStart + blk.shape(axis));
      if (to <= from) {
        continue;
      }
      long[] src = new long[nd];
      long[] dst = new long[nd];
      long[] box = blk.shape().clone();
      src[axis] = from - bStart;
      dst[axis] = from - start;
      box[axis] = to - from;
      NDArray.copyBox(blk.data(), blk.shape(), src, out.data(), shape, dst, box, complex ? 2 : 1);
    }
    return out;
  }
}
