package dev.cubed.plan.eval;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.PassThroughFunction;
import dev.cubed.zarr.codec.ZstdRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Tiled evaluation of a fused pointwise chain feeding a reduction's per-block state: instead of
 * computing whole blocks of the chain (e.g. {@code u * v}) and then reducing them, each block of
 * the reduction's input is cut into tiles of at most {@link
 * dev.cubed.plan.node.PlanConfig#tileBytes()} bytes per array (regions that cover the reduced axes
 * whole when that fits, so every state element is written by one tile; otherwise the reduced axes
 * are split too and the tiles' states merged); for each tile the chain runs on the tiles of its
 * leaves (the whole blocks of its sources, read once per block) and the tile's state is placed into
 * (or merged with) the block's state or a fold's accumulator. Only tiles of the chain's arrays
 * exist, and they stay in the CPU cache.
 *
 * <p>A chain qualifies when the reduction's function is a {@link TileReduction}, its input is a
 * fused {@link PointwiseFunction} op, and each pointwise op reads, in every probed task, block
 * {@code k} of inputs with its own shape and chunks, or the matching block of an input that
 * broadcasts to it ({@link #broadcasts}: a row {@code b[0, :]} beside {@code a}, a mean kept with
 * {@code keepdims} beside the array it came from). Inputs that do not qualify as ops of the chain
 * (sources, stored arrays, other fused ops, broadcast inputs) are the chain's leaves: their whole
 * blocks are held, as without tiling, and a broadcast leaf's tile is its block's region repeated
 * along the broadcast axes ({@link Chain#broadcastLeaf}), so no block-sized broadcast copy is made.
 * Anything else runs untiled.
 *
 * <p>This class finds and sizes a chain when the plan is made; {@link TiledEvaluation} runs it in a
 * task.
 */
public final class Tiles {
  private Tiles() {}

  /**
   * Decoded bytes per codec block of a stored leaf read by regions, for the memory model: the
   * default codec's block (256 KiB); a reader meeting larger blocks keeps fewer of them.
   */
  static final long REGION_BLOCK = 256L << 10;

  /**
   * A chain with a leaf decoded forward ({@link #streamed}) takes tiles in the chunk's C order when
   * a tile's state has at most 1/this of the tile's elements (e.g. {@code sum(a * row)}, or {@code
   * mean(a, 0)} over tiles of whole rows): each tile's state is merged into the block's, so a state
   * as large as its tile (a mean over the leading axis of tiles one step long) would add a pass per
   * element; such chains read their leaves' blocks whole.
   */
  static final long FORWARD_STATE_RATIO = 8;

  /**
   * Forward tiles of a reduction straight over a stored leaf or a concatenation of stored arrays
   * (no pointwise op between them) are this many times {@code tileBytes}: a tile is only converted
   * from the decoded slice and reduced, so a larger one cuts the per-tile work (state set-up and
   * merge) at little cost in locality. Not over a strided view of one ({@link
   * ArrayNode.ChunkViews}), whose tiles gather their rows: there larger tiles were slower
   * (slice_sum 1.21 -> 1.30 s).
   */
  static final long STRAIGHT_TILES = 4;

  /**
   * A tileable chain: the reduction, its fused pointwise ops (inputs first, the reduction's input
   * last), the leaves (distinct arrays whose whole blocks are read or computed), the input block
   * shape and the tile shape.
   */
  public record Chain(
      ArrayNode.Computed reduce,
      List<ArrayNode.Computed> nodes,
      List<ArrayNode> leaves,
      long[] blockShape,
      long[] tileShape) {
    ArrayNode.Computed top() {
      return nodes.get(nodes.size() - 1);
    }

    /** The reduction's input: the last pointwise op, or the stored leaf of a chain without ops. */
    String inputName() {
      return nodes.isEmpty() ? leaves.get(0).name() : top().name();
    }

    /**
     * True if {@code leaf} is read broadcast: not a value, and of another shape than the
     * reduction's input (fewer axes, or length 1 where the input has more). Its block is the one
     * {@link #broadcastKey} names, held whole; a tile repeats its region along the broadcast axes.
     */
    public boolean broadcastLeaf(ArrayNode leaf) {
      long[] in = nodes.isEmpty() ? leaves.get(0).shape() : top().shape();
      return !isValue(leaf) && !Arrays.equals(leaf.shape(), in);
    }

    /**
     * Decoded codec blocks a region read of stored leaf {@code leaf} keeps: two per row of a tile
     * (a row may span two blocks) and two more, at most the chunk's blocks, so that going through
     * the tiles in order decodes each block once.
     */
    int cacheBlocks(ArrayNode leaf) {
      long rows = 1;
      for (int d = 0; d + 1 < tileShape.length; d++) {
        rows *= tileShape[d];
      }
      long blocks = Math.max(1, (leaf.chunkBytes() + REGION_BLOCK - 1) / REGION_BLOCK);
      return (int) Math.min(blocks, 2 * rows + 2);
    }

    /**
     * True if the leaf's tiles are made without its whole block: a stored array read a few codec
     * blocks at a time ({@link dev.cubed.zarr.ZarrArray#readsRegions()}) when that holds less than
     * its block, or a generator that makes regions ({@link ArrayNode.RegionGenerator}).
     */
    public boolean regionLeaf(ArrayNode leaf) {
      if (leaf.shape().length == 0 || broadcastLeaf(leaf)) {
        return false; // a value or a broadcast block: held whole
      }
      if (TiledWrites.generatesRegions(leaf)) {
        return true;
      }
      if (streamed(leaf)) {
        // decoded forward: the tiles must come in the chunk's C order (forwardTileShape)
        return forward(tileShape, blockShape) && regionBytes(leaf) < leaf.chunkBytes();
      }
      return leaf instanceof ArrayNode.Stored st
          && st.array().readsRegions()
          && regionBytes(leaf) < leaf.chunkBytes();
    }

    /**
     * Bytes a region leaf holds instead of its block: the decoded blocks kept and one stored block
     * (read), or a generated tile.
     */
    public long regionBytes(ArrayNode leaf) {
      if (TiledWrites.generatesRegions(leaf)) {
        return Shapes.size(tileShape) * leaf.dtype().itemSize();
      }
      if (streamed(leaf)) {
        return ZstdRuns.HELD_BYTES;
      }
      return (cacheBlocks(leaf) + 1L) * REGION_BLOCK;
    }

    /** Tiles per block. */
    long tiles() {
      long n = 1;
      for (int d = 0; d < blockShape.length; d++) {
        n *= (blockShape[d] + tileShape[d] - 1) / tileShape[d];
      }
      return n;
    }

    /**
     * Bytes of one tile's arrays: a tile of every pointwise op and of every leaf (its copy), and
     * the tile's state. This replaces the chain's whole blocks in projected memory.
     */
    public long tileBytes() {
      long e = Shapes.size(tileShape);
      long b = 0;
      for (ArrayNode n : nodes) {
        b += e * n.dtype().itemSize();
      }
      for (ArrayNode n : leaves) {
        b += e * n.dtype().itemSize();
      }
      return b + stateElems(tileShape) * reduce.dtype().itemSize();
    }

    private long stateElems(long[] tile) {
      boolean[] red = ((TileReduction) reduce.op().function()).reducedAxes();
      long n = 1;
      for (int d = 0; d < tile.length; d++) {
        n *= red[d] ? 1 : tile[d];
      }
      long[] rc = reduce.chunks();
      for (int d = tile.length; d < rc.length; d++) {
        n *= rc[d];
      }
      return n;
    }
  }

  /**
   * The tileable chain of reduction {@code r}, or null. {@code rCoords} null: at plan time (probes
   * the first, middle and last task; the largest block); else for that block at run time. {@code
   * fused} says which computed arrays are computed inline (not stored).
   */
  public static Chain chain(
      ArrayNode.Computed r, Predicate<ArrayNode> fused, long tileBytes, long[] rCoords) {
    if (tileBytes <= 0
        || !(r.op().function() instanceof TileReduction tr)
        || r.inputs().size() != 1
        || !r.isRegular()) {
      return null;
    }
    ArrayNode x = r.inputs().get(0);
    // a fused pointwise chain, an in-memory array whose tiles are cut from it in place of a
    // block copy, or a stored bytes + zstd array decoded forward a tile at a time (a reduction
    // straight over a Blosc array is not tiled: reading it by regions made add's read-back sum
    // 0.79 -> 1.27 s, the tiles' state merges and row copies costing more than the whole chunk's
    // block-wise decode; a zstd chunk decoded whole goes through memory twice more than its tiles)
    if (!(x instanceof ArrayNode.Computed && fused.test(x)) && !held(x) && !streamed(x)) {
      return null;
    }
    int nd = x.shape().length;
    boolean[] red = tr.reducedAxes();
    long[] rc = r.chunks();
    if (red.length != nd || rc.length < nd || !x.isRegular()) {
      return null;
    }
    for (int d = 0; d < rc.length; d++) {
      if (d < nd ? rc[d] != (red[d] ? 1 : x.chunks()[d]) : r.numBlocks()[d] != 1) {
        return null;
      }
    }
    List<long[]> probes = rCoords != null ? List.of(rCoords) : probes(r.numBlocks());
    List<long[]> xProbes = new ArrayList<>();
    for (long[] c : probes) {
      List<BlockKeys> k = r.op().keys().keys(c.clone());
      long[] kx = Arrays.copyOf(c, nd);
      if (k.size() != 1
          || !(k.get(0) instanceof BlockKeys.One one)
          || !Arrays.equals(one.key(), kx)) {
        return null;
      }
      xProbes.add(kx);
    }
    Map<String, ArrayNode.Computed> nodes = new LinkedHashMap<>();
    Map<String, ArrayNode> leaves = new LinkedHashMap<>();
    if (x instanceof ArrayNode.Computed xc && !streamed(x)) {
      if (!pointwise(xc, xProbes, true)) {
        return null;
      }
      walk(xc, fused, xProbes, nodes, leaves, true);
    } else {
      leaves.put(x.name(), x); // an in-memory array, or one read from the store tile by tile
    }
    long[] block = rCoords != null ? x.blockShape(xProbes.get(0)) : x.chunks();
    if (Shapes.size(block) == 0) {
      return null;
    }
    int item = 1;
    for (ArrayNode n : nodes.values()) {
      item = Math.max(item, n.dtype().itemSize());
    }
    for (ArrayNode n : leaves.values()) {
      item = Math.max(item, n.dtype().itemSize());
    }
    long maxElems = Math.max(1, tileBytes / item);
    boolean streams = false;
    for (ArrayNode leaf : leaves.values()) {
      // a chunk smaller than a reader's slices and window is read whole (regionBytes)
      streams |=
          streamed(leaf)
              && Shapes.size(block) > maxElems
              && ZstdRuns.HELD_BYTES < leaf.chunkBytes();
    }
    long[] tile = tileShape(block, red, maxElems);
    if (streams) {
      // tiles in the chunk's C order when a tile's state is small beside the tile (it is merged
      // into the block's state tile after tile); else the usual tiles over whole leaf blocks
      boolean straight = nodes.isEmpty() && !(x instanceof ArrayNode.Virtual);
      long[] f = forwardTileShape(block, straight ? STRAIGHT_TILES * maxElems : maxElems);
      long stateElems = 1;
      for (int d = 0; d < nd; d++) {
        stateElems *= red[d] ? 1 : f[d];
      }
      if (stateElems * FORWARD_STATE_RATIO <= Shapes.size(f)) {
        tile = f;
      } else if (nodes.isEmpty() && !held(x) && !forward(tile, block)) {
        return null; // straight over a stored array read whole: not tiled
      }
    } else if (nodes.isEmpty() && !held(x)) {
      // straight over a stored array whose chunks are read whole: tiles would only copy the block
      return null;
    }
    return new Chain(r, List.copyOf(nodes.values()), List.copyOf(leaves.values()), block, tile);
  }

  static void walk(
      ArrayNode.Computed t,
      Predicate<ArrayNode> fused,
      List<long[]> probes,
      Map<String, ArrayNode.Computed> nodes,
      Map<String, ArrayNode> leaves) {
    walk(t, fused, probes, nodes, leaves, false);
  }

  /**
   * The chain's ops below {@code t} (inputs first) and its leaves; with {@code broadcast}, inputs
   * that broadcast to {@code t} are allowed ({@link #pointwise(ArrayNode.Computed, List, boolean)})
   * and are always leaves.
   */
  static void walk(
      ArrayNode.Computed t,
      Predicate<ArrayNode> fused,
      List<long[]> probes,
      Map<String, ArrayNode.Computed> nodes,
      Map<String, ArrayNode> leaves,
      boolean broadcast) {
    for (ArrayNode in : t.inputs()) {
      if (nodes.containsKey(in.name()) || leaves.containsKey(in.name())) {
        continue;
      }
      // a value (0-d) is a leaf whatever made it: its one block serves every tile; so is an
      // input that broadcasts to t (its tiles are cut with other keys)
      if (!isValue(in)
          && Arrays.equals(in.shape(), t.shape())
          && in instanceof ArrayNode.Computed c
          && fused.test(c)
          && pointwise(c, probes, broadcast)) {
        walk(c, fused, probes, nodes, leaves, broadcast);
      } else {
        leaves.put(in.name(), in);
      }
    }
    nodes.put(t.name(), t);
  }

  /**
   * True if {@code t}'s function is pointwise and, in each probed task, reads block {@code k} of
   * every input, each of {@code t}'s shape and chunks (so its tiles are cut at the same place), or
   * reads the one block of a 0-d input when the function takes values ({@link
   * PointwiseFunction#takesValues}).
   */
  static boolean pointwise(ArrayNode.Computed t, List<long[]> probes) {
    return pointwise(t, probes, false);
  }

  /**
   * {@link #pointwise(ArrayNode.Computed, List)}, and with {@code broadcast} also allowing inputs
   * that broadcast to {@code t} ({@link #broadcasts}) and are read at {@link #broadcastKey} in each
   * probed task.
   */
  static boolean pointwise(ArrayNode.Computed t, List<long[]> probes, boolean broadcast) {
    if (!(t.op().function() instanceof PointwiseFunction pf) || !t.isRegular()) {
      return false;
    }
    boolean values = pf.takesValues() && t.shape().length > 0;
    List<ArrayNode> ins = t.inputs();
    for (ArrayNode in : ins) {
      if (values && isValue(in)) {
        continue;
      }
      boolean same = Arrays.equals(in.shape(), t.shape()) && Arrays.equals(in.chunks(), t.chunks());
      if (!in.isRegular() || !(same || broadcast && broadcasts(in, t))) {
        return false;
      }
    }
    for (long[] c : probes) {
      List<BlockKeys> keys = t.op().keys().keys(c.clone());
      if (keys.size() != ins.size()) {
        return false;
      }
      for (int i = 0; i < keys.size(); i++) {
        ArrayNode in = ins.get(i);
        long[] want =
            values && isValue(in)
                ? new long[0]
                : Arrays.equals(in.shape(), t.shape()) ? c : broadcastKey(c, in.shape());
        if (!(keys.get(i) instanceof BlockKeys.One one) || !Arrays.equals(one.key(), want)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * True if {@code in} broadcasts to {@code t} block for block: not 0-d, of another shape, with at
   * most t's axes, aligned with t's trailing axes, each of length 1 (one block) or of t's length
   * and chunks there.
   */
  static boolean broadcasts(ArrayNode in, ArrayNode t) {
    long[] s = in.shape();
    long[] ts = t.shape();
    int off = ts.length - s.length;
    if (s.length == 0 || off < 0 || Arrays.equals(s, ts)) {
      return false;
    }
    for (int d = 0; d < s.length; d++) {
      boolean one = s[d] == 1 && in.chunks()[d] == 1;
      boolean same = s[d] == ts[off + d] && in.chunks()[d] == t.chunks()[off + d];
      if (!one && !same) {
        return false;
      }
    }
    return true;
  }

  /**
   * The block of an input of shape {@code shape} that broadcasts to block {@code coords} of an
   * array of {@code coords.length} axes: its trailing coordinates, 0 along axes of length 1.
   */
  static long[] broadcastKey(long[] coords, long[] shape) {
    int off = coords.length - shape.length;
    long[] k = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      k[d] = shape[d] == 1 ? 0 : coords[off + d];
    }
    return k;
  }

  /**
   * An in-memory array held in this JVM ({@link HeldBlocks}, not a worker's stand-in): a task cuts
   * its tiles from the held array without copying its block first (the memory model still counts
   * the block, as for a worker that reads it from the stored copy).
   */
  static boolean held(ArrayNode a) {
    return a instanceof ArrayNode.Virtual v
        && v.generator() instanceof HeldBlocks
        && a.shape().length > 0;
  }

  /** A 0-d array: a chain's leaf whose one block is every tile ({@link #pointwise}). */
  static boolean isValue(ArrayNode a) {
    return a.shape().length == 0;
  }

  static List<long[]> probes(long[] nb) {
    long total = Shapes.size(nb);
    List<long[]> l = new ArrayList<>();
    for (long f : total <= 3 ? new long[] {0, total - 1} : new long[] {0, total / 2, total - 1}) {
      if (f >= 0) {
        l.add(Shapes.unravel(nb, f));
      }
    }
    return l;
  }

  /**
   * The tile shape for a block: the block, with kept axes shrunk from the outermost inward until a
   * tile holds at most {@code maxElems} elements, then (if still too large) the reduced axes too.
   */
  static long[] tileShape(long[] block, boolean[] red, long maxElems) {
    long[] t = block.clone();
    for (int pass = 0; pass < 2; pass++) {
      for (int d = 0; d < t.length; d++) {
        if (red[d] != (pass == 1) || t[d] <= 1) {
          continue;
        }
        long size = Shapes.size(t);
        if (size <= maxElems) {
          return t;
        }
        t[d] = Math.max(1, maxElems / (size / t[d]));
      }
    }
    return t;
  }

  /**
   * The tile shape for a block whose tiles must come in the block's C order (a leaf decoded
   * forward, {@link #streamed}): the block, shrunk from the outermost axis inward until a tile
   * holds at most {@code maxElems} elements. Every axis after the first shrunk one is whole, so
   * each tile is one run of the block's rows and the tiles follow each other.
   */
  static long[] forwardTileShape(long[] block, long maxElems) {
    long[] t = block.clone();
    for (int d = 0; d < t.length; d++) {
      long size = Shapes.size(t);
      if (size <= maxElems) {
        return t;
      }
      t[d] = Math.max(1, maxElems / (size / t[d]));
    }
    return t;
  }

  /**
   * True if the tiles of {@code tile} over {@code block}, taken in C order of the tile grid, are
   * consecutive runs of the block's C order: length 1 on the axes before the last one the tile
   * cuts, whole after it.
   */
  static boolean forward(long[] tile, long[] block) {
    int j = -1;
    for (int d = 0; d < tile.length; d++) {
      if (tile[d] != block[d]) {
        j = d;
      }
    }
    for (int d = 0; d < j; d++) {
      if (tile[d] != 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * An array whose blocks are read from chunks decoded forward as a stream ({@code bytes} + zstd in
   * a local directory, {@link dev.cubed.zarr.ZarrArray#streamsRegions()}): such a stored array, a
   * slice or strided selection of one whose blocks each lie in one chunk ({@link
   * ArrayNode.ChunkViews}), or a concatenation of such stored arrays ({@link PassThroughFunction}).
   */
  static boolean streamed(ArrayNode a) {
    if (a.shape().length == 0) {
      return false;
    }
    if (a instanceof ArrayNode.Stored st) {
      return st.array().streamsRegions();
    }
    if (a instanceof ArrayNode.Virtual v && v.generator() instanceof ArrayNode.ChunkViews cv) {
      return cv.viewsChunks() && cv.viewedArray().streamsRegions();
    }
    if (a instanceof ArrayNode.Computed c && c.op().function() instanceof PassThroughFunction) {
      // a concatenation of stored arrays on its own chunks: each block is a stored chunk
      for (ArrayNode in : c.inputs()) {
        if (!(in instanceof ArrayNode.Stored st)
            || !st.array().streamsRegions()
            || in.dtype() != a.dtype()
            || !in.isRegular()
            || !Arrays.equals(in.chunks(), a.chunks())) {
          return false;
        }
      }
      return true;
    }
    return false;
  }
}
