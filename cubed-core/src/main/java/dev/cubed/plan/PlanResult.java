package dev.cubed.plan;

import dev.cubed.nd.NDArray;
import dev.cubed.runtime.RunReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one run of a plan ({@link Plan#run}) gives back.
 *
 * @param outputs one array per output, in order (null for an output written into a buffer of {@link
 *     ResultBuffers}); empty when the options read nothing back
 * @param skippedTasks tasks skipped because an earlier run had finished them (resume), 0 otherwise
 * @param report what the executor reported ({@link RunReport}); a tiny plan evaluated in the
 *     calling thread reports concurrency 1 and nothing else
 */
public record PlanResult(List<NDArray> outputs, long skippedTasks, RunReport report) {
  /** Copies the outputs. */
  public PlanResult {
    outputs = Collections.unmodifiableList(new ArrayList<>(outputs));
    Objects.requireNonNull(report, "report");
  }
}
