package dev.cubed.plan;

import dev.cubed.plan.node.PlanSummary;

/**
 * A plan whose intermediate arrays need more bytes than the file system of the local work directory
 * has usable; thrown before any task runs. The message names both figures and what to change.
 */
public final class DiskSpaceExceededException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final long intermediateBytes;
  private final long usableBytes;

  DiskSpaceExceededException(long intermediateBytes, long usableBytes, String workDir) {
    super(
        "the plan writes "
            + PlanSummary.bytes(intermediateBytes)
            + " ("
            + intermediateBytes
            + " B) of intermediate arrays to work directory "
            + workDir
            + ", whose file system has "
            + PlanSummary.bytes(usableBytes)
            + " ("
            + usableBytes
            + " B) usable. Use a work_dir with more space, larger chunks, or fewer"
            + " intermediate arrays (or set disk_check=false if the space will be there);"
            + " nothing was run");
    this.intermediateBytes = intermediateBytes;
    this.usableBytes = usableBytes;
  }

  /** Bytes of the plan's intermediate arrays (uncompressed). */
  public long intermediateBytes() {
    return intermediateBytes;
  }

  /** Usable bytes of the work directory's file system when the plan was checked. */
  public long usableBytes() {
    return usableBytes;
  }
}
