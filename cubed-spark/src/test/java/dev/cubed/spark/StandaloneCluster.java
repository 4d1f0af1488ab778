package dev.cubed.spark;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster on this machine, started from the Maven artifacts on this JVM's
 * classpath (no Spark distribution): one Master and {@code workers} Workers, each a child JVM
 * bound to 127.0.0.1. A Worker launches the executor JVMs of an application; they get this
 * classpath through {@code SPARK_DIST_CLASSPATH}, and {@code SPARK_HOME} points at an empty
 * directory with an empty {@code jars/} (the launcher insists on one). Logs go to {@code dir}.
 */
final class StandaloneCluster implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final Path dir;
  private final int port;

  private StandaloneCluster(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /**
   * Starts a Master on a free port and {@code workers} Workers with {@code cores} cores and
   * {@code memory} (e.g. "1g") each, and waits until every Worker has registered.
   *
   * @param env extra environment of the Workers (and so of their executors), e.g. credentials
   */
  static StandaloneCluster start(Path dir, int workers, int cores, String memory,
      Map<String, String> env) throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    return start(dir, port, workers, cores, memory, env);
  }

  /** As {@link #start(Path, int, int, String, Map)} with the Master on a given port. */
  static StandaloneCluster start(Path dir, int port, int workers, int cores, String memory,
      Map<String, String> env) throws IOException, InterruptedException {
    Files.createDirectories(dir.resolve("spark-home/jars"));
    StandaloneCluster c = new StandaloneCluster(dir, port);
    try {
      Path masterLog = dir.resolve("master.log");
      c.launch(masterLog, env, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
          "--port", Integer.toString(port), "--webui-port", "0");
      c.await(masterLog, "I have been elected leader", 1, 60);
      for (int i = 0; i < workers; i++) {
        Path work = Files.createDirectories(dir.resolve("worker-" + i));
        c.launch(dir.resolve("worker-" + i + ".log"), env, "org.apache.spark.deploy.worker.Worker",
            c.masterUrl(), "--host", "127.0.0.1", "--cores", Integer.toString(cores), "--memory",
            memory, "--webui-port", "0", "--work-dir", work.toString());
      }
      c.await(masterLog, "Registering worker", workers, 60);
      return c;
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** The master URL, spark://127.0.0.1:PORT. */
  String masterUrl() {
    return "spark://127.0.0.1:" + port;
  }

  /**
   * The classpath of this JVM (surefire's test classpath when run by Maven), with the Servlet 6
   * API the test S3 server needs swapped back for the Servlet 5 API Spark's web UIs need (the
   * Master and Worker always run one).
   */
  static String classpath() {
    String cp = System.getProperty("surefire.test.class.path");
    cp = cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    List<String> out = new ArrayList<>();
    for (String e : cp.split(File.pathSeparator)) {
      Path servlet5 = Path.of(e.replace("/6.0.0/jakarta.servlet-api-6.0.0.jar",
          "/5.0.0/jakarta.servlet-api-5.0.0.jar"));
      out.add(Files.exists(servlet5) ? servlet5.toString() : e);
    }
    return String.join(File.pathSeparator, out);
  }

  private void launch(Path log, Map<String, String> env, String mainClass, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-Xmx256m", "-XX:+UseSerialGC", "-cp", classpath(), mainClass));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> e = pb.environment();
    e.put("SPARK_LOCAL_IP", "127.0.0.1");
    e.put("SPARK_HOME", dir.resolve("spark-home").toString());
    e.put("SPARK_SCALA_VERSION", "2.13");
    e.put("SPARK_DIST_CLASSPATH", classpath());
    e.putAll(env);
    processes.add(pb.start());
  }

  /** Waits until {@code log} has {@code count} lines containing {@code text}. */
  private void await(Path log, String text, int count, int seconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)
          && Files.readAllLines(log).stream().filter(l -> l.contains(text)).count() >= count) {
        return;
      }
      for (Process p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException("a Spark process exited with " + p.exitValue()
              + " while starting the cluster; see the logs in " + dir);
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the Spark cluster did not log '" + text + "' " + count
        + " time(s) within " + seconds + " s; see " + log);
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
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
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
