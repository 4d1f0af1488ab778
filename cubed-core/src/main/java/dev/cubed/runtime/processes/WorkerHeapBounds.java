package dev.cubed.runtime.processes;

import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import java.util.List;

/**
 * The heap bound (-Xmx) of the {@link ProcessesExecutor}'s worker JVMs: one bound for a whole plan
 * (allowedMem, or the largest projection), or in strict mode one per op from its projection; and
 * the check, before anything runs, that every task fits its worker.
 */
final class WorkerHeapBounds {
  /** Smallest heap bound given to a worker. */
  static final long MIN = 64L << 20;

  /** Heap of an idle worker in strict mode (measured: 1.9 MB at -Xmx64m to 5.1 MB at 2 GB). */
  static final long IDLE_HEAP_ALLOWANCE = 8L << 20;

  private WorkerHeapBounds() {}

  /**
   * The strict heap bound of one op's workers ({@link ProcessesExecutor.Builder#heapPerOp}): {@code
   * projectedMem - reservedMem + 8 MiB} (the idle worker's own heap, a few MiB) + the central
   * directories of the class path's jars, which a worker holds from its first task function on
   * ({@link ClassPathIndex}: 14.7 MiB with the CLI's 222 jars; without it copy tasks died in the
   * CLI's workers), but at least {@code min(32 MiB, projectedMem)} (a fresh worker loading the
   * codecs and the shipped functions needs more than 8 MiB of heap, and an op whose own data are a
   * few bytes, such as the last round of a reduction, would otherwise die on that), plus the young
   * generation (the generational collector's unusable survivor space), rounded up to a MiB.
   */
  static long forOp(Operation op, long reservedMem) {
    long mib = 1L << 20;
    long b =
        Math.max(
            Math.min(32 * mib, op.projectedMem()),
            op.projectedMem()
                - reservedMem
                + IDLE_HEAP_ALLOWANCE
                + ClassPathIndex.workerHeapBytes());
    b += WorkerProcess.Settings.youngGen(b);
    return (b + mib - 1) / mib * mib;
  }

  /**
   * The heap bound for a plan (all ops' workers alike): allowedMem, or without one (0) the largest
   * projection; at least 64 MiB (a worker JVM needs a few MiB of heap of its own, so tiny test
   * budgets get a floor).
   */
  static long forPlan(List<Operation> ops, long allowedMem) {
    if (allowedMem > 0) {
      return Math.max(MIN, allowedMem);
    }
    long max = 0;
    for (Operation op : ops) {
      max = Math.max(max, op.projectedMem());
    }
    long mib = 1L << 20;
    return Math.max(MIN, (max + mib - 1) / mib * mib);
  }

  /**
   * Refuses a plan whose largest task projects more than the heap bound.
   *
   * @throws InsufficientHeapException naming the first such operation
   */
  static void checkFits(List<Operation> ops, long heapBound) {
    for (Operation op : ops) {
      if (op.projectedMem() > heapBound) {
        throw new InsufficientHeapException(
            String.format(
                "processes executor: a task of"
                    + " operation %s is projected to need %,d bytes (%.1f MiB), more than the worker heap"
                    + " bound of %,d bytes (%.1f MiB, = allowedMem); nothing was run. Raise allowedMem or"
                    + " use smaller chunks so tasks project less memory",
                op.name(),
                op.projectedMem(),
                op.projectedMem() / 1048576.0,
                heapBound,
                heapBound / 1048576.0),
            op.name(),
            op.projectedMem(),
            heapBound);
      }
    }
  }
}
