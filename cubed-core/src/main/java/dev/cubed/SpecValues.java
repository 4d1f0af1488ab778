package dev.cubed;

import dev.cubed.plan.durable.WorkDirs;
import dev.cubed.plan.node.PlanConfig;
import dev.cubed.primitive.RechunkPlanner.ConsumeIntermediates;
import dev.cubed.primitive.RechunkPlanner.IntermediateCompression;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;

/**
 * The values of a {@link Spec} and its builder, with the defaults of {@link Spec}'s table; a spec
 * holds a copy nobody changes.
 */
final class SpecValues implements Serializable {
  private static final long serialVersionUID = 1L;

  String workDir = WorkDirs.defaultWorkDir();
  long allowedMem = Spec.DEFAULT_ALLOWED_MEM;
  long reservedMem = Spec.DEFAULT_RESERVED_MEM;
  String executor = "threads";
  int maxInputBlocks = 10;
  int maxSourceArrays = 4;
  int scanChainMaxBlocks;
  int workers;
  int attempts = 3;
  boolean checksum;
  TreeMap<String, String> executorOptions = new TreeMap<>();
  boolean foldGroups = true;
  long tileBytes = PlanConfig.DEFAULT_TILE_BYTES;
  long inlineMaxBytes = PlanConfig.DEFAULT_INLINE_MAX_BYTES;
  IntermediateCompression rechunkIntermediateCompression = IntermediateCompression.AUTO;
  ConsumeIntermediates rechunkConsumeIntermediates = ConsumeIntermediates.AUTO;
  boolean intermediateChecksums = true;
  boolean diskCheck = true;
  Duration processesKeepAlive = Duration.ofSeconds(30);
  boolean processesGcSkip = true;
  List<String> workerJvmOptions = List.of();
  boolean workerPostTaskGc = true;
  boolean workerStats;

  /** A copy (the executor options copied too; the other values are immutable). */
  SpecValues copy() {
    SpecValues c = new SpecValues();
    c.workDir = workDir;
    c.allowedMem = allowedMem;
    c.reservedMem = reservedMem;
    c.executor = executor;
    c.maxInputBlocks = maxInputBlocks;
    c.maxSourceArrays = maxSourceArrays;
    c.scanChainMaxBlocks = scanChainMaxBlocks;
    c.workers = workers;
    c.attempts = attempts;
    c.checksum = checksum;
    c.executorOptions = new TreeMap<>(executorOptions);
    c.foldGroups = foldGroups;
    c.tileBytes = tileBytes;
    c.inlineMaxBytes = inlineMaxBytes;
    c.rechunkIntermediateCompression = rechunkIntermediateCompression;
    c.rechunkConsumeIntermediates = rechunkConsumeIntermediates;
    c.intermediateChecksums = intermediateChecksums;
    c.diskCheck = diskCheck;
    c.processesKeepAlive = processesKeepAlive;
    c.processesGcSkip = processesGcSkip;
    c.workerJvmOptions = workerJvmOptions;
    c.workerPostTaskGc = workerPostTaskGc;
    c.workerStats = workerStats;
    return c;
  }

  /**
   * Checks the values a {@link Spec} is built from.
   *
   * @throws IllegalArgumentException naming the first setting out of its range and the range
   */
  void check() {
    if (maxInputBlocks < 0 || maxSourceArrays < 1) {
      throw new IllegalArgumentException(
          "Spec: max_input_blocks must be >= 0 and max_source_arrays >= 1, got "
              + maxInputBlocks
              + " and "
              + maxSourceArrays);
    }
    if (scanChainMaxBlocks < 0) {
      throw new IllegalArgumentException(
          "Spec: scan_chain_max_blocks must be >= 0 (0: automatic), got " + scanChainMaxBlocks);
    }
    if (tileBytes < 0 || inlineMaxBytes < 0) {
      throw new IllegalArgumentException(
          "Spec: tile_bytes and inline_max_bytes must be >= 0 (0: off), got "
              + tileBytes
              + " and "
              + inlineMaxBytes);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException(
          "Spec: attempts must be >= 1 (1 = no retry), got " + attempts);
    }
    if (workers < 0) {
      throw new IllegalArgumentException(
          "Spec: workers must be >= 0 (0 = one per processor), got " + workers);
    }
    if (reservedMem < 0 || allowedMem <= reservedMem) {
      throw new IllegalArgumentException(
          "Spec: allowedMem ("
              + allowedMem
              + " B) must exceed reservedMem ("
              + reservedMem
              + " B), and reservedMem must be >= 0");
    }
  }
}
