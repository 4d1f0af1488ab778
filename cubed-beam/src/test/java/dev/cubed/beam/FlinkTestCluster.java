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

/**
 * A Flink cluster in this JVM (a MiniCluster: a JobManager with its REST endpoint on 127.0.0.1 and
 * one TaskManager with 2 slots), reached the way a user reaches a Flink cluster, {@code
 * beam.runner=FlinkRunner} and {@code beam.flinkMaster=host:port}; each compute is a Flink job
 * submitted over REST. The TaskManager shares this JVM's class path, so a job stages one empty jar
 * ({@code beam.filesToStage}) instead of the whole test class path Beam would detect (273 jars, 229
 * MB, uploaded per job; a real cluster needs the launcher's jars, see docs/beam.md).
 */
final class FlinkTestCluster implements AutoCloseable {
  private final MiniCluster flink;
  private final String master;
  private final Path emptyJar;

  private FlinkTestCluster(MiniCluster flink, String master, Path emptyJar) {
    this.flink = flink;
    this.master = master;
    this.emptyJar = emptyJar;
  }

  /** Starts the cluster. */
  static FlinkTestCluster start() throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    MiniCluster flink =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
    flink.start();
    URI rest = flink.getRestAddress().get();
    Path emptyJar = Files.createTempFile("cubed-flink-stage", ".jar");
    try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(emptyJar))) {
      jar.putNextEntry(new JarEntry("META-INF/"));
    }
    return new FlinkTestCluster(flink, rest.getHost() + ":" + rest.getPort(), emptyJar);
  }

  /** The REST address, host:port. */
  String master() {
    return master;
  }

  /** The empty jar a job stages. */
  Path emptyJar() {
    return emptyJar;
  }

  /** The beam executor's options for this cluster, parallelism 2. */
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

  @Override
  public void close() throws Exception {
    try {
      flink.close();
    } finally {
      Files.deleteIfExists(emptyJar);
    }
  }
}
