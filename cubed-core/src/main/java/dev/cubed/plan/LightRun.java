package dev.cubed.plan;

import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.Executor;
import java.nio.file.Files;
import java.util.Map;

/**
 * The decision whether a run of a plan is light: it opens no compute directory while it succeeds. A
 * light run stores nothing, so it needs no directory; if it fails, {@link RunDir#get} opens the
 * directory then, as any run opens it, for the finished blocks that the flush of its results held
 * in memory keeps for a resume.
 */
final class LightRun {
  private LightRun() {}

  /**
   * True if a run of {@code plan} that does not resume may go without a compute directory while it
   * succeeds: it reads its results into memory ({@code read}) from tasks running in this JVM, its
   * work directory is local, and every op writes straight into a result (no target, no rechunk, no
   * multi-output group, no materialized array that is not an output or that another op reads:
   * {@code readers} counts each array's readers), so nothing is stored; and no earlier run left a
   * directory of this plan (a plain compute removes it, so one that is there belongs to a failed
   * run or a running one).
   */
  static boolean applies(Plan plan, Executor executor, boolean read, Map<String, Integer> readers) {
    if (!read
        || !executor.runsTasksInThisJvm()
        || !plan.cfg.localWorkDir()
        || !plan.groupOf.isEmpty()) {
      return false;
    }
    for (ArrayNode n : plan.topo) {
      if (n instanceof ArrayNode.Rechunked
          || n instanceof ArrayNode.Computed c
              && (c.target() != null
                  || plan.materialized.contains(c.name())
                      && (!plan.isOutput(c) || readers.containsKey(c.name())))) {
        return false;
      }
    }
    return Files.notExists(plan.cfg.workDirPath().resolve("compute-" + plan.computeId()));
  }
}
