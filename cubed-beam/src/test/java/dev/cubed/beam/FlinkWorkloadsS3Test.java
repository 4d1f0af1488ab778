package dev.cubed.beam;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link BeamWorkloadsContract} on the Flink runner: one Flink cluster for the class ({@link
 * FlinkTestCluster}: a MiniCluster in this JVM reached over REST, as a user reaches a Flink
 * cluster, each compute a Flink job).
 */
@Tag("flink")
class FlinkWorkloadsS3Test extends BeamWorkloadsContract {
  static FlinkTestCluster flink;

  @BeforeAll
  static void startFlink() throws Exception {
    flink = FlinkTestCluster.start();
  }

  @AfterAll
  static void stopFlink() throws Exception {
    if (flink != null) {
      flink.close();
    }
  }

  @Override
  Map<String, String> runnerOptions() {
    return flink.runnerOptions();
  }

  /** Flink task threads: {@code TASK NAME (SUBTASK/PARALLELISM)#ATTEMPT}, parallelism 2. */
  @Override
  String workerPattern() {
    return "[^/]+/.+ \\([12]/2\\)#[0-9]+";
  }
}
