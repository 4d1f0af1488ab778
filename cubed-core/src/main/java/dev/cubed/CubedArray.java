package dev.cubed;

import dev.cubed.diagnostics.Diagnostics;
import dev.cubed.diagnostics.PlanPicture;
import dev.cubed.nd.Axes;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A lazy chunked array: an op in a plan plus the {@link Spec} it runs under. Nothing is computed
 * until {@link #compute()} (or {@link Cubed#compute}/{@link Cubed#toZarr}). Instance methods
 * forward to {@link Xp}. Chunks are regular (every chunk has the same shape except the clipped edge
 * ones).
 *
 * <p>Serializable as its plan, not its data: the op graph (whose nodes and task functions are
 * {@code Serializable} by design; stored inputs are referenced by their store) and the spec. An op
 * holding a value that is not {@code Serializable} (for example {@link Cubed#fromArray}'s in-memory
 * {@link NDArray}, or a captured non-serializable object) makes Java serialization throw {@link
 * java.io.NotSerializableException} naming that value's class, unless the stream replaces it (the
 * Python bridge replaces in-memory arrays by their contents).
 */
public final class CubedArray implements Serializable {
  private static final long serialVersionUID = 1L;

  private final ArrayNode node;
  private final Spec spec;

  CubedArray(ArrayNode node, Spec spec) {
    this.node = node;
    this.spec = spec;
  }

  ArrayNode node() {
    return node;
  }

  /** The spec this array computes under. */
  public Spec spec() {
    return spec;
  }

  /** The shape. */
  public long[] shape() {
    return node.shape();
  }

  /** The element type. */
  public DType dtype() {
    return node.dtype();
  }

  /**
   * The chunk shape: the regular chunk size (edge chunks clipped), or for irregular chunks (made by
   * concat, slicing or an explicit rechunk) the largest block along each axis.
   */
  public long[] chunkShape() {
    return node.chunks();
  }

  /**
   * The chunks in Dask form: for each axis, the size of every block along it. Regular chunks have
   * equal blocks except a smaller last one; operations such as {@code concat} and slicing with step
   * 1 or small steps produce irregular ones (each of their tasks reads exactly one input block).
   */
  public long[][] chunks() {
    long[][] r = new long[node.shape().length][];
    for (int i = 0; i < r.length; i++) {
      r[i] = node.chunkGrid().sizes(i);
    }
    return r;
  }

  /** Whether the chunks are regular (see {@link #chunks()}). */
  public boolean hasRegularChunks() {
    return node.isRegular();
  }

  /** Number of blocks along each axis. */
  public long[] numBlocks() {
    return node.numBlocks();
  }

  /** Number of dimensions. */
  public int ndim() {
    return node.shape().length;
  }

  /** Number of elements. */
  public long size() {
    return Shapes.size(node.shape());
  }

  /** Computes this array on the spec's executor and returns it in memory. */
  public NDArray compute() {
    return Cubed.compute(this).get(0);
  }

  /** Computes this array with options (executor, callbacks). */
  public NDArray compute(ComputeOptions options) {
    return Cubed.compute(options, this).get(0);
  }

  /** The plan summary (ops after fusion, tasks, projected memory per op, bytes to write). */
  public PlanSummary plan() {
    return Cubed.plan(List.of(this)).summary();
  }

  /** The plan as Graphviz DOT text. */
  public String dot() {
    return Cubed.plan(List.of(this)).dot();
  }

  /**
   * Writes the plan's picture: a {@code .svg} file is rendered by Graphviz {@code dot} when it is
   * installed (the DOT source kept beside it), otherwise, or for any other name, the DOT text is
   * written (see {@link dev.cubed.diagnostics.PlanPicture#write}).
   *
   * @return what was written
   */
  public PlanPicture.Result visualize(Path file) {
    return Diagnostics.visualize(Cubed.plan(List.of(this)), file);
  }

  /**
   * Basic indexing, NumPy's {@code x[...]}: integers, slices (any step), new axes and an ellipsis,
   * with the rules of {@link Xp#getItem}. {@code x.get(Index.at(0), Index.slice(5, -5),
   * Index.NEW_AXIS)} is {@code x[0, 5:-5, None]}. Lazy, as every operation.
   */
  public CubedArray get(Index... index) {
    return Xp.getItem(this, index);
  }

  /**
   * Basic indexing written as in NumPy between the brackets: {@code x.get("0, 5:-5, None")} is
   * {@code x[0, 5:-5, None]}, {@code x.get("..., ::-1")} reverses the last axis (the syntax of
   * {@link Index#parse}).
   *
   * @throws IllegalArgumentException for text that is not a basic index, naming the entry
   */
  public CubedArray get(String numpyIndex) {
    return Xp.getItem(this, Index.parse(numpyIndex));
  }

  /**
   * The slice {@code start:stop} along one axis, every other axis whole: {@code x.slice(1, 5, -5)}
   * is {@code x[:, 5:-5]}. Negative bounds and axes count from the end; bounds are clipped as in
   * Python.
   *
   * @throws IllegalArgumentException for an axis out of range
   */
  public CubedArray slice(int axis, long start, long stop) {
    return slice(axis, start, stop, 1);
  }

  /** The slice {@code start:stop:step} along one axis (see {@link #slice(int, long, long)}). */
  public CubedArray slice(int axis, long start, long stop, long step) {
    int nd = ndim();
    int a = axis < 0 ? axis + nd : axis;
    if (a < 0 || a >= nd) {
      throw new IllegalArgumentException(
          "slice: axis " + axis + " is out of range for an array of " + nd + " dimensions");
    }
    Index[] idx = new Index[a + 1];
    Arrays.fill(idx, Index.ALL);
    idx[a] = Index.slice(start, stop, step);
    return Xp.getItem(this, idx);
  }

  /** {@code this + other}. */
  public CubedArray add(CubedArray other) {
    return Xp.add(this, other);
  }

  /** {@code this - other}. */
  public CubedArray subtract(CubedArray other) {
    return Xp.subtract(this, other);
  }

  /** {@code this * other}. */
  public CubedArray multiply(CubedArray other) {
    return Xp.multiply(this, other);
  }

  /** {@code this / other}. */
  public CubedArray divide(CubedArray other) {
    return Xp.divide(this, other);
  }

  /**
   * {@code this + other}, other a Java scalar ({@link Boolean}, an integer type, {@link Float},
   * {@link Double}, {@link dev.cubed.nd.Complex}) with the scalar promotion rules of {@link Xp}, or
   * a CubedArray.
   */
  public CubedArray add(Object other) {
    return Xp.add(this, other);
  }

  /** {@code this - other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray subtract(Object other) {
    return Xp.subtract(this, other);
  }

  /** {@code this * other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray multiply(Object other) {
    return Xp.multiply(this, other);
  }

  /** {@code this / other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray divide(Object other) {
    return Xp.divide(this, other);
  }

  /** {@code this // other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray floorDivide(Object other) {
    return Xp.floorDivide(this, other);
  }

  /** {@code this % other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray remainder(Object other) {
    return Xp.remainder(this, other);
  }

  /** {@code this ** other} (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray pow(Object other) {
    return Xp.pow(this, other);
  }

  /** {@code this == other}, bool (other a scalar or a CubedArray; see {@link #add(Object)}). */
  public CubedArray equal(Object other) {
    return Xp.equal(this, other);
  }

  /** {@code this != other}, bool (other a scalar or a CubedArray). */
  public CubedArray notEqual(Object other) {
    return Xp.notEqual(this, other);
  }

  /** {@code this < other}, bool (other a scalar or a CubedArray). */
  public CubedArray less(Object other) {
    return Xp.less(this, other);
  }

  /** {@code this <= other}, bool (other a scalar or a CubedArray). */
  public CubedArray lessEqual(Object other) {
    return Xp.lessEqual(this, other);
  }

  /** {@code this > other}, bool (other a scalar or a CubedArray). */
  public CubedArray greater(Object other) {
    return Xp.greater(this, other);
  }

  /** {@code this >= other}, bool (other a scalar or a CubedArray). */
  public CubedArray greaterEqual(Object other) {
    return Xp.greaterEqual(this, other);
  }

  /** {@code this.T} for 2-D and {@code this.mT} in general: the last two axes swapped. */
  public CubedArray mT() {
    return Xp.matrixTranspose(this);
  }

  /** Sum over the given axes (all if none). */
  public CubedArray sum(int... axes) {
    return Xp.sum(this, axes);
  }

  /** Mean over the given axes (all if none). */
  public CubedArray mean(int... axes) {
    return Xp.mean(this, axes);
  }

  /** Max over the given axes (all if none). */
  public CubedArray max(int... axes) {
    return Xp.max(this, axes);
  }

  /** Min over the given axes (all if none). */
  public CubedArray min(int... axes) {
    return Xp.min(this, axes);
  }

  /** Sum over axes with keepdims ({@code x.sum(Axes.of(0).keepDims())}). */
  public CubedArray sum(Axes axes) {
    return Xp.sum(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Mean over axes with keepdims. */
  public CubedArray mean(Axes axes) {
    return Xp.mean(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Product over the given axes (all if none). */
  public CubedArray prod(int... axes) {
    return Xp.prod(this, axes);
  }

  /** Product over axes with keepdims. */
  public CubedArray prod(Axes axes) {
    return Xp.prod(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Max over axes with keepdims. */
  public CubedArray max(Axes axes) {
    return Xp.max(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Min over axes with keepdims. */
  public CubedArray min(Axes axes) {
    return Xp.min(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Logical AND over the given axes (all if none). */
  public CubedArray all(int... axes) {
    return Xp.all(this, axes);
  }

  /** Logical AND over axes with keepdims. */
  public CubedArray all(Axes axes) {
    return Xp.all(this, axes, XpReduce.AUTO_SPLIT);
  }

  /** Logical OR over the given axes (all if none). */
  public CubedArray any(int... axes) {
    return Xp.any(this, axes);
  }

  /** Logical OR over axes with keepdims. */
  public CubedArray any(Axes axes) {
    return Xp.any(this, axes, XpReduce.AUTO_SPLIT);
  }

  /**
   * Index of the maximum: one axis or all, with keepdims (see {@link Xp#argmax(CubedArray, Axes)}).
   */
  public CubedArray argmax(Axes axes) {
    return Xp.argmax(this, axes);
  }

  /**
   * Index of the minimum: one axis or all, with keepdims (see {@link Xp#argmin(CubedArray, Axes)}).
   */
  public CubedArray argmin(Axes axes) {
    return Xp.argmin(this, axes);
  }

  /** Rechunks to the given chunk shape (-1 = whole axis). */
  public CubedArray rechunk(long... chunks) {
    return Xp.rechunk(this, chunks);
  }

  /**
   * Rechunks to explicit block sizes per axis (Dask form; see {@link Xp#rechunk(CubedArray,
   * long[][])}).
   */
  public CubedArray rechunk(long[][] blockSizes) {
    return Xp.rechunk(this, blockSizes);
  }

  /** Converts the dtype. */
  public CubedArray astype(DType dtype) {
    return Xp.astype(this, dtype);
  }

  /** Sum over the given axes (all if none) with NaN counted as 0 ({@link Xp#nansum}). */
  public CubedArray nansum(int... axes) {
    return Xp.nansum(this, axes);
  }

  /** Mean of the non-NaN elements over the given axes (all if none; {@link Xp#nanmean}). */
  public CubedArray nanmean(int... axes) {
    return Xp.nanmean(this, axes);
  }

  /** Max of the non-NaN elements over the given axes (all if none; {@link Xp#nanmax}). */
  public CubedArray nanmax(int... axes) {
    return Xp.nanmax(this, axes);
  }

  /** Min of the non-NaN elements over the given axes (all if none; {@link Xp#nanmin}). */
  public CubedArray nanmin(int... axes) {
    return Xp.nanmin(this, axes);
  }

  @Override
  public String toString() {
    return "CubedArray<"
        + node.name()
        + " "
        + node.dtype()
        + " "
        + Shapes.format(node.shape())
        + " chunks="
        + Shapes.format(node.chunks())
        + ">";
  }
}
