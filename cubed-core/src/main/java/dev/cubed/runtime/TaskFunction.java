package dev.cubed.runtime;

import java.io.Serializable;

/**
 * The work of one task: a serializable function of a chunk key (the output block's coordinates). It
 * must be idempotent, since a failed task is retried and a backup may run it twice.
 */
@FunctionalInterface
public interface TaskFunction extends Serializable {
  /** Runs the task for one key; any exception marks the attempt as failed. */
  void run(long[] key) throws Exception;
}
