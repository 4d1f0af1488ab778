package dev.cubed.spark;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster on this machine, started from the Maven artifacts on this JVM's
 * classpath (no Spark distribution): one Master and {@code workers} Workers, each a child JVM bound
 * to 127.0.0.1, with the settings of {@code scripts/spark-local-cluster.properties} (no REST
 * submission server, RPC authentication) and a random shared secret, written with those settings to
 * {@code dir/spark.properties} and alone to {@link #secretFile()}, both readable by their owner
 * only. A Worker launches the executor JVMs of an application; they get this classpath through
 * {@code SPARK_DIST_CLASSPATH}, and {@code SPARK_HOME} points at an empty directory with an empty
 * {@code jars/} (the launcher insists on one). Logs go to {@code dir}. Starting waits for readiness
 * by polling the logs, for up to {@link #START_DEADLINE} (JVMs start slowly on a busy machine).
 */
final class StandaloneCluster implements AutoCloseable {
  /** How long the Master and the Workers may take to start before the start fails. */
  static final Duration START_DEADLINE = Duration.ofMinutes(10);

  private final List<Process> processes = new ArrayList<>();
  private final Path dir;
  private final int port;
  private final Path secretFile;

  private StandaloneCluster(Path dir, int port) {
    this.dir = dir;
    this.port = port;
    this.secretFile = dir.resolve("spark-secret");
  }

  /**
   * Starts a Master on a free port and {@code workers} Workers with {@code cores} cores and {@code
   * memory} (e.g. "1g") each, and waits until every Worker has registered.
   *
   * @param env extra environment of the Workers (and so of their executors), e.g. credentials
   */
  static StandaloneCluster start(
      Path dir, int workers, int cores, String memory, Map<String, String> env)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    return start(dir, port, workers, cores, memory, env);
  }

  /** As {@link #start(Path, int, int, String, Map)} with the Master on a given port. */
  static StandaloneCluster start(
      Path dir, int port, int workers, int cores, String memory, Map<String, String> env)
      throws IOException, InterruptedException {
    Files.createDirectories(dir.resolve("spark-home/jars"));
    StandaloneCluster c = new StandaloneCluster(dir, port);
    try {
      String props = c.writeSettings().toString();
      Path masterLog = dir.resolve("master.log");
      c.launch(
          masterLog,
          env,
          "org.apache.spark.deploy.master.Master",
          "--host",
          "127.0.0.1",
          "--port",
          Integer.toString(port),
          "--webui-port",
          "0",
          "--properties-file",
          props);
      c.await(masterLog, "I have been elected leader", 1);
      for (int i = 0; i < workers; i++) {
        Path work = Files.createDirectories(dir.resolve("worker-" + i));
        c.launch(
            dir.resolve("worker-" + i + ".log"),
            env,
            "org.apache.spark.deploy.worker.Worker",
            c.masterUrl(),
            "--host",
            "127.0.0.1",
            "--cores",
            Integer.toString(cores),
            "--memory",
            memory,
            "--webui-port",
            "0",
            "--work-dir",
            work.toString(),
            "--properties-file",
            props);
      }
      c.await(masterLog, "Registering worker", workers);
      return c;
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Writes the secret file and the cluster's properties (the script's settings plus the secret),
   * both created readable and writable by their owner only.
   *
   * @return the properties file
   */
  private Path writeSettings() throws IOException {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    String secret = HexFormat.of().formatHex(b);
    Path shared =
        Path.of(System.getProperty("user.dir"))
            .resolveSibling("scripts")
            .resolve("spark-local-cluster.properties");
    Path props = dir.resolve("spark.properties");
    ownerOnly(secretFile, secret + "\n");
    ownerOnly(props, Files.readString(shared) + "spark.authenticate.secret=" + secret + "\n");
    return props;
  }

  private static void ownerOnly(Path file, String text) throws IOException {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }

  /** The file holding the cluster's shared secret (for {@code SparkExecutor.authSecretFile}). */
  Path secretFile() {
    return secretFile;
  }

  /** The Master's RPC port. */
  int port() {
    return port;
  }

  /** The Master's process, then the Workers'. */
  List<ProcessHandle> daemons() {
    return processes.stream().map(Process::toHandle).toList();
  }

  /** The Master's log. */
  Path masterLog() {
    return dir.resolve("master.log");
  }

  /** The master URL, spark://127.0.0.1:PORT. */
  String masterUrl() {
    return "spark://127.0.0.1:" + port;
  }

  /**
   * The classpath of this JVM (surefire's test classpath when run by Maven), with the Servlet 6 API
   * the test S3 server needs swapped back for the Servlet 5 API Spark's web UIs need (the Master
   * and Worker always run one).
   */
  static String classpath() {
    String cp = System.getProperty("surefire.test.class.path");
    cp = cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    List<String> out = new ArrayList<>();
    for (String e : cp.split(File.pathSeparator)) {
      Path servlet5 =
          Path.of(
              e.replace(
                  "/6.0.0/jakarta.servlet-api-6.0.0.jar", "/5.0.0/jakarta.servlet-api-5.0.0.jar"));
      out.add(Files.exists(servlet5) ? servlet5.toString() : e);
    }
    return String.join(File.pathSeparator, out);
  }

  private void launch(Path log, Map<String, String> env, String mainClass, String... args)
      throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                classpath(),
                mainClass));
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> e = pb.environment();
    e.put("SPARK_LOCAL_IP", "127.0.0.1");
    e.put("SPARK_HOME", dir.resolve("spark-home").toString());
    e.put("SPARK_SCALA_VERSION", "2.13");
    e.put("SPARK_DIST_CLASSPATH", classpath());
    e.putAll(env);
    processes.add(pb.start());
  }

  /**
   * Polls until {@code log} has {@code count} lines containing {@code text}; fails at once when a
   * process of the cluster exits, and after {@link #START_DEADLINE}.
   */
  private void await(Path log, String text, int count) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)
          && Files.readAllLines(log).stream().filter(l -> l.contains(text)).count() >= count) {
        return;
      }
      for (Process p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException(
              "a Spark process exited with "
                  + p.exitValue()
                  + " while starting the cluster; see the logs in "
                  + dir);
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "the Spark cluster did not log '"
            + text
            + "' "
            + count
            + " time(s) within "
            + START_DEADLINE.toSeconds()
            + " s; see "
            + log);
  }

  /** Java processes (executors) started by the Workers, i.e. descendants of the Workers. */
  List<ProcessHandle> executorProcesses() {
    List<ProcessHandle> r = new ArrayList<>();
    for (Process p : processes.subList(1, processes.size())) {
      p.toHandle().descendants().filter(ProcessHandle::isAlive).forEach(r::add);
    }
    return r;
  }

  /** Stops the Workers (and so their executors) and the Master. */
  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.toHandle().descendants().forEach(ProcessHandle::destroy);
      p.destroy();
      try {
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }

  @Override
  public String toString() {
    return masterUrl() + " (logs in " + dir + File.separator + ")";
  }
}
