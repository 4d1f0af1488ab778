package dev.cubed.plan;

/**
 * How {@link Plan#run} runs a plan: whether it reads the outputs back, and whether it resumes an
 * earlier failed or killed run of the same plan. Immutable; start from {@link #defaults()}.
 *
 * @param readResults read every output into memory after the run (off for writes to user targets,
 *     which need nothing back)
 * @param resume reuse the compute directory an earlier run of the same plan left and skip every
 *     task with a completion marker (ops with all tasks done are not run at all); without it such a
 *     directory is emptied first
 */
public record RunOptions(boolean readResults, boolean resume) {
  /** Read the outputs back, no resume. */
  public static RunOptions defaults() {
    return new RunOptions(true, false);
  }

  /** These options, resuming an earlier run when {@code on}. */
  public RunOptions resume(boolean on) {
    return new RunOptions(readResults, on);
  }

  /** These options, reading nothing back. */
  public RunOptions noResults() {
    return new RunOptions(false, resume);
  }
}
