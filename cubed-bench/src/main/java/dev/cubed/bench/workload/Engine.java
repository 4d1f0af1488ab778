package dev.cubed.bench.workload;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.FillFunction;
import dev.cubed.PlanFigures;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.zarr.ZarrArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What the workloads share, on the library's public API only ({@link Cubed}, {@link dev.cubed.Xp},
 * {@link Spec}, {@link ComputeOptions}): the {@link Spec} of a {@link BenchContext} (fusion off =
 * {@code maxInputBlocks(0)}), its executor, generated inputs ({@link Cubed#fromFunction(long[],
 * long[], DType, FillFunction, Spec)}) and computes that add up the figures of their plans ({@link
 * ComputeOptions#withPlanFigures}: each compute plans once). While the launcher probes the heap a
 * run needs ({@link #probing}), computes are planned ({@link Cubed#summary}) and not run.
 */
final class Engine {
  /** An executor replacing the context's for Engines made on this thread (see withExecutor). */
  private static final ThreadLocal<Executor> EXECUTOR_OVERRIDE = new ThreadLocal<>();

  /** Callbacks for the computes of Engines made on this thread meanwhile (see withCallbacks). */
  private static final ThreadLocal<List<Callback>> CALLBACKS = ThreadLocal.withInitial(List::of);

  /** The probe of this thread's computes, else null. */
  private static final ThreadLocal<Probe> PROBE = new ThreadLocal<>();

  private final Spec spec;
  private final ComputeOptions options;
  private final int workers;
  private long tasks;
  private long maxProjectedMem;
  private long intermediateBytes;

  Engine(BenchContext ctx) {
    // reservedMem as the environment sets it (CUBED_SPEC_RESERVED_MEM), default 100 MB
    Spec.Builder b =
        Spec.builder()
            .workDir(ctx.workDir())
            .allowedMem(ctx.allowedMem())
            .reservedMem(Spec.fromEnv().reservedMem())
            .executor(ctx.executor())
            .workers(ctx.workers())
            .attempts(ctx.attempts())
            .executorOptions(ctx.executorOptions());
    if (ctx.fusion() == BenchContext.Fusion.OFF) {
      b.maxInputBlocks(0);
    }
    this.spec = b.build();
    Executor override = EXECUTOR_OVERRIDE.get();
    ComputeOptions o = ComputeOptions.executor(override != null ? override : Cubed.executor(spec));
    for (Callback c : CALLBACKS.get()) {
      o = o.withCallback(c);
    }
    this.options = o.withPlanFigures(this::add);
    this.workers = ctx.workers();
  }

  /** The spec of this engine's arrays. */
  Spec spec() {
    return spec;
  }

  /** A generated float64 input: no storage, its boxes made by {@code f} inside the tasks. */
  CubedArray generated(long[] shape, long[] chunks, FillFunction f) {
    return Cubed.fromFunction(shape, chunks, DType.FLOAT64, f, spec);
  }

  /**
   * A generated input of workload {@code w}: made by {@code f} inside the tasks, or with
   * zarr-python's input set ({@link BenchContext#inputSet()}) read from the array {@code name}
   * zarr-python wrote.
   */
  CubedArray input(
      BenchContext ctx,
      Workload w,
      Map<String, Long> params,
      String name,
      long[] shape,
      long[] chunks,
      FillFunction f) {
    return ctx.inputSet().isZarrPython()
        ? stored(ctx.inputSet().open(w, params, name, shape, chunks))
        : generated(shape, chunks, f);
  }

  /** A stored input. */
  CubedArray stored(ZarrArray z) {
    return Cubed.fromZarr(z, spec);
  }

  /**
   * Runs {@code body} with every Engine created on this thread meanwhile using {@code executor}
   * instead of the context's (for tests, e.g. an executor injecting faults).
   */
  static <T> T withExecutor(Executor executor, Callable<T> body) throws Exception {
    EXECUTOR_OVERRIDE.set(executor);
    try {
      return body.call();
    } finally {
      EXECUTOR_OVERRIDE.remove();
    }
  }

  /**
   * Runs {@code body} with every Engine created on this thread meanwhile passing {@code callbacks}
   * to its computes (diagnostics: progress, history, plots, plan picture).
   */
  static <T> T withCallbacks(List<Callback> callbacks, Callable<T> body) throws Exception {
    CALLBACKS.set(List.copyOf(callbacks));
    try {
      return body.call();
    } finally {
      CALLBACKS.remove();
    }
  }

  /**
   * Computes the outputs in one plan ({@link Cubed#compute(ComputeOptions, CubedArray...)}) and
   * returns them in memory; adds up the figures. While probing ({@link #probing}) nothing runs and
   * the results are zeros of the outputs' shapes.
   */
  List<NDArray> compute(CubedArray... outputs) {
    if (probed(outputs)) {
      List<NDArray> zeros = new ArrayList<>();
      for (CubedArray o : outputs) {
        zeros.add(NDArray.zeros(o.dtype(), o.shape()));
      }
      return zeros;
    }
    return Cubed.compute(options, outputs);
  }

  /**
   * Computes the arrays into their Zarr targets in one plan ({@link Cubed#store(List, List,
   * ComputeOptions)}); while probing ({@link #probing}) only plans.
   */
  void store(List<CubedArray> arrays, List<ZarrArray> targets) {
    List<CubedArray> lazy = new ArrayList<>();
    for (int i = 0; i < arrays.size(); i++) {
      lazy.add(Cubed.store(arrays.get(i), targets.get(i)));
    }
    if (!probed(lazy.toArray(new CubedArray[0]))) {
      Cubed.store(arrays, targets, options);
    }
  }

  /** Adds the figures of a plan (the computes pass them as they plan, see withPlanFigures). */
  private void add(PlanFigures f) {
    tasks += f.tasks();
    maxProjectedMem = Math.max(maxProjectedMem, f.maxProjectedMem());
    intermediateBytes += f.intermediateBytes();
  }

  /**
   * While probing: plans {@code outputs} ({@link Cubed#summary}), adds the figures, updates the
   * probe's need and returns true; otherwise false (nothing planned here).
   */
  private boolean probed(CubedArray... outputs) {
    Probe probe = PROBE.get();
    if (probe == null) {
      return false;
    }
    PlanFigures f = Cubed.summary(List.of(outputs));
    add(f);
    // plus one of the plan's largest chunks: G1 puts an array of more than half a region in
    // contiguous regions, which its full collections do not move, so the free space can be
    // split between such arrays; without this room a run whose tasks fit their projections
    // could still fail to place its next chunk (seen once in ten quadratic_means runs)
    probe.need =
        Math.max(
            probe.need,
            ThreadsExecutor.heapNeeded(
                    workers, f.maxProjectedMem(), f.reservedMem(), probe.baseline)
                + f.largestChunkBytes());
    return true;
  }

  /**
   * Runs {@code body} with every compute of Engines used on this thread meanwhile planned but not
   * run (results are zeros), and returns the largest heap any of those plans needs on the threads
   * executor: {@link dev.cubed.runtime.ThreadsExecutor#heapNeeded} of the context's workers, the
   * plan's largest projected task and reservedMem, beside {@code baseline} bytes in use, plus the
   * plan's largest chunk.
   */
  static long probing(long baseline, Callable<?> body) throws Exception {
    Probe p = new Probe(baseline);
    PROBE.set(p);
    try {
      body.call();
    } finally {
      PROBE.remove();
    }
    return p.need;
  }

  /** A probe in progress: the heap in use beside the plans, the largest need seen so far. */
  private static final class Probe {
    final long baseline;
    long need;

    Probe(long baseline) {
      this.baseline = baseline;
    }
  }

  /** The outcome of the computes run so far with these checksums. */
  Outcome outcome(Map<String, Object> checksums) {
    return new Outcome(checksums, tasks, maxProjectedMem, intermediateBytes);
  }
}
