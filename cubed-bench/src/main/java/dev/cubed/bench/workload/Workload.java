package dev.cubed.bench.workload;

import java.util.Map;

/**
 * One end-to-end workload of docs/benchmarks.md. A workload names its size parameters, writes its
 * stored inputs (if any) before timing, and runs its timed phase on the engine, returning the
 * checksums and the plan figures. Implementations are the only classes here that call the engine.
 */
public interface Workload {
  /** The workload's name as docs/benchmarks.md spells it (e.g. "quadratic_means"). */
  String name();

  /**
   * The size parameters of a named size, in docs/benchmarks.md's order.
   *
   * @throws IllegalArgumentException if the size is not "small" or "medium"
   */
  Map<String, Long> params(String size);

  /**
   * Writes the stored inputs this workload reads (cached under the work directory); not timed. The
   * default does nothing (inputs generated inside the computation).
   */
  default void prepare(Map<String, Long> params, BenchContext ctx) throws Exception {}

  /**
   * Reads the stored inputs once before the timed phase (not timed), so that a run finds them in
   * the page cache whatever the machine did meanwhile, as its floor and the other engines' runs
   * find theirs. The default does nothing (no stored inputs).
   */
  default void warmInputs(Map<String, Long> params, BenchContext ctx) throws Exception {}

  /** The timed phase: builds the computation, runs it, and returns checksums and plan figures. */
  Outcome run(Map<String, Long> params, BenchContext ctx) throws Exception;

  /**
   * Checksums computed after the timed phase (from what {@link #run} wrote), appended to the run's;
   * also removes what it read. The default has none.
   */
  default Map<String, Object> checksumsAfterTiming(Map<String, Long> params, BenchContext ctx)
      throws Exception {
    return Map.of();
  }
}
