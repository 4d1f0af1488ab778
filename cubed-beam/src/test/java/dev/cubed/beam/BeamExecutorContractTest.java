package dev.cubed.beam;

import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorContract;
import dev.cubed.runtime.ExecutorSettings;
import java.util.Map;
import org.junit.jupiter.api.Tag;

/** The beam executor under the {@link ExecutorContract}, on the DirectRunner in this JVM. */
@Tag("beam")
class BeamExecutorContractTest extends ExecutorContract {
  @Override
  protected Executor executor(int workers, int attempts) {
    return Executor.byName(
        "beam", new ExecutorSettings(workers, attempts, 2_000_000_000L, 100_000_000L, Map.of()));
  }
}
