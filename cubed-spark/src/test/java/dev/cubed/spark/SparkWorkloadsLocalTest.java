package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The five workloads at the small size on {@code local[2]} (tasks on two threads of this JVM, still
 * shipped as serialized closures), inputs and intermediates on the in-process S3 server; each gives
 * NumPy's checksums. Tagged slow (run with {@code -DexcludedGroups=}): CI runs the same workloads
 * on two executor JVMs ({@link SparkWorkloadsClusterTest}), which is the stronger test.
 */
@Tag("spark")
@Tag("slow")
class SparkWorkloadsLocalTest {
  static S3TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("data").createBucket("work");
    WorkloadChecks.prepare();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"quadratic_means", "add", "matmul", "rechunk", "reduce"})
  void smallWorkloadGivesNumpysChecksumsOnLocal2(String name) {
    WorkloadChecks.Run r = WorkloadChecks.compare(name, SparkTesting.local(), "(local[2])");
    assertThat(r.workers()).allMatch(w -> w.startsWith("spark executor driver"));
  }
}
