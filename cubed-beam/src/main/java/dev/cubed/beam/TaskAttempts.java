package dev.cubed.beam;

import com.sun.management.ThreadMXBean;
import dev.cubed.runtime.RetryPolicy;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.TaskWorker;
import dev.cubed.runtime.ThreadsExecutor;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.CancellationException;

/**
 * The attempts of one task inside a Beam DoFn: up to {@code attempts} tries, each on a fresh thread
 * with a {@link ThreadsExecutor#WORKER_STACK_BYTES} stack (native kernels need more than a runner
 * thread's default stack), a deterministic failure ({@link RetryPolicy}) not retried, and an
 * exponential backoff between tries (from {@code backoffMillis}, doubling, at most 1 s).
 */
final class TaskAttempts {
  private TaskAttempts() {}

  /**
   * The outcome of one successful task: attempts used and the last attempt's allocation, and the
   * process of its own its function ran the work in ({@link TaskWorker}), or null.
   */
  record Success(
      long startMillis, long endMillis, int attempts, long allocatedBytes, TaskWorker.Ran ran) {}

  /**
   * Runs the task until one attempt succeeds.
   *
   * @param runId the compute run (attempts stop once it is over, see {@link InFlight})
   * @throws TaskFailedException when an attempt fails deterministically or every attempt failed
   * @throws CancellationException if the run ended (failed elsewhere) between attempts
   * @throws InterruptedException if the runner interrupted this thread
   */
  static Success run(
      String runId, String opName, TaskFunction fn, long[] key, int attempts, long backoffMillis)
      throws InterruptedException {
    long start = System.currentTimeMillis();
    Throwable last = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      if (InFlight.isOver(runId)) {
        throw new CancellationException(
            "beam executor: task "
                + Arrays.toString(key)
                + " of operation "
                + opName
                + " not attempted again: its compute has ended");
      }
      Attempt a = new Attempt(fn, key);
      Thread t = new Thread(null, a, "cubed-beam-task", ThreadsExecutor.WORKER_STACK_BYTES);
      t.setDaemon(true);
      t.start();
      try {
        t.join();
      } catch (InterruptedException e) {
        t.interrupt();
        t.join();
        throw e;
      }
      if (a.error == null) {
        return new Success(start, System.currentTimeMillis(), attempt, a.allocated, a.ran);
      }
      last = a.error;
      if (last instanceof Error && !(last instanceof OutOfMemoryError)) {
        throw new TaskFailedException("beam", opName, key, attempt, last, true);
      }
      if (RetryPolicy.isDeterministic(last)) {
        throw new TaskFailedException("beam", opName, key, attempt, last, true);
      }
      long sleep = RetryPolicy.backoffNanos(backoffMillis * 1_000_000L, attempt);
      if (attempt < attempts && sleep > 0) {
        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
      }
    }
    throw new TaskFailedException("beam", opName, key, attempts, last, false);
  }

  /**
   * One attempt, run on its own thread; records the error, the bytes allocated and where the work
   * ran if the function reported it.
   */
  private static final class Attempt implements Runnable {
    private final TaskFunction fn;
    private final long[] key;
    volatile Throwable error;
    volatile long allocated = -1;
    volatile TaskWorker.Ran ran;

    Attempt(TaskFunction fn, long[] key) {
      this.fn = fn;
      this.key = key;
    }

    @Override
    public void run() {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean() instanceof ThreadMXBean s ? s : null;
      long a0 = mx != null ? mx.getCurrentThreadAllocatedBytes() : -1;
      TaskWorker.beginAttempt();
      try {
        fn.run(key.clone());
        ran = TaskWorker.reported();
      } catch (Throwable e) {
        error = e;
      }
      if (mx != null) {
        allocated = mx.getCurrentThreadAllocatedBytes() - a0;
      }
    }
  }
}
