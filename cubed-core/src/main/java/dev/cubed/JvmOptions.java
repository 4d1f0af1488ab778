package dev.cubed;

import dev.cubed.nd.elementwise.FastTrig;
import dev.cubed.runtime.ThreadsExecutor;
import dev.cubed.runtime.TileJitOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options for a program that embeds the engine and computes with a given {@link Spec}
 * (docs/library.md; {@code ./cubed env --allowed-mem M --workers N} prints them): a maximum heap
 * sized by the spec, a collector that gives memory back as the tasks free it, and the Vector API
 * module. Without them a JVM grows its heap towards a quarter of the machine's memory before it
 * collects in earnest, and the chunk-sized arrays every task allocates let it: the process then
 * holds several times what its tasks hold live.
 *
 * <p>The heap, for the threads executor (every task in this JVM): {@code workers x (allowedMem -
 * reservedMem) + 192 MiB}, {@link ThreadsExecutor#heapNeeded} for tasks as large as the spec
 * allows: each task's projected memory, checked against {@code allowedMem} before anything runs,
 * counts {@code reservedMem} for the worker's own baseline, which the tasks of one JVM share; 192
 * MiB is the engine's own live data (plan, Zarr metadata, results). In a smaller heap the threads
 * executor runs fewer tasks at once. A plan whose tasks project less than {@code allowedMem}
 * ({@code plan()} prints its largest) runs in less: a spec with {@code allowedMem} near that figure
 * gives a tighter heap. For other executors the tasks run elsewhere and this JVM is their
 * coordinator: 512 MiB.
 */
public final class JvmOptions {
  private JvmOptions() {}

  /** The heap for the engine's own live data beside the tasks' arrays, bytes. */
  public static final long BASELINE_BYTES = 192L << 20;

  /** The heap of a JVM that only coordinates workers elsewhere, bytes. */
  public static final long COORDINATOR_BYTES = 512L << 20;

  /**
   * The collector options: G1 starting from a small heap, shrinking it after collections to keep
   * 10-70% free and collecting after a quarter second without a collection, so the process holds
   * about what the tasks hold live; concurrent cycles only above 85% occupancy (chunk-sized arrays
   * are humongous objects, each of which would otherwise start one). The same list as the
   * launcher's ({@code cubed-cli/src/dist/lib/cubed-jvm.sh}; docs/cli.md compares the collectors).
   */
  public static final List<String> GC_OPTIONS =
      List.of(
          "-XX:+UseG1GC",
          "-Xms32m",
          "-XX:MinHeapFreeRatio=10",
          "-XX:MaxHeapFreeRatio=70",
          "-XX:G1PeriodicGCInterval=250",
          "-XX:-G1UseAdaptiveIHOP",
          "-XX:InitiatingHeapOccupancyPercent=85");

  /**
   * The maximum heap for computes with {@code spec}, bytes: for the threads executor {@code workers
   * x (allowedMem - reservedMem) + 192 MiB} with {@code workers} the spec's (0: one per available
   * processor of this JVM); for any other executor 512 MiB.
   */
  public static long heapBytes(Spec spec) {
    if (!"threads".equals(spec.executor())) {
      return COORDINATOR_BYTES;
    }
    int workers = spec.workersOrProcessors();
    // the threads executor runs all its workers at once in a heap of this size (and fewer in a
    // smaller one): the same rule, with the engine's baseline in place of the measured one
    return ThreadsExecutor.heapNeeded(
        workers, spec.allowedMem(), spec.reservedMem(), BASELINE_BYTES);
  }

  /**
   * The options, in order: {@code -Xmx} ({@link #heapBytes}, in MiB rounded up), the {@link
   * #GC_OPTIONS}, {@code --add-modules=jdk.incubator.vector} (float64 sin and cos through the
   * Vector API), {@link FastTrig#JIT_OPTIONS}, {@link TileJitOptions#OPTIONS} (without its repeated
   * {@code quiet}), and a 1 MiB cap on the per-thread temporary direct buffers of file I/O ({@code
   * -Djdk.nio.maxCachedBufferSize=1048576}). Each works on a {@code java} command line and in
   * {@code JAVA_TOOL_OPTIONS}.
   */
  public static List<String> forSpec(Spec spec) {
    List<String> out = new ArrayList<>();
    out.add("-Xmx" + ((heapBytes(spec) + (1 << 20) - 1) >> 20) + "m");
    out.addAll(GC_OPTIONS);
    out.add("--add-modules=jdk.incubator.vector");
    out.addAll(FastTrig.JIT_OPTIONS);
    for (String o : TileJitOptions.OPTIONS) {
      if (!out.contains(o)) {
        out.add(o);
      }
    }
    out.add("-Djdk.nio.maxCachedBufferSize=1048576");
    return List.copyOf(out);
  }

  /** {@link #forSpec} as one line, the options separated by spaces (none contains a space). */
  public static String line(Spec spec) {
    return String.join(" ", forSpec(spec));
  }
}
