package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.PassThroughFunction;
import dev.cubed.zarr.ChunkReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a tileable chain ({@link Tiles.Chain}, found at plan time by {@link Tiles#chain}) inside a
 * task: each block of the reduction's input cut into tiles, the chain computed on the tiles of its
 * leaves, each tile's state placed into (or merged with) the block's state or a fold's accumulator.
 */
final class TiledEvaluation {
  private TiledEvaluation() {}

  static NDArray reduceBlock(Tiles.Chain ch, Evaluator ev, long[] rCoords) throws Exception {
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
      List<Tiles.Chain> chains, List<NDArray> accs, boolean[] fresh, Evaluator ev, long[] rCoords)
      throws Exception {
    Map<String, List<Run>> together = new LinkedHashMap<>();
    Map<String, Tiles.Chain> first = new HashMap<>();
    try (Leaves leaves =
        new Leaves(ev, Arrays.copyOf(rCoords, chains.get(0).blockShape().length))) {
      for (int i = 0; i < chains.size(); i++) {
        Tiles.Chain ch = chains.get(i);
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
    private final Map<String, Source> readers = new HashMap<>();

    Leaves(Evaluator ev, long[] coords) {
      this.ev = ev;
      this.coords = coords;
    }

    /**
     * The leaf's whole block: the one block of a 0-d leaf, the block a broadcast leaf gives this
     * block ({@link Tiles#broadcastKey}), else the block at the same coordinates.
     */
    NDArray block(ArrayNode leaf, boolean broadcast) throws Exception {
      // a leaf some chain of the block reads broadcast and another one whole: two blocks
      String id = broadcast ? leaf.name() + "#broadcast" : leaf.name();
      NDArray b = whole.get(id);
      if (b == null) {
        long[] k =
            Tiles.isValue(leaf)
                ? new long[0]
                : broadcast ? Tiles.broadcastKey(coords, leaf.shape()) : coords.clone();
        b = ev.block(leaf, k);
        whole.put(id, b);
      }
      return b;
    }

    /**
     * A region reader of the chunk holding this block of leaf {@code leaf} (a stored array, a view
     * of one, or a concatenation of stored arrays: {@link Tiles#streamed}), or null if the block
     * must be read whole.
     */
    Source reader(ArrayNode leaf, int cacheBlocks) throws Exception {
      if (readers.containsKey(leaf.name())) {
        return readers.get(leaf.name());
      }
      ArrayNode.ChunkView v = view(leaf);
      ChunkReader r = v == null ? null : v.array().chunkReader(v.chunk(), cacheBlocks);
      Source src = r == null ? null : new Source(r, v.array().chunks(), v.lo(), v.step());
      readers.put(leaf.name(), src);
      return src;
    }

    private ArrayNode.ChunkView view(ArrayNode leaf) {
      if (leaf instanceof ArrayNode.Stored st) {
        return wholeChunk(st, coords.clone());
      }
      if (leaf instanceof ArrayNode.Virtual v && v.generator() instanceof ArrayNode.ChunkViews cv) {
        return cv.viewsChunks() ? cv.view(coords.clone()) : null;
      }
      if (leaf instanceof ArrayNode.Computed c
          && c.op().function() instanceof PassThroughFunction pt) {
        int i = pt.source(coords.clone());
        if (c.inputs().get(i) instanceof ArrayNode.Stored st
            && c.op().keys().keys(coords.clone()).get(i) instanceof BlockKeys.One one) {
          return wholeChunk(st, one.key());
        }
      }
      return null;
    }

    /** Chunk {@code key} of {@code st} as it is: from its origin, every element. */
    private static ArrayNode.ChunkView wholeChunk(ArrayNode.Stored st, long[] key) {
      long[] one = new long[key.length];
      Arrays.fill(one, 1);
      return new ArrayNode.ChunkView(st.array(), key, new long[key.length], one);
    }

    @Override
    public void close() {
      for (Source r : readers.values()) {
        if (r != null) {
          r.reader().close();
        }
      }
      readers.clear();
      whole.clear();
    }
  }

  /**
   * A leaf block read from its chunk: element {@code i} of the block is element {@code lo + i *
   * step} of the chunk (of shape {@code chunk}) that {@code reader} reads.
   */
  private record Source(ChunkReader reader, long[] chunk, long[] lo, long[] step) {}

  private interface TileBody {
    /** One tile; {@code start} and {@code shape} are reused for the next tile: not kept. */
    void accept(long[] start, long[] shape) throws Exception;
  }

  /** The block's tiles in C order of the tile grid (two arrays for all of them). */
  private static void forEachTile(Tiles.Chain ch, TileBody body) throws Exception {
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
    private final Tiles.Chain ch;
    private final long[] rCoords;
    private final NDArray state;
    private final boolean fresh;
    private final boolean[] red;
    private final TileReduction tr;
    private final Map<String, NDArray> leafBlocks = new HashMap<>();
    private final Map<String, Source> leafReaders = new HashMap<>();
    private final Map<String, HeldBlocks> heldLeaves = new HashMap<>();
    private final Set<String> broadcastLeaves = new HashSet<>();
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

    Run(Tiles.Chain ch, Leaves leaves, long[] rCoords, NDArray state, boolean fresh)
        throws Exception {
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
          if (!TiledWrites.generatesRegions(leaf)) {
            Source r = leaves.reader(leaf, ch.cacheBlocks(leaf));
            if (r != null) {
              leafReaders.put(leaf.name(), r);
              continue;
            }
          } else {
            continue; // generated a tile at a time
          }
        }
        boolean broadcast = ch.broadcastLeaf(leaf);
        if (broadcast) {
          broadcastLeaves.add(leaf.name());
        } else if (Tiles.held(leaf)) {
          heldLeaves.put(leaf.name(), (HeldBlocks) ((ArrayNode.Virtual) leaf).generator());
          continue; // tiles cut from the held array itself
        }
        NDArray b = leaves.block(leaf, broadcast);
        long[] want = broadcast ? broadcastBlock(leaf.shape()) : ch.blockShape();
        if (!Tiles.isValue(leaf) && !Arrays.equals(b.shape(), want)) {
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
                  + Shapes.format(want));
        }
        leafBlocks.put(leaf.name(), b);
      }
    }

    /** The block shape of a leaf of {@code shape} broadcast to this chain's block. */
    private long[] broadcastBlock(long[] shape) {
      long[] block = ch.blockShape();
      int off = block.length - shape.length;
      long[] r = new long[shape.length];
      for (int d = 0; d < shape.length; d++) {
        r[d] = shape[d] == 1 ? 1 : block[off + d];
      }
      return r;
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
      if (Tiles.isValue(leaf)) {
        return leafBlocks.get(leaf.name()); // a value: the same 0-d block for every tile
      }
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
      HeldBlocks h = heldLeaves.get(leaf.name());
      if (h != null) {
        h.copyBoxInto(kx, start, shape, buf.data());
        return buf;
      }
      Source r = leafReaders.get(leaf.name());
      if (r != null) {
        readRows(r, start, shape, buf);
        return buf;
      }
      NDArray b = leafBlocks.get(leaf.name());
      if (broadcastLeaves.contains(leaf.name())) {
        NDArray.broadcastBox(
            b.data(), b.shape(), start, buf.data(), shape, b.dtype().isComplex() ? 2 : 1);
        return buf;
      }
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

    /**
     * The box {@code [start, start + shape)} of a leaf block read from its chunk a row at a time
     * (rows in increasing order: a chunk decoded forward reads each once).
     */
    private void readRows(Source src, long[] start, long[] shape, NDArray buf) {
      int nd = shape.length;
      ChunkReader r = src.reader();
      if (nd == 0) {
        r.read(0, 1, buf.data(), 0);
        return;
      }
      long[] cs = Shapes.strides(src.chunk());
      long[] lo = src.lo();
      long[] step = src.step();
      int rowLen = (int) shape[nd - 1];
      long n = 1;
      for (int d = 0; d < nd - 1; d++) {
        n *= shape[d];
      }
      long[] idx = rowIdx;
      System.arraycopy(start, 0, idx, 0, nd);
      for (long f = 0; f < n; f++) {
        long off = 0;
        for (int d = 0; d < nd; d++) {
          off += (lo[d] + idx[d] * step[d]) * cs[d];
        }
        r.read(off, rowLen, buf.data(), (int) f * rowLen);
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
