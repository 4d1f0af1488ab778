package dev.cubed.bench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one JSON line a benchmark run prints (docs/benchmarks.md), with the field names of {@code
 * scripts/perf/workloads_numpy.py}.
 *
 * @param workload workload name
 * @param size size label ("small", "medium" or a test label)
 * @param params size parameters
 * @param executor executor name ({@code +nofusion} appended when fusion is off)
 * @param workers number of workers
 * @param allowedMem allowedMem, bytes
 * @param wallSeconds wall time of the timed phase, seconds
 * @param peakRssBytes peak RSS of the JVM and its descendants, bytes (-1 if unknown)
 * @param intermediateBytes bytes written to intermediate arrays
 * @param tasks tasks run
 * @param maxProjectedMem largest projected memory of any op, bytes
 * @param checksums the checksums, by name
 * @param inputs the input set the run read: "engine" (the bench's own) or "zarr-python" (see {@link
 *     InputSet})
 */
public record BenchResult(
    String workload,
    String size,
    Map<String, Long> params,
    String executor,
    int workers,
    long allowedMem,
    double wallSeconds,
    long peakRssBytes,
    long intermediateBytes,
    long tasks,
    long maxProjectedMem,
    Map<String, Object> checksums,
    String inputs) {
  /** The JSON field names in print order. */
  public static final List<String> FIELDS =
      List.of(
          "workload",
          "size",
          "params",
          "executor",
          "workers",
          "allowed_mem",
          "wall_seconds",
          "peak_rss_bytes",
          "intermediate_bytes",
          "tasks",
          "max_projected_mem",
          "checksums",
          "inputs");

  /** A result of the engine's own inputs. */
  public BenchResult(
      String workload,
      String size,
      Map<String, Long> params,
      String executor,
      int workers,
      long allowedMem,
      double wallSeconds,
      long peakRssBytes,
      long intermediateBytes,
      long tasks,
      long maxProjectedMem,
      Map<String, Object> checksums) {
    this(
        workload,
        size,
        params,
        executor,
        workers,
        allowedMem,
        wallSeconds,
        peakRssBytes,
        intermediateBytes,
        tasks,
        maxProjectedMem,
        checksums,
        InputSet.ENGINE.name());
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The fields as an ordered map keyed by {@link #FIELDS}. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", workload);
    m.put("size", size);
    m.put("params", params);
    m.put("executor", executor);
    m.put("workers", workers);
    m.put("allowed_mem", allowedMem);
    m.put("wall_seconds", Math.round(wallSeconds * 1e4) / 1e4);
    m.put("peak_rss_bytes", peakRssBytes);
    m.put("intermediate_bytes", intermediateBytes);
    m.put("tasks", tasks);
    m.put("max_projected_mem", maxProjectedMem);
    m.put("checksums", checksums);
    m.put("inputs", inputs);
    return m;
  }

  /** The single-line JSON text (no trailing newline); doubles keep full precision. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(toMap());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("BenchResult.toJson: " + e.getMessage(), e);
    }
  }
}
