package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Spec;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.processes.PythonClientRun;
import dev.cubed.s3.S3TestServer;
import dev.cubed.testing.FromArrayCase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcAddress;
import org.apache.spark.rpc.RpcEnv;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The five workloads at the small size on a real multi-process Spark: a standalone Master and two
 * Workers (child JVMs on 127.0.0.1, 1 core and 1 GB each), whose two executor JVMs run every task,
 * with inputs, intermediates and outputs on the in-process S3 server; each gives NumPy's checksums,
 * and its tasks ran in executor processes other than this JVM. With {@code
 * -Dcubed.spark.compare=true} each workload also runs on the threads executor in the same minute,
 * and both times are printed. A {@code Cubed.fromArray} input combined with a stored array gives
 * the threads executor's answer there. Then, on the same cluster: a task failing once is retried by
 * Spark in an executor JVM, and a deterministic failure fails the compute with the task's message.
 * The cluster runs with the settings of scripts/spark-local-cluster.sh: every process listens on
 * 127.0.0.1 only, there is no REST submission server, and a connection without the shared secret is
 * refused (the workloads above ran with it). Last, Python functions on the same cluster: the Python
 * package, as a client with the spark executor in its bridge, runs {@code
 * python/tests/test_engines_pyfunc.py} (an xarray {@code apply_ufunc} with {@code
 * scipy.special.erf} equals NumPy-backed xarray's; its tasks ran in Python workers whose parents
 * are the executor JVMs, neither the client nor the driver; a function raising once is retried by
 * Spark): the executors have this module's test class path, cubed-python's classes included.
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
    cluster =
        StandaloneCluster.start(
            dir,
            2,
            1,
            "1g",
            Map.of(
                "AWS_ACCESS_KEY_ID",
                S3TestServer.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY",
                S3TestServer.SECRET_KEY,
                "AWS_REGION",
                "us-east-1"));
    // the cluster authenticates every connection: the driver proves it knows the shared secret
    spark =
        SparkExecutor.builder()
            .master(cluster.masterUrl())
            .attempts(3)
            .conf("spark.executor.memory", "1g")
            .authSecretFile(cluster.secretFile())
            .build();
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
    assertThat(r.workers())
        .as("no task ran in the driver JVM")
        .noneMatch(w -> w.contains("(pid " + ProcessHandle.current().pid() + " "));
    WORKERS.addAll(r.workers());
  }

  @Order(3)
  @Test
  void onTheClusterAFailedAttemptIsRetriedAndADeterministicFailureFailsWithItsMessage(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    // the executors share this machine's file system: marker files count attempts across JVMs
    String d = dir.toString();
    SparkExecutorTest.Recorder r = new SparkExecutorTest.Recorder();
    spark.execute(
        "retry",
        List.of(
            new Operation("once", SparkExecutorTest.keys(3), SparkExecutorTest.failsOnce(d), 0)),
        List.of(r));
    assertThat(r.taskEnds("once"))
        .filteredOn(t -> t.key()[0] == 1)
        .singleElement()
        .satisfies(t -> assertThat(t.attempts()).isEqualTo(2));
    Operation bad =
        new Operation("bad", SparkExecutorTest.keys(4), SparkExecutorTest.failing(d, true), 0);
    assertThatThrownBy(() -> spark.execute("det", List.of(bad), List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.key()).containsExactly(2);
              assertThat(e.deterministic()).isTrue();
            })
        .hasMessageContaining("chunk 2 has a bad dtype")
        .hasMessageContaining("spark executor");
    assertThat(SparkExecutorTest.runsOf(dir, 2)).as("not retried").isEqualTo(1);
  }

  @Order(1)
  @Test
  void fromArrayDataWithAStoredArrayEqualsTheThreadsExecutorOnTwoExecutorJvms() {
    FromArrayCase.writeStored("s3://data/from-array/stored.zarr");
    Spec spec =
        Spec.builder()
            .workDir("s3://work/from-array")
            .allowedMem("100MB")
            .reservedMem("1MB")
            .build();
    List<Events.TaskEnd> ends =
        FromArrayCase.checkAgainstThreads(spark, "s3://data/from-array/stored.zarr", spec);
    assertThat(ends)
        .extracting(Events.TaskEnd::worker)
        .as("no task ran in the driver JVM")
        .noneMatch(w -> w.contains("(pid " + ProcessHandle.current().pid() + " "));
  }

  @Order(2)
  @Test
  void theTasksRanInTwoSeparateExecutorProcesses() {
    Set<String> pids = new TreeSet<>();
    for (String w : WORKERS) {
      pids.add(w.replaceAll(".*\\(pid (\\d+) .*", "$1"));
    }
    assertThat(pids).as("executor processes of the workloads' tasks: " + WORKERS).hasSize(2);
    assertThat(cluster.executorProcesses().stream().map(p -> Long.toString(p.pid())))
        .as("they are the Workers' child processes")
        .containsAll(pids);
  }

  @Order(4)
  @Test
  void everyDaemonListensOnLoopbackOnlyAndNoRestServerRuns() throws Exception {
    Assumptions.assumeTrue(ListeningSockets.available(), "Linux /proc");
    List<ProcessHandle> daemons = cluster.daemons();
    assertThat(ListeningSockets.of(daemons.get(0).pid()))
        .as("the Master's sockets")
        .extracting(ListeningSockets.Listen::port)
        .contains(cluster.port());
    List<ProcessHandle> all = new ArrayList<>(daemons);
    all.addAll(cluster.executorProcesses());
    for (ProcessHandle p : all) {
      List<ListeningSockets.Listen> ls = ListeningSockets.of(p.pid());
      assertThat(ls)
          .as("pid " + p.pid() + " listens on " + ls)
          .allSatisfy(l -> assertThat(l.address()).isEqualTo("127.0.0.1"))
          .noneSatisfy(l -> assertThat(l.port()).isEqualTo(6066));
    }
    assertThat(Files.readString(cluster.masterLog()))
        .doesNotContain("REST server")
        .doesNotContain(Files.readString(cluster.secretFile()).strip());
    assertThat(Files.getPosixFilePermissions(cluster.secretFile()))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
  }

  @Order(5)
  @Test
  void aConnectionWithoutTheSecretIsRefusedAndOneWithItIsAccepted() throws Exception {
    String secret = Files.readString(cluster.secretFile()).strip();
    // with the secret: the Master's endpoint is found (the control: the probe itself works)
    RpcEnv with = probe(secret);
    try {
      assertThat(with.setupEndpointRef(new RpcAddress("127.0.0.1", cluster.port()), "Master"))
          .isNotNull();
    } finally {
      with.shutdown();
    }
    for (String wrong : new String[] {null, "not-the-secret"}) {
      RpcEnv env = probe(wrong);
      try {
        assertThatThrownBy(
                () -> env.setupEndpointRef(new RpcAddress("127.0.0.1", cluster.port()), "Master"))
            .as("secret " + (wrong == null ? "none" : "wrong"))
            .isInstanceOf(Exception.class);
      } finally {
        env.shutdown();
      }
    }
  }

  @Order(6)
  @Test
  void pythonFunctionsOfAnXarrayClientRunInPythonWorkersOfTheExecutors() throws Exception {
    // the cluster's two cores go to one application at a time: this JVM's gives them back
    spark.close();
    PythonClientRun.pytest(
        "test_engines_pyfunc.py",
        1,
        StandaloneCluster.classpath(),
        Map.of(
            "CUBED_TEST_SPARK_MASTER",
            cluster.masterUrl(),
            "CUBED_TEST_SPARK_SECRET_FILE",
            cluster.secretFile().toString()));
  }

  /** A client-mode Spark RPC environment, authenticating with {@code secret} unless null. */
  private static RpcEnv probe(String secret) {
    SparkConf conf =
        new SparkConf(false)
            .set("spark.rpc.lookupTimeout", "300s")
            .set("spark.rpc.askTimeout", "300s");
    if (secret != null) {
      conf.set("spark.authenticate", "true").set("spark.authenticate.secret", secret);
    }
    org.apache.spark.SecurityManager sm =
        new org.apache.spark.SecurityManager(
            conf,
            org.apache.spark.SecurityManager.$lessinit$greater$default$2(),
            org.apache.spark.SecurityManager.$lessinit$greater$default$3());
    return RpcEnv.create("probe", "127.0.0.1", 0, conf, sm, true);
  }
}
