package dev.cubed.runtime.processes;

import java.io.Serializable;

/**
 * A value inside a task function that holds data of the client's JVM (an in-memory array given to
 * the plan) which tasks running in another JVM never read: before a plan's operations are handed to
 * an executor whose tasks run elsewhere ({@link dev.cubed.runtime.Executor#runsTasksInThisJvm()}
 * false), the plan writes such data to the compute's intermediate store, and its tasks read it from
 * there. So {@link FunctionShipping} ships the value's {@link #shippedForm() stand-in} (without the
 * data), and a worker's heap never holds more of the data than the blocks its task reads.
 */
public interface ClientData {
  /** What is shipped in place of this value: small, without the data it holds. */
  Serializable shippedForm();
}
