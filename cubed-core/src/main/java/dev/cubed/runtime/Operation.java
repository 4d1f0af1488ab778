package dev.cubed.runtime;

import java.util.List;
import java.util.Objects;

/**
 * One operation of a plan as an executor sees it: a name, the keys of its tasks, the function run for
 * each key, and the projected memory of one task in bytes (from the memory model).
 *
 * @param name operation name (unique in a plan)
 * @param keys one key per task (typically output block coordinates)
 * @param function the task function
 * @param projectedMem projected peak memory of one task, bytes, including reservedMem
 */
public record Operation(String name, List<long[]> keys, TaskFunction function, long projectedMem) {
  /** Validates the fields. */
  public Operation {
    Objects.requireNonNull(name);
    Objects.requireNonNull(keys);
    Objects.requireNonNull(function);
    if (projectedMem < 0) {
      throw new IllegalArgumentException("Operation " + name + ": projectedMem " + projectedMem
          + " must be >= 0");
    }
  }
}
