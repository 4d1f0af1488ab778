package dev.cubed.runtime;

import java.util.List;
import java.util.ServiceLoader;

/**
 * Runs a plan's operations. Operations are given in a valid order (each after the operations it
 * depends on); an executor may run the tasks of one operation in any order and concurrently, and
 * must finish an operation before starting a later one unless it knows they are independent. An
 * operation's tasks are idempotent ({@link TaskFunction}), so an executor may retry a task or run a
 * duplicate (backup) of it; each task must succeed at least once before the operations that depend
 * on it start, and {@link #execute} must not return while any task it started is still running.
 * Implementations are found with {@link ServiceLoader} by {@link #name()}.
 */
public interface Executor {
  /** The name this executor is found by (e.g. "threads"). */
  String name();

  /**
   * Runs every task of every operation.
   *
   * @param computeId id of this compute (for events)
   * @param ops operations in dependency order
   * @param callbacks event receivers
   * @throws TaskFailedException if a task fails for good: a deterministic error, or every attempt
   *     failed (with the last cause)
   * @throws InsufficientHeapException (threads executor) if a task cannot fit in the heap even
   *     alone; thrown before anything runs
   */
  void execute(String computeId, List<Operation> ops, List<Callback> callbacks);

  /**
   * True if a plan so small that all its arrays fit one block each may be evaluated in the calling
   * thread instead of through this executor (no threads, no intermediate files, no retries): the
   * threads executor without injected faults says yes; executors that isolate tasks (worker
   * processes, clusters) keep the default no.
   */
  default boolean allowsInlineTinyPlans() {
    return false;
  }

  /**
   * The executor registered under a name, with its defaults (the threads and processes executors'
   * no-argument constructors, "processes-strict" in strict mode, or an {@link Executor} service).
   * Engine executors ({@link ExecutorFactory} services such as spark) need a spec's settings: use
   * {@code Cubed.executor(spec)} or {@link ExecutorFactory#find}.
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." if none has that name,
   *     or if the name is an engine executor's
   */
  static Executor byName(String name) {
    return ExecutorRegistry.withDefaults(name);
  }
}
