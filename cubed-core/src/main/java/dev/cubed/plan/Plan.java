package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.durable.StoreCopies;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainRereads;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.FoldGroups;
import dev.cubed.plan.eval.MultiOutput;
import dev.cubed.plan.eval.PointwiseFunction;
import dev.cubed.plan.eval.TiledWrites;
import dev.cubed.plan.eval.Tiles;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.NodeDigest;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.GatherFunction;
import dev.cubed.primitive.HaloFunction;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A finalized plan for computing some arrays: the DAG in topological order, which computed arrays
 * are stored (the rest are fused into their consumer's tasks), each op's projected memory, and the
 * run. Build with {@link #of}; {@link #summary()} and {@link #dot()} describe it without running,
 * {@link #execute} checks memory first and then runs it.
 *
 * <p>Fusion: a computed array is stored when it is an output, has a user target, feeds a rechunk,
 * feeds a join of whole blocks ({@link #JOIN_OP}) while some op it fuses is not {@code cheapWork}
 * (a join task would run that work for each of its blocks in turn, not in parallel tasks), or has
 * more than one consumer (unless it is a cheap elementwise-like chain over virtual or stored
 * arrays, which each consumer recomputes), or when fusing it would break a limit: its consumer's
 * task would read more than {@code maxInputBlocks} blocks (or than the input's own task reads, when
 * the consumer reads one block of it per task, or without limit for a join) or {@code
 * maxSourceArrays} stored arrays, exceed allowedMem, or read one of its blocks more than once over
 * all tasks (unless the consumer is a {@link HaloFunction} op and the array a cheap chain,
 * recomputed for the halo). Elementwise-like here includes halo ops. Everything else is computed
 * inline (map fusion for chains, multiple-input fusion for several predecessors). A task whose
 * fused paths read a source block more than once keeps the source blocks it reads (counted once
 * against {@code maxInputBlocks}, their memory added to the task's).
 */
public final class Plan {
  final List<ArrayNode> outputs;
  final PlanConfig cfg;
  final List<ArrayNode> topo = new ArrayList<>();
  private final Map<String, Integer> consumers = new HashMap<>();

  /** Chunk bytes of each array of the plan, by name. */
  private final Map<String, Long> nodes = new HashMap<>();

  /**
   * The name of a blockwise op that joins whole blocks of its one input into larger blocks, each
   * input block read by one task only: the input's ops fuse into it whatever the number of blocks a
   * task reads (see {@code blockLimit}) when they are all cheap work ({@code cheapWork}); else the
   * input is stored, so that its blocks stay parallel tasks instead of running one after another in
   * the join's task.
   */
  public static final String JOIN_OP = "rechunk-join";

  final Set<String> materialized = new HashSet<>();
  final Map<String, List<long[]>> rechunkChains = new HashMap<>();

  /** Materialized ops whose blocks are written a run at a time ({@link #writeChain}), by name. */
  final Set<String> streamedWrites = new HashSet<>();

  private final List<PlanSummary.OpInfo> infos = new ArrayList<>();

  /** Multi-output ops, by member name ({@link MultiOutput}). */
  final Map<String, MultiOutput.Group> groupOf = new HashMap<>();

  /**
   * Bytes per array tile of tiled pointwise-to-reduction chains ({@link Tiles}; {@link
   * PlanConfig#tileBytes()}, 0: off), carried to the plan's tasks.
   */
  final long tileBytes;

  /**
   * What computing a block of an array inline costs: memory, block reads (each path through the
   * fused ops counted), the stored arrays read, the fused arrays, and the virtual or stored source
   * blocks read per task by name, each source's count the most any one path reads of it (paths
   * through elementwise-aligned ops read the same blocks).
   */
  private record Cost(
      long mem,
      long blocks,
      Set<String> sources,
      List<String> fused,
      Map<String, Long> leaves,
      long otherReads,
      boolean holdsAll,
      boolean halo) {

    /**
     * Distinct blocks a task reads when it keeps the source blocks it reads ({@link
     * dev.cubed.plan.eval.Evaluator#forTask}): each source's blocks once, reads of stored
     * intermediates each time.
     */
    long distinct() {
      long d = otherReads;
      for (long v : leaves.values()) {
        d += v;
      }
      return d;
    }
  }

  /** Ops whose tasks keep the source blocks they read, by name ({@link #cachesSources}). */
  final Set<String> cachedSources = new HashSet<>();

  private Plan(List<ArrayNode> outputs, PlanConfig cfg) {
    this.outputs = List.copyOf(outputs);
    Map<String, ArrayNode> seen = new HashMap<>();
    for (ArrayNode o : outputs) {
      visit(o, seen);
    }
    this.cfg = StoreCopies.apply(cfg, topo);
    this.tileBytes = this.cfg.tileBytes();
    for (ArrayNode n : topo) {
      nodes.put(n.name(), n.chunkBytes());
      for (ArrayNode in : new LinkedHashSet<>(n.inputs())) {
        consumers.merge(in.name(), 1, Integer::sum);
      }
    }
    decideFusion();
    Set<String> folded = new HashSet<>();
    List<MultiOutput.Group> groups =
        new ArrayList<>(
            this.cfg.foldGroups()
                ? FoldGroups.findFolds(
                    topo, materialized, this::isOutput, this.cfg, folded, tileBytes)
                : List.of());
    groups.addAll(
        MultiOutput.find(
            topo, consumers, materialized, this::isOutput, this.cfg, folded, tileBytes));
    for (MultiOutput.Group g : groups) {
      g.members().forEach(m -> groupOf.put(m.name(), g));
    }
    describe();
  }

  /**
   * Finalizes a plan for the given output arrays. The configuration's read and write copies are
   * raised to the largest {@link dev.cubed.zarr.store.Store#bufferCopies()} of the stores the plan
   * reads and writes, its work directory's included (2 when any is an object store such as S3).
   */
  public static Plan of(List<ArrayNode> outputs, PlanConfig cfg) {
    return new Plan(outputs, cfg);
  }

  private void visit(ArrayNode n, Map<String, ArrayNode> seen) {
    ArrayNode prev = seen.putIfAbsent(n.name(), n);
    if (prev != null) {
      if (!prev.digest().equals(n.digest())) {
        throw new IllegalStateException(
            "two different arrays share the name "
                + n.name()
                + " (digests "
                + prev.digest()
                + " and "
                + n.digest()
                + "): a collision of the first"
                + " 48 bits of their content digests; change either array slightly (e.g. its chunks)");
      }
      return;
    }
    for (ArrayNode in : n.inputs()) {
      visit(in, seen);
    }
    topo.add(n);
  }

  private boolean isOutput(ArrayNode n) {
    return outputs.stream().anyMatch(o -> o.name().equals(n.name()));
  }

  private void decideFusion() {
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Computed c) {
        if (isOutput(c)
            || c.target() != null
            || isChain(c)
            || (consumers.getOrDefault(c.name(), 0) > 1 && !shareable(c))) {
          materialized.add(c.name());
        }
        if (isJoin(c) && c.inputs().get(0) instanceof ArrayNode.Computed in && !cheapUpstream(in)) {
          materialized.add(in.name());
        }
      } else if (n instanceof ArrayNode.Rechunked r) {
        materialized.add(r.name());
        ArrayNode in = r.inputs().get(0);
        if (in instanceof ArrayNode.Computed) {
          materialized.add(in.name());
        }
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (ArrayNode n : topo) {
        if (!(n instanceof ArrayNode.Computed c) || !materialized.contains(c.name())) {
          continue;
        }
        List<ArrayNode> fusedInputs = new ArrayList<>();
        for (ArrayNode in : c.inputs()) {
          if (in instanceof ArrayNode.Computed && !materialized.contains(in.name())) {
            fusedInputs.add(in);
          }
        }
        if (fusedInputs.isEmpty()) {
          continue;
        }
        for (ArrayNode in : fusedInputs) {
          if (rereads(c, in)) {
            materialized.add(in.name());
            changed = true;
          }
        }
        ArrayNode.Computed deep =
            changed ? null : ChainRereads.nearest(c, this::fusedComputed, this::haloInput);
        changed |= deep != null && materialized.add(deep.name());
        if (changed) {
          continue;
        }
        if (!fits(c)) {
          // cut as close to c as possible: the nearest fused node whose own fused op fits
          ArrayNode cut = nearestFitting(c);
          if (cut != null) {
            materialized.add(cut.name());
          } else {
            fusedInputs.forEach(in -> materialized.add(in.name()));
          }
          changed = true;
        }
      }
    }
  }

  private static boolean isJoin(ArrayNode.Computed c) {
    return JOIN_OP.equals(c.op().name()) && c.inputs().size() == 1;
  }

  /**
   * Whether an op's work per block is about the cost of reading its blocks: pointwise arithmetic, a
   * moving window ({@link HaloFunction}) or copies of input elements ({@link GatherFunction}).
   * Several blocks of such ops run one after another in one task (as a join's upstream) cost about
   * what reading those blocks costs; other ops (a factorization, a sort, a matmul) are kept as one
   * parallel task per block.
   */
  static boolean cheapWork(ArrayNode.Computed c) {
    var f = c.op().function();
    return f instanceof PointwiseFunction
        || f instanceof HaloFunction
        || f instanceof GatherFunction;
  }

  /**
   * True if every op that would fuse into a consumer of n is {@code cheapWork}: n and, from it
   * down, the computed arrays its ops read, short of those that are stored anyway (already
   * materialized, or read again by several tasks of their consumer, as a small table that every
   * block gathers from).
   */
  private boolean cheapUpstream(ArrayNode.Computed n) {
    if (materialized.contains(n.name())) {
      return true;
    }
    Deque<ArrayNode.Computed> todo = new ArrayDeque<>(List.of(n));
    Set<String> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      ArrayNode.Computed c = todo.pop();
      if (!seen.add(c.name())) {
        continue;
      }
      if (!cheapWork(c)) {
        return false;
      }
      for (ArrayNode in : c.inputs()) {
        if (in instanceof ArrayNode.Computed ic
            && !materialized.contains(ic.name())
            && !rereads(c, ic)) {
          todo.add(ic);
        }
      }
    }
    return true;
  }

  /**
   * True if a computed array with several consumers is cheap enough to recompute inside each
   * consumer instead of being stored: every op of its fused chain reads one block of each input per
   * task (elementwise-like, no trees or streams), the chain starts from virtual or stored arrays,
   * and no computed array inside the chain has several consumers itself (so recomputation does not
   * nest: a block is computed at most once per consumer in a task, never exponentially often). Then
   * several reductions of one input share its read (each reads the sources once) and nothing is
   * written for it.
   */
  private boolean shareable(ArrayNode.Computed c) {
    return cheapChain(c);
  }

  private boolean cheapChain(ArrayNode.Computed c) {
    if (isOutput(c) || c.target() != null || isChain(c)) {
      return false;
    }
    if (c.op().function() instanceof HaloFunction) {
      return elementwiseChain(c);
    }
    for (int i = 0; i < c.inputs().size(); i++) {
      // a few blocks of a stored array (a regrid of an input read straight from its store) are
      // cheap to read again in each consumer
      if (c.op().readsPerInput()[i] != 1 && !(c.inputs().get(i) instanceof ArrayNode.Stored)) {
        return false;
      }
    }
    for (ArrayNode in : c.inputs()) {
      if (in instanceof ArrayNode.Computed ic) {
        if (consumers.getOrDefault(ic.name(), 0) > 1 || !cheapChain(ic)) {
          return false;
        }
      } else if (!(in instanceof ArrayNode.Virtual) && !(in instanceof ArrayNode.Stored)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True if {@code c} is the array of a {@link ChainFunction}: always stored, by one task per row
   * of blocks along the chain's axis ({@link ChainWalks}).
   */
  static boolean isChain(ArrayNode n) {
    return n instanceof ArrayNode.Computed c && c.op().function() instanceof ChainFunction;
  }

  private final Map<String, Boolean> elementwise = new HashMap<>();
  private Set<String> haloInputs;

  /**
   * Whether n is in the elementwise chain below a {@link HaloFunction} op: recomputed for the
   * halo's reads by design, not a reread to store.
   */
  private boolean haloInput(ArrayNode n) {
    if (haloInputs == null) {
      haloInputs = new HashSet<>();
      for (ArrayNode t : topo) {
        if (t instanceof ArrayNode.Computed c && c.op().function() instanceof HaloFunction) {
          Deque<ArrayNode> todo = new ArrayDeque<>(c.inputs());
          while (!todo.isEmpty()) {
            if (todo.pop() instanceof ArrayNode.Computed ic
                && elementwiseChain(ic)
                && haloInputs.add(ic.name())) {
              todo.addAll(ic.inputs());
            }
          }
        }
      }
    }
    return haloInputs.contains(n.name());
  }

  /**
   * True if every op of c's chain reads one block of each input per task (or is a {@link
   * HaloFunction} op), from virtual or stored arrays, whatever the consumer counts inside it: what
   * a halo op recomputes for its neighbours' reads (a bounded factor, its blocks held per task)
   * instead of writing it.
   */
  private boolean elementwiseChain(ArrayNode.Computed c) {
    Boolean known = elementwise.get(c.name());
    if (known != null) {
      return known;
    }
    boolean ok = !isOutput(c) && c.target() == null && !isChain(c);
    if (ok && !(c.op().function() instanceof HaloFunction)) {
      for (int r : c.op().readsPerInput()) {
        ok &= r == 1;
      }
    }
    for (ArrayNode in : c.inputs()) {
      if (!ok) {
        break;
      }
      ok =
          in instanceof ArrayNode.Computed ic
              ? elementwiseChain(ic)
              : in instanceof ArrayNode.Virtual || in instanceof ArrayNode.Stored;
    }
    elementwise.put(c.name(), ok);
    return ok;
  }

  private boolean fits(ArrayNode.Computed c) {
    Cost cost = opCost(c);
    long mem = taskMem(cost);
    return (cachesSources(cost) ? cost.distinct() : cost.blocks()) <= blockLimit(c)
        && cost.sources().size() <= cfg.maxSourceArrays()
        && cfg.reservedMem() + mem + c.chunkBytes() * cfg.writeCopies() <= cfg.allowedMem();
  }

  /**
   * Whether a task of the op with this cost keeps the source blocks it reads (a per-task cache,
   * {@link dev.cubed.plan.eval.Evaluator#forTask}): when its fused paths read some source block
   * more than once (a halo op beside the elementwise ops over the same input, e.g. a rolling sum
   * and its count): its fused ops include a {@link HaloFunction} op and each holds every block it
   * reads anyway (so no streaming reduction would hold what it streams, nor gather blocks its own
   * tasks would read in parallel). Then the block limit counts each source block once and the
   * task's memory holds them all.
   */
  private static boolean cachesSources(Cost cost) {
    return cost.holdsAll() && cost.halo() && cost.distinct() < cost.blocks();
  }

  /** Memory of a task of an op with this cost: the inline cost plus the kept source blocks. */
  private long taskMem(Cost cost) {
    if (!cachesSources(cost)) {
      return cost.mem();
    }
    long held = 0;
    for (Map.Entry<String, Long> e : cost.leaves().entrySet()) {
      held = ByteCounts.satAdd(held, ByteCounts.satMul(e.getValue(), nodes.get(e.getKey())));
    }
    return ByteCounts.satAdd(cost.mem(), held);
  }

  /**
   * The input-block limit for c's fused task: {@code maxInputBlocks}, or more when c reads one
   * block per task of a single fused input whose own op reads more blocks per task (e.g. the first
   * round of a reduction over a matmul whose tasks stream 2k blocks): its tasks read those blocks
   * whether c is fused or not, and storing the input would only write and re-read it. Not for an
   * empty input (nothing to read; its ops keep the default limit).
   */
  private long blockLimit(ArrayNode.Computed c) {
    int[] reads = c.op().readsPerInput();
    if (isJoin(c)) {
      // a join reads each block of its input in one task only: fusing its cheap upstream (a
      // costly one is stored, see decideFusion) recomputes nothing and saves the input's copy,
      // however many blocks the task reads (memory is still checked)
      return Long.MAX_VALUE;
    }
    if (c.inputs().size() == 1
        && reads.length == 1
        && reads[0] == 1
        && c.inputs().get(0) instanceof ArrayNode.Computed in
        && !materialized.contains(in.name())
        && Shapes.size(in.shape()) > 0) {
      long own = 0;
      for (int r : in.op().readsPerInput()) {
        own += r;
      }
      return Math.max(cfg.maxInputBlocks(), own);
    }
    return cfg.maxInputBlocks();
  }

  /** Breadth-first over c's fused inputs: the first fused node whose own op fits the limits. */
  private ArrayNode nearestFitting(ArrayNode.Computed c) {
    List<ArrayNode> level = new ArrayList<>(c.inputs());
    while (!level.isEmpty()) {
      List<ArrayNode> next = new ArrayList<>();
      for (ArrayNode n : level) {
        if (n instanceof ArrayNode.Computed f && !materialized.contains(f.name())) {
          if (fits(f)) {
            return f;
          }
          next.addAll(f.inputs());
        }
      }
      level = next;
    }
    return null;
  }

  /** True if the consumer's tasks together read some block of {@code in} more than once. */
  private boolean rereads(ArrayNode.Computed c, ArrayNode in) {
    if (c.op().function() instanceof HaloFunction
        && in instanceof ArrayNode.Computed ic
        && elementwiseChain(ic)) {
      return false; // a halo recomputes an elementwise chain's blocks its neighbours read too
    }
    int idx = c.inputs().indexOf(in);
    long total = 0;
    long blocks = Shapes.size(in.numBlocks());
    long tasks = Shapes.size(c.numBlocks());
    for (long f = 0; f < tasks; f++) {
      BlockKeys k = c.op().keys().keys(Shapes.unravel(c.numBlocks(), f)).get(idx);
      total += k.count();
      if (total > blocks) {
        return true;
      }
    }
    return false;
  }

  /** Cost of computing a block of {@code n} inline (excluding reservedMem and write copies). */
  private Cost opCost(ArrayNode.Computed c) {
    Cost plain = untiledCost(c);
    Tiles.Chain ch = Tiles.chain(c, this::fusedComputed, tileBytes, null);
    // the same blocks and sources either way (the fusion limits do not depend on tiling)
    return ch == null
        ? plain
        : new Cost(
            tiledMem(c, ch),
            plain.blocks(),
            plain.sources(),
            plain.fused(),
            plain.leaves(),
            plain.otherReads(),
            plain.holdsAll(),
            plain.halo());
  }

  private Cost untiledCost(ArrayNode.Computed c) {
    long mem = c.op().extraMem() + c.chunkBytes();
    long blocks = 0;
    Set<String> sources = new LinkedHashSet<>();
    List<String> fused = new ArrayList<>();
    Map<String, Long> leaves = new HashMap<>();
    long other = 0;
    boolean holdsAll = true;
    boolean halo = c.op().function() instanceof HaloFunction;
    for (int i = 0; i < c.inputs().size(); i++) {
      ArrayNode in = c.inputs().get(i);
      Cost ic = inputCost(in);
      long reads = c.op().readsPerInput()[i];
      holdsAll &= ic.holdsAll() && c.op().heldPerInput()[i] >= reads;
      halo |= ic.halo();
      mem += c.op().heldPerInput()[i] * ic.mem();
      blocks += reads * ic.blocks();
      sources.addAll(ic.sources());
      fused.addAll(ic.fused());
      for (Map.Entry<String, Long> e : ic.leaves().entrySet()) {
        leaves.merge(e.getKey(), reads * e.getValue(), Math::max);
      }
      other += reads * ic.otherReads();
    }
    return new Cost(mem, blocks, sources, fused, leaves, other, holdsAll, halo);
  }

  private boolean fusedComputed(ArrayNode n) {
    return n instanceof ArrayNode.Computed && !materialized.contains(n.name());
  }

  /**
   * Memory of a reduction block computed tile by tile ({@link Tiles}): the state, one tile of each
   * pointwise op and leaf and the tile's state, and each leaf's whole block (read once), or, for a
   * leaf read or generated by regions, what that holds.
   */
  private long tiledMem(ArrayNode.Computed c, Tiles.Chain ch) {
    long mem = c.op().extraMem() + c.chunkBytes() + ch.tileBytes();
    for (ArrayNode leaf : ch.leaves()) {
      mem += ch.regionLeaf(leaf) ? ch.regionBytes(leaf) : inputCost(leaf).mem();
    }
    return mem;
  }

  /**
   * The chain that writes {@code c} a run at a time ({@link TiledWrites}), or null: a materialized
   * pointwise chain whose destination encodes runs (a target with the default codec, or an
   * intermediate, which always has it), when that holds less than computing its block whole.
   */
  public TiledWrites.Chain writeChain(ArrayNode.Computed c) {
    if (!materialized.contains(c.name()) || (c.target() != null && !c.target().streamsWrites())) {
      return null;
    }
    TiledWrites.Chain wc = TiledWrites.chain(c, this::fusedComputed, tileBytes, null);
    return wc != null && streamedMem(wc) < taskMem(opCost(c)) ? wc : null;
  }

  /**
   * Memory of a block written a run at a time: one run of each array of the chain and each leaf
   * read whole (the encoded output is counted as the write's copy).
   */
  private long streamedMem(TiledWrites.Chain wc) {
    long mem = wc.runBytes();
    for (ArrayNode leaf : wc.wholeLeaves()) {
      mem += inputCost(leaf).mem();
    }
    return mem;
  }

  private Cost inputCost(ArrayNode in) {
    if (in instanceof ArrayNode.Virtual) {
      return new Cost(
          in.chunkBytes(), 1, Set.of(), List.of(), Map.of(in.name(), 1L), 0, true, false);
    }
    if (in instanceof ArrayNode.Computed c && !materialized.contains(c.name())) {
      Cost sub = opCost(c);
      List<String> f = new ArrayList<>(sub.fused());
      f.add(c.name());
      return new Cost(
          sub.mem(),
          sub.blocks(),
          sub.sources(),
          f,
          sub.leaves(),
          sub.otherReads(),
          sub.holdsAll(),
          sub.halo());
    }
    long mem = in.chunkBytes() * (1 + cfg.readCopies());
    return in instanceof ArrayNode.Stored
        ? new Cost(mem, 1, Set.of(in.name()), List.of(), Map.of(in.name(), 1L), 0, true, false)
        : new Cost(mem, 1, Set.of(in.name()), List.of(), Map.of(), 1, true, false);
  }

  private void describe() {
    for (ArrayNode n : topo) {
      MultiOutput.Group g = groupOf.get(n.name());
      if (g != null) {
        if (g.members().get(0) == n) {
          long written = 0;
          for (ArrayNode.Computed m : g.members()) {
            written += Shapes.size(m.shape()) * m.dtype().itemSize();
          }
          long tasks = Shapes.size(n.numBlocks());
          infos.add(
              new PlanSummary.OpInfo(
                  g.name(),
                  "blockwise",
                  g.fused(),
                  tasks,
                  g.projectedMem(),
                  written,
                  true,
                  ByteCounts.satMul(tasks, g.readBytesPerTask())));
        }
      } else if (n instanceof ArrayNode.Computed c && materialized.contains(c.name())) {
        Cost cost = opCost(c);
        boolean chain = isChain(c);
        TiledWrites.Chain wc = chain ? null : writeChain(c);
        if (wc != null) {
          streamedWrites.add(c.name());
        }
        if (!chain && wc == null && cachesSources(cost)) {
          cachedSources.add(c.name());
        }
        long mem =
            cfg.reservedMem()
                + (wc != null ? streamedMem(wc) : taskMem(cost))
                + (chain ? inputsMem(c) : 0)
                + c.chunkBytes() * cfg.writeCopies();
        long blocks = Shapes.size(c.numBlocks());
        long tasks =
            chain
                ? ChainWalks.tasks(c.numBlocks(), ((ChainFunction) c.op().function()).axis())
                : blocks;
        infos.add(
            new PlanSummary.OpInfo(
                c.name(),
                "blockwise",
                cost.fused(),
                tasks,
                mem,
                Shapes.size(c.shape()) * c.dtype().itemSize(),
                c.target() == null && !isOutput(c),
                ByteCounts.satMul(blocks, readBytesPerTask(c)),
                chain ? ((ChainFunction) c.op().function()).lanes() : 1));
        if (isJoin(c) && c.inputs().get(0) instanceof ArrayNode.Computed in && !cheapUpstream(in)) {
          materialized.add(in.name());
        }
      } else if (n instanceof ArrayNode.Rechunked r) {
        RechunkStages st = RechunkStages.of(r, cfg, isOutput(r));
        rechunkChains.put(r.name(), st.chain());
        infos.addAll(st.infos());
      }
    }
  }

  /**
   * Memory of one block's inputs of {@code c} (each held block with its read copies, fused inputs
   * computed inline counted through): what a chain task holds again while it reads the next block's
   * inputs ({@link ChainWalks}).
   */
  private long inputsMem(ArrayNode.Computed c) {
    long mem = 0;
    for (int i = 0; i < c.inputs().size(); i++) {
      mem += c.op().heldPerInput()[i] * inputCost(c.inputs().get(i)).mem();
    }
    return mem;
  }

  /**
   * Bytes of stored blocks one task of {@code c} reads: each input's most blocks read times its
   * chunk, fused inputs computed inline counted through to what they read, generated inputs 0.
   */
  private long readBytesPerTask(ArrayNode.Computed c) {
    long b = 0;
    for (int i = 0; i < c.inputs().size(); i++) {
      ArrayNode in = c.inputs().get(i);
      long per;
      if (in instanceof ArrayNode.Virtual) {
        per = 0;
      } else if (in instanceof ArrayNode.Computed ic && !materialized.contains(ic.name())) {
        per = readBytesPerTask(ic);
      } else {
        per = in.chunkBytes();
      }
      b = ByteCounts.satAdd(b, ByteCounts.satMul(c.op().readsPerInput()[i], per));
    }
    return b;
  }

  /** The summary: ops, tasks, projected memory per op, bytes to write. */
  public PlanSummary summary() {
    return new PlanSummary(List.copyOf(infos), cfg.allowedMem(), cfg.reservedMem());
  }

  /**
   * Throws if any op's projected memory exceeds allowedMem.
   *
   * @throws MemoryBudgetExceededException naming the largest op
   */
  public void checkMemory() {
    infos.stream()
        .max(Comparator.comparingLong(PlanSummary.OpInfo::projectedMem))
        .filter(o -> o.projectedMem() > cfg.allowedMem())
        .ifPresent(
            o -> {
              throw new MemoryBudgetExceededException(
                  o.name(), o.projectedMem(), cfg.allowedMem(), cfg.reservedMem());
            });
  }

  /**
   * Throws if the plan's intermediate arrays do not fit the usable space of the local work
   * directory's file system (see {@link DiskCheck}); nothing for a store work directory or when
   * {@link PlanConfig#diskCheck()} is off.
   *
   * @throws DiskSpaceExceededException naming both figures and what to change
   */
  public void checkDisk() {
    if (cfg.diskCheck() && cfg.localWorkDir()) {
      DiskCheck.check(summary().intermediateBytesWritten(), cfg.workDirPath());
    }
  }

  /**
   * The plan in Graphviz DOT: one node per array, one cluster per operation (the array it stores
   * and the arrays fused into its tasks) labelled with kind, tasks, projected memory and bytes
   * written; Zarr inputs are cylinders, virtual inputs dashed ellipses, the memory-heaviest op is
   * outlined in red. Render it with {@code dev.cubed.diagnostics.Diagnostics.visualize}.
   */
  public String dot() {
    return PlanGraph.dot(topo, materialized, infos, cfg);
  }

  /**
   * Checks memory, runs every op on the executor, reads the outputs into memory and deletes the
   * compute directory {@code workDir/compute-<id>/} with the intermediate arrays: {@code
   * run(executor, callbacks, RunOptions.defaults()).outputs()}.
   *
   * @return one array per output, in order
   * @throws MemoryBudgetExceededException before running anything if an op does not fit
   */
  public List<NDArray> execute(Executor executor, List<Callback> callbacks) {
    return run(executor, callbacks, RunOptions.defaults()).outputs();
  }

  /**
   * Checks memory, runs every op on the executor and, as the options say, reads the outputs back
   * and resumes an earlier run ({@link RunOptions#resume}); deletes the compute directory {@code
   * workDir/compute-<id>/} with the intermediate arrays when the run succeeds. On failure the
   * directory is kept for a resume (the exception then carries where: {@link #keptComputeDir}).
   * User targets are checked after the memory check and before anything is written, and created
   * right before the tasks run ({@link dev.cubed.plan.durable.Targets}).
   *
   * @return the outputs, the tasks a resume skipped and the executor's report
   * @throws MemoryBudgetExceededException before running anything if an op does not fit
   * @throws IllegalStateException on resume if the directory holds a different plan's fingerprint
   */
  public PlanResult run(Executor executor, List<Callback> callbacks, RunOptions options) {
    return new PlanRun(this).run(executor, callbacks, options);
  }

  /**
   * The compute id: the first 16 hex digits of the SHA-256 of {@link #fingerprint()}. It depends
   * only on what determines the result and the tasks, never on a figure measured at run time
   * (allowedMem and reservedMem count only through the decisions they lead to), so a rerun of the
   * same program finds the directory of an earlier run even when the measured reserved memory
   * differs by a few bytes.
   */
  public String computeId() {
    return NodeDigest.sha256Hex(fingerprint()).substring(0, 16);
  }

  /**
   * True if every node of the plan has a content-derived name, so a later run of the same program
   * finds this compute's directory and can resume it.
   */
  public boolean resumable() {
    return topo.stream().allMatch(ArrayNode::resumable);
  }

  /**
   * The plan's fingerprint, written as plain text to the compute directory and compared on resume:
   * what determines the result and the tasks. The outputs' content digests; the read and write
   * copies (they choose the intermediates' codec) and the tile size; every op with its kind and
   * task count (op names are the materialized arrays' content names, which include their chunks);
   * the members of each multi-output op; each rechunk's chunk chain and each stage's copy region
   * (which sets what a task copies). Memory figures (allowedMem, reservedMem, projected memory) are
   * not part of it: two runs that plan the same tasks have the same fingerprint.
   */
  public String fingerprint() {
    String f = fingerprint;
    if (f == null) {
      f = PlanFingerprint.of(this, infos); // the plan is immutable: the same text every time
      fingerprint = f;
    }
    return f;
  }

  private volatile String fingerprint;

  /**
   * True if a failed compute removed its directory because an intermediate chunk failed its
   * checksum (a resume would have read it again): the same program run again, resumed or not,
   * computes everything afresh.
   */
  public static boolean corruptIntermediate(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      for (Throwable s : t.getSuppressed()) {
        if (s instanceof PlanRun.CorruptIntermediateNotice) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Where a failed compute kept its directory for a resume (a local path or a store URI), read from
   * the exception it threw; null if it kept none (e.g. no task had finished, so its directory was
   * removed) or the exception did not come from a compute.
   */
  public static String keptComputeDir(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      for (Throwable s : t.getSuppressed()) {
        if (s instanceof PlanRun.ComputeKeptNotice n) {
          return n.location;
        }
      }
    }
    return null;
  }

  /**
   * A plan evaluated in the calling thread: every array is one block, none is rechunked or written
   * to a user target, and all of them together take at most {@link PlanConfig#inlineMaxBytes()} and
   * the memory allowed to one task.
   */
  boolean tiny() {
    long total = 0;
    long limit = Math.min(cfg.inlineMaxBytes(), cfg.allowedMem() - cfg.reservedMem());
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Rechunked
          || (n instanceof ArrayNode.Computed c && c.target() != null)
          || Shapes.size(n.numBlocks()) != 1) {
        return false;
      }
      total += n.chunkBytes();
      if (total > limit) {
        return false;
      }
    }
    return true;
  }

  PlanSummary.OpInfo info(String name) {
    return infos.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
  }
}
