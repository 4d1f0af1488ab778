/**
 * Running plans' tasks: the executor service ({@link dev.cubed.runtime.Executor}, {@link
 * dev.cubed.runtime.ExecutorFactory}), the one {@link dev.cubed.runtime.Scheduler}, the threads
 * executor, task attempts, retries and timeouts, and events ({@link dev.cubed.runtime.Callback}).
 * The processes executor and its worker protocol are the sub-layer {@link
 * dev.cubed.runtime.processes} above this package.
 */
package dev.cubed.runtime;
