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
}
