package dev.cubed.spark;

import java.io.Serializable;
import java.util.List;

/**
 * What one Spark task sends back to the driver: its key, timing, attempt and where it ran, and on a
 * failure that must not be retried by Spark (deterministic, or the last attempt) the failure as
 * text (class chain, message, stack), since exception objects of user code may not deserialize on
 * the driver.
 *
 * @param key the task's key
 * @param startMillis start of the winning attempt, epoch ms
 * @param endMillis its end, epoch ms
 * @param attempt 1-based attempt number (Spark's attempt number + 1)
 * @param allocatedBytes bytes the task's thread allocated, -1 if unknown
 * @param worker the executor it ran in (id, host and process id), preceded by the process of its
 *     own the task's function ran its work in, if any ("python worker pid P in spark executor ...")
 * @param peakRss that process's peak resident set during the task, bytes; -1 if unknown or none
 * @param failureChain class names of the failure and its causes, outermost first; null on success
 * @param failureMessage the failure's message; null on success
 * @param failureStack the failure's printed stack trace; null on success
 * @param deterministic true if the failure is deterministic (not retried)
 */
record TaskOutcome(
    long[] key,
    long startMillis,
    long endMillis,
    int attempt,
    long allocatedBytes,
    String worker,
    long peakRss,
    List<String> failureChain,
    String failureMessage,
    String failureStack,
    boolean deterministic)
    implements Serializable {

  /** True if the task failed for good. */
  boolean failed() {
    return failureChain != null;
  }
}
