package dev.cubed.diagnostics;

import dev.cubed.runtime.Events;

/**
 * One finished task as the diagnostics keep it: the task-end event and the compute it belongs to.
 * Measured values are -1 where the executor could not measure them.
 *
 * @param compute the compute's number in the recorder (1 = first), since one plan run twice has the
 *     same compute id
 */
record RecordedTask(int compute, String computeId, Events.TaskEnd event) {
  String op() {
    return event.opName();
  }

  /** The key as dot-separated block coordinates, e.g. {@code 0.3.1}. */
  String key() {
    StringBuilder sb = new StringBuilder();
    for (long k : event.key()) {
      if (sb.length() > 0) {
        sb.append('.');
      }
      sb.append(k);
    }
    return sb.toString();
  }
}
