package dev.cubed.bench.workload;

import dev.cubed.bench.PeakRssMonitor;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.ExecutorFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The five workloads of docs/benchmarks.md and the runner that times one of them: it writes the
 * stored inputs (cached, not timed), then times the workload's computation while {@link
 * PeakRssMonitor} samples the RSS of this JVM and its descendants, and returns the {@link
 * BenchResult}.
 */
public final class Workloads {
  private static final Map<String, Workload> ALL = new LinkedHashMap<>();

  /** Runnable by name but not one of the five: quadratic_means_read (its floor). */
  private static final Map<String, Workload> EXTRA =
      Map.of("quadratic_means_read", new QuadraticMeansRead());

  static {
    for (Workload w :
        List.of(new QuadraticMeans(), new Add(), new Matmul(), new Rechunk(), new Reduce())) {
      ALL.put(w.name(), w);
    }
  }

  private Workloads() {}

  /** The workload names, in docs/benchmarks.md's order. */
  public static List<String> names() {
    return List.copyOf(ALL.keySet());
  }

  /**
   * The names of the executors available here: "threads", "processes" and any registered with
   * ServiceLoader (see {@link dev.cubed.runtime.ExecutorFactory#available()}).
   */
  public static List<String> executors() {
    return ExecutorFactory.available();
  }

  /**
   * The workload of a name.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static Workload byName(String name) {
    Workload w = ALL.containsKey(name) ? ALL.get(name) : EXTRA.get(name);
    if (w == null) {
      throw new IllegalArgumentException(
          "bench: unknown workload '"
              + name
              + "' (known: "
              + String.join(", ", ALL.keySet())
              + ")");
    }
    return w;
  }

  /**
   * Runs a workload at a named size ("small" or "medium").
   *
   * @throws IllegalArgumentException for an unknown workload or size
   */
  public static BenchResult run(String name, String size, BenchContext ctx) throws Exception {
    Workload w = byName(name);
    return run(w, size, w.params(size), ctx);
  }

  /** Runs a workload with explicit parameters, reported with size {@code sizeLabel}. */
  public static BenchResult run(
      Workload w, String sizeLabel, Map<String, Long> params, BenchContext ctx) throws Exception {
    return run(w, sizeLabel, params, ctx, List.of());
  }

  /**
   * Like {@link #run(Workload, String, Map, BenchContext)}, passing {@code callbacks} to the
   * computes of the timed phase only (not to input preparation or library warm-up); their own cost
   * (e.g. diagnostics) is then part of the wall time.
   */
  public static BenchResult run(
      Workload w,
      String sizeLabel,
      Map<String, Long> params,
      BenchContext ctx,
      List<Callback> callbacks)
      throws Exception {
    prepareRun(w, params, ctx);
    w.warmInputs(params, ctx);
    resetPeakRss();
    Outcome out;
    long peak;
    double wall;
    try (PeakRssMonitor mon = PeakRssMonitor.start(20)) {
      long t0 = System.nanoTime();
      out =
          callbacks.isEmpty()
              ? w.run(params, ctx)
              : Engine.withCallbacks(callbacks, () -> w.run(params, ctx));
      wall = (System.nanoTime() - t0) / 1e9;
      peak = mon.peakBytes();
    }
    Map<String, Object> sums = new LinkedHashMap<>(out.checksums());
    sums.putAll(w.checksumsAfterTiming(params, ctx));
    return new BenchResult(
        w.name(),
        sizeLabel,
        params,
        ctx.executorLabel(),
        ctx.workers(),
        ctx.allowedMem(),
        wall,
        peak,
        out.intermediateBytes(),
        out.tasks(),
        out.maxProjectedMem(),
        sums,
        ctx.inputSet().name());
  }

  /**
   * The JVM max heap (-Xmx) a run of this workload needs on the threads executor: writes its inputs
   * (as {@link #run} would, so a run after this finds them cached), then plans every compute of the
   * timed phase without running it (later computes see zeros where earlier ones would return
   * results) and takes the largest {@link dev.cubed.runtime.ThreadsExecutor#heapNeeded} of the
   * plans, beside the heap in use after a collection at this point, plus a slack of half that
   * baseline and 32 MiB (collector headroom, and the baseline of the later run may differ a
   * little). The launcher uses it to size the run's heap from its plan (docs/cli.md).
   */
  public static long planHeap(Workload w, Map<String, Long> params, BenchContext ctx)
      throws Exception {
    prepareRun(w, params, ctx);
    Runtime rt = Runtime.getRuntime();
    return planHeapBeside(w, params, ctx, rt.totalMemory() - rt.freeMemory());
  }

  /**
   * {@link #planHeap} beside a given {@code baseline} of heap in use (the inputs already prepared):
   * the part that depends on the plans only, so two contexts can be compared without the noise of
   * the heap in use at the moment each was probed.
   */
  static long planHeapBeside(Workload w, Map<String, Long> params, BenchContext ctx, long baseline)
      throws Exception {
    long need = Engine.probing(baseline, () -> w.run(params, ctx));
    return need + baseline / 2 + (32L << 20);
  }

  /** What precedes a timed phase (and its probe): work dir, library warm-up, inputs, a GC. */
  private static void prepareRun(Workload w, Map<String, Long> params, BenchContext ctx)
      throws Exception {
    Files.createDirectories(ctx.workDir());
    LibraryInit.ensure(ctx);
    w.prepare(params, ctx);
    System.gc();
  }

  /** Resets the kernel's peak-RSS mark (VmHWM) so writing the inputs does not count; Linux only. */
  private static void resetPeakRss() {
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    } catch (Exception | Error e) {
      // not Linux or not permitted: the peak then includes the input-writing phase
    }
  }

  /**
   * Reads a workload's zarr-python inputs once before timing (see {@link Workload#warmInputs}) when
   * its context reads them; nothing otherwise.
   */
  static void warmZarrPython(Workload w, Map<String, Long> params, BenchContext ctx)
      throws IOException {
    if (ctx.inputSet().isZarrPython()) {
      ctx.inputSet().warm(w, params);
    }
  }

  /** Size parameters helper: pairs of name and value. */
  static Map<String, Long> params(Object... kv) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
    }
    return m;
  }

  /** Picks the small or medium parameters. */
  static Map<String, Long> pick(
      String workload, String size, Map<String, Long> small, Map<String, Long> medium) {
    return switch (size) {
      case "small" -> small;
      case "medium" -> medium;
      default ->
          throw new IllegalArgumentException(
              "bench " + workload + ": unknown size '" + size + "' (use small or medium)");
    };
  }
}
