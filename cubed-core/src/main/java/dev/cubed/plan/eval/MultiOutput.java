package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.BlockKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Multi-output ops: one task per block that reads (or generates) each source block once and feeds
 * every op that needs it.
 *
 * <p>When several reductions (or other many-block consumers) read the same virtual or stored
 * source, each fuses its first, block-aligned step (e.g. a reduction's per-block state over {@code
 * x}, or over {@code u * v}) into its own tasks, so every source block is read or generated once
 * per consumer. A group gathers such first steps ("members"): computed arrays that are fused, have
 * one consumer that reads several of their blocks per task, are block-aligned down to their sources
 * (block {@code k} of the member reads block {@code k} of each input, through fused aligned arrays
 * only), have the same block grid, and share a source. The group's members are stored, by one op
 * whose task {@code k} reads each source block {@code k} once (the task's {@link
 * Evaluator#forTask() cache}) and writes block {@code k} of every member.
 *
 * <p>A group is formed only when it saves work, i.e. the source bytes its members would read beyond
 * one read per source exceed the bytes it writes (four times those bytes when every source is
 * stored: the ungrouped plan writes nothing for the members, which it fuses into their consumers,
 * so the group adds intermediate writes and their read-back, and intermediate bytes are what object
 * storage charges for; generated sources save compute instead), and when its projected memory fits
 * allowedMem: reservedMem, plus each distinct source block once (stored ones with their read
 * copies, all held for the whole task by the cache), plus every member's own blocks (the member and
 * the fused arrays between it and the sources) and written chunks, summed (the members run one
 * after another, so this sum bounds the true peak).
 *
 * <p>Fold groups ({@link FoldGroups#findFolds}) come first: when the consumers of such first steps
 * are stored ops that fold a stream of them (the first partial rounds of tree reductions, a {@link
 * StreamFold}), one op runs those rounds together, reading each source block once per step and
 * writing only what the ungrouped plan writes (e.g. quadratic_means: the three means' first rounds
 * read U and V once). The per-block groups above are then sought among the rest.
 */
public final class MultiOutput {
  private MultiOutput() {}

  /**
   * A multi-output op: its name (the first member's name, '+' and the number of other members),
   * members, projected memory, the arrays fused into its tasks, whether it folds streams (the
   * members are the first rounds of trees, see {@link FoldGroups#findFolds}) and the bytes of
   * stored sources a task reads.
   */
  public record Group(
      String name,
      List<ArrayNode.Computed> members,
      long projectedMem,
      List<String> fused,
      boolean fold,
      long readBytesPerTask) {}

  /**
   * Block {@code key} of every member of a group that does not fold ({@link Group#fold()} false),
   * read through the task's evaluator {@code tev}: members that are tiled reductions ({@link
   * Tiles#chain}) are computed together, tile by tile, so a source block they share is read or
   * decoded once for all of them (a stored bytes + zstd source is decoded forward a tile at a time,
   * once); the others one after another, each source block read once through the task's cache.
   */
  public static List<NDArray> computeMembers(
      List<ArrayNode.Computed> members, Evaluator tev, long[] key) throws Exception {
    NDArray[] out = new NDArray[members.size()];
    List<Tiles.Chain> chains = new ArrayList<>();
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      ArrayNode.Computed m = members.get(i);
      Tiles.Chain ch =
          tev.tileBytes() > 0 && m.op().function() instanceof TileReduction
              ? Tiles.chain(m, tev::fused, tev.tileBytes(), key.clone())
              : null;
      if (ch != null) {
        chains.add(ch);
        at.add(i);
      }
    }
    if (chains.size() > 1) { // (one tiled member alone is computed tiled by the evaluator)
      List<NDArray> states = new ArrayList<>();
      for (Tiles.Chain ch : chains) {
        states.add(NDArray.zeros(ch.reduce().dtype(), ch.reduce().blockShape(key)));
      }
      boolean[] fresh = new boolean[chains.size()];
      Arrays.fill(fresh, true);
      TiledEvaluation.fold(chains, states, fresh, tev, key.clone());
      for (int j = 0; j < at.size(); j++) {
        out[at.get(j)] = states.get(j);
      }
    }
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        out[i] = tev.compute(members.get(i), key);
      }
    }
    return Arrays.asList(out);
  }

  /** Plan-time key checks look at every task up to this many, else the first, middle and last. */
  private static final long KEY_CHECK_ALL = 10_000;

  /** Every task's coordinates up to {@link #KEY_CHECK_ALL} tasks, else the first, middle, last. */
  static List<long[]> probes(long[] nb) {
    long total = Shapes.size(nb);
    List<long[]> l = new ArrayList<>();
    if (total <= KEY_CHECK_ALL) {
      for (long f = 0; f < total; f++) {
        l.add(Shapes.unravel(nb, f));
      }
    } else {
      for (long f : new long[] {0, total / 2, total - 1}) {
        l.add(Shapes.unravel(nb, f));
      }
    }
    return l;
  }

  /**
   * Finds the groups of a plan whose fusion is decided, and adds their members to {@code
   * materialized}.
   */
  public static List<Group> find(
      List<ArrayNode> topo,
      Map<String, Integer> consumers,
      Set<String> materialized,
      Predicate<ArrayNode> isOutput,
      PlanConfig cfg,
      Set<String> taken,
      long tileBytes) {
    Map<String, ArrayNode.Computed> consumerOf = new HashMap<>();
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Computed c) {
        for (ArrayNode in : c.inputs()) {
          consumerOf.put(in.name(), c);
        }
      }
    }
    List<ArrayNode.Computed> cands = new ArrayList<>();
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Computed c
          && !materialized.contains(c.name())
          && !isOutput.test(c)
          && c.target() == null
          && consumers.getOrDefault(c.name(), 0) == 1
          && readsManyOf(consumerOf.get(c.name()), c)
          && !taken.contains(consumerOf.get(c.name()).name())
          && aligned(c, materialized)) {
        cands.add(c);
      }
    }
    List<Group> out = new ArrayList<>();
    for (List<ArrayNode.Computed> g :
        join(cands, (a, b) -> Arrays.equals(a.numBlocks(), b.numBlocks()))) {
      if (g.size() < 2) {
        continue;
      }
      Sizes z = sizes(g, cfg, FoldGroups.fusedIn(materialized), tileBytes, false);
      long memberBytes = g.stream().mapToLong(ArrayNode::chunkBytes).sum();
      // stored sources: the members' blocks are written and read back where the ungrouped plan
      // writes nothing (they are fused into their consumers), and intermediate bytes are what
      // object storage charges for; require a clear saving (4x) before adding them
      long cost = z.allStored ? 4 * memberBytes : memberBytes;
      long mem = cfg.reservedMem() + z.sourceMem + z.own + z.written;
      if (z.saved <= cost || mem > cfg.allowedMem()) {
        continue;
      }
      for (ArrayNode.Computed m : g) {
        materialized.add(m.name());
      }
      // the first member's (unique) name and how many more it writes: short enough for charts
      out.add(
          new Group(
              g.get(0).name() + "+" + (g.size() - 1),
              List.copyOf(g),
              mem,
              List.copyOf(z.fused),
              false,
              z.storedBytes));
    }
    return out;
  }

  /**
   * Joins candidates that are {@code compatible} with a group's first member and share a source
   * with one of its members (transitively: a candidate joining two groups merges them).
   */
  static List<List<ArrayNode.Computed>> join(
      List<ArrayNode.Computed> cands,
      BiPredicate<ArrayNode.Computed, ArrayNode.Computed> compatible) {
    List<List<ArrayNode.Computed>> groups = new ArrayList<>();
    for (ArrayNode.Computed c : cands) {
      Set<String> src = sources(c, new LinkedHashSet<>());
      List<ArrayNode.Computed> joined = null;
      for (Iterator<List<ArrayNode.Computed>> it = groups.iterator(); it.hasNext(); ) {
        List<ArrayNode.Computed> g = it.next();
        boolean shares =
            compatible.test(g.get(0), c)
                && g.stream().anyMatch(m -> !disjoint(sources(m, new LinkedHashSet<>()), src));
        if (shares) {
          if (joined == null) {
            g.add(c);
            joined = g;
          } else {
            joined.addAll(g);
            it.remove();
          }
        }
      }
      if (joined == null) {
        groups.add(new ArrayList<>(List.of(c)));
      }
    }
    return groups;
  }

  /**
   * A group's sizes: {@code saved} = source bytes its members would read beyond one read per source
   * (per block or step), {@code sourceMem} = the distinct source blocks held (stored ones with
   * their read copies), {@code storedBytes} = the distinct stored source bytes read, {@code own}
   * and {@code written} = the members' own blocks and written chunks, summed.
   */
  record Sizes(
      long saved,
      long sourceMem,
      long storedBytes,
      long own,
      long written,
      boolean allStored,
      List<String> fused) {}

  static Sizes sizes(
      List<ArrayNode.Computed> g,
      PlanConfig cfg,
      Predicate<ArrayNode> fused0,
      long tileBytes,
      boolean fold) {
    Map<String, ArrayNode> distinct = new LinkedHashMap<>();
    long perMemberSourceBytes = 0;
    long own = 0;
    long written = 0;
    List<String> fused = new ArrayList<>();
    // sources whose tiles every member reading them makes by regions (no whole block), with the
    // most a region read of them holds
    Map<String, Long> regionOnly = new HashMap<>();
    Set<String> wholeRead = new HashSet<>();
    for (ArrayNode.Computed m : g) {
      Map<String, ArrayNode> ms = new LinkedHashMap<>();
      sourceNodes(m, ms);
      for (ArrayNode s : ms.values()) {
        perMemberSourceBytes += s.chunkBytes();
      }
      distinct.putAll(ms);
      // a fold's first round, or the member itself (members tiled together: computeMembers)
      ArrayNode.Computed r = fold ? FoldGroups.foldedReduction(m) : m;
      Tiles.Chain ch =
          r != null && Arrays.equals(r.chunks(), m.chunks())
              ? Tiles.chain(r, fused0, tileBytes, null)
              : null;
      for (ArrayNode s : ms.values()) {
        if (ch != null && ch.leaves().contains(s) && ch.regionLeaf(s)) {
          regionOnly.merge(s.name(), ch.regionBytes(s), Math::max);
        } else {
          wholeRead.add(s.name());
        }
      }
      if (ch != null) {
        // tile states go straight into the accumulator (the member's output chunk)
        fused.add(ch.reduce().name());
        own +=
            (fold ? 0 : m.op().extraMem())
                + m.chunkBytes()
                + ch.tileBytes()
                + leafOwnBytes(ch, fused, fused0, tileBytes);
      } else {
        own += ownBytes(m, fused, true, fused0, tileBytes);
      }
      written =
          fold
              ? Math.max(written, m.chunkBytes() * cfg.writeCopies())
              : written + m.chunkBytes() * cfg.writeCopies();
    }
    long distinctBytes = 0;
    long sourceMem = 0;
    long storedBytes = 0;
    long readCopy = 0;
    for (ArrayNode s : distinct.values()) {
      distinctBytes += s.chunkBytes();
      boolean st = s instanceof ArrayNode.Stored;
      storedBytes += st ? s.chunkBytes() : 0;
      // read by regions only: the decoded blocks a reader keeps (plus the whole block too if a
      // member reads it whole)
      sourceMem += regionOnly.getOrDefault(s.name(), 0L);
      if (!wholeRead.contains(s.name())) {
        continue;
      }
      // the cache holds the decoded blocks; a read's stored bytes are garbage once decoded and
      // the reads run one after another, so only the largest read's copies count
      sourceMem += s.chunkBytes();
      readCopy = Math.max(readCopy, st ? s.chunkBytes() * cfg.readCopies() : 0);
    }
    sourceMem += readCopy;
    boolean allStored = distinct.values().stream().allMatch(s -> s instanceof ArrayNode.Stored);
    return new Sizes(
        perMemberSourceBytes - distinctBytes,
        sourceMem,
        storedBytes,
        own,
        written,
        allStored,
        fused);
  }

  private static boolean disjoint(Set<String> a, Set<String> b) {
    return a.stream().noneMatch(b::contains);
  }

  /** True if {@code consumer} reads more than one block of {@code c} per task. */
  private static boolean readsManyOf(ArrayNode.Computed consumer, ArrayNode.Computed c) {
    if (consumer == null) {
      return false;
    }
    int i = consumer.inputs().indexOf(c);
    return i >= 0 && consumer.op().readsPerInput()[i] > 1;
  }

  /**
   * True if block {@code k} of {@code c} reads block {@code k} (its leading coordinates) of every
   * input, every input is a virtual or stored source of the same leading block grid or a fused
   * computed array aligned the same way (recomputed per member if several read it), and {@code c}'s
   * trailing grid axes (if {@code c} has more axes than an input) have one block.
   */
  static boolean aligned(ArrayNode.Computed c, Set<String> materialized) {
    if (!c.isRegular() || c.inputs().isEmpty()) {
      return false;
    }
    for (int r : c.op().readsPerInput()) {
      if (r != 1) {
        return false;
      }
    }
    long[] nb = c.numBlocks();
    for (ArrayNode in : c.inputs()) {
      long[] inb = in.numBlocks();
      if (!in.isRegular()
          || inb.length > nb.length
          || !Arrays.equals(inb, Arrays.copyOf(nb, inb.length))) {
        return false;
      }
      for (int d = inb.length; d < nb.length; d++) {
        if (nb[d] != 1) {
          return false;
        }
      }
      if (in instanceof ArrayNode.Computed ic) {
        if (materialized.contains(ic.name()) || ic.target() != null || !aligned(ic, materialized)) {
          return false;
        }
      } else if (!(in instanceof ArrayNode.Virtual) && !(in instanceof ArrayNode.Stored)) {
        return false;
      }
    }
    // the key function: checked at the first, middle and last block
    long total = Shapes.size(nb);
    for (long f : new long[] {0, total / 2, total - 1}) {
      long[] coords = Shapes.unravel(nb, f);
      List<BlockKeys> keys = c.op().keys().keys(coords.clone());
      if (keys.size() != c.inputs().size()) {
        return false;
      }
      for (int i = 0; i < keys.size(); i++) {
        int rank = c.inputs().get(i).numBlocks().length;
        if (!(keys.get(i) instanceof BlockKeys.One one)
            || !Arrays.equals(one.key(), Arrays.copyOf(coords, rank))) {
          return false;
        }
      }
    }
    return true;
  }

  private static Set<String> sources(ArrayNode n, Set<String> acc) {
    Map<String, ArrayNode> m = new LinkedHashMap<>();
    sourceNodes(n, m);
    acc.addAll(m.keySet());
    return acc;
  }

  private static void sourceNodes(ArrayNode n, Map<String, ArrayNode> acc) {
    for (ArrayNode in : n.inputs()) {
      if (in instanceof ArrayNode.Computed) {
        sourceNodes(in, acc);
      } else {
        acc.put(in.name(), in);
      }
    }
  }

  /**
   * Bytes of the blocks a member computes itself: its own block and each fused array's between it
   * and the sources (the sources are counted once for the group), plus the ops' extra memory.
   */
  private static long ownBytes(
      ArrayNode.Computed c,
      List<String> fused,
      boolean top,
      Predicate<ArrayNode> fused0,
      long tileBytes) {
    long b = c.op().extraMem() + c.chunkBytes();
    if (!top) {
      fused.add(c.name());
    }
    Tiles.Chain ch = Tiles.chain(c, fused0, tileBytes, null);
    if (ch != null) {
      // a tiled chain: tiles instead of the pointwise ops' blocks
      return b + ch.tileBytes() + leafOwnBytes(ch, fused, fused0, tileBytes);
    }
    Set<ArrayNode> seen = new LinkedHashSet<>();
    for (ArrayNode in : c.inputs()) {
      if (in instanceof ArrayNode.Computed ic && seen.add(ic)) {
        b += ownBytes(ic, fused, false, fused0, tileBytes);
      }
    }
    return b;
  }

  /** A tiled chain's pointwise ops (named in {@code fused}) and its computed leaves' own bytes. */
  private static long leafOwnBytes(
      Tiles.Chain ch, List<String> fused, Predicate<ArrayNode> fused0, long tileBytes) {
    ch.nodes().forEach(n -> fused.add(n.name()));
    long b = 0;
    for (ArrayNode leaf : ch.leaves()) {
      if (leaf instanceof ArrayNode.Computed lc) {
        b += ownBytes(lc, fused, false, fused0, tileBytes);
      }
    }
    return b;
  }
}
