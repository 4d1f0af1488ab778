package dev.cubed.runtime.processes;

import java.util.Arrays;
import java.util.logging.Level;

/**
 * The tasks of one op whose measured peak exceeded its projection, logged once per op when the
 * compute ends: a WARNING if live data (after a full collection during a task) exceeded the
 * projection, which proves the op under-projected; otherwise (only the peak occupancy, garbage
 * included, exceeded it, which is no evidence) one INFO line, or FINE in heapPerOp mode, where the
 * heap bound lets the occupancy exceed the projection by the idle worker's allowance and a young
 * generation only.
 */
final class OverProjection {
  private final long projected;
  private int tasks;
  private int proven;
  private long worst = -1;
  private long[] worstKey;
  private long worstLive = -1;
  private long[] worstLiveKey;

  OverProjection(long projected) {
    this.projected = projected;
  }

  synchronized void add(long[] key, long measured, long live) {
    tasks++;
    if (measured > worst) {
      worst = measured;
      worstKey = key;
    }
    if (live > projected) {
      proven++;
      if (live > worstLive) {
        worstLive = live;
        worstLiveKey = key;
      }
    }
  }

  synchronized void log(String op, boolean strict) {
    if (proven > 0) {
      ProcessesExecutor.LOG.warning(
          String.format(
              "processes executor: operation %s IS"
                  + " under-projected: %d of its tasks had more live data after a full collection"
                  + " than its projected %,d bytes (%.1f MiB); worst: task %s with %,d bytes"
                  + " (%.1f MiB, reservedMem included). Report it with the plan (CubedArray.plan());"
                  + " meanwhile raise allowedMem or use smaller chunks",
              op,
              proven,
              projected,
              projected / 1048576.0,
              Arrays.toString(worstLiveKey),
              worstLive,
              worstLive / 1048576.0));
      return;
    }
    ProcessesExecutor.LOG.log(
        strict ? Level.FINE : Level.INFO,
        String.format(
            "processes executor: %d task(s) of operation %s had a peak heap"
                + " occupancy above the projected %,d bytes (worst: task %s, %,d bytes). The occupancy"
                + " includes garbage not yet collected, so this is no evidence of under-projection;"
                + " heapPerOp mode checks it (each task in a heap of its projection)",
            tasks, op, projected, Arrays.toString(worstKey), worst));
  }
}
