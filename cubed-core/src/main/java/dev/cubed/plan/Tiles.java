package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.zarr.ChunkReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Tiled evaluation of a fused pointwise chain feeding a reduction's per-block state: instead of
 * computing whole blocks of the chain (e.g. {@code u * v}) and then reducing them, each block of
 * the reduction's input is cut into tiles of at most {@link PlanConfig#tileBytes()} bytes per array
 * (regions that cover the reduced axes whole when that fits, so every state element is written by
 * one tile; otherwise the reduced axes are split too and the tiles' states merged); for each tile
 * the chain runs on the tiles of its leaves (the whole blocks of its sources, read once per block)
 * and the tile's state is placed into (or merged with) the block's state or a fold's accumulator.
 * Only tiles of the chain's arrays exist, and they stay in the CPU cache.
 *
 * <p>A chain qualifies when the reduction's function is a {@link TileReduction}, its input is a
 * fused {@link PointwiseFunction} op, and each pointwise op reads, in every probed task, block
 * {@code k} of inputs with its own shape and chunks (no broadcasting). Inputs that do not qualify
 * (sources, stored arrays, other fused ops, broadcast inputs) are the chain's leaves: their whole
 * blocks are held, as without tiling. Anything else runs untiled, as before.
 */
final class Tiles {
  private Tiles() {}

  /**
   * Decoded bytes per codec block of a stored leaf read by regions, for the memory model: the
   * default codec's block (256 KiB); a reader meeting larger blocks keeps fewer of them.
   */
  static final long REGION_BLOCK = 256L << 10;

  /**
   * A tileable chain: the reduction, its fused pointwise ops (inputs first, the reduction's input
   * last), the leaves (distinct arrays whose whole blocks are read or computed), the input block
   * shape and the tile shape.
   */
  record Chain(
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
    boolean regionLeaf(ArrayNode leaf) {
      if (TiledWrites.generatesRegions(leaf)) {
        return true;
      }
      return leaf instanceof ArrayNode.Stored st
          && st.array().readsRegions()
          && regionBytes(leaf) < leaf.chunkBytes();
    }

    /**
     * Bytes a region leaf holds instead of its block: the decoded blocks kept and one stored block
     * (read), or a generated tile.
     */
    long regionBytes(ArrayNode leaf) {
      if (TiledWrites.generatesRegions(leaf)) {
        return Shapes.size(tileShape) * leaf.dtype().itemSize();
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
    long tileBytes() {
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
  static Chain chain(
      ArrayNode.Computed r, Predicate<ArrayNode> fused, long tileBytes, long[] rCoords) {
    if (tileBytes <= 0
        || !(r.op().function() instanceof TileReduction tr)
        || r.inputs().size() != 1
        || !r.isRegular()) {
      return null;
    }
    ArrayNode x = r.inputs().get(0);
    // a fused pointwise chain (a reduction straight over a stored array is not tiled: reading it
    // by regions made add's read-back sum 0.79 -> 1.27 s, the tiles' state merges and row copies
    // costing more than the whole chunk's decode)
    if (!(x instanceof ArrayNode.Computed && fused.test(x))) {
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
    if (x instanceof ArrayNode.Computed xc) {
      if (!pointwise(xc, xProbes)) {
        return null;
      }
      walk(xc, fused, xProbes, nodes, leaves);
    } else {
      leaves.put(x.name(), x);
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
    long[] tile = tileShape(block, red, Math.max(1, tileBytes / item));
    return new Chain(r, List.copyOf(nodes.values()), List.copyOf(leaves.values()), block, tile);
  }

  static void walk(
      ArrayNode.Computed t,
      Predicate<ArrayNode> fused,
      List<long[]> probes,
      Map<String, ArrayNode.Computed> nodes,
      Map<String, ArrayNode> leaves) {
    for (ArrayNode in : t.inputs()) {
      if (nodes.containsKey(in.name()) || leaves.containsKey(in.name())) {
        continue;
      }
      if (in instanceof ArrayNode.Computed c && fused.test(c) && pointwise(c, probes)) {
        walk(c, fused, probes, nodes, leaves);
      } else {
        leaves.put(in.name(), in);
      }
    }
    nodes.put(t.name(), t);
  }

  /**
   * True if {@code t}'s function is pointwise and, in each probed task, reads block {@code k} of
   * every input, each of {@code t}'s shape and chunks (so its tiles are cut at the same place).
   */
  static boolean pointwise(ArrayNode.Computed t, List<long[]> probes) {
    if (!(t.op().function() instanceof PointwiseFunction) || !t.isRegular()) {
      return false;
    }
    for (ArrayNode in : t.inputs()) {
      if (!in.isRegular()
          || !Arrays.equals(in.shape(), t.shape())
          || !Arrays.equals(in.chunks(), t.chunks())) {
        return false;
      }
    }
    for (long[] c : probes) {
      List<BlockKeys> keys = t.op().keys().keys(c.clone());
      if (keys.size() != t.inputs().size()) {
        return false;
      }
      for (BlockKeys k : keys) {
        if (!(k instanceof BlockKeys.One one) || !Arrays.equals(one.key(), c)) {
          return false;
        }
      }
    }
    return true;
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

  /** Block {@code rCoords} of the chain's reduction (its state), computed tile by tile. */
  static NDArray reduceBlock(Chain ch, Evaluator ev, long[] rCoords) throws Exception {
    NDArray state = NDArray.zeros(ch.reduce().dtype(), ch.reduce().blockShape(rCoords));
    try (Leaves leaves = new Leaves(ev, Arrays.copyOf(rCoords, ch.blockShape().length))) {
      Run run = new Run(ch, leaves, rCoords, state, true);
      Map<String, NDArray> tiles = new HashMap<>();
      forEachTile(
          ch,
          (start, shape) -> {
            tiles.clear();
            run.tile(start, shape, tiles);
          });
    }
    return state;
  }

  /**
   * Folds block {@code rCoords} of each chain's reduction into its accumulator tile by tile, the
   * chains of equal block and tile shapes together (each tile of a shared leaf or pointwise op is
   * cut or computed once for all of them). {@code fresh[i]}: accumulator {@code i} holds nothing
   * yet (its regions are set, not merged, by the first tile reaching them).
   */
  static void fold(
      List<Chain> chains, List<NDArray> accs, boolean[] fresh, Evaluator ev, long[] rCoords)
      throws Exception {
    Map<String, List<Run>> together = new LinkedHashMap<>();
    Map<String, Chain> first = new HashMap<>();
    try (Leaves leaves =
        new Leaves(ev, Arrays.copyOf(rCoords, chains.get(0).blockShape().length))) {
      for (int i = 0; i < chains.size(); i++) {
        Chain ch = chains.get(i);
        String k = Arrays.toString(ch.blockShape()) + Arrays.toString(ch.tileShape());
        together
            .computeIfAbsent(k, x -> new ArrayList<>())
            .add(new Run(ch, leaves, rCoords, accs.get(i), fresh[i]));
        first.putIfAbsent(k, ch);
      }
      for (Map.Entry<String, List<Run>> e : together.entrySet()) {
        Run[] runs = e.getValue().toArray(new Run[0]);
        Map<String, NDArray> tiles = new HashMap<>();
        forEachTile(
            first.get(e.getKey()),
            (start, shape) -> {
              tiles.clear();
              for (Run r : runs) {
                r.tile(start, shape, tiles);
              }
            });
      }
    }
  }

  /**
   * The leaves of the chains of one block, shared by them: whole blocks (read or computed once
   * through the evaluator) and region readers of stored leaves (one per leaf, keeping as many
   * decoded blocks as the chain needing most asks for), closed together.
   */
  private static final class Leaves implements AutoCloseable {
    private final Evaluator ev;
    private final long[] coords;
    private final Map<String, NDArray> whole = new HashMap<>();
    private final Map<String, ChunkReader> readers = new HashMap<>();

    Leaves(Evaluator ev, long[] coords) {
      this.ev = ev;
      this.coords = coords;
    }

    /** The leaf's whole block. */
    NDArray block(ArrayNode leaf) throws Exception {
      NDArray b = whole.get(leaf.name());
      if (b == null) {
        b = ev.block(leaf, coords.clone());
        whole.put(leaf.name(), b);
      }
      return b;
    }

    /** A region reader of stored leaf {@code leaf}, or null if its chunk must be read whole. */
    ChunkReader reader(ArrayNode.Stored leaf, int cacheBlocks) {
      if (readers.containsKey(leaf.name())) {
        return readers.get(leaf.name());
      }
      ChunkReader r = leaf.array().chunkReader(coords.clone(), cacheBlocks);
      readers.put(leaf.name(), r);
      return r;
    }

    @Override
    public void close() {
      for (ChunkReader r : readers.values()) {
        if (r != null) {
          r.close();
        }
      }
      readers.clear();
      whole.clear();
    }
  }

  private interface TileBody {
    /** One tile; {@code start} and {@code shape} are reused for the next tile: not kept. */
    void accept(long[] start, long[] shape) throws Exception;
  }

  /** The block's tiles in C order of the tile grid (two arrays for all of them). */
  private static void forEachTile(Chain ch, TileBody body) throws Exception {
    long[] block = ch.blockShape();
    long[] t = ch.tileShape();
    int nd = block.length;
    long total = 1;
    for (int d = 0; d < nd; d++) {
      total *= (block[d] + t[d] - 1) / t[d];
    }
    long[] start = new long[nd];
    long[] shape = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = Math.min(t[d], block[d]);
    }
    for (long f = 0; f < total; f++) {
      body.accept(start, shape);
      // the next tile: the last axis fastest
      for (int d = nd - 1; d >= 0; d--) {
        start[d] += t[d];
        if (start[d] < block[d]) {
          shape[d] = Math.min(t[d], block[d] - start[d]);
          break;
        }
        start[d] = 0;
        shape[d] = Math.min(t[d], block[d]);
      }
    }
  }

  /**
   * One chain over one block: its leaves' blocks, the target state, and a tile buffer per leaf and
   * pointwise op reused by every full-size tile (a pointwise op writes into its buffer when its
   * function can, {@link PointwiseFunction#applyTilesInto}).
   */
  private static final class Run {
    private final Chain ch;
    private final long[] rCoords;
    private final NDArray state;
    private final boolean fresh;
    private final boolean[] red;
    private final TileReduction tr;
    private final Map<String, NDArray> leafBlocks = new HashMap<>();
    private final Map<String, ChunkReader> leafReaders = new HashMap<>();
    private final Map<String, NDArray> buffers = new HashMap<>();
    private final long[] kx;

    /** The state region being merged (reused while tile states keep their shape). */
    private NDArray mergeBuffer;

    /** The last full-size tile's state, offered to the next tile's (placed before it is reused). */
    private NDArray stateBuffer;

    private final ArrayNode[] leafArray;
    private final ArrayNode.Computed[] nodeArray;

    /** Row index of {@link #readRows} (reused). */
    private final long[] rowIdx;

    Run(Chain ch, Leaves leaves, long[] rCoords, NDArray state, boolean fresh) throws Exception {
      this.ch = ch;
      this.rCoords = rCoords;
      this.state = state;
      this.fresh = fresh;
      this.tr = (TileReduction) ch.reduce().op().function();
      this.red = tr.reducedAxes();
      this.kx = Arrays.copyOf(rCoords, ch.blockShape().length);
      this.leafArray = ch.leaves().toArray(new ArrayNode[0]);
      this.nodeArray = ch.nodes().toArray(new ArrayNode.Computed[0]);
      this.rowIdx = new long[ch.blockShape().length];
      for (ArrayNode leaf : ch.leaves()) {
        if (ch.regionLeaf(leaf)) {
          if (leaf instanceof ArrayNode.Stored st) {
            ChunkReader r = leaves.reader(st, ch.cacheBlocks(leaf));
            if (r != null) {
              leafReaders.put(leaf.name(), r);
              continue;
            }
          } else {
            continue; // generated a tile at a time
          }
        }
        NDArray b = leaves.block(leaf);
        if (!Arrays.equals(b.shape(), ch.blockShape())) {
          throw new IllegalStateException(
              leaf.name()
                  + ": block "
                  + Arrays.toString(kx)
                  + " has"
                  + " shape "
                  + Shapes.format(b.shape())
                  + ", the tiled chain of "
                  + ch.reduce().name()
                  + " expects "
                  + Shapes.format(ch.blockShape()));
        }
        leafBlocks.put(leaf.name(), b);
      }
    }

    /** Computes the reduction input's tile at {@code start} and places its state. */
    void tile(long[] start, long[] shape, Map<String, NDArray> tiles) throws Exception {
      for (ArrayNode leaf : leafArray) {
        if (!tiles.containsKey(leaf.name())) {
          tiles.put(leaf.name(), cut(leaf, start, shape));
        }
      }
      for (ArrayNode.Computed n : nodeArray) {
        if (tiles.containsKey(n.name())) {
          continue;
        }
        NDArray[] in = new NDArray[n.inputs().size()];
        for (int i = 0; i < in.length; i++) {
          in[i] = tiles.get(n.inputs().get(i).name());
        }
        NDArray t =
            ((PointwiseFunction) n.op().function())
                .applyTilesInto(fullTile(shape) ? buffer(n, shape) : null, in);
        if (t.dtype() != n.dtype() || !Arrays.equals(t.shape(), shape)) {
          throw new IllegalStateException(
              n.name()
                  + ": a pointwise tile must be "
                  + n.dtype()
                  + " of shape "
                  + Shapes.format(shape)
                  + ", the function gave "
                  + t.dtype()
                  + " of shape "
                  + Shapes.format(t.shape()));
        }
        tiles.put(n.name(), t);
      }
      NDArray ts =
          tr.tileStateInto(stateBuffer, tiles.get(ch.inputName()), start.clone(), rCoords.clone());
      if (fullTile(shape)) {
        stateBuffer = ts;
      }
      long[] ss = state.shape();
      long[] at = new long[ss.length];
      boolean first = fresh;
      for (int d = 0; d < start.length; d++) {
        at[d] = red[d] ? 0 : start[d];
        first &= !red[d] || start[d] == 0;
      }
      if (first) {
        state.setRegion(at, ts);
      } else if (!tr.mergeInPlace(state, at, ts)) {
        NDArray cur =
            mergeBuffer == null || !Arrays.equals(mergeBuffer.shape(), ts.shape())
                ? NDArray.zeros(state.dtype(), ts.shape())
                : mergeBuffer;
        mergeBuffer = cur;
        int mult = state.dtype().isComplex() ? 2 : 1;
        NDArray.copyBox(
            state.data(), ss, at, cur.data(), ts.shape(), new long[ss.length], ts.shape(), mult);
        tr.merge(cur, ts);
        state.setRegion(at, cur);
      }
    }

    private boolean fullTile(long[] shape) {
      return Arrays.equals(shape, ch.tileShape());
    }

    /** The reused full-size tile buffer of array {@code a} (a leaf or a pointwise op). */
    private NDArray buffer(ArrayNode a, long[] shape) {
      NDArray buf = buffers.get(a.name());
      if (buf == null) {
        buf = NDArray.zeros(a.dtype(), shape);
        buffers.put(a.name(), buf);
      }
      return buf;
    }

    /**
     * The leaf's tile, copied into a buffer reused across full-size tiles (from its whole block, or
     * a row at a time from its region reader), or generated.
     */
    private NDArray cut(ArrayNode leaf, long[] start, long[] shape) {
      NDArray buf = fullTile(shape) ? buffer(leaf, shape) : NDArray.zeros(leaf.dtype(), shape);
      if (leaf instanceof ArrayNode.Virtual v && TiledWrites.generatesRegions(leaf)) {
        try {
          ((ArrayNode.RegionGenerator) v.generator())
              .regionInto(
                  kx.clone(),
                  ch.blockShape().clone(),
                  start.clone(),
                  shape.clone(),
                  leaf.dtype(),
                  buf.data(),
                  0);
        } catch (IllegalStateException e) {
          throw new IllegalStateException(leaf.name() + ": " + e.getMessage(), e);
        }
        return buf;
      }
      ChunkReader r = leafReaders.get(leaf.name());
      if (r != null) {
        readRows(r, ((ArrayNode.Stored) leaf).array().chunks(), start, shape, buf);
        return buf;
      }
      NDArray b = leafBlocks.get(leaf.name());
      NDArray.copyBox(
          b.data(),
          b.shape(),
          start,
          buf.data(),
          shape,
          new long[shape.length],
          shape,
          b.dtype().isComplex() ? 2 : 1);
      return buf;
    }

    /** The box {@code [start, start + shape)} of a stored chunk, read a row at a time. */
    private void readRows(ChunkReader r, long[] chunk, long[] start, long[] shape, NDArray buf) {
      int nd = shape.length;
      if (nd == 0) {
        r.read(0, 1, buf.data(), 0);
        return;
      }
      int rowLen = (int) shape[nd - 1];
      long n = 1;
      for (int d = 0; d < nd - 1; d++) {
        n *= shape[d];
      }
      long[] idx = rowIdx;
      System.arraycopy(start, 0, idx, 0, nd);
      for (long f = 0; f < n; f++) {
        r.read(Shapes.offset(chunk, idx), rowLen, buf.data(), (int) f * rowLen);
        // the next row: the second-to-last axis fastest
        for (int d = nd - 2; d >= 0; d--) {
          if (++idx[d] < start[d] + shape[d]) {
            break;
          }
          idx[d] = start[d];
        }
      }
    }
  }
}
