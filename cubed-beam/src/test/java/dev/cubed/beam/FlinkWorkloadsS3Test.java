package dev.cubed.beam;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link BeamWorkloadsContract} on the Flink runner: one Flink cluster for the class (a MiniCluster
 * in this JVM: a JobManager with its REST endpoint on 127.0.0.1 and one TaskManager with 2 slots),
 * reached the way a user reaches a Flink cluster, {@code beam.runner=FlinkRunner} and {@code
 * beam.flinkMaster=host:port}; each compute is a Flink job submitted over REST. The TaskManager
 * shares this JVM's class path, so the job stages one empty jar ({@code beam.filesToStage}) instead
 * of the whole test class path Beam would detect (273 jars, 229 MB, uploaded per job; a real
 * cluster needs the launcher's jars, see docs/beam.md).
 */
@Tag("flink")
class FlinkWorkloadsS3Test extends BeamWorkloadsContract {
  static MiniCluster flink;
  static String master;
  static Path emptyJar;

  @BeforeAll
  static void startFlink() throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    flink =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
    flink.start();
    URI rest = flink.getRestAddress().get();
    master = rest.getHost() + ":" + rest.getPort();
    emptyJar = Files.createTempFile("cubed-flink-stage", ".jar");
    try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(emptyJar))) {
      jar.putNextEntry(new JarEntry("META-INF/"));
    }
  }

  @AfterAll
  static void stopFlink() throws Exception {
    if (flink != null) {
      flink.close();
    }
    if (emptyJar != null) {
      Files.deleteIfExists(emptyJar);
    }
  }

  @Override
  Map<String, String> runnerOptions() {
    return Map.of(
        "beam.runner",
        "FlinkRunner",
        "beam.flinkMaster",
        master,
        "beam.parallelism",
        "2",
        "beam.filesToStage",
        emptyJar.toString());
  }

  /** Flink task threads: {@code TASK NAME (SUBTASK/PARALLELISM)#ATTEMPT}, parallelism 2. */
  @Override
  String workerPattern() {
    return "[^/]+/.+ \\([12]/2\\)#[0-9]+";
  }
}
