package dev.cubed.runtime;

import java.time.Duration;

/** The threads executor under the {@link ExecutorContract}. */
class ThreadsExecutorContractTest extends ExecutorContract {
  @Override
  protected Executor executor(int workers, int attempts) {
    return ThreadsExecutor.builder()
        .workers(workers)
        .attempts(attempts)
        .retryBackoff(Duration.ofMillis(1))
        .build();
  }
}
