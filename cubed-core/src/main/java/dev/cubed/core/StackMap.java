package dev.cubed.core;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A kernel function mapped over stacks of items whose trailing "core" axes must be whole in one
 * task: square matrices for the batched {@code linalg} functions, transformed lines for the {@code
 * fft} functions. Each input is rechunked so its core axes are one block and its leading (batch)
 * axes hold as many items per block as the task's memory allows; the function then runs on one
 * block of each input per task.
 *
 * <p>Memory of one task holding {@code g} items (local stores: one extra copy read and written):
 * {@code reservedMem + g * (2 * sum(inItem) + 2 * outItem + perItemExtra) + fixedExtra}, where
 * {@code perItemExtra} is the kernel's work per item held at once for the whole block (a converted
 * copy, transform buffers) and {@code fixedExtra} its work for the one item it handles at a time (a
 * factorization's workspace). That is the {@link Blockwise} model of the op, so the plan's memory
 * check projects the same figure.
 */
public final class StackMap {
  private StackMap() {}

  /**
   * The per-task memory budget and the names used in a refusal.
   *
   * @param allowedMem allowedMem of the spec, bytes
   * @param reservedMem reservedMem of the spec, bytes
   */
  public record Budget(long allowedMem, long reservedMem) {}

  /**
   * One mapped op: what the kernel needs and produces per item.
   *
   * @param fn the standard function's name (named in the op and in a refusal)
   * @param what the item in words for a refusal, e.g. "one 64x64 float64 matrix"
   * @param kernel the kernel over one block of each input (already broadcast batch shapes)
   * @param out the output dtype
   * @param outCore the output's core shape (appended to the batch shape)
   * @param perItemExtra kernel memory per item of a block, bytes
   * @param fixedExtra kernel memory for the one item processed at a time, bytes
   */
  public record Spec(
      String fn,
      String what,
      Core.BlocksFunction kernel,
      DType out,
      long[] outCore,
      long perItemExtra,
      long fixedExtra) {}

  /**
   * Maps {@code s.kernel} over inputs that share the batch shape {@code batch} (the first axes of
   * each; each input's remaining axes are its core). The output has shape {@code batch + outCore}.
   *
   * @throws IllegalArgumentException naming the function and the item when one item does not fit a
   *     task ({@code what}, the projected bytes and allowedMem), or if a batch shape differs
   */
  public static ArrayNode map(Spec s, Budget budget, long[] batch, ArrayNode... xs) {
    int nb = batch.length;
    long inItem = 0;
    for (ArrayNode x : xs) {
      if (x.shape().length < nb || !Arrays.equals(Arrays.copyOf(x.shape(), nb), batch)) {
        throw new IllegalArgumentException(
            s.fn()
                + ": input of shape "
                + Shapes.format(x.shape())
                + " does not have the batch shape "
                + Shapes.format(batch));
      }
      inItem += itemBytes(x.shape(), nb, x.dtype());
    }
    long outItem = s.out().itemSize();
    for (long c : s.outCore()) {
      outItem *= c;
    }
    long perItem = 2 * inItem + 2 * outItem + s.perItemExtra();
    long room = budget.allowedMem() - budget.reservedMem() - s.fixedExtra();
    long one = budget.reservedMem() + perItem + s.fixedExtra();
    if (room < perItem) {
      throw new IllegalArgumentException(
          s.fn()
              + ": "
              + s.what()
              + " needs a projected "
              + one
              + " B per task (reservedMem "
              + budget.reservedMem()
              + " B, the input and output "
              + "read and written with one copy each, and the kernel's work), more than allowedMem "
              + budget.allowedMem()
              + " B; each must fit one task: raise allowedMem "
              + "(Spec.builder().allowedMem(...)) or use smaller ones; nothing was run");
    }
    long g = Math.max(1, room / Math.max(1, perItem));
    g = Math.min(g, Math.max(1, originalItemsPerBlock(xs[0], nb)));
    long[] bc = new long[nb];
    long rem = g;
    for (int d = nb - 1; d >= 0; d--) {
      long sz = Math.max(1, batch[d]);
      bc[d] = Math.max(1, Math.min(sz, rem));
      rem = bc[d] == sz ? Math.max(1, rem / sz) : 1;
    }
    List<ArrayNode> ins = new ArrayList<>();
    for (ArrayNode x : xs) {
      long[] want = new long[x.shape().length];
      Arrays.fill(want, -1);
      System.arraycopy(bc, 0, want, 0, nb);
      ins.add(sameChunks(x, want) ? x : Core.rechunk(x, want));
    }
    long[] outShape = new long[nb + s.outCore().length];
    System.arraycopy(batch, 0, outShape, 0, nb);
    System.arraycopy(s.outCore(), 0, outShape, nb, s.outCore().length);
    long[] outChunks = new long[outShape.length];
    for (int d = 0; d < outShape.length; d++) {
      outChunks[d] = d < nb ? bc[d] : Math.max(1, outShape[d]);
    }
    int[] inNd = new int[xs.length];
    for (int i = 0; i < xs.length; i++) {
      inNd[i] = xs[i].shape().length;
    }
    KeyFunction keys =
        co -> {
          List<BlockKeys> l = new ArrayList<>();
          for (int nd : inNd) {
            l.add(BlockKeys.one(Arrays.copyOf(Arrays.copyOf(co, nb), nd)));
          }
          return l;
        };
    Core.BlocksFunction k = s.kernel();
    BlockwiseFunction bf =
        (args, co) -> {
          NDArray[] b = new NDArray[args.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = (NDArray) args.get(i);
          }
          return k.apply(b);
        };
    int[] ones = new int[xs.length];
    Arrays.fill(ones, 1);
    long extra = s.fixedExtra() + perItemExtraOf(s, bc);
    return new ArrayNode.Computed(
        new Blockwise(s.fn(), keys, bf, ones, ones.clone(), extra),
        ins,
        outShape,
        outChunks,
        s.out(),
        null);
  }

  private static long perItemExtraOf(Spec s, long[] bc) {
    long g = 1;
    for (long c : bc) {
      g *= c;
    }
    return g * s.perItemExtra();
  }

  /** Bytes of one item of x: its axes after the first {@code nb}. */
  public static long itemBytes(long[] shape, int nb, DType dt) {
    long b = dt.itemSize();
    for (int d = nb; d < shape.length; d++) {
      b *= shape[d];
    }
    return b;
  }

  private static long originalItemsPerBlock(ArrayNode x, int nb) {
    long[] mc = x.chunkGrid().maxChunks();
    long g = 1;
    for (int d = 0; d < nb; d++) {
      g *= Math.max(1, mc[d]);
    }
    return g;
  }

  private static boolean sameChunks(ArrayNode x, long[] want) {
    if (!x.isRegular()) {
      return false;
    }
    long[] c = x.chunks();
    long[] s = x.shape();
    for (int d = 0; d < want.length; d++) {
      long w = want[d] < 0 ? Math.max(1, s[d]) : want[d];
      if (Math.min(c[d], Math.max(1, s[d])) != Math.min(w, Math.max(1, s[d]))) {
        return false;
      }
    }
    return true;
  }

  /** "64x64" for a core shape. */
  public static String dims(long... core) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < core.length; i++) {
      b.append(i == 0 ? "" : "x").append(core[i]);
    }
    return b.toString();
  }
}
