package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.PointwiseFunction;
import dev.cubed.plan.eval.StreamFold;
import dev.cubed.plan.eval.Tiles;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.GatherFunction;
import dev.cubed.primitive.HaloFunction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The fusion decision of a {@link Plan}: which computed arrays are stored (materialized) and which
 * are computed inline in their consumer's tasks, and what computing a block inline costs ({@link
 * Cost}). {@link #decide} fills {@link #materialized}; the plan then describes each stored op with
 * {@link #opCost}, {@link #taskMem} and {@link #cachesSources}, and may store more arrays itself
 * (the set is shared, and {@link #fusedComputed} and the costs read it as it is at each call).
 *
 * <p>A computed array is stored when it is an output, has a user target, feeds a rechunk, feeds a
 * join of whole blocks ({@link Plan#JOIN_OP}) while some op it fuses is not {@link #cheapWork} (a
 * join task would run that work for each of its blocks in turn, not in parallel tasks), or has more
 * than one consumer (unless it is a cheap elementwise-like chain over virtual or stored arrays,
 * which each consumer recomputes), or when fusing it would break a limit: its consumer's task would
 * read more than {@code maxInputBlocks} blocks (or than the input's own task reads, when the
 * consumer reads one block of it per task, or without limit for a join: {@link #blockLimit}) or
 * {@code maxSourceArrays} stored arrays, exceed allowedMem, or read one of its blocks more than
 * once over all tasks (unless the consumer is a {@link HaloFunction} op and the array a cheap
 * chain, recomputed for the halo). Elementwise-like here includes halo ops. Everything else is
 * computed inline (map fusion for chains, multiple-input fusion for several predecessors). A task
 * whose fused paths read a source block more than once keeps the source blocks it reads (counted
 * once against {@code maxInputBlocks}, their memory added to the task's).
 */
final class Fusion {
  private final List<ArrayNode> topo;
  private final Map<String, Integer> consumers;
  private final Predicate<ArrayNode> output;
  private final PlanConfig cfg;
  private final long tileBytes;

  /** Chunk bytes of each array of the plan, by name. */
  private final Map<String, Long> nodes = new HashMap<>();

  /** The stored arrays, by name: filled by {@link #decide}, shared with the plan. */
  final Set<String> materialized = new HashSet<>();

  /**
   * A fusion decision over a plan's arrays in topological order.
   *
   * @param topo the plan's arrays, inputs before their consumers
   * @param consumers the number of distinct consumers of each array, by name (absent: none)
   * @param output whether an array is one of the plan's outputs
   * @param cfg the plan's configuration (its store copies already applied)
   */
  Fusion(
      List<ArrayNode> topo,
      Map<String, Integer> consumers,
      Predicate<ArrayNode> output,
      PlanConfig cfg) {
    this.topo = topo;
    this.consumers = consumers;
    this.output = output;
    this.cfg = cfg;
    this.tileBytes = cfg.tileBytes();
    for (ArrayNode n : topo) {
      nodes.put(n.name(), n.chunkBytes());
    }
  }

  private boolean isOutput(ArrayNode n) {
    return output.test(n);
  }

  /**
   * What computing a block of an array inline costs: memory, block reads (each path through the
   * fused ops counted), the stored arrays read, the fused arrays, and the virtual or stored source
   * blocks read per task by name, each source's count the most any one path reads of it (paths
   * through elementwise-aligned ops read the same blocks).
   */
  record Cost(
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

  /** Decides which computed arrays are stored, adding them to {@link #materialized}. */
  void decide() {
    Set<String> sharedStored = new LinkedHashSet<>();
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Computed c) {
        if (isOutput(c) || c.target() != null || isChain(c)) {
          materialized.add(c.name());
        } else if (consumers.getOrDefault(c.name(), 0) > 1 && !shareable(c)) {
          materialized.add(c.name());
          sharedStored.add(c.name());
        }
        if (isJoin(c) && c.inputs().get(0) instanceof ArrayNode.Computed in && !cheapUpstream(in)) {
          materialized.add(in.name());
          sharedStored.remove(in.name());
        }
      } else if (n instanceof ArrayNode.Rechunked r) {
        materialized.add(r.name());
        ArrayNode in = r.inputs().get(0);
        if (in instanceof ArrayNode.Computed) {
          materialized.add(in.name());
          sharedStored.remove(in.name());
        }
      }
    }
    settle();
    fuseIntoOneOp(sharedStored);
  }

  /**
   * Fuses each array stored only for its several consumers when all of them end in one stored op
   * whose every task reads one block of it per path ({@link #oneOpRoot}): that op's tasks compute
   * its block once and keep it for the other paths ({@link Plan#sharedBlocks}), so nothing is
   * written for it and nothing is computed twice. Kept stored when fusing it would change any other
   * decision (a limit of the op broken, another array stored instead).
   */
  private void fuseIntoOneOp(Set<String> sharedStored) {
    // fusing one may let another end in one op too (its other consumer was the one stored)
    boolean fusedOne = true;
    while (fusedOne) {
      fusedOne = false;
      for (ArrayNode n : topo) {
        if (!(n instanceof ArrayNode.Computed c)
            || !sharedStored.contains(c.name())
            || !materialized.contains(c.name())
            || oneOpRoot(c) == null) {
          continue;
        }
        Set<String> before = new HashSet<>(materialized);
        materialized.remove(c.name());
        settle();
        Set<String> expect = new HashSet<>(before);
        expect.remove(c.name());
        if (materialized.equals(expect)) {
          fusedOne = true;
        } else {
          materialized.clear();
          materialized.addAll(before);
        }
      }
    }
  }

  /**
   * The one stored op in whose tasks every consumer path of {@code x} ends, when each op on those
   * paths (the stored one included) reads one block per task of the array it reads on the path and
   * is an ordinary blockwise op (no chain, no join); else null.
   */
  private ArrayNode.Computed oneOpRoot(ArrayNode.Computed x) {
    if (consumerNodes == null) {
      consumerNodes = new HashMap<>();
      for (ArrayNode t : topo) {
        for (ArrayNode in : new LinkedHashSet<>(t.inputs())) {
          consumerNodes.computeIfAbsent(in.name(), k -> new ArrayList<>()).add(t);
        }
      }
    }
    ArrayNode.Computed root = null;
    Deque<ArrayNode> todo = new ArrayDeque<>(List.of(x));
    Set<String> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      ArrayNode n = todo.pop();
      if (!seen.add(n.name())) {
        continue;
      }
      List<ArrayNode> cs = consumerNodes.getOrDefault(n.name(), List.of());
      if (cs.isEmpty()) {
        return null;
      }
      for (ArrayNode t : cs) {
        if (!(t instanceof ArrayNode.Computed c) || isChain(c) || isJoin(c)) {
          return null;
        }
        for (int i = 0; i < c.inputs().size(); i++) {
          if (c.inputs().get(i).name().equals(n.name()) && c.op().readsPerInput()[i] != 1) {
            return null;
          }
        }
        if (!materialized.contains(c.name())) {
          todo.add(c);
        } else if (root == null) {
          root = c;
        } else if (root != c) {
          return null;
        }
      }
    }
    return root;
  }

  private Map<String, List<ArrayNode>> consumerNodes;

  /** Stores what the limits require until nothing changes (see the class comment). */
  private void settle() {
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
          continue;
        }
        ArrayNode.Computed round = narrowingRound(c);
        if (round != null) {
          materialized.add(round.name());
          changed = true;
        }
      }
    }
  }

  /**
   * What starting an op and waiting for all its tasks costs, in bytes read: a reduction round is
   * kept apart from the next ({@link #narrowingRound}) only when that gains more.
   */
  static final long OP_OVERHEAD_BYTES = 8L << 20;

  /**
   * The nearest reduction round fused into c (an op whose tasks each fold several blocks, {@link
   * StreamFold}) that has more tasks than c while c has fewer than the plan's parallelism, and
   * whose work is large beside its results: fused, its blocks are read one after another by c's few
   * tasks (a sum of ten 150 MB blocks in one task on two workers, where two tasks of five run at
   * once); stored, its tasks run in parallel and c combines their results. Kept fused when the time
   * the parallel tasks save, in bytes read ({@link #bytesPerTask}), is less than twice writing and
   * reading back its results plus {@link #OP_OVERHEAD_BYTES}. Null if there is none. An elementwise
   * op or a reduction's first round (one block per task) is never such a round: storing it would
   * write a full-size array.
   */
  private ArrayNode.Computed narrowingRound(ArrayNode.Computed c) {
    int p = cfg.parallelism();
    long tasks = Shapes.size(c.numBlocks());
    if (p <= 1 || tasks >= p) {
      return null;
    }
    Deque<ArrayNode> todo = new ArrayDeque<>(c.inputs());
    Set<String> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      ArrayNode n = todo.poll();
      if (!(n instanceof ArrayNode.Computed f)
          || materialized.contains(f.name())
          || !seen.add(f.name())) {
        continue;
      }
      long ft = Shapes.size(f.numBlocks());
      if (f.op().function() instanceof StreamFold
          && ft > tasks
          && Arrays.stream(f.op().readsPerInput()).anyMatch(r -> r > 1)) {
        double work = (double) ft * bytesPerTask(f);
        double saved = work / tasks - work / Math.min(ft, p);
        double stored = 2.0 * ft * f.chunkBytes();
        if (saved > 2 * stored + OP_OVERHEAD_BYTES) {
          return f;
        }
      }
      todo.addAll(f.inputs());
    }
    return null;
  }

  /**
   * Bytes a task of c's op reads or generates with its fused inputs computed inline: each block of
   * a stored or virtual array or of a stored intermediate counted at its chunk size, as often as
   * the fused paths read it.
   */
  private double bytesPerTask(ArrayNode.Computed c) {
    double b = 0;
    int[] reads = c.op().readsPerInput();
    for (int i = 0; i < c.inputs().size(); i++) {
      ArrayNode in = c.inputs().get(i);
      double per =
          fusedComputed(in) ? bytesPerTask((ArrayNode.Computed) in) : (double) in.chunkBytes();
      b += reads[i] * per;
    }
    return b;
  }

  static boolean isJoin(ArrayNode.Computed c) {
    return Plan.JOIN_OP.equals(c.op().name()) && c.inputs().size() == 1;
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
  boolean cheapUpstream(ArrayNode.Computed n) {
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
  static boolean cachesSources(Cost cost) {
    return cost.holdsAll() && cost.halo() && cost.distinct() < cost.blocks();
  }

  /** Memory of a task of an op with this cost: the inline cost plus the kept source blocks. */
  long taskMem(Cost cost) {
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
      // costly one is stored, see decide) recomputes nothing and saves the input's copy,
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
  Cost opCost(ArrayNode.Computed c) {
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

  boolean fusedComputed(ArrayNode n) {
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

  Cost inputCost(ArrayNode in) {
    if (in instanceof ArrayNode.Virtual v) {
      return new Cost(
          in.chunkBytes() + v.generator().heldBesideBlock(),
          1,
          Set.of(),
          List.of(),
          Map.of(in.name(), 1L),
          0,
          true,
          false);
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
}
