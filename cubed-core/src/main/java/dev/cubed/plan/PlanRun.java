package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.durable.CommitJournal;
import dev.cubed.plan.durable.Targets;
import dev.cubed.plan.durable.TaskMarkers;
import dev.cubed.plan.eval.Evaluator;
import dev.cubed.plan.eval.HeldBlocks;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.LazyLog;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run of a {@link Plan}: lowers its decisions to executor {@link Operation}s over Zarr arrays
 * in the compute directory ({@link RunOps}, {@link RunArrays}), runs them (or a tiny plan in the
 * calling thread), reads the outputs back, and on failure keeps the directory for a resume ({@link
 * RunDir}). The plan itself decides; this class carries it out.
 */
final class PlanRun {
  private static final LazyLog LOG = new LazyLog(Plan.class.getName());

  private final Plan plan;
  private final RunArrays create;

  /** The outputs written straight into their results ({@link MemoryOutputs}). */
  private final MemoryOutputs inMemory = new MemoryOutputs();

  PlanRun(Plan plan) {
    this.plan = plan;
    this.create = new RunArrays(plan);
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
    boolean light = !resume && LightRun.applies(plan, executor, read, readers);
    Targets targets =
        Targets.prepare(
            plan.topo,
            plan.cfg.localWorkDir() ? plan.cfg.workDirPath() : null,
            resume,
            !light && CommitJournal.commitBegan(plan.cfg.workDir(), plan.computeId()));
    RunDir dir = new RunDir(plan, light ? null : RunComputeDir.open(plan, resume));
    String computeId = light ? "compute-" + plan.computeId() : dir.opened().name();
    Store store = light ? null : dir.opened().store();
    Map<String, ZarrArray> arrays = new LinkedHashMap<>();
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Stored s) {
        arrays.put(s.name(), s.array());
      }
    }
    if (!executor.runsTasksInThisJvm()) {
      create.storeHeldInputs(store, arrays);
    }
    Evaluator ev = new Evaluator(arrays, plan.tileBytes);
    // a failed run writes the finished blocks of its memory outputs to the compute directory
    // (flushMemoryOutputs); a resumed run reads them from there, so it holds none in memory
    boolean memoryOutputs =
        read && executor.runsTasksInThisJvm() && (light || !dir.opened().resumed());
    try {
      if (!light) {
        targets.open(dir.opened(), resume);
      }
      RunOps lowering =
          new RunOps(
              plan,
              create,
              store,
              targets,
              ev,
              arrays,
              inMemory,
              memoryOutputs,
              readers,
              options.buffers());
      List<Operation> ops = lowering.lower();
      // (a light run's ops all write to memory: none is marked or skipped)
      TaskMarkers.Prepared prep =
          light
              ? new TaskMarkers.Prepared(ops, 0)
              : TaskMarkers.prepare(dir.opened(), ops, lowering.targetWrites(), inMemory.names());
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
      List<NDArray> results =
          read ? results(arrays, targets, ev, options.buffers()) : new ArrayList<>();
      dir.succeeded();
      return new PlanResult(results, prep.skipped(), report[0]);
    } catch (RuntimeException | Error e) {
      targets.close();
      flushMemoryOutputs(dir, e);
      dir.failed(targets, e);
      throw e;
    }
  }

  /**
   * The outputs of a run that finished, in the plan's order: each held in memory is taken from
   * there (a buffered result is the caller's at its first position, null there, and a copy after);
   * an in-memory input passed through unchanged is copied into the caller's buffer ({@link
   * HeldCopy}; null in its place); a regular output stored (or committed to its target) is read
   * whole; any other is assembled block by block.
   */
  private List<NDArray> results(
      Map<String, ZarrArray> arrays, Targets targets, Evaluator ev, ResultBuffers buffers) {
    List<NDArray> results = new ArrayList<>();
    Set<String> given = new HashSet<>();
    for (ArrayNode o : plan.outputs) {
      if (inMemory.contains(o.name())) {
        results.add(
            !inMemory.buffered(o.name())
                ? inMemory.result(o.name())
                : given.add(o.name()) ? null : inMemory.copyOut(o.name()));
        continue;
      }
      ZarrArray z = arrays.get(o.name());
      z = z == null ? null : targets.committed(z);
      if (z == null
          && buffers != null
          && o instanceof ArrayNode.Virtual v
          && v.generator() instanceof HeldBlocks h
          && given.add(o.name())
          && HeldCopy.into(
              h,
              o,
              buffers.buffer(plan.outputs.indexOf(o), o.dtype(), o.shape()),
              buffers.channel(plan.outputs.indexOf(o)))) {
        results.add(null);
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
    return results;
  }

  /** Evaluates a {@link Plan#tiny()} plan in this thread, each block once, without files. */
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

  private static NDArray assemble(ArrayNode n, Evaluator ev) throws Exception {
    NDArray out = NDArray.empty(n.dtype(), n.shape());
    for (long[] b : allBlocks(n.numBlocks())) {
      out.setRegion(n.blockOffset(b), ev.block(n, b));
    }
    return out;
  }

  /** The keys of every block of a grid of {@code grid} blocks, in C order. */
  static List<long[]> allBlocks(long[] grid) {
    List<long[]> keys = new ArrayList<>();
    long total = Shapes.size(grid);
    for (long f = 0; f < total; f++) {
      keys.add(Shapes.unravel(grid, f));
    }
    return keys;
  }

  /**
   * Before a failure propagates (or the JVM ends during the run: {@code e} null): the finished
   * tasks of the outputs held in memory are written to the compute directory with their completion
   * markers, so that a resume skips them (a failure doing so is attached to {@code e}).
   */
  private void flushMemoryOutputs(RunDir dir, Throwable e) {
    try {
      long n = inMemory.flush(dir::get, c -> create.regularOrPadded(dir.get().store(), c));
      if (n > 0) {
        LOG.get()
            .info(
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
}
