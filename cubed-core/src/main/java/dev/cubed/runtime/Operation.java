package dev.cubed.runtime;

import java.util.List;
import java.util.Objects;

/**
 * One operation of a plan as an executor sees it: a name, the keys of its tasks, the function run
 * for each key, the projected memory of one task in bytes (from the memory model) and the
 * operations it depends on.
 *
 * @param name operation name (unique in a plan)
 * @param keys one key per task (typically output block coordinates)
 * @param function the task function
 * @param projectedMem projected peak memory of one task, bytes, including reservedMem
 * @param dependencies names of the earlier operations whose output this one reads; {@code null}
 *     when unknown, meaning every earlier operation (the operation then runs only after all of
 *     them). An operation with known dependencies may run concurrently with any other operation
 *     that it does not depend on, directly or indirectly.
 */
public record Operation(
    String name,
    List<long[]> keys,
    TaskFunction function,
    long projectedMem,
    List<String> dependencies) {
  /** Validates the fields. */
  public Operation {
    Objects.requireNonNull(name);
    Objects.requireNonNull(keys);
    Objects.requireNonNull(function);
    if (projectedMem < 0) {
      throw new IllegalArgumentException(
          "Operation " + name + ": projectedMem " + projectedMem + " must be >= 0");
    }
    dependencies = dependencies == null ? null : List.copyOf(dependencies);
  }

  /** An operation that depends on every earlier operation. */
  public Operation(String name, List<long[]> keys, TaskFunction function, long projectedMem) {
    this(name, keys, function, projectedMem, null);
  }

  /** This operation with another task function (everything else kept). */
  public Operation withFunction(TaskFunction f) {
    return new Operation(name, keys, f, projectedMem, dependencies);
  }

  /** Whether the dependencies are known (otherwise: every earlier operation). */
  public boolean hasKnownDependencies() {
    return dependencies != null;
  }
}
