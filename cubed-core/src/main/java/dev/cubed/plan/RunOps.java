package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.plan.durable.Targets;
import dev.cubed.plan.durable.TaskMarkers;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.Evaluator;
import dev.cubed.plan.eval.FoldGroups;
import dev.cubed.plan.eval.MultiOutput;
import dev.cubed.plan.eval.TiledWrites;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.CopyOp;
import dev.cubed.primitive.RechunkPlanner;
import dev.cubed.runtime.Operation;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lowering of a plan's decisions to executor {@link Operation}s, in the plan's topological
 * order: one op per materialized computed array (writing its blocks to its Zarr array, to its
 * target, or straight into its result held in memory), per multi-output or fold group, per chain
 * array (one task per row), and one copy op per stage of a rechunk chain. Each op depends on the
 * ops whose output it reads. The arrays it writes are created as it goes ({@link RunArrays}) and
 * added to the run's map of arrays by name, which the evaluator reads from.
 */
final class RunOps {
  private final Plan plan;
  private final RunArrays create;
  private final Store store;
  private final Targets targets;
  private final Evaluator ev;
  private final Map<String, ZarrArray> arrays;
  private final MemoryOutputs inMemory;
  private final boolean memoryOutputs;
  private final Map<String, Integer> readers;
  private final ResultBuffers buffers;

  private final List<Operation> ops = new ArrayList<>();
  private final Map<String, TaskMarkers.TargetWrites> targetWrites = new HashMap<>();

  /** For each array lowered so far: the name of the op that writes it. */
  private final Map<String, String> producer = new HashMap<>();

  /**
   * A lowering of {@code plan}'s run.
   *
   * @param store the compute directory's store (null for a light run, which stores nothing)
   * @param arrays the run's arrays by name (the stored inputs; each op's array is added)
   * @param inMemory where the outputs written straight into their results are registered
   * @param memoryOutputs whether an output without a target that no op reads is written straight
   *     into its result ({@code inMemory}) rather than to the store
   * @param readers each array's number of reading ops ({@link MemoryOutputs#readers})
   * @param buffers the caller's result buffers, or null
   */
  RunOps(
      Plan plan,
      RunArrays create,
      Store store,
      Targets targets,
      Evaluator ev,
      Map<String, ZarrArray> arrays,
      MemoryOutputs inMemory,
      boolean memoryOutputs,
      Map<String, Integer> readers,
      ResultBuffers buffers) {
    this.plan = plan;
    this.create = create;
    this.store = store;
    this.targets = targets;
    this.ev = ev;
    this.arrays = arrays;
    this.inMemory = inMemory;
    this.memoryOutputs = memoryOutputs;
    this.readers = readers;
    this.buffers = buffers;
  }

  /** Lowers every node of the plan; returns the ops in dependency order. Call once. */
  List<Operation> lower() {
    for (ArrayNode n : plan.topo) {
      MultiOutput.Group g = plan.groupOf.get(n.name());
      if (g != null) {
        if (g.members().get(0) == n) {
          ops.add(groupOp(g));
        }
        producer.put(n.name(), g.name());
      } else if (n instanceof ArrayNode.Computed c && plan.materialized.contains(c.name())) {
        ops.add(computedOp(c));
        producer.put(c.name(), c.name());
      } else if (n instanceof ArrayNode.Rechunked r) {
        rechunkOps(r);
      }
    }
    return ops;
  }

  /**
   * The ops that write to user targets, with the chunks each task writes (for the completion
   * markers of {@link TaskMarkers#prepare}); filled by {@link #lower}.
   */
  Map<String, TaskMarkers.TargetWrites> targetWrites() {
    return targetWrites;
  }

  /** The op of a materialized computed array. */
  private Operation computedOp(ArrayNode.Computed c) {
    PlanSummary.OpInfo info = plan.info(c.name());
    if (c.target() == null && memoryOutputs && plan.isOutput(c) && !readers.containsKey(c.name())) {
      // written straight into the result; marked done only if the run fails
      int i = plan.outputs.indexOf(c);
      return inMemory.op(
          c,
          ev,
          plan.cachedSources.contains(c.name()),
          plan.sharedBlocks.getOrDefault(c.name(), Set.of()),
          plan.streamedWrites.contains(c.name()),
          info.projectedMem(),
          depsOf(c),
          PlanRun.allBlocks(c.numBlocks()),
          buffers == null ? null : buffers.buffer(i, c.dtype(), c.shape()),
          buffers == null ? null : buffers.channel(i));
    }
    ZarrArray z =
        c.target() != null ? targets.writeTo(c.target()) : create.regularOrPadded(store, c);
    arrays.put(c.name(), z);
    if (c.op().function() instanceof ChainFunction cf) {
      return chainOp(c, cf.axis(), z, info);
    }
    if (c.target() != null) {
      targetWrites.put(c.name(), new TaskMarkers.TargetWrites(z, key -> List.of(key)));
    }
    // (the task function captures locals only, never this lowering: it is shipped to worker
    // processes, and the lowering is not Serializable)
    Evaluator ev = this.ev;
    boolean padded = !c.isRegular();
    long[] padTo = c.chunks();
    boolean streamed = plan.streamedWrites.contains(c.name());
    boolean keep = plan.cachedSources.contains(c.name());
    Set<String> shared = plan.sharedBlocks.getOrDefault(c.name(), Set.of());
    return new Operation(
        c.name(),
        PlanRun.allBlocks(c.numBlocks()),
        key -> {
          TiledWrites.Chain wc =
              streamed && z.streamsWrites()
                  ? TiledWrites.chain(c, ev::fused, ev.tileBytes(), key)
                  : null;
          if (wc != null) {
            try (TiledWrites.Elements el =
                TiledWrites.elements(wc, ev.forTask(false, shared), key)) {
              z.writeChunk(key, el);
            }
          } else {
            Evaluator tev = ev.forTask(keep, shared);
            z.writeChunk(
                key, padded ? Evaluator.pad(tev.compute(c, key), padTo) : tev.compute(c, key));
          }
        },
        info.projectedMem(),
        depsOf(c));
  }

  /**
   * The copy ops of a rechunk: one per stage of its chain ({@code plan.rechunkChains}), each
   * reading the previous stage's array; the last writes the rechunked array (or its target).
   */
  private void rechunkOps(ArrayNode.Rechunked r) {
    List<long[]> chain = plan.rechunkChains.get(r.name());
    ZarrArray src = arrays.get(r.inputs().get(0).name());
    if (src == null) {
      throw new IllegalStateException(
          r.name()
              + ": its input "
              + r.inputs().get(0).name()
              + " is not stored; rechunk needs a stored or computed input");
    }
    for (int k = 1; k < chain.size(); k++) {
      boolean last = k == chain.size() - 1;
      ZarrArray dst =
          last && r.target() != null
              ? targets.writeTo(r.target())
              : last
                  ? create.create(store, r.name(), r, chain.get(k))
                  : create.create(
                      store,
                      r.name() + "-int" + k,
                      r.shape(),
                      chain.get(k),
                      r,
                      plan.cfg.rechunkCompression().compression(store.bufferCopies() > 1));
      long[] region =
          RechunkPlanner.copyRegion(
              r.shape(),
              chain.get(k - 1),
              chain.get(k),
              r.dtype().itemSize(),
              plan.cfg.rechunkBudget());
      String opName = r.name() + (chain.size() > 2 ? "-stage" + k : "");
      List<String> deps = k == 1 ? depsOf(r) : List.of(ops.get(ops.size() - 1).name());
      ops.add(
          CopyOp.build(
              opName,
              src,
              dst,
              region,
              plan.info(opName).projectedMem(),
              deps,
              k > 1 && plan.cfg.rechunkConsume().consume(store.bufferCopies() > 1)));
      if (last && r.target() != null) {
        targetWrites.put(
            opName,
            new TaskMarkers.TargetWrites(dst, key -> TaskMarkers.regionChunks(dst, region, key)));
      }
      src = dst;
    }
    arrays.put(r.name(), src);
    producer.put(r.name(), ops.get(ops.size() - 1).name());
  }

  /**
   * The op of a multi-output group: creates each member's intermediate array; task {@code k} reads
   * each source block once (a per-task cache) and writes block {@code k} of every member. Its
   * members read only virtual or stored sources, so it depends on no other op.
   */
  private Operation groupOp(MultiOutput.Group g) {
    Evaluator ev = this.ev; // (captured by the task functions: see computedOp)
    List<ArrayNode.Computed> members = g.members();
    List<ZarrArray> zs = new ArrayList<>();
    for (ArrayNode.Computed m : members) {
      ZarrArray z = create.create(store, m.name(), m, m.chunks());
      arrays.put(m.name(), z);
      zs.add(z);
    }
    if (g.fold()) {
      return new Operation(
          g.name(),
          PlanRun.allBlocks(members.get(0).numBlocks()),
          key -> {
            List<NDArray> acc = FoldGroups.fold(members, key, ev);
            for (int i = 0; i < members.size(); i++) {
              zs.get(i).writeChunk(key, acc.get(i));
            }
          },
          plan.info(g.name()).projectedMem(),
          List.of());
    }
    return new Operation(
        g.name(),
        PlanRun.allBlocks(members.get(0).numBlocks()),
        key -> {
          List<NDArray> blocks = MultiOutput.computeMembers(members, ev.forTask(), key);
          for (int i = 0; i < members.size(); i++) {
            zs.get(i).writeChunk(key, blocks.get(i));
          }
        },
        plan.info(g.name()).projectedMem(),
        List.of());
  }

  /** The op of a chain's array ({@link ChainWalks}): one task per row, writing the row's blocks. */
  private Operation chainOp(ArrayNode.Computed c, int axis, ZarrArray z, PlanSummary.OpInfo info) {
    Evaluator ev = this.ev; // (captured by the task function: see computedOp)
    long[] nb = c.numBlocks();
    if (c.target() != null) {
      targetWrites.put(
          c.name(), new TaskMarkers.TargetWrites(z, key -> ChainWalks.rowBlocks(nb, axis, key)));
    }
    return new Operation(
        c.name(),
        ChainWalks.rows(c, axis),
        key -> ChainWalks.walk(c, ev, key, z::writeChunk),
        info.projectedMem(),
        depsOf(c));
  }

  /**
   * The ops {@code n} depends on: those whose output evaluating it reads ({@link #producersRead}).
   */
  private List<String> depsOf(ArrayNode n) {
    return List.copyOf(producersRead(n, new LinkedHashSet<>()));
  }

  /**
   * The ops whose output evaluating {@code n} reads: the producers of its stored inputs, looking
   * through inputs that are fused into it (computed but not materialized).
   */
  private Set<String> producersRead(ArrayNode n, Set<String> acc) {
    for (ArrayNode in : n.inputs()) {
      String p = producer.get(in.name());
      if (p != null) {
        acc.add(p);
      } else if (in instanceof ArrayNode.Computed) {
        producersRead(in, acc);
      }
    }
    return acc;
  }
}
