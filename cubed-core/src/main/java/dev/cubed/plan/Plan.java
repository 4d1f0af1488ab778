package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.FoldGroups;
import dev.cubed.plan.eval.MultiOutput;
import dev.cubed.plan.eval.TiledWrites;
import dev.cubed.plan.eval.Tiles;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.ByteCounts;
import dev.cubed.plan.node.NodeDigest;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import java.util.ArrayList;
import java.util.Comparator;
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
 * <p>Fusion: which computed arrays are stored and which are computed inline in their consumer's
 * tasks, and what a task of each stored op costs, is decided by the package's {@code Fusion} class,
 * whose Javadoc states the rules; the plan keeps the graph, the multi-output groups, the per-op
 * summaries and the run.
 */
public final class Plan {
  final List<ArrayNode> outputs;
  final PlanConfig cfg;
  final List<ArrayNode> topo = new ArrayList<>();
  private final Map<String, Integer> consumers = new HashMap<>();

  /**
   * The name of a blockwise op that joins whole blocks of its one input into larger blocks, each
   * input block read by one task only: the input's ops fuse into it whatever the number of blocks a
   * task reads (see {@code Fusion.blockLimit}) when they are all cheap work ({@code
   * Fusion.cheapWork}); else the input is stored, so that its blocks stay parallel tasks instead of
   * running one after another in the join's task.
   */
  public static final String JOIN_OP = "rechunk-join";

  /** The stored arrays, by name (the rest are fused into their consumers' tasks). */
  final Set<String> materialized;

  /** The fusion decision, and the costs of computing blocks inline under it. */
  private final Fusion fusion;

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

  /** Ops whose tasks keep the source blocks they read, by name ({@code Fusion.cachesSources}). */
  final Set<String> cachedSources = new HashSet<>();

  /**
   * The fused arrays each stored op's tasks keep once computed, by op name (absent: none): see
   * {@link SharedBlocks}.
   */
  final Map<String, Set<String>> sharedBlocks = new HashMap<>();

  private Plan(List<ArrayNode> outputs, PlanConfig cfg) {
    // an output rechunk read back whole needs no new chunks: planned as its input when it fits
    this.outputs = List.copyOf(OutputRechunks.planned(outputs, cfg));
    Map<String, ArrayNode> seen = new HashMap<>();
    for (ArrayNode o : this.outputs) {
      visit(o, seen);
    }
    this.cfg = StoreCopies.apply(cfg, topo);
    this.tileBytes = this.cfg.tileBytes();
    for (ArrayNode n : topo) {
      for (ArrayNode in : new LinkedHashSet<>(n.inputs())) {
        consumers.merge(in.name(), 1, Integer::sum);
      }
    }
    this.fusion = new Fusion(topo, consumers, this::isOutput, this.cfg);
    this.materialized = fusion.materialized;
    fusion.decide();
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
   * reads and writes, its work directory's included (2 when any is an object store such as S3). An
   * output that is a rechunk without a target, of a computed array that fits the memory of one
   * task, is planned as its input (the in-memory rechunk: {@code OutputRechunks}), since the result
   * read back has no chunks.
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

  /** True if {@code n} is one of this plan's outputs (compared by name). */
  boolean isOutput(ArrayNode n) {
    return outputs.stream().anyMatch(o -> o.name().equals(n.name()));
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
    TiledWrites.Chain wc = TiledWrites.chain(c, fusion::fusedComputed, tileBytes, null);
    return wc != null && streamedMem(wc) < fusion.taskMem(fusion.opCost(c)) ? wc : null;
  }

  /**
   * Memory of a block written a run at a time: one run of each array of the chain and each leaf
   * read whole (the encoded output is counted as the write's copy).
   */
  private long streamedMem(TiledWrites.Chain wc) {
    long mem = wc.runBytes();
    for (ArrayNode leaf : wc.wholeLeaves()) {
      mem += fusion.inputCost(leaf).mem();
    }
    return mem;
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
        Fusion.Cost cost = fusion.opCost(c);
        boolean chain = Fusion.isChain(c);
        TiledWrites.Chain wc = chain ? null : writeChain(c);
        if (wc != null) {
          streamedWrites.add(c.name());
        }
        if (!chain && wc == null && Fusion.cachesSources(cost)) {
          cachedSources.add(c.name());
        }
        Set<String> shared = chain ? Set.of() : SharedBlocks.of(c, fusion::fusedComputed, topo);
        if (!shared.isEmpty()) {
          sharedBlocks.put(c.name(), shared);
        }
        long mem =
            cfg.reservedMem()
                + (wc != null ? streamedMem(wc) : fusion.taskMem(cost))
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
        if (Fusion.isJoin(c)
            && c.inputs().get(0) instanceof ArrayNode.Computed in
            && !fusion.cheapUpstream(in)) {
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
      mem += c.op().heldPerInput()[i] * fusion.inputCost(c.inputs().get(i)).mem();
    }
    return mem;
  }

  /**
   * Bytes of stored blocks one task of {@code c} reads: each input's most blocks read times its
   * chunk, fused inputs computed inline counted through to what they read, generated inputs what
   * their generator reads ({@link ArrayNode.BlockGenerator#readBytes}).
   */
  private long readBytesPerTask(ArrayNode.Computed c) {
    long b = 0;
    for (int i = 0; i < c.inputs().size(); i++) {
      ArrayNode in = c.inputs().get(i);
      long per;
      if (in instanceof ArrayNode.Virtual v) {
        per = v.generator().readBytes(in.chunkBytes());
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
        if (s instanceof RunComputeDir.CorruptIntermediateNotice) {
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
        if (s instanceof RunComputeDir.ComputeKeptNotice n) {
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
