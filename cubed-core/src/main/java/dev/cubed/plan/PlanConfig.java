package dev.cubed.plan;

import dev.cubed.zarr.Stores;
import java.nio.file.Path;

/**
 * The settings a plan needs (the API layer's {@code Spec} converts to this).
 *
 * @param workDir location of intermediate arrays: a local directory (plain path or {@code file://}
 *     URI) or a store URI such as {@code s3://bucket/work} (opened with {@link Stores#open})
 * @param allowedMem memory a task may use, bytes
 * @param reservedMem the worker's own memory, counted in every task, bytes
 * @param maxInputBlocks fusion limit: input blocks read by one fused task
 * @param maxSourceArrays fusion limit: stored arrays read by one fused task
 * @param readCopies extra copies of each chunk read (0 for local files of the default codec,
 *     decoded a block at a time; 1 for other local chunks: encoded + decoded; 2 on object stores).
 *     A plan raises it to what the arrays it reads and the stores it reads and writes need
 * @param writeCopies extra copies of each chunk written (1 locally, 2 on object stores; raised
 *     likewise)
 */
public record PlanConfig(
    String workDir,
    long allowedMem,
    long reservedMem,
    int maxInputBlocks,
    int maxSourceArrays,
    int readCopies,
    int writeCopies) {

  /** A configuration with a local work directory. */
  public PlanConfig(
      Path workDir,
      long allowedMem,
      long reservedMem,
      int maxInputBlocks,
      int maxSourceArrays,
      int readCopies,
      int writeCopies) {
    this(
        workDir.toString(),
        allowedMem,
        reservedMem,
        maxInputBlocks,
        maxSourceArrays,
        readCopies,
        writeCopies);
  }

  /**
   * The rechunk planner's budget: (allowedMem - reservedMem) / (3 + 2 x max(readCopies, 1)), i.e.
   * /5 locally and /7 on object stores.
   */
  public long rechunkBudget() {
    return Math.max(1, (allowedMem - reservedMem) / (3 + 2L * Math.max(readCopies, 1)));
  }

  /**
   * The rechunk planner's cost of one chunk read or write, in bytes moved: an object store's when
   * the plan touches one (read copies above 1, see {@link #rechunkBudget()}), else a local file's.
   */
  public long rechunkOpBytes() {
    return readCopies > 1
        ? dev.cubed.primitive.RechunkPlanner.OBJECT_STORE_OP_BYTES
        : dev.cubed.primitive.RechunkPlanner.LOCAL_OP_BYTES;
  }

  /** True if the work directory is a local directory (plain path or file:// URI). */
  public boolean localWorkDir() {
    return Stores.isLocal(workDir);
  }

  /**
   * The local work directory.
   *
   * @throws IllegalArgumentException if the work directory is a store URI (see {@link
   *     #localWorkDir()})
   */
  public Path workDirPath() {
    return Stores.localPath(workDir);
  }

  /** This configuration with copies raised to at least {@code read} and {@code write}. */
  public PlanConfig withMinCopies(int read, int write) {
    if (read <= readCopies && write <= writeCopies) {
      return this;
    }
    return new PlanConfig(
        workDir,
        allowedMem,
        reservedMem,
        maxInputBlocks,
        maxSourceArrays,
        Math.max(read, readCopies),
        Math.max(write, writeCopies));
  }
}
