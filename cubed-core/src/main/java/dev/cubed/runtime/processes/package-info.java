/**
 * The processes executor and its worker-process protocol: {@link
 * dev.cubed.runtime.processes.ProcessesExecutor} runs tasks in child JVMs ({@link
 * dev.cubed.runtime.processes.WorkerMain}) with a bounded heap each, talking {@link
 * dev.cubed.runtime.processes.WorkerProtocol} over their standard streams; the pool, function
 * shipping, the class-path index, deserialization filters and heap bounds live here. It uses the
 * runtime's base (the one {@link dev.cubed.runtime.Scheduler}, executors, tasks, retries, events),
 * which does not use it back: the "processes" names reach the registry as a factory service ({@link
 * dev.cubed.runtime.processes.ProcessesExecutorFactory}).
 */
package dev.cubed.runtime.processes;
