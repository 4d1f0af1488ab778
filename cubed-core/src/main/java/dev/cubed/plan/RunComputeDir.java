package dev.cubed.plan;

import dev.cubed.plan.durable.CommitJournal;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.durable.Targets;
import dev.cubed.plan.durable.TaskMarkers;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.LazyLog;

/**
 * A run's compute directory as the plan uses it ({@link PlanRun}): opened with the log lines a
 * resume owes the user (a plan that cannot be resumed, no earlier run found, a separate directory
 * beside a live compute), and after a failure either kept for a resume, its lock released and the
 * exception told where ({@link ComputeKeptNotice}, read by {@link Plan#keptComputeDir}), or
 * removed: when it holds no finished task, or when an intermediate chunk failed its checksum
 * ({@link CorruptIntermediateNotice}, read by {@link Plan#corruptIntermediate}). Log lines go to
 * the {@link Plan} logger.
 */
final class RunComputeDir {
  private RunComputeDir() {}

  private static final LazyLog LOG = new LazyLog(Plan.class.getName());

  /**
   * Opens the compute directory (lock, fingerprint); on resume logs when the plan cannot be resumed
   * (a node without a content name) or runs separately (locked by a live compute).
   */
  static ComputeDir open(Plan plan, boolean resume) {
    ComputeDir cdir =
        ComputeDir.open(
            plan.cfg.workDir(),
            plan.computeId(),
            plan.fingerprint() + PlanFingerprint.notes(plan.cfg),
            resume);
    if (resume && !plan.resumable()) {
      String why =
          plan.topo.stream()
              .filter(n -> !n.resumable())
              .findFirst()
              .map(ArrayNode::notResumableReason)
              .orElse("?");
      LOG.get()
          .warning(
              "resume: this plan cannot be resumed by a later run (its names are not all"
                  + " content-derived, so the next run gets another compute id): "
                  + why);
    }
    if (resume && !cdir.resumed() && !cdir.separate()) {
      String other =
          cdir.inStore()
              ? null
              : ComputeDir.sameOutputsOtherPlan(cdir.path().getParent(), plan.fingerprint());
      LOG.get()
          .info(
              "resume: no earlier run of this plan in "
                  + plan.cfg.workDir()
                  + " (no "
                  + cdir.name()
                  + "); running every task"
                  + (other == null
                      ? ""
                      : ". "
                          + other
                          + " was left by a run of the same outputs with other tasks; it is"
                          + " not reused"));
    }
    if (resume && cdir.separate()) {
      LOG.get()
          .warning(
              "resume: "
                  + plan.cfg.workDir()
                  + "/compute-"
                  + plan.computeId()
                  + " is locked by"
                  + " a running compute of the same plan; this run starts from scratch in "
                  + cdir.location());
    }
    return cdir;
  }

  /**
   * After a failure: a directory holding no finished task of this or an earlier run is deleted
   * (nothing to resume: e.g. a target refused before any task ran leaves nothing in the work
   * directory); otherwise it is kept, its lock released, and the message says where it is and how
   * to finish it.
   */
  static void keepForResume(Plan plan, ComputeDir cdir, Targets targets, Throwable e) {
    if (corruptIntermediate(cdir, e) && !CommitJournal.of(cdir).commitBegan()) {
      // a resume would read the same corrupt chunk (its producer's marker says done): remove the
      // directory so that the next run, resumed or not, computes every intermediate again
      String msg =
          "compute failed: an intermediate chunk in "
              + cdir.location()
              + " failed its checksum (it changed after it was written), so its compute directory"
              + " was removed: run the same program again (with or without resume; CLI: the same"
              + " command) to compute every intermediate afresh";
      try {
        targets.abandon(cdir);
        cdir.deleteAndRelease();
      } catch (RuntimeException r) {
        e.addSuppressed(r);
      }
      e.addSuppressed(new CorruptIntermediateNotice(msg));
      LOG.get().warning(msg);
      return;
    }
    try {
      if (!cdir.resumed() && !TaskMarkers.any(cdir) && !CommitJournal.of(cdir).commitBegan()) {
        targets.abandon(cdir); // its staging arrays hold no finished task either
        cdir.deleteAndRelease();
        return;
      }
      cdir.release();
    } catch (RuntimeException r) {
      e.addSuppressed(r);
    }
    String msg =
        "compute failed; its intermediates and completion markers are kept in "
            + cdir.location()
            + ": run the same program again with the same Spec work directory ("
            + plan.cfg.workDir()
            + ") and ComputeOptions.defaults().resume() (CLI: the same command"
            + " with --resume) to finish it, or delete it with ./cubed clean --work-dir "
            + plan.cfg.workDir()
            + (cdir.separate() || !plan.resumable()
                ? " (this directory cannot be resumed: "
                    + (cdir.separate()
                        ? "it was a separate run beside a live compute of the same plan)"
                        : "the plan has names that are not content-derived)")
                : "");
    e.addSuppressed(new ComputeKeptNotice(msg, cdir.location()));
    LOG.get().warning(msg);
  }

  /** True if {@code e} was caused by a checksum mismatch in a chunk of the compute directory. */
  private static boolean corruptIntermediate(ComputeDir cdir, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof dev.cubed.zarr.codec.ChecksumMismatchException
          && String.valueOf(t.getMessage()).contains("/" + cdir.name() + "/")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Attached (suppressed) to a compute's exception when a corrupt intermediate chunk made its
   * directory useless: what was removed and what to do.
   */
  static final class CorruptIntermediateNotice extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CorruptIntermediateNotice(String message) {
      super(message, null, false, false);
    }
  }

  /** Attached (suppressed) to a compute's exception: where its kept directory is. */
  static final class ComputeKeptNotice extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String location;

    ComputeKeptNotice(String message, String location) {
      super(message, null, false, false);
      this.location = location;
    }
  }
}
