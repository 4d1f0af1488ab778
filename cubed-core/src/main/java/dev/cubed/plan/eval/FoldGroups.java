package dev.cubed.plan.eval;

import dev.cubed.nd.NDArray;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.BlockKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Fold groups, sought before the per-block groups of {@link MultiOutput}: stored ops that fold a
 * stream of fused first steps over shared sources (the first partial rounds of tree reductions, a
 * {@link StreamFold}) run together in one op that reads each source block once per step.
 */
public final class FoldGroups {
  private FoldGroups() {}

  /**
   * Finds fold groups: materialized ops with one input streamed into a {@link StreamFold} (e.g. the
   * first partial round of a tree reduction), whose input is fused and block-aligned down to
   * virtual or stored sources, which have the same block grid and stream the same input keys in
   * every task, and share a source. Task {@code k} of a group steps through its stream keys; at
   * each step it reads each source block once and folds every member's block into that member's
   * accumulator, then writes block {@code k} of every member. It writes what the ungrouped plan
   * writes (the members are stored either way) and reads each source block once instead of once per
   * member. Formed when its projected memory fits allowedMem: reservedMem + one step's distinct
   * source blocks (stored ones with their read copies) + per member its accumulator (its output
   * chunk and the op's extra memory), the fused blocks between it and the sources, and its written
   * chunk (summed over the members). Members are added to {@code taken}.
   */
  public static List<MultiOutput.Group> findFolds(
      List<ArrayNode> topo,
      Set<String> materialized,
      Predicate<ArrayNode> isOutput,
      PlanConfig cfg,
      Set<String> taken,
      long tileBytes) {
    List<ArrayNode.Computed> cands = new ArrayList<>();
    for (ArrayNode n : topo) {
      if (n instanceof ArrayNode.Computed c
          && materialized.contains(c.name())
          && !isOutput.test(c)
          && c.target() == null
          && c.isRegular()
          && c.inputs().size() == 1
          && c.op().function() instanceof StreamFold
          && c.inputs().get(0) instanceof ArrayNode.Computed ic
          && !materialized.contains(ic.name())
          && ic.target() == null
          && MultiOutput.aligned(ic, materialized)
          && streams(c)) {
        cands.add(c);
      }
    }
    List<MultiOutput.Group> out = new ArrayList<>();
    for (List<ArrayNode.Computed> g : MultiOutput.join(cands, FoldGroups::sameStreams)) {
      if (g.size() < 2) {
        continue;
      }
      MultiOutput.Sizes z = MultiOutput.sizes(g, cfg, fusedIn(materialized), tileBytes, true);
      // the writes come after the last step, whose source blocks are then garbage
      long mem = cfg.reservedMem() + z.own() + Math.max(z.sourceMem(), z.written());
      if (z.saved() <= 0 || mem > cfg.allowedMem()) {
        continue;
      }
      g.forEach(m -> taken.add(m.name()));
      long steps = g.get(0).op().readsPerInput()[0];
      out.add(
          new MultiOutput.Group(
              g.get(0).name() + "+" + (g.size() - 1),
              List.copyOf(g),
              mem,
              List.copyOf(z.fused()),
              true,
              ByteCounts.satMul(steps, z.storedBytes())));
    }
    return out;
  }

  /**
   * Task {@code key} of a fold group: steps through the members' common stream keys; at each step
   * reads or generates each source block once (a per-step cache, dropped at the next step) and
   * folds every member's input block into that member's accumulator. Returns the members' blocks.
   *
   * @throws IllegalStateException if the members stream different keys in this task (the plan
   *     checks this for every task when an op has at most 10,000 tasks)
   */
  public static List<NDArray> fold(List<ArrayNode.Computed> members, long[] key, Evaluator ev)
      throws Exception {
    List<long[]> keys = streamKeys(members.get(0), key);
    for (ArrayNode.Computed m : members) {
      if (!sameKeys(keys, streamKeys(m, key))) {
        throw new IllegalStateException(
            "multi-output op of "
                + members.get(0).name()
                + ": "
                + m.name()
                + " streams other input blocks than "
                + members.get(0).name()
                + " in task "
                + Arrays.toString(key)
                + "; plan without this grouping");
      }
    }
    if (keys.isEmpty()) {
      throw new IllegalStateException(
          members.get(0).name()
              + ": task "
              + Arrays.toString(key)
              + " streams no input block; a fold needs at least one");
    }
    NDArray[] acc = new NDArray[members.size()];
    for (long[] k : keys) {
      Evaluator step = ev.forTask();
      List<Tiles.Chain> chains = new ArrayList<>();
      List<NDArray> tiledAcc = new ArrayList<>();
      boolean[] fresh = new boolean[acc.length];
      for (int i = 0; i < acc.length; i++) {
        ArrayNode.Computed m = members.get(i);
        Tiles.Chain ch = foldChain(m, step, key, k);
        if (ch != null) {
          fresh[chains.size()] = acc[i] == null;
          if (acc[i] == null) {
            acc[i] = NDArray.zeros(m.dtype(), m.blockShape(key));
          }
          chains.add(ch);
          tiledAcc.add(acc[i]);
          continue;
        }
        NDArray b = step.block(m.inputs().get(0), k.clone());
        StreamFold f = (StreamFold) m.op().function();
        if (acc[i] == null) {
          acc[i] = f.start(b);
        } else {
          f.add(acc[i], b);
        }
      }
      if (!chains.isEmpty()) {
        TiledEvaluation.fold(chains, tiledAcc, fresh, step, k.clone());
      }
    }
    List<NDArray> out = new ArrayList<>(acc.length);
    for (int i = 0; i < acc.length; i++) {
      out.add(Evaluator.check(members.get(i), key, acc[i]));
    }
    return out;
  }

  /**
   * The tiled chain ({@link Tiles}) through which member {@code m} folds its input's block {@code
   * k} straight into its accumulator (block {@code key}), or null: its input must be a fused {@link
   * TileReduction} over a tileable chain whose states {@code m}'s fold merges, and of {@code m}'s
   * block shape.
   */
  private static Tiles.Chain foldChain(ArrayNode.Computed m, Evaluator ev, long[] key, long[] k) {
    ArrayNode.Computed r = foldedReduction(m);
    if (ev.tileBytes() <= 0
        || r == null
        || !ev.fused(r)
        || !Arrays.equals(r.blockShape(k), m.blockShape(key))
        || r.dtype() != m.dtype()) {
      return null;
    }
    return Tiles.chain(r, ev::fused, ev.tileBytes(), k);
  }

  /**
   * The input of fold member {@code m} when it is a {@link TileReduction} whose states m's fold
   * merges (so tile states may go straight into m's accumulator), else null.
   */
  static ArrayNode.Computed foldedReduction(ArrayNode.Computed m) {
    return m.inputs().get(0) instanceof ArrayNode.Computed r
            && r.op().function() instanceof TileReduction tr
            && ((StreamFold) m.op().function()).foldsStatesOf(tr)
        ? r
        : null;
  }

  static Predicate<ArrayNode> fusedIn(Set<String> materialized) {
    return n -> n instanceof ArrayNode.Computed && !materialized.contains(n.name());
  }

  /** True if every probed task of {@code c} reads its input as one stream of keys. */
  private static boolean streams(ArrayNode.Computed c) {
    for (long[] coords : MultiOutput.probes(c.numBlocks())) {
      List<BlockKeys> keys = c.op().keys().keys(coords);
      if (keys.size() != 1 || !(keys.get(0) instanceof BlockKeys.Stream)) {
        return false;
      }
    }
    return true;
  }

  /** Same block grids, same input grids and the same stream keys in the probed tasks. */
  private static boolean sameStreams(ArrayNode.Computed a, ArrayNode.Computed b) {
    if (!Arrays.equals(a.numBlocks(), b.numBlocks())
        || !Arrays.equals(a.inputs().get(0).numBlocks(), b.inputs().get(0).numBlocks())) {
      return false;
    }
    for (long[] coords : MultiOutput.probes(a.numBlocks())) {
      if (!sameKeys(streamKeys(a, coords), streamKeys(b, coords))) {
        return false;
      }
    }
    return true;
  }

  /** The input keys task {@code coords} of a fold member streams. */
  static List<long[]> streamKeys(ArrayNode.Computed c, long[] coords) {
    return ((BlockKeys.Stream) c.op().keys().keys(coords.clone()).get(0)).keys();
  }

  static boolean sameKeys(List<long[]> a, List<long[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }
}
