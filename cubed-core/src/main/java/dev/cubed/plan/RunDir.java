package dev.cubed.plan;

import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.durable.Targets;

/**
 * The compute directory of one run ({@link PlanRun}) through its life: opened when the run starts,
 * or, for a light run ({@link LightRun}), only when its failure has finished blocks to keep (then
 * opened as any run opens it, without resume); deleted when the run succeeds; kept for a resume or
 * removed when it fails ({@link RunComputeDir#keepForResume}). Thread-safe: the flush of the
 * results held in memory may open it from a JVM shutdown hook ({@link MemoryOutputs#whileRunning}).
 */
final class RunDir {
  private final Plan plan;
  private ComputeDir dir;

  /**
   * The directory of a run of {@code plan}: {@code dir} when the run opened it at its start, null
   * for a light run (opened by {@link #get} when first needed).
   */
  RunDir(Plan plan, ComputeDir dir) {
    this.plan = plan;
    this.dir = dir;
  }

  /** The directory, opened now (lock, fingerprint; no resume) if it was not open yet. */
  synchronized ComputeDir get() {
    if (dir == null) {
      dir = RunComputeDir.open(plan, false);
    }
    return dir;
  }

  /** The directory if it is open, else null (a light run that needed none). */
  synchronized ComputeDir opened() {
    return dir;
  }

  /** After a run that succeeded: deletes the directory, if open, and releases its lock. */
  void succeeded() {
    ComputeDir d = opened();
    if (d != null) {
      d.deleteAndRelease();
    }
  }

  /**
   * After a run that failed with {@code e} (the finished blocks held in memory already flushed to
   * it): the directory, if open, is kept for a resume or removed ({@link
   * RunComputeDir#keepForResume}); a light run that opened none leaves nothing behind.
   */
  void failed(Targets targets, Throwable e) {
    ComputeDir d = opened();
    if (d != null) {
      RunComputeDir.keepForResume(plan, d, targets, e);
    }
  }
}
