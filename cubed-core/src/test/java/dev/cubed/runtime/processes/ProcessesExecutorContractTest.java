package dev.cubed.runtime.processes;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorContract;
import java.time.Duration;

/**
 * The processes executor under the {@link ExecutorContract}: tasks run in worker JVMs, which each
 * compute starts and stops (no keep-alive).
 */
class ProcessesExecutorContractTest extends ExecutorContract {
  @Override
  protected Executor executor(int workers, int attempts) {
    return ProcessesExecutor.builder()
        .workers(workers)
        .attempts(attempts)
        .retryBackoff(Duration.ofMillis(1))
        .build();
  }
}
