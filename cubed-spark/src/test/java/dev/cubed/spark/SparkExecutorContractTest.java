package dev.cubed.spark;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorContract;
import org.junit.jupiter.api.Tag;

/**
 * The spark executor under the {@link ExecutorContract}, on a local master of two threads (the
 * workers asked for are ignored so that the context is shared); the attempts become the master's
 * {@code local[2,attempts]}, so a test with other attempts than the last starts its own context.
 */
@Tag("spark")
class SparkExecutorContractTest extends ExecutorContract {
  @Override
  protected Executor executor(int workers, int attempts) {
    return SparkExecutor.builder()
        .master("local[2]")
        .attempts(attempts)
        .conf("spark.executor.memory", "1g")
        .build();
  }
}
