package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.durable.CommitJournal;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.durable.Targets;
import dev.cubed.plan.durable.TaskMarkers;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.Evaluator;
import dev.cubed.plan.eval.FoldGroups;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.eval.MultiOutput;
import dev.cubed.plan.eval.TiledWrites;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.plan.node.PlanSummary;
import dev.cubed.primitive.CopyOp;
import dev.cubed.primitive.RechunkPlanner;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * One run of a {@link Plan}: lowers its decisions (materialized arrays, multi-output and fold
 * groups, rechunk chains) to executor {@link Operation}s over Zarr arrays in the compute directory,
 * runs them (or a tiny plan in the calling thread), reads the outputs back, and on failure keeps
 * the directory for a resume. The plan itself decides; this class carries it out.
 */
final class PlanRun {
  private static final Logger LOG = Logger.getLogger(Plan.class.getName());

  private final Plan plan;

  /** Whether outputs read back by this run may be written straight into their results. */
  private boolean memoryOutputs;

  /** The outputs written straight into their results ({@link MemoryOutputs}). */
  private final MemoryOutputs inMemory = new MemoryOutputs();

  PlanRun(Plan plan) {
    this.plan = plan;
  }

  /** Runs the plan: see {@link Plan#run}. */
  PlanResult run(Executor executor, List<Callback> callbacks, RunOptions options) {
    boolean read = options.readResults();
    boolean resume = options.resume();
    for (Callback c : callbacks) {
      if (c instanceof PlanCallback pc) {
        pc.onPlan(plan);
      }
    }
    plan.checkMemory();
    if (read && !resume && callbacks.isEmpty() && executor.allowsInlineTinyPlans() && plan.tiny()) {
      try {
        return new PlanResult(runInline(), 0, RunReport.of(executor.name(), 1));
      } catch (RuntimeException e) {
        // a failing block: run the plan through the executor, which retries and reports a
        // failure as usual (TaskFailedException with the attempts); tasks are idempotent
      }
    }
    if (!resume) {
      plan.checkDisk(); // a resume's intermediates are partly on disk already
    }
    Map<String, Integer> readers = MemoryOutputs.readers(plan.topo);
    // a light run opens no compute directory unless it fails with finished blocks to keep
    boolean light = !resume && lightRun(executor, read, readers);
    Targets targets =
        Targets.prepare(
            plan.topo,
            plan.cfg.localWorkDir() ? plan.cfg.workDirPath() : null,
            resume,
            !light && CommitJournal.commitBegan(plan.cfg.workDir(), plan.computeId()));
    RunDir dir = new RunDir(plan, light ? null : RunComputeDir.open(plan, resume));
    ComputeDir cdir = dir.opened();
    String computeId = light ? "compute-" + plan.computeId() : cdir.name();
    Store store = light ? null : cdir.store();
    Map<String, ZarrArray> arrays = new LinkedHashMap<>();
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Stored s) {
        arrays.put(s.name(), s.array());
      }
    }
    if (!executor.runsTasksInThisJvm()) {
      storeClientData(store, arrays);
    }
    Evaluator ev = new Evaluator(arrays, plan.tileBytes);
    // a failed run writes the finished blocks of its memory outputs to the compute directory
    // (flushMemoryOutputs); a resumed run reads them from there, so it holds none in memory
    memoryOutputs = read && executor.runsTasksInThisJvm() && (light || !cdir.resumed());
    List<Operation> ops = new ArrayList<>();
    Map<String, TaskMarkers.TargetWrites> targetWrites = new HashMap<>();
    Map<String, String> producer = new HashMap<>();
    try {
      if (!light) {
        targets.open(cdir, resume);
      }
      for (ArrayNode n : plan.topo) {
        MultiOutput.Group g = plan.groupOf.get(n.name());
        if (g != null) {
          if (g.members().get(0) == n) {
            ops.add(groupOp(g, store, arrays, ev));
          }
          producer.put(n.name(), g.name());
        } else if (n instanceof ArrayNode.Computed c && plan.materialized.contains(c.name())) {
          PlanSummary.OpInfo info = plan.info(c.name());
          if (c.target() == null
              && memoryOutputs
              && isOutput(c)
              && !readers.containsKey(c.name())) {
            // written straight into the result; marked done only if the run fails
            ops.add(
                inMemory.op(
                    c,
                    ev,
                    plan.cachedSources.contains(c.name()),
                    plan.sharedBlocks.getOrDefault(c.name(), Set.of()),
                    plan.streamedWrites.contains(c.name()),
                    info.projectedMem(),
                    List.copyOf(producersRead(c, producer, new LinkedHashSet<>())),
                    allBlocks(c.numBlocks()),
                    options.buffers() == null
                        ? null
                        : options.buffers().buffer(plan.outputs.indexOf(c), c.dtype(), c.shape()),
                    options.buffers() == null
                        ? null
                        : options.buffers().channel(plan.outputs.indexOf(c))));
            producer.put(c.name(), c.name());
            continue;
          }
          ZarrArray z =
              c.target() != null
                  ? targets.writeTo(c.target())
                  : c.isRegular() ? createOutput(store, c) : createPadded(store, c.name(), c);
          arrays.put(c.name(), z);
          if (c.op().function() instanceof ChainFunction cf) {
            ops.add(chainOp(c, cf.axis(), z, ev, info, producer, targetWrites));
            producer.put(c.name(), c.name());
            continue;
          }
          if (c.target() != null) {
            targetWrites.put(c.name(), new TaskMarkers.TargetWrites(z, key -> List.of(key)));
          }
          List<long[]> keys = allBlocks(c.numBlocks());
          boolean padded = !c.isRegular();
          long[] padTo = c.chunks();
          boolean streamed = plan.streamedWrites.contains(c.name());
          boolean keep = plan.cachedSources.contains(c.name());
          Set<String> shared = plan.sharedBlocks.getOrDefault(c.name(), Set.of());
          ops.add(
              new Operation(
                  c.name(),
                  keys,
                  key -> {
                    TiledWrites.Chain wc =
                        streamed && z.streamsWrites()
                            ? TiledWrites.chain(c, ev::fused, ev.tileBytes(), key)
                            : null;
                    if (wc != null) {
                      z.writeChunk(key, TiledWrites.elements(wc, ev.forTask(false, shared), key));
                    } else {
                      Evaluator tev = ev.forTask(keep, shared);
                      z.writeChunk(
                          key,
                          padded ? Evaluator.pad(tev.compute(c, key), padTo) : tev.compute(c, key));
                    }
                  },
                  info.projectedMem(),
                  List.copyOf(producersRead(c, producer, new LinkedHashSet<>()))));
          producer.put(c.name(), c.name());
        } else if (n instanceof ArrayNode.Rechunked r) {
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
                        ? create(store, r.name(), r, chain.get(k))
                        : create(
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
            List<String> deps =
                k == 1
                    ? List.copyOf(producersRead(r, producer, new LinkedHashSet<>()))
                    : List.of(ops.get(ops.size() - 1).name());
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
                  new TaskMarkers.TargetWrites(
                      dst, key -> TaskMarkers.regionChunks(dst, region, key)));
            }
            src = dst;
          }
          arrays.put(r.name(), src);
          producer.put(r.name(), ops.get(ops.size() - 1).name());
        }
      }
      // (a light run's ops all write to memory: none is marked or skipped)
      TaskMarkers.Prepared prep =
          light
              ? new TaskMarkers.Prepared(ops, 0)
              : TaskMarkers.prepare(cdir, ops, targetWrites, inMemory.names());
      if (resume) {
        for (Callback c : callbacks) {
          if (c instanceof PlanCallback pc) {
            pc.onResume(prep.skipped());
          }
        }
      }
      List<Operation> toRun = prep.ops();
      RunReport[] report = new RunReport[1];
      inMemory.whileRunning(
          () -> flushMemoryOutputs(dir, null),
          () -> targets.run(() -> report[0] = executor.execute(computeId, toRun, callbacks)));
      List<NDArray> results = new ArrayList<>();
      Set<String> given = new HashSet<>();
      for (ArrayNode o : read ? plan.outputs : List.<ArrayNode>of()) {
        if (inMemory.contains(o.name())) {
          // a buffered result is the caller's at its first position (null there), a copy after
          results.add(
              !inMemory.buffered(o.name())
                  ? inMemory.result(o.name())
                  : given.add(o.name()) ? null : inMemory.copyOut(o.name()));
          continue;
        }
        ZarrArray z = arrays.get(o.name());
        z = z == null ? null : targets.committed(z);
        if (z == null
            && options.buffers() != null
            && o instanceof ArrayNode.Virtual v
            && v.generator() instanceof HeldBlocks h
            && given.add(o.name())
            && copyHeld(
                h, o, options.buffers().buffer(plan.outputs.indexOf(o), o.dtype(), o.shape()))) {
          results.add(
              null); // an in-memory input passed through: one copy, into the caller's buffer
          continue;
        }
        try {
          results.add(z != null && o.isRegular() ? z.read() : assemble(o, ev));
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IllegalStateException("reading the result " + o.name() + ": " + e, e);
        }
      }
      if (dir.opened() != null) {
        dir.opened().deleteAndRelease();
      }
      return new PlanResult(results, prep.skipped(), report[0]);
    } catch (RuntimeException | Error e) {
      targets.close();
      flushMemoryOutputs(dir, e);
      if (dir.opened() != null) {
        // (a light run that kept nothing opened none: nothing is left behind)
        RunComputeDir.keepForResume(plan, dir.opened(), targets, e);
      }
      throw e;
    }
  }

  /**
   * True if this run may go without a compute directory while it succeeds: it reads its results
   * into memory from tasks in this JVM, and every op writes straight into a result (no target, no
   * rechunk, no multi-output group, no intermediate another op reads), so nothing is stored; and no
   * earlier run left a directory of this plan (a plain compute removes it). If it fails, the
   * directory is opened then, as any run's, for the finished blocks its flush keeps for a resume.
   */
  private boolean lightRun(Executor executor, boolean read, Map<String, Integer> readers) {
    if (!read
        || !executor.runsTasksInThisJvm()
        || !plan.cfg.localWorkDir()
        || !plan.groupOf.isEmpty()) {
      return false;
    }
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Rechunked
          || n instanceof ArrayNode.Computed c
              && (c.target() != null
                  || plan.materialized.contains(c.name())
                      && (!isOutput(c) || readers.containsKey(c.name())))) {
        return false;
      }
    }
    return Files.notExists(plan.cfg.workDirPath().resolve("compute-" + plan.computeId()));
  }

  /**
   * A run's compute directory: opened when the run starts, or for a {@link #lightRun} only when its
   * failure has finished blocks to keep (then as any run opens it, without resume).
   */
  private static final class RunDir {
    private final Plan plan;
    private ComputeDir dir;

    RunDir(Plan plan, ComputeDir dir) {
      this.plan = plan;
      this.dir = dir;
    }

    synchronized ComputeDir get() {
      if (dir == null) {
        dir = RunComputeDir.open(plan, false);
      }
      return dir;
    }

    synchronized ComputeDir opened() {
      return dir;
    }
  }

  /**
   * The op of a multi-output group: creates each member's intermediate array; task {@code k} reads
   * each source block once (a per-task cache) and writes block {@code k} of every member. Its
   * members read only virtual or stored sources, so it depends on no other op.
   */
  private Operation groupOp(
      MultiOutput.Group g, Store store, Map<String, ZarrArray> arrays, Evaluator ev) {
    List<ArrayNode.Computed> members = g.members();
    List<ZarrArray> zs = new ArrayList<>();
    for (ArrayNode.Computed m : members) {
      ZarrArray z = create(store, m.name(), m, m.chunks());
      arrays.put(m.name(), z);
      zs.add(z);
    }
    if (g.fold()) {
      return new Operation(
          g.name(),
          allBlocks(members.get(0).numBlocks()),
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
        allBlocks(members.get(0).numBlocks()),
        key -> {
          Evaluator tev = ev.forTask();
          for (int i = 0; i < members.size(); i++) {
            zs.get(i).writeChunk(key, tev.compute(members.get(i), key));
          }
        },
        plan.info(g.name()).projectedMem(),
        List.of());
  }

  /**
   * The ops whose output evaluating {@code n} reads: the producers of its stored inputs, looking
   * through inputs that are fused into it (computed but not plan.materialized).
   */
  private static Set<String> producersRead(
      ArrayNode n, Map<String, String> producer, Set<String> acc) {
    for (ArrayNode in : n.inputs()) {
      String p = producer.get(in.name());
      if (p != null) {
        acc.add(p);
      } else if (in instanceof ArrayNode.Computed) {
        producersRead(in, producer, acc);
      }
    }
    return acc;
  }

  /** Evaluates a {@link Plan#tiny()} plan in this thread, each block once, without files. */
  /** The op of a chain's array ({@link ChainWalks}): one task per row, writing the row's blocks. */
  private Operation chainOp(
      ArrayNode.Computed c,
      int axis,
      ZarrArray z,
      Evaluator ev,
      PlanSummary.OpInfo info,
      Map<String, String> producer,
      Map<String, TaskMarkers.TargetWrites> targetWrites) {
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
        List.copyOf(producersRead(c, producer, new LinkedHashSet<>())));
  }

  private List<NDArray> runInline() {
    Evaluator ev = Evaluator.inMemory();
    List<NDArray> results = new ArrayList<>();
    for (ArrayNode o : plan.outputs) {
      try {
        results.add(assemble(o, ev));
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(
            "computing " + o.name() + " in the calling thread: " + e, e);
      }
    }
    return results;
  }

  /**
   * Copies the whole in-memory input {@code h} (output {@code o} of the plan, passed through
   * unchanged) into the caller's result buffer {@code buf} in one copy, without a block copy or an
   * assembled array in between; false when the caller gave no buffer.
   */
  private static boolean copyHeld(HeldBlocks h, ArrayNode o, ByteBuffer buf) {
    if (buf == null) {
      return false;
    }
    long nbytes = Shapes.size(o.shape()) * o.dtype().itemSize();
    if (buf.capacity() != nbytes) {
      throw new IllegalArgumentException(
          "the result buffer for "
              + o.name()
              + " holds "
              + buf.capacity()
              + " bytes; its result"
              + " takes "
              + nbytes);
    }
    BufferRegions.put(
        BufferRegions.littleEndian(buf), o.shape(), new long[o.shape().length], h.data());
    return true;
  }

  private static NDArray assemble(ArrayNode n, Evaluator ev) throws Exception {
    NDArray out = NDArray.empty(n.dtype(), n.shape());
    for (long[] b : allBlocks(n.numBlocks())) {
      out.setRegion(n.blockOffset(b), ev.block(n, b));
    }
    return out;
  }

  static List<long[]> allBlocks(long[] grid) {
    List<long[]> keys = new ArrayList<>();
    long total = Shapes.size(grid);
    for (long f = 0; f < total; f++) {
      keys.add(Shapes.unravel(grid, f));
    }
    return keys;
  }

  /**
   * Writes each in-memory input ({@link HeldBlocks}) to the compute's store, a block at a time, in
   * this thread, and adds it to {@code arrays}: tasks running in other JVMs read its blocks from
   * there (the evaluator reads a node it finds in {@code arrays}), and the array is not shipped.
   */
  private void storeClientData(Store store, Map<String, ZarrArray> arrays) {
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Virtual v && v.generator() instanceof HeldBlocks h) {
        ZarrArray z =
            v.isRegular()
                ? create(store, v.name(), v, v.chunks())
                : createPadded(store, v.name(), v);
        for (long[] key : allBlocks(v.numBlocks())) {
          NDArray b = h.generate(key.clone(), v.blockShape(key));
          z.writeChunk(key, v.isRegular() ? b : Evaluator.pad(b, v.chunks()));
        }
        arrays.put(v.name(), z);
      }
    }
  }

  private boolean isOutput(ArrayNode n) {
    return plan.outputs.stream().anyMatch(o -> o.name().equals(n.name()));
  }

  /**
   * Before a failure propagates (or the JVM ends during the run: {@code e} null): the finished
   * tasks of the outputs held in memory are written to the compute directory with their completion
   * markers, so that a resume skips them (a failure doing so is attached to {@code e}).
   */
  private void flushMemoryOutputs(RunDir dir, Throwable e) {
    try {
      long n =
          inMemory.flush(
              dir::get,
              c ->
                  c.isRegular()
                      ? createOutput(dir.get().store(), c)
                      : createPadded(dir.get().store(), c.name(), c));
      if (n > 0) {
        LOG.info(
            "compute failed: the "
                + n
                + " finished tasks of its results held in memory were"
                + " written to "
                + dir.get().location()
                + " for a resume");
      }
    } catch (RuntimeException | Error r) {
      if (e == null) {
        throw r;
      }
      e.addSuppressed(r);
    }
  }

  /** The compute directory's array of a regular computed array without a target. */
  private ZarrArray createOutput(Store store, ArrayNode.Computed c) {
    return create(store, c.name(), c.shape(), c.chunks(), c, outputCompression(c));
  }

  /**
   * Compression of a computed array: none for an output without a target on a local work directory
   * (read back whole by the caller right after the run, so compressing it would only cost time:
   * random float data barely compresses), else the default (null).
   */
  private Compression outputCompression(ArrayNode.Computed c) {
    return isOutput(c) && plan.cfg.localWorkDir() ? Compression.none() : null;
  }

  private ZarrArray create(Store store, String path, ArrayNode n, long[] chunks) {
    return create(store, path, n.shape(), chunks, n);
  }

  private ZarrArray create(Store store, String path, long[] shape, long[] chunks, ArrayNode n) {
    return create(store, path, shape, chunks, n, null);
  }

  private ZarrArray create(
      Store store, String path, long[] shape, long[] chunks, ArrayNode n, Compression compression) {
    long[] c = chunks.clone();
    for (int i = 0; i < c.length; i++) {
      c[i] = Math.max(1, Math.min(c[i], Math.max(1, shape[i])));
    }
    if (store.exists(path + "/zarr.json")) { // kept by an earlier run of this plan (resume)
      ZarrArray z = ZarrArray.open(store, path);
      if (Arrays.equals(z.shape(), shape)
          && Arrays.equals(z.chunks(), c)
          && z.dtype() == n.dtype()) {
        return z.asIntermediate();
      }
    }
    ZarrArrayBuilder b =
        ZarrArray.create(store, path)
            .shape(shape)
            .chunks(c)
            .dtype(n.dtype())
            .compression(compression)
            .overwrite();
    if (plan.cfg.intermediateChecksums()) {
      b.crc32c();
    }
    return b.build().asIntermediate();
  }

  /*
   * Intermediate arrays get a crc32c checksum per chunk (Zarr v3's crc32c codec after the
   * compressor) unless the plan's PlanConfig.intermediateChecksums() is off (for measuring its cost
   * only, docs/performance.md, "Checksums"): a chunk changed between the op that wrote it and the
   * op that reads it then fails the reading task (a ChecksumMismatchException naming the chunk, the
   * array and the store) instead of giving a wrong answer. An intermediate kept by an earlier run
   * and reopened on resume keeps the codecs it was created with.
   */

  /** Storage of an irregular array: block i of an axis in chunk i, chunks = largest blocks. */
  private ZarrArray createPadded(Store store, String path, ArrayNode n) {
    long[] c = n.chunks();
    long[] g = n.numBlocks();
    long[] shape = new long[c.length];
    for (int i = 0; i < c.length; i++) {
      shape[i] = g[i] * c[i];
    }
    return create(store, path, shape, c, n);
  }
}
