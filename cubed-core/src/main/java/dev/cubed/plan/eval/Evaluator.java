package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.zarr.ChunkReader;
import dev.cubed.zarr.ZarrArray;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Computes blocks of nodes inside a task, reading stored arrays and computing fused ones inline.
 */
public final class Evaluator implements Serializable {
  private static final long serialVersionUID = 1L;
  private final Map<String, ZarrArray> stored;

  /** Source blocks (virtual or stored inputs) read in this task, by name and key; or null. */
  private final transient Map<String, NDArray> sourceCache;

  /** Whether computed blocks are kept too ({@link #inMemory()}). */
  private final boolean cacheAll;

  /** Whether the blocks of virtual and stored inputs are kept ({@link #forTask()}). */
  private final boolean cacheSources;

  /**
   * Computed (fused) arrays whose blocks this task keeps once computed ({@link #forTask(boolean,
   * Set)}): each is read by several paths of the task's fused ops, so it is computed once.
   */
  private final Set<String> shared;

  /** Bytes per array tile of tiled pointwise-to-reduction chains ({@link Tiles}); 0: off. */
  private final long tileBytes;

  public Evaluator(Map<String, ZarrArray> stored) {
    this(stored, 0);
  }

  /** An evaluator with tiled chains of {@code tileBytes} per array tile (0: untiled). */
  public Evaluator(Map<String, ZarrArray> stored, long tileBytes) {
    this(stored, null, false, true, Set.of(), tileBytes);
  }

  private Evaluator(
      Map<String, ZarrArray> stored,
      Map<String, NDArray> sourceCache,
      boolean cacheAll,
      boolean cacheSources,
      Set<String> shared,
      long tileBytes) {
    this.stored = stored;
    this.sourceCache = sourceCache;
    this.cacheAll = cacheAll;
    this.cacheSources = cacheSources;
    this.shared = shared;
    this.tileBytes = tileBytes;
  }

  /** True if {@code n} is computed inline in this evaluator's tasks (not stored). */
  public boolean fused(ArrayNode n) {
    return n instanceof ArrayNode.Computed && !stored.containsKey(n.name());
  }

  public long tileBytes() {
    return tileBytes;
  }

  /**
   * An evaluator for one task of a multi-output op ({@link MultiOutput}), or of an op whose fused
   * paths read a source block more than once ({@link dev.cubed.plan.Plan#cachedSources}): it keeps
   * every block of a virtual or stored input it reads, so the task reads or generates each such
   * block once.
   */
  public Evaluator forTask() {
    return forTask(true, Set.of());
  }

  /**
   * An evaluator for one task: it keeps the blocks of virtual and stored inputs it reads if {@code
   * sources} (as {@link #forTask()}), and the blocks it computes of the fused arrays named in
   * {@code shared} (arrays that several paths of the task's fused ops read at the same block, see
   * {@link dev.cubed.plan.Plan#sharedBlocks}), so each such block is computed once per task. With
   * neither, this evaluator itself.
   */
  public Evaluator forTask(boolean sources, Set<String> shared) {
    if (!sources && shared.isEmpty()) {
      return this;
    }
    return new Evaluator(stored, new HashMap<>(), false, sources, Set.copyOf(shared), tileBytes);
  }

  /**
   * An evaluator of a whole tiny plan in memory (no stored intermediates): it keeps every block it
   * reads or computes, so a node feeding several others is computed once.
   */
  public static Evaluator inMemory() {
    return new Evaluator(Map.of(), new HashMap<>(), true, true, Set.of(), 0);
  }

  /** The block of {@code node} at {@code coords}, read if stored, computed otherwise. */
  public NDArray block(ArrayNode node, long[] coords) throws Exception {
    if (sourceCache != null
        && (cacheAll
            || cacheSources
                && (node instanceof ArrayNode.Virtual || node instanceof ArrayNode.Stored)
            || shared.contains(node.name()))) {
      String k = node.name() + Arrays.toString(coords);
      NDArray b = sourceCache.get(k);
      if (b == null) {
        b = uncached(node, coords);
        sourceCache.put(k, b);
      }
      return b;
    }
    return uncached(node, coords);
  }

  /**
   * True if {@link #args} of {@code c} gives blocks made for that call alone: every input is stored
   * (a stored array or a materialized one, each block read afresh), none is given twice, and this
   * evaluator caches no blocks.
   */
  boolean freshArgs(ArrayNode.Computed c) {
    if (sourceCache != null) {
      return false;
    }
    Set<String> seen = new HashSet<>();
    for (ArrayNode in : c.inputs()) {
      if (!(in instanceof ArrayNode.Stored) && !stored.containsKey(in.name())
          || !seen.add(in.name())) {
        return false; // an input given twice may be one block passed twice
      }
    }
    return true;
  }

  private NDArray uncached(ArrayNode node, long[] coords) throws Exception {
    ZarrArray z = stored.get(node.name());
    if (z != null) {
      NDArray c = z.readChunk(coords);
      return node.isRegular() ? c : unpad(c, node.blockShape(coords));
    }
    return compute(node, coords);
  }

  /**
   * An irregular array is stored in a padded layout: block (i, j, ...) fills the start of Zarr
   * chunk (i, j, ...) of an array whose chunks are the largest block per axis. This reads a block
   * back.
   */
  static NDArray unpad(NDArray chunk, long[] blockShape) {
    return Arrays.equals(chunk.shape(), blockShape)
        ? chunk
        : chunk.getRegion(new long[blockShape.length], blockShape);
  }

  /** The padded Zarr chunk of an irregular array's block (see {@link #unpad}). */
  public static NDArray pad(NDArray block, long[] chunkShape) {
    if (Arrays.equals(block.shape(), chunkShape)) {
      return block;
    }
    NDArray c = NDArray.zeros(block.dtype(), chunkShape);
    c.setRegion(new long[chunkShape.length], block);
    return c;
  }

  /** Computes the block (never reads the node's own storage). */
  public NDArray compute(ArrayNode node, long[] coords) throws Exception {
    if (node instanceof ArrayNode.Stored s) {
      return s.array().readChunk(coords);
    }
    if (node instanceof ArrayNode.Virtual v) {
      return check(node, coords, v.generator().generate(coords.clone(), node.blockShape(coords)));
    }
    if (node instanceof ArrayNode.Computed c) {
      Tiles.Chain ch = tiledChain(c, coords);
      if (ch != null) {
        return check(node, coords, TiledEvaluation.reduceBlock(ch, this, coords));
      }
      if (c.op().function() instanceof ChainFunction cf) {
        return ChainWalks.walkTo(c, cf, this, coords);
      }
      return check(node, coords, c.op().function().apply(args(c, coords), coords.clone()));
    }
    throw new IllegalStateException(
        node.name()
            + " is not stored: rechunked arrays must be "
            + "materialized before they are read");
  }

  /**
   * The arguments of {@code c}'s block function for block {@code coords} (see {@link BlockKeys}).
   */
  List<Object> args(ArrayNode.Computed c, long[] coords) throws Exception {
    return args(c, coords, null);
  }

  /**
   * {@link #args}, where {@code spare} (not null) offers arrays no longer used: a full block of a
   * stored input is decoded into one of them when its dtype and shape fit and the input's chunks
   * are read through a {@link ChunkReader} (a local directory with a codec that decodes regions or
   * forward), else read as usual. Only for {@link #freshArgs} ops: each block is this call's alone.
   */
  List<Object> args(ArrayNode.Computed c, long[] coords, Queue<NDArray> spare) throws Exception {
    List<BlockKeys> keys = c.op().keys().keys(coords.clone());
    List<ArrayNode> ins = c.inputs();
    if (keys.size() != ins.size()) {
      throw new IllegalStateException(
          c.name()
              + ": key function gave "
              + keys.size()
              + " entries for "
              + ins.size()
              + " inputs");
    }
    List<Object> args = new ArrayList<>(ins.size());
    for (int i = 0; i < ins.size(); i++) {
      ArrayNode in = ins.get(i);
      BlockKeys k = keys.get(i);
      if (k instanceof BlockKeys.One one) {
        NDArray same = sameBlockAsEarlierArg(ins, keys, args, i);
        NDArray into = same == null && spare != null ? readInto(in, one.key(), spare) : null;
        args.add(same != null ? same : into != null ? into : block(in, one.key()));
      } else if (k instanceof BlockKeys.Many many) {
        List<NDArray> l = new ArrayList<>();
        for (long[] kk : many.keys()) {
          l.add(block(in, kk));
        }
        args.add(l);
      } else {
        Iterator<long[]> it = ((BlockKeys.Stream) k).keys().iterator();
        Queue<NDArray> streamSpare = new ConcurrentLinkedQueue<>(); // this stream's alone
        args.add(
            new Iterator<NDArray>() {
              @Override
              public boolean hasNext() {
                return it.hasNext();
              }

              @Override
              public NDArray next() {
                try {
                  return streamedBlock(in, it.next(), streamSpare);
                } catch (RuntimeException e) {
                  throw e;
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }
            });
      }
    }
    return args;
  }

  /**
   * Block {@code key} of {@code in} for a stream of blocks folded one at a time: as {@link #block},
   * except for the first round of a reduction over stored blocks computed whole (a {@link
   * TileReduction} whose input is read afresh, not tiled, not kept), whose stored block is decoded
   * into the array of the stream's previous one ({@code spare}): a fold over many chunks makes one
   * chunk-sized array, not one per chunk.
   */
  private NDArray streamedBlock(ArrayNode in, long[] key, Queue<NDArray> spare) throws Exception {
    if (!(in instanceof ArrayNode.Computed c)
        || !(c.op().function() instanceof TileReduction tr)
        || sourceCache != null
        || stored.containsKey(in.name())
        || !freshArgs(c)) {
      return block(in, key); // read if stored, computed (or taken from the cache) otherwise
    }
    Tiles.Chain ch = tiledChain(c, key);
    if (ch != null) {
      return check(c, key, TiledEvaluation.reduceBlock(ch, this, key));
    }
    List<Object> a = args(c, key, spare);
    NDArray out = check(c, key, tr.apply(a, key.clone()));
    for (Object o : a) {
      if (o instanceof NDArray b && b != out && spare.isEmpty()) {
        spare.offer(b); // the state shares nothing with its input (TileReduction#apply)
      }
    }
    return out;
  }

  /** The tiled chain computing block {@code coords} of a reduction's first round, or null. */
  private Tiles.Chain tiledChain(ArrayNode.Computed c, long[] coords) {
    return tileBytes > 0 && c.op().function() instanceof TileReduction
        ? Tiles.chain(c, this::fused, tileBytes, coords)
        : null;
  }

  /**
   * Block {@code key} of stored input {@code in} decoded into an array taken from {@code spare}, or
   * null where that cannot be done (a spare array taken that does not fit is dropped).
   */
  private NDArray readInto(ArrayNode in, long[] key, Queue<NDArray> spare) {
    ZarrArray z = wholeChunkArray(in, key);
    if (z == null) {
      return null;
    }
    NDArray a = spare.poll(); // one that does not fit is dropped
    if (a == null || a.dtype() != in.dtype() || !Arrays.equals(a.shape(), z.chunks())) {
      return null;
    }
    try (ChunkReader r = z.chunkReader(key.clone(), 0)) {
      if (r == null) {
        return null;
      }
      r.read(0, a.size(), a.data(), 0);
    }
    return a;
  }

  /**
   * A reader of the chunk that is block {@code key} of stored node {@code in} (a stored array or a
   * materialized one), reading runs of it in increasing order ({@link ChunkReader}), or null where
   * the block is not a whole chunk or the array's chunks are read whole. The caller closes it.
   */
  ChunkReader chunkReader(ArrayNode in, long[] key) {
    ZarrArray z = wholeChunkArray(in, key);
    return z == null ? null : z.chunkReader(key.clone(), 0);
  }

  /**
   * The array storing {@code in} where its block {@code key} is a whole chunk of it, read through a
   * chunk reader ({@link ZarrArray#readsRegions()} or {@link ZarrArray#streamsRegions()}); else
   * null.
   */
  private ZarrArray wholeChunkArray(ArrayNode in, long[] key) {
    ZarrArray z = stored.get(in.name());
    if (z == null && in instanceof ArrayNode.Stored st) {
      z = st.array();
    }
    if (z == null
        || z.dtype() != in.dtype()
        || !Arrays.equals(in.blockShape(key), z.chunks())
        || !(z.readsRegions() || z.streamsRegions())) {
      return null;
    }
    return z;
  }

  /**
   * The block already passed as an earlier argument when input {@code i} is the same node read at
   * the same single key (e.g. {@code x * x}): it is read or computed once, not twice. Block
   * functions never modify their arguments, so sharing is safe.
   */
  private static NDArray sameBlockAsEarlierArg(
      List<ArrayNode> ins, List<BlockKeys> keys, List<Object> args, int i) {
    long[] key = ((BlockKeys.One) keys.get(i)).key();
    for (int j = 0; j < i; j++) {
      if (ins.get(j) == ins.get(i)
          && keys.get(j) instanceof BlockKeys.One o
          && Arrays.equals(o.key(), key)) {
        return (NDArray) args.get(j);
      }
    }
    return null;
  }

  static NDArray check(ArrayNode node, long[] coords, NDArray out) {
    long[] expect = node.blockShape(coords);
    if (out.dtype() != node.dtype() || !Arrays.equals(out.shape(), expect)) {
      throw new IllegalStateException(
          node.name()
              + ": block "
              + Arrays.toString(coords)
              + " must be "
              + node.dtype()
              + " of shape "
              + Shapes.format(expect)
              + ", the function gave "
              + out.dtype()
              + " of shape "
              + Shapes.format(out.shape()));
    }
    return out;
  }
}
