package dev.cubed;

import dev.cubed.core.Core;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ChunkGrid;
import dev.cubed.primitive.Blockwise;

/**
 * The shared internals of the {@link Xp} implementation classes: wrapping a plan node as an array,
 * elementwise ops from per-block kernels, the scalar-operand check, and the block-level functions
 * (map_blocks, blockwise, rechunk). Package-private; every public contract is on {@link Xp}.
 */
final class XpBlocks {
  private XpBlocks() {}

  static CubedArray wrap(ArrayNode n, CubedArray like) {
    return new CubedArray(n, like.spec());
  }

  /**
   * Applies a per-block kernel elementwise; the dtype is that of the kernel on one-element inputs.
   */
  static CubedArray ew(String name, Core.Pointwise fn, CubedArray... xs) {
    NDArray[] samples = new NDArray[xs.length];
    ArrayNode[] nodes = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      samples[i] = NDArray.ones(xs[i].dtype(), 1);
      nodes[i] = xs[i].node();
    }
    DType out;
    try {
      out = fn.apply(samples).dtype();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
    return wrap(Core.elemwise(name, fn, out, nodes), xs[0]);
  }

  /**
   * {@link #ew} of a function that can write into the plan's reused tile buffers (no new array per
   * tile when the op runs tile by tile).
   */
  static CubedArray ewInto(String name, Core.PointwiseInto fn, CubedArray... xs) {
    return ew(name, fn, xs);
  }

  /**
   * Checks a scalar operand when the op is built: one of the Java types the kernel accepts.
   *
   * @throws IllegalArgumentException naming the function and the scalar otherwise
   */
  static Object scalar(String fn, Object s) {
    if (s instanceof CubedArray || s instanceof NDArray) {
      throw new IllegalArgumentException(
          fn
              + ": the scalar operand is an array ("
              + s
              + "); pass arrays as CubedArray (wrap an NDArray with Cubed.asarray)");
    }
    try {
      DType.scalarKind(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(fn + ": " + e.getMessage(), e);
    }
    return s;
  }

  static CubedArray mapBlocks(Core.BlocksFunction fn, DType out, CubedArray... xs) {
    ArrayNode[] ns = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      ns[i] = xs[i].node();
    }
    return wrap(Core.mapBlocks(fn, out, ns), xs[0]);
  }

  static CubedArray blockwise(
      Blockwise op, long[] shape, long[] chunks, DType out, CubedArray... xs) {
    ArrayNode[] ns = new ArrayNode[xs.length];
    for (int i = 0; i < xs.length; i++) {
      ns[i] = xs[i].node();
    }
    return wrap(Core.blockwise(op, shape, chunks, out, ns), xs[0]);
  }

  static CubedArray rechunk(CubedArray x, long... chunks) {
    return wrap(Core.rechunk(x.node(), chunks), x);
  }

  static CubedArray rechunk(CubedArray x, long[][] blockSizes) {
    return wrap(Core.rechunk(x.node(), ChunkGrid.of(x.shape(), blockSizes)), x);
  }

  static String shapeOf(CubedArray x) {
    return Shapes.format(x.shape());
  }

  /** An operand for a message: its class and value, or "null". */
  static String describe(Object v) {
    return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
  }
}
