package dev.cubed.bench.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a workload's timed phase returns.
 *
 * @param checksums the checksums of docs/benchmarks.md, by name, in print order (Double, Long or a
 *     list of Long for a chunk shape)
 * @param tasks number of tasks run
 * @param maxProjectedMem largest projected memory of any op, bytes
 * @param intermediateBytes bytes written to intermediate arrays (uncompressed, from the plan)
 */
public record Outcome(
    Map<String, Object> checksums, long tasks, long maxProjectedMem, long intermediateBytes) {
  /** Copies the checksum map. */
  public Outcome {
    checksums = Collections.unmodifiableMap(new LinkedHashMap<>(checksums));
  }
}
