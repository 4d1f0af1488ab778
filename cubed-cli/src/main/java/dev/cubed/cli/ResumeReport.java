package dev.cubed.cli;

import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanCallback;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.zarr.store.Stores;
import java.io.PrintStream;

/**
 * The CLI's report of a compute run with {@code --resume}, one line on standard error when its
 * tasks start: {@code resume: 120 of 205 tasks already done, running 85}. When nothing was reused
 * it says so, and names a compute directory of the same source and target that planned other tasks
 * (e.g. with another --allowed-mem), with the memory figures it was planned with. Also prints,
 * before the tasks of any run, the command that finishes the run if it is interrupted.
 */
final class ResumeReport implements PlanCallback, Callback {
  private final PrintStream err;
  private final boolean resume;
  private final String workDir;
  private final String resumeCommand;
  private volatile Plan plan;
  private volatile long skipped;
  private volatile boolean reported;

  ResumeReport(PrintStream err, boolean resume, String workDir, String resumeCommand) {
    this.err = err;
    this.resume = resume;
    this.workDir = workDir;
    this.resumeCommand = resumeCommand;
  }

  @Override
  public void onPlan(Plan p) {
    plan = p;
  }

  @Override
  public void onResume(long skippedTasks) {
    skipped = skippedTasks;
  }

  @Override
  public void onComputeStart(Events.ComputeStart e) {
    report();
  }

  /** After the compute: prints the resume line if no start event came (nothing ran). */
  void afterCompute() {
    if (resume) {
      report();
    }
  }

  private void report() {
    Plan p = plan;
    if (reported || p == null) {
      return;
    }
    reported = true;
    if (!resume) {
      err.println(
          "work directory "
              + workDir
              + "; if this run is interrupted, finish it with: "
              + resumeCommand);
      return;
    }
    long total = p.summary().totalTasks();
    long done = skipped;
    String line =
        "resume: " + done + " of " + total + " tasks already done, running " + (total - done);
    if (done == 0) {
      String other =
          Stores.isLocal(workDir)
              ? ComputeDir.sameOutputsOtherPlan(Stores.localPath(workDir), p.fingerprint())
              : null;
      line +=
          " (no earlier run of these tasks in "
              + workDir
              + ")"
              + (other == null
                  ? ""
                  : "; "
                      + other
                      + " was left by this command with other tasks and is not reused: rerun"
                      + " with the --allowed-mem and --reserved-mem it names to reuse it");
    }
    err.println(line);
  }
}
