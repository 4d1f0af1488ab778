package dev.cubed.plan;

import dev.cubed.nd.Shapes;
import dev.cubed.primitive.BlockKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Multi-output ops: one task per block that reads (or generates) each source block once and feeds
 * every op that needs it.
 *
 * <p>When several reductions (or other many-block consumers) read the same virtual or stored
 * source, each fuses its first, block-aligned step (e.g. a reduction's per-block state over
 * {@code x}, or over {@code u * v}) into its own tasks, so every source block is read or generated
 * once per consumer. A group gathers such first steps ("members"): computed arrays that are fused,
 * have one consumer that reads several of their blocks per task, are block-aligned down to their
 * sources (block {@code k} of the member reads block {@code k} of each input, through fused
 * aligned arrays only), have the same block grid, and share a source. The group's members are
 * stored, by one op whose task {@code k} reads each source block {@code k} once (the task's
 * {@link Evaluator#forTask() cache}) and writes block {@code k} of every member.
 *
 * <p>A group is formed only when it saves work, i.e. the source bytes its members would read
 * beyond one read per source exceed the bytes it writes (four times those bytes when every source
 * is stored: the ungrouped plan writes nothing for the members, which it fuses into their
 * consumers, so the group adds intermediate writes and their read-back, and intermediate bytes are
 * what object storage charges for; generated sources save compute instead), and when its
 * projected memory fits
 * allowedMem: reservedMem, plus each distinct source block once (stored ones with their read
 * copies, all held for the whole task by the cache), plus every member's own blocks (the member
 * and the fused arrays between it and the sources) and written chunks, summed (the members run one
 * after another, so this sum bounds the true peak).
 */
final class MultiOutput {
  private MultiOutput() {}

  /**
   * A multi-output op: its name (the first member's name, '+' and the number of other members),
   * members, projected memory, the arrays fused into its tasks.
   */
  record Group(String name, List<ArrayNode.Computed> members, long projectedMem,
      List<String> fused) {}

  /**
   * Finds the groups of a plan whose fusion is decided, and adds their members to
   * {@code materialized}.
   */
  static List<Group> find(List<ArrayNode> topo, Map<String, Integer> consumers,
      Set<String> materialized, Predicate<ArrayNode> isOutput, PlanConfig cfg) {
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
      if (n instanceof ArrayNode.Computed c && !materialized.contains(c.name()) && !isOutput.test(c)
          && c.target() == null && consumers.getOrDefault(c.name(), 0) == 1
          && readsManyOf(consumerOf.get(c.name()), c)
          && aligned(c, materialized)) {
        cands.add(c);
      }
    }
    // group by block grid, joining candidates that share a source
    List<List<ArrayNode.Computed>> groups = new ArrayList<>();
    for (ArrayNode.Computed c : cands) {
      Set<String> src = sources(c, new LinkedHashSet<>());
      List<ArrayNode.Computed> joined = null;
      for (java.util.Iterator<List<ArrayNode.Computed>> it = groups.iterator(); it.hasNext();) {
        List<ArrayNode.Computed> g = it.next();
        boolean shares = Arrays.equals(g.get(0).numBlocks(), c.numBlocks())
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
    List<Group> out = new ArrayList<>();
    for (List<ArrayNode.Computed> g : groups) {
      if (g.size() < 2) {
        continue;
      }
      Map<String, ArrayNode> distinct = new LinkedHashMap<>();
      long perMemberSourceBytes = 0;
      long own = 0;
      long written = 0;
      List<String> fused = new ArrayList<>();
      for (ArrayNode.Computed m : g) {
        Map<String, ArrayNode> ms = new LinkedHashMap<>();
        sourceNodes(m, ms);
        for (ArrayNode s : ms.values()) {
          perMemberSourceBytes += s.chunkBytes();
        }
        distinct.putAll(ms);
        own += ownBytes(m, fused, true);
        written += m.chunkBytes() * cfg.writeCopies();
      }
      long distinctBytes = 0;
      long sourceMem = 0;
      for (ArrayNode s : distinct.values()) {
        distinctBytes += s.chunkBytes();
        sourceMem += s instanceof ArrayNode.Stored ? s.chunkBytes() * (1 + cfg.readCopies())
            : s.chunkBytes();
      }
      long saved = perMemberSourceBytes - distinctBytes;
      long memberBytes = g.stream().mapToLong(ArrayNode::chunkBytes).sum();
      boolean allStored = distinct.values().stream().allMatch(s -> s instanceof ArrayNode.Stored);
      // stored sources: the members' blocks are written and read back where the ungrouped plan
      // writes nothing (they are fused into their consumers), and intermediate bytes are what
      // object storage charges for; require a clear saving (4x) before adding them
      long cost = allStored ? 4 * memberBytes : memberBytes;
      long mem = cfg.reservedMem() + sourceMem + own + written;
      if (saved <= cost || mem > cfg.allowedMem()) {
        continue;
      }
      for (ArrayNode.Computed m : g) {
        materialized.add(m.name());
      }
      // the first member's (unique) name and how many more it writes: short enough for charts
      out.add(new Group(g.get(0).name() + "+" + (g.size() - 1), List.copyOf(g), mem,
          List.copyOf(fused)));
    }
    return out;
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
   * computed array aligned the same way (recomputed per member if several read it), and {@code c}'s trailing grid axes (if
   * {@code c} has more axes than an input) have one block.
   */
  private static boolean aligned(ArrayNode.Computed c, Set<String> materialized) {
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
      if (!in.isRegular() || inb.length > nb.length
          || !Arrays.equals(inb, Arrays.copyOf(nb, inb.length))) {
        return false;
      }
      for (int d = inb.length; d < nb.length; d++) {
        if (nb[d] != 1) {
          return false;
        }
      }
      if (in instanceof ArrayNode.Computed ic) {
        if (materialized.contains(ic.name()) || ic.target() != null
            || !aligned(ic, materialized)) {
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
  private static long ownBytes(ArrayNode.Computed c, List<String> fused, boolean top) {
    long b = c.op().extraMem() + c.chunkBytes();
    if (!top) {
      fused.add(c.name());
    }
    Set<ArrayNode> seen = new LinkedHashSet<>();
    for (ArrayNode in : c.inputs()) {
      if (in instanceof ArrayNode.Computed ic && seen.add(ic)) {
        b += ownBytes(ic, fused, false);
      }
    }
    return b;
  }
}
