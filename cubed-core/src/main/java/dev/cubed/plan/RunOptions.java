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
 * @param buffers where the outputs written straight into their results go, or null: arrays in the
 *     heap (see {@link ResultBuffers})
 */
public record RunOptions(boolean readResults, boolean resume, ResultBuffers buffers) {
  /** Read the outputs back, no resume. */
  public static RunOptions defaults() {
    return new RunOptions(true, false, null);
  }

  /** These options, resuming an earlier run when {@code on}. */
  public RunOptions resume(boolean on) {
    return new RunOptions(readResults, on, buffers);
  }

  /** These options, reading nothing back. */
  public RunOptions noResults() {
    return new RunOptions(false, resume, buffers);
  }

  /** These options, with the results written into the buffers {@code b} gives (null: none). */
  public RunOptions into(ResultBuffers b) {
    return new RunOptions(readResults, resume, b);
  }
}
