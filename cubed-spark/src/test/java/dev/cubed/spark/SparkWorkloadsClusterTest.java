package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.s3.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The five workloads at the small size on a real multi-process Spark: a standalone Master and
 * two Workers (child JVMs on 127.0.0.1, 1 core and 1 GB each), whose two executor JVMs run every
 * task, with inputs, intermediates and outputs on the in-process S3 server; each gives NumPy's
 * checksums, and its tasks ran in executor processes other than this JVM. With
 * {@code -Dcubed.spark.compare=true} each workload also runs on the threads executor in the same
 * minute, and both times are printed. Then, on the same cluster: a task failing once is retried by
 * Spark in an executor JVM, and a deterministic failure fails the compute with the task's message.
 */
@Tag("spark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkWorkloadsClusterTest {
  static S3TestServer server;
  static StandaloneCluster cluster;
  static SparkExecutor spark;
  static final Set<String> WORKERS = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("data").createBucket("work");
    Path dir = Files.createTempDirectory("cubed-spark-cluster");
    // the Workers (and their executors) get S3 credentials from their environment, as on a
    // cluster with instance credentials; the endpoint travels inside each store
    cluster = StandaloneCluster.start(dir, 2, 1, "1g", Map.of(
        "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY, "AWS_REGION", "us-east-1"));
    spark = SparkExecutor.builder().master(cluster.masterUrl()).attempts(3)
        .conf("spark.executor.memory", "1g").build();
    WorkloadChecks.prepare();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (spark != null) {
        spark.close();
      }
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      server.close();
    }
  }

  @Order(1)
  @ParameterizedTest
  @ValueSource(strings = {"quadratic_means", "add", "matmul", "rechunk", "reduce"})
  void smallWorkloadGivesNumpysChecksumsOnTwoExecutorJvms(String name) {
    WorkloadChecks.Run r = WorkloadChecks.compare(name, spark, "(2 executor JVMs)");
    assertThat(r.tasks()).as("tasks reported").isGreaterThan(0);
    assertThat(r.workers()).as("no task ran in the driver JVM").noneMatch(w -> w.contains(
        "(pid " + ProcessHandle.current().pid() + " "));
    WORKERS.addAll(r.workers());
  }

  @Order(3)
  @Test
  void onTheClusterAFailedAttemptIsRetriedAndADeterministicFailureFailsWithItsMessage(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    // the executors share this machine's file system: marker files count attempts across JVMs
    String d = dir.toString();
    SparkExecutorTest.Recorder r = new SparkExecutorTest.Recorder();
    spark.execute("retry", List.of(new Operation("once", SparkExecutorTest.keys(3),
        SparkExecutorTest.failsOnce(d), 0)), List.of(r));
    assertThat(r.taskEnds("once")).filteredOn(t -> t.key()[0] == 1).singleElement()
        .satisfies(t -> assertThat(t.attempts()).isEqualTo(2));
    Operation bad = new Operation("bad", SparkExecutorTest.keys(4),
        SparkExecutorTest.failing(d, true), 0);
    assertThatThrownBy(() -> spark.execute("det", List.of(bad), List.of()))
        .isInstanceOfSatisfying(TaskFailedException.class, e -> {
          assertThat(e.key()).containsExactly(2);
          assertThat(e.deterministic()).isTrue();
        })
        .hasMessageContaining("chunk 2 has a bad dtype")
        .hasMessageContaining("spark executor");
    assertThat(SparkExecutorTest.runsOf(dir, 2)).as("not retried").isEqualTo(1);
  }

  @Order(2)
  @Test
  void theTasksRanInTwoSeparateExecutorProcesses() {
    Set<String> pids = new java.util.TreeSet<>();
    for (String w : WORKERS) {
      pids.add(w.replaceAll(".*\\(pid (\\d+) .*", "$1"));
    }
    assertThat(pids).as("executor processes of the workloads' tasks: " + WORKERS).hasSize(2);
    assertThat(cluster.executorProcesses().stream().map(p -> Long.toString(p.pid())))
        .as("they are the Workers' child processes").containsAll(pids);
  }
}
