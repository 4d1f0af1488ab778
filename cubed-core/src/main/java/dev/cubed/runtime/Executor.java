package dev.cubed.runtime;

import java.util.List;

/**
 * Runs a plan's operations. Operations are given in a valid order (each after the operations it
 * depends on); an executor may run the tasks of one operation in any order and concurrently, and
 * must finish an operation before starting a later one unless it knows they are independent. An
 * operation's tasks are idempotent ({@link TaskFunction}), so an executor may retry a task or run a
 * duplicate (backup) of it; each task must succeed at least once before the operations that depend
 * on it start, and {@link #execute} must not return while any task it started is still running.
 * Every executor here orders its operations with the one {@link Scheduler}.
 *
 * <p>Executors are chosen by name ({@link #byName(String, ExecutorSettings)}): the built-ins and
 * the {@link ExecutorFactory} services on the classpath (the one service interface: an executor of
 * another engine registers a factory).
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
   * @return what the run reports (concurrency, retries, ...; figures the executor does not know are
   *     -1)
   * @throws TaskFailedException if a task fails for good: a deterministic error, or every attempt
   *     failed (with the last cause); its message names the executor, the operation and the task
   * @throws InsufficientHeapException if a task cannot fit in the memory of a worker even alone;
   *     thrown before anything runs
   */
  RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks);

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
   * True if the tasks run in this JVM and may read the client's in-memory data directly (the
   * threads executor). False (the default) for executors whose tasks run in other JVMs (worker
   * processes, clusters): the plan then first writes in-memory inputs ({@link
   * dev.cubed.runtime.processes.ClientData}, e.g. {@code Cubed.fromArray}'s array) to the compute's
   * intermediate store, once, in the client, and the tasks read the blocks they need from there.
   */
  default boolean runsTasksInThisJvm() {
    return false;
  }

  /**
   * The executor registered under a name, with the default settings ({@link
   * ExecutorSettings#defaults()}): the same as {@code byName(name, ExecutorSettings.defaults())}.
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." if none has that name
   */
  static Executor byName(String name) {
    return byName(name, ExecutorSettings.defaults());
  }

  /**
   * The executor registered under a name, configured from settings: the one way an executor is made
   * by name ({@code Cubed.executor(spec)} calls it with the spec's settings). The built-ins:
   * "threads" (workers threads, attempts, reservedMem), "processes" (workers worker JVMs with heap
   * bound {@code -Xmx = allowedMem}, or the plan's largest projected task memory when allowedMem is
   * 0, keeping idle workers between computes for the settings' {@link
   * ExecutorSettings.Processes#keepAlive()} (default 30 s; the spec's {@code
   * processes_keep_alive}), see {@link
   * dev.cubed.runtime.processes.ProcessesExecutor.Builder#keepAlive}) and "processes-strict" (the
   * same in strict mode, {@link dev.cubed.runtime.processes.ProcessesExecutor.Builder#heapPerOp});
   * then the {@link ExecutorFactory} services.
   *
   * @throws IllegalArgumentException "unknown executor 'x'; available: ..." if none has that name,
   *     or if the executor refuses an option
   */
  static Executor byName(String name, ExecutorSettings settings) {
    return ExecutorRegistry.require(name).create(settings);
  }
}
