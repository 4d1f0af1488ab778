package dev.cubed.bench.workload;

import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ArrayNode;
import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanConfig;
import dev.cubed.plan.PlanSummary;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Executor;
import java.util.List;
import java.util.Map;

/**
 * The engine calls the workloads share: the plan settings of a {@link BenchContext}, the executor,
 * virtual (generated) inputs and running a plan while adding up its figures. Workloads build their
 * array DAGs on the engine's core layer ({@code dev.cubed.core}, {@code dev.cubed.plan}): generated
 * inputs are virtual arrays made a whole block at a time from the block's start indices (the
 * facade's {@code Cubed.fromFunction} sets one element per call), and the plan's summary (tasks,
 * projected memory, intermediate bytes) is read from the same {@code Plan} that runs.
 */
final class Engine {
  /** A block of a generated input from its global start indices and its (clipped) shape. */
  @FunctionalInterface
  interface Generator extends java.io.Serializable {
    NDArray make(long[] start, long[] shape);
  }

  /** A generator that can also write {@link #make}'s elements (C order) into an array. */
  interface InPlaceGenerator extends Generator {
    /** Writes make's elements into {@code dst} from element {@code at}. */
    void makeInto(long[] start, long[] shape, double[] dst, int at);
  }

  /** An executor replacing the context's for Engines made on this thread (see withExecutor). */
  private static final ThreadLocal<Executor> EXECUTOR_OVERRIDE = new ThreadLocal<>();

  /** Callbacks for the computes of Engines made on this thread meanwhile (see withCallbacks). */
  private static final ThreadLocal<List<Callback>> CALLBACKS = ThreadLocal.withInitial(List::of);

  private final PlanConfig cfg;
  private final Executor executor;
  private final List<Callback> callbacks = CALLBACKS.get();
  private final int workers;
  private long tasks;
  private long maxProjectedMem;
  private long intermediateBytes;

  Engine(BenchContext ctx) {
    // reservedMem as the environment sets it (CUBED_SPEC_RESERVED_MEM), default 100 MB
    Spec spec = Spec.builder().workDir(ctx.workDir()).allowedMem(ctx.allowedMem())
        .reservedMem(Spec.fromEnv().reservedMem()).build();
    this.cfg = new PlanConfig(spec.workDir(), spec.allowedMem(), spec.reservedMem(),
        ctx.fusion() == BenchContext.Fusion.OFF ? 0 : spec.maxInputBlocks(),
        spec.maxSourceArrays(), 0, 1);
    Executor override = EXECUTOR_OVERRIDE.get();
    this.executor = override != null ? override : dev.cubed.Cubed.executor(spec.toBuilder()
        .executor(ctx.executor()).workers(ctx.workers()).attempts(ctx.attempts())
        .executorOptions(ctx.executorOptions()).build());
    this.workers = ctx.workers();
  }

  /**
   * Runs {@code body} with every Engine created on this thread meanwhile using {@code executor}
   * instead of the context's (for tests, e.g. an executor injecting faults).
   */
  static <T> T withExecutor(Executor executor, java.util.concurrent.Callable<T> body)
      throws Exception {
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
  static <T> T withCallbacks(List<Callback> callbacks, java.util.concurrent.Callable<T> body)
      throws Exception {
    CALLBACKS.set(List.copyOf(callbacks));
    try {
      return body.call();
    } finally {
      CALLBACKS.remove();
    }
  }

  /** A generated float64 input: no storage, each block made by {@code gen} inside its task. */
  static ArrayNode generated(String kind, long[] shape, long[] chunks, Generator gen) {
    return new ArrayNode.Virtual(kind, shape, chunks.clone(), DType.FLOAT64,
        new Generated(chunks.clone(), gen));
  }

  /**
   * A generated input's blocks and their regions: the generator works from global start indices,
   * so any box of a block is made as cheaply as the block (a chain written a run at a time
   * generates only its runs).
   */
  private record Generated(long[] chunks, Generator gen) implements ArrayNode.RegionGenerator {
    @Override
    public NDArray generate(long[] coords, long[] blockShape) {
      return gen.make(at(coords, new long[coords.length]), blockShape);
    }

    @Override
    public NDArray region(long[] coords, long[] blockShape, long[] start, long[] shape) {
      return gen.make(at(coords, start), shape);
    }

    @Override
    public void regionInto(long[] coords, long[] blockShape, long[] start, long[] shape,
        DType dtype, Object dst, int at) {
      if (gen instanceof InPlaceGenerator g && dtype == DType.FLOAT64
          && dst instanceof double[] d) {
        g.makeInto(at(coords, start), shape, d, at);
        return;
      }
      ArrayNode.RegionGenerator.super.regionInto(coords, blockShape, start, shape, dtype, dst, at);
    }

    private long[] at(long[] coords, long[] offset) {
      long[] s = new long[coords.length];
      for (int i = 0; i < s.length; i++) {
        s[i] = coords[i] * chunks[i] + offset[i];
      }
      return s;
    }
  }

  /**
   * Plans the outputs together, runs them and returns them in memory; adds up the figures. While
   * probing ({@link #probing}) nothing runs and the results are zeros of the outputs' shapes.
   */
  List<NDArray> compute(ArrayNode... outputs) {
    Plan p = plan(outputs);
    if (PROBE.get() != null) {
      List<NDArray> zeros = new java.util.ArrayList<>();
      for (ArrayNode o : outputs) {
        zeros.add(NDArray.zeros(o.dtype(), o.shape()));
      }
      return zeros;
    }
    return p.execute(executor, callbacks);
  }

  /**
   * Plans and runs outputs that write to their own targets (nothing read back); while probing
   * ({@link #probing}) only plans.
   */
  void run(ArrayNode... outputs) {
    Plan p = plan(outputs);
    if (PROBE.get() == null) {
      p.executeNoResults(executor, callbacks);
    }
  }

  /**
   * Runs {@code body} with every compute of Engines used on this thread meanwhile planned but not
   * run (results are zeros), and returns the largest heap any of those plans needs on the threads
   * executor: {@link dev.cubed.runtime.ThreadsExecutor#heapNeeded} of the context's workers, the
   * plan's largest projected task and reservedMem, beside {@code baseline} bytes in use.
   */
  static long probing(long baseline, java.util.concurrent.Callable<?> body) throws Exception {
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

  /** The probe of this thread's computes, else null. */
  private static final ThreadLocal<Probe> PROBE = new ThreadLocal<>();

  private Plan plan(ArrayNode... outputs) {
    Plan p = Plan.of(List.of(outputs), cfg);
    PlanSummary s = p.summary();
    tasks += s.totalTasks();
    maxProjectedMem = Math.max(maxProjectedMem, s.maxProjectedMem());
    intermediateBytes += s.intermediateBytesWritten();
    Probe probe = PROBE.get();
    if (probe != null) {
      // plus one of the plan's largest chunks: G1 puts an array of more than half a region in
      // contiguous regions, which its full collections do not move, so the free space can be
      // split between such arrays; without this room a run whose tasks fit their projections
      // could still fail to place its next chunk (seen once in ten quadratic_means runs)
      probe.need = Math.max(probe.need, dev.cubed.runtime.ThreadsExecutor.heapNeeded(workers,
          s.maxProjectedMem(), cfg.reservedMem(), probe.baseline) + largestChunk(outputs));
    }
    return p;
  }

  /** The largest chunk, in bytes, of the outputs and every array they are computed from. */
  private static long largestChunk(ArrayNode... outputs) {
    long max = 0;
    java.util.ArrayDeque<ArrayNode> todo = new java.util.ArrayDeque<>(List.of(outputs));
    java.util.Set<ArrayNode> seen = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    while (!todo.isEmpty()) {
      ArrayNode n = todo.pop();
      if (seen.add(n)) {
        max = Math.max(max, n.chunkBytes());
        todo.addAll(n.inputs());
      }
    }
    return max;
  }

  /** The outcome of the computes run so far with these checksums. */
  Outcome outcome(Map<String, Object> checksums) {
    return new Outcome(checksums, tasks, maxProjectedMem, intermediateBytes);
  }
}
