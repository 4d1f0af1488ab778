package dev.cubed.runtime;

import java.util.Map;
import java.util.Objects;

/**
 * What one run of an executor reports, returned by {@link Executor#execute} (executors keep no
 * figures of their last run). A figure an executor does not know is -1.
 *
 * @param executor the executor's name (e.g. "threads")
 * @param concurrency tasks that could run at once (threads after the memory cap, worker processes,
 *     the Beam DirectRunner's parallelism); -1 if the engine decides
 * @param heapBound the heap bound (-Xmx) of each worker process, bytes; -1 when tasks do not run in
 *     worker processes of their own
 * @param retries attempts that were retried
 * @param timeouts attempts that timed out
 * @param backupsLaunched backup tasks launched
 * @param backupsWon backup tasks whose run finished first
 * @param phaseMillis where the launcher's time went, by phase (e.g. Beam's check, build, launch,
 *     run), milliseconds; empty if not measured
 */
public record RunReport(
    String executor,
    int concurrency,
    long heapBound,
    long retries,
    long timeouts,
    long backupsLaunched,
    long backupsWon,
    Map<String, Long> phaseMillis) {
  /** Copies the phases. */
  public RunReport {
    Objects.requireNonNull(executor, "executor");
    phaseMillis = Map.copyOf(phaseMillis);
  }

  /** A report knowing only the executor and its concurrency (-1 if unknown). */
  public static RunReport of(String executor, int concurrency) {
    return new RunReport(executor, concurrency, -1, -1, -1, -1, -1, Map.of());
  }
}
