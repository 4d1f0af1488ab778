package dev.cubed.plan;

import java.nio.file.Path;

/**
 * The settings a plan needs (the API layer's {@code Spec} converts to this).
 *
 * @param workDir directory for intermediate arrays
 * @param allowedMem memory a task may use, bytes
 * @param reservedMem the worker's own memory, counted in every task, bytes
 * @param maxInputBlocks fusion limit: input blocks read by one fused task
 * @param maxSourceArrays fusion limit: stored arrays read by one fused task
 * @param readCopies extra copies of each chunk read (1 locally: encoded + decoded)
 * @param writeCopies extra copies of each chunk written (1 locally)
 */
public record PlanConfig(Path workDir, long allowedMem, long reservedMem, int maxInputBlocks,
    int maxSourceArrays, int readCopies, int writeCopies) {
  /** The rechunk planner's budget: (allowedMem - reservedMem) / (3 + 2 x readCopies), i.e. /5. */
  public long rechunkBudget() {
    return Math.max(1, (allowedMem - reservedMem) / (3 + 2L * readCopies));
  }
}
