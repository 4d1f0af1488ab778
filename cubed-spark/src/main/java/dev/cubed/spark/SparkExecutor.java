package dev.cubed.spark;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorUnavailableException;
import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.runtime.Scheduler;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.WorkerTaskException;
import dev.cubed.runtime.processes.FunctionShipping;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Runs each operation's tasks as one Spark job: the task keys are parallelized one per partition
 * and the operation's {@link dev.cubed.runtime.TaskFunction} travels inside the job's closure,
 * Java-serialized as Spark ships closures. Operations start when the operations they depend on have
 * finished (independent operations run as concurrent jobs).
 *
 * <p><b>Context.</b> Given one ({@link Builder#context}), the executor uses it and never stops it.
 * Otherwise it starts a {@link SparkContext} from its master and {@code spark.*} settings on the
 * first compute and keeps it for later computes in this JVM (Spark allows one context per JVM: an
 * executor with other settings stops it and starts its own); {@link #close} stops it, and Spark's
 * shutdown hook stops it at JVM exit. Defaults of a started context, each overridden by an explicit
 * setting: master {@code local[workers]}; {@code spark.task.maxFailures} = attempts (local masters
 * become {@code local[N,attempts]}, since local mode ignores that setting); {@code
 * spark.executor.cores=1} (one task per executor JVM, so its heap bounds one task); {@code
 * spark.ui.enabled=false} (and then no metrics servlet: {@link NoUiMetricsServlet}); {@code
 * spark.log.level=WARN}; and for masters on this machine (local, local-cluster, spark://127.0.0.1
 * or localhost) {@code spark.driver.host} and {@code spark.driver.bindAddress} = 127.0.0.1.
 *
 * <p><b>Guarantees.</b> Before anything runs: every task function must serialize (a function
 * holding something that is not Serializable, or an in-memory store, is refused with an {@link
 * IllegalArgumentException} naming the operation), and each operation's projected memory must fit
 * one task slot of the executors (heap less Spark's reserved 300 MiB, divided by the task slots per
 * executor), else {@link InsufficientHeapException}. A task is attempted up to Spark's attempt
 * count; a deterministic failure ({@link dev.cubed.runtime.RetryPolicy}) is not retried and fails
 * the compute with {@link TaskFailedException} carrying the task's message, as does a task whose
 * last attempt failed. Backup tasks are Spark's speculation ({@link Builder#backupTasks}); tasks
 * are idempotent, so a speculative duplicate is safe. One difference from the threads executor:
 * when Spark kills a losing speculative copy or cancels a failed compute's jobs, the kill is
 * asynchronous and such a copy may still be finishing in its executor when {@link #execute} returns
 * (it rewrites the same chunk with the same bytes).
 *
 * <p><b>Events.</b> On the driver: compute and operation events, and one {@link Events.TaskEnd} per
 * task as its result arrives (timing, attempt, allocated bytes and the executor it ran in, measured
 * in the executor and returned with the task's result). Spark does not tell a task whether it is a
 * speculative copy, so {@code backup} is always false here; peaks are not measured (-1), except a
 * Python task's {@code peakRss}: its Python worker's, with that worker named as where it ran
 * ({@link dev.cubed.runtime.TaskWorker}).
 */
public final class SparkExecutor implements Executor, AutoCloseable {
  private static final Scheduler SCHEDULER = new Scheduler("spark");
  private static final Object LOCK = new Object();

  /** The context this class started, and the settings it was started with. */
  private static SparkContext owned;

  private static Map<String, String> ownedConf;
  private static String ownedSecret;

  private final SparkContext given;
  private final Map<String, String> conf;

  /** spark.authenticate.secret read from {@link Builder#authSecretFile}; never in conf. */
  private final String authSecret;

  private final boolean stopsOnClose;

  private SparkExecutor(Builder b) {
    this.given = b.context;
    this.conf = b.context == null ? b.resolvedConf() : Map.of();
    this.authSecret = b.context == null ? b.authSecret : null;
    this.stopsOnClose = b.context == null;
  }

  /** A builder: master {@code local[available processors]}, 3 attempts. */
  public static Builder builder() {
    return new Builder();
  }

  /** Options of a {@link SparkExecutor}. */
  public static final class Builder {
    private String master;
    private int workers = Runtime.getRuntime().availableProcessors();
    private int attempts = 3;
    private boolean backupTasks;
    private final Map<String, String> conf = new LinkedHashMap<>();
    private String authSecret;
    private SparkContext context;

    private Builder() {}

    /** The master URL (e.g. {@code spark://host:7077}, {@code local[4]}); default local[N]. */
    public Builder master(String url) {
      this.master = Objects.requireNonNull(url, "master");
      return this;
    }

    /**
     * Threads of the default master {@code local[workers]}; ignored when a master is given.
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("SparkExecutor: workers must be >= 1, got " + n);
      }
      this.workers = n;
      return this;
    }

    /**
     * Attempts per task (1 = no retry): {@code spark.task.maxFailures}, or the F of {@code
     * local[N,F]}; an explicit setting of either wins.
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder attempts(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("SparkExecutor: attempts must be >= 1, got " + n);
      }
      this.attempts = n;
      return this;
    }

    /** Backup tasks: turns on Spark's speculation ({@code spark.speculation=true}). */
    public Builder backupTasks(boolean on) {
      this.backupTasks = on;
      return this;
    }

    /**
     * A Spark setting of the context the executor starts ({@code spark.master} sets the master).
     *
     * @throws IllegalArgumentException if the key does not start with "spark."
     */
    public Builder conf(String key, String value) {
      if (!key.startsWith("spark.")) {
        throw new IllegalArgumentException(
            "SparkExecutor: '"
                + key
                + "' is not a Spark setting"
                + " (they start with 'spark.', e.g. spark.executor.memory)");
      }
      if ("spark.master".equals(key)) {
        return master(value);
      }
      conf.put(key, Objects.requireNonNull(value, key));
      return this;
    }

    /**
     * Authenticates to the cluster with the shared secret in {@code file} (its content, surrounding
     * white space removed): sets {@code spark.authenticate=true} and passes the secret to Spark as
     * {@code spark.authenticate.secret} when the context starts. The secret stays out of {@link
     * SparkExecutor#settings()} and of every message (the file is named, never its content), and
     * unlike {@code --executor-option spark.authenticate.secret=...} it never appears on a command
     * line. A standalone cluster started with {@code spark.authenticate=true} (as {@code
     * scripts/spark-local-cluster.sh} starts one) refuses a driver without it.
     *
     * @throws IllegalArgumentException if the file cannot be read or is empty
     */
    public Builder authSecretFile(Path file) {
      String s;
      try {
        s = Files.readString(file).strip();
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            "spark executor: cannot read the authentication secret"
                + " file "
                + file
                + " ("
                + e.getClass().getSimpleName()
                + "); give the file"
                + " scripts/spark-local-cluster.sh printed, or the cluster's spark.authenticate.secret"
                + " in a file readable by this user",
            e);
      }
      if (s.isEmpty()) {
        throw new IllegalArgumentException(
            "spark executor: the authentication secret file " + file + " is empty");
      }
      this.authSecret = s;
      conf.put("spark.authenticate", "true");
      return this;
    }

    /**
     * Runs on an existing context (e.g. {@code sparkSession.sparkContext()}), which the executor
     * never stops; its own settings are then ignored.
     */
    public Builder context(SparkContext sc) {
      this.context = Objects.requireNonNull(sc, "context");
      return this;
    }

    /** Runs on an existing context, as {@link #context(SparkContext)}. */
    public Builder context(JavaSparkContext jsc) {
      return context(jsc.sc());
    }

    Map<String, String> resolvedConf() {
      Map<String, String> c = new LinkedHashMap<>(conf);
      String m = master == null ? "local[" + workers + "]" : master;
      c.put("spark.master", SparkCluster.withAttempts(m, attempts));
      c.putIfAbsent("spark.app.name", "cubed");
      c.putIfAbsent("spark.task.maxFailures", Integer.toString(attempts));
      c.putIfAbsent("spark.executor.cores", "1");
      c.putIfAbsent("spark.ui.enabled", "false");
      if ("false".equals(c.get("spark.ui.enabled"))) {
        c.putIfAbsent(
            "spark.metrics.conf.*.sink.servlet.class", NoUiMetricsServlet.class.getName());
      }
      c.putIfAbsent("spark.log.level", "WARN");
      if (backupTasks) {
        c.putIfAbsent("spark.speculation", "true");
      }
      if (SparkCluster.isLoopback(m)) {
        c.putIfAbsent("spark.driver.host", "127.0.0.1");
        c.putIfAbsent("spark.driver.bindAddress", "127.0.0.1");
      }
      return Map.copyOf(c);
    }

    /** The executor. */
    public SparkExecutor build() {
      return new SparkExecutor(this);
    }
  }

  @Override
  public String name() {
    return "spark";
  }

  /** The Spark settings of the context this executor starts (empty when one was given). */
  public Map<String, String> settings() {
    return conf;
  }

  /** The context computes run on, started now if this executor starts its own. */
  public SparkContext context() {
    if (given != null) {
      return given;
    }
    synchronized (LOCK) {
      if (owned != null
          && !owned.isStopped()
          && conf.equals(ownedConf)
          && Objects.equals(authSecret, ownedSecret)) {
        return owned;
      }
      if (owned != null) {
        owned.stop();
        owned = null;
      }
      quietLogs(conf.get("spark.log.level"));
      SparkConf sc = new SparkConf(false);
      conf.forEach(sc::set);
      if (authSecret != null) {
        sc.set("spark.authenticate.secret", authSecret);
      }
      try {
        owned = new SparkContext(sc);
      } catch (RuntimeException e) {
        throw new ExecutorUnavailableException(
            "spark executor: could not start a Spark context"
                + " on "
                + conf.get("spark.master")
                + ": "
                + e.getMessage()
                + ". If this JVM already"
                + " runs a Spark context, pass it with SparkExecutor.builder().context(sc)",
            e);
      }
      ownedConf = conf;
      ownedSecret = authSecret;
      return owned;
    }
  }

  /** Loggers of Spark and its libraries, kept so their levels stay set. */
  private static final List<Logger> QUIET = new ArrayList<>();

  /**
   * When Spark logs through java.util.logging (an SLF4J provider such as the CLI's), applies {@code
   * spark.log.level} WARN or ERROR to Spark's loggers there too; Spark itself sets it only in
   * log4j.
   */
  private static void quietLogs(String level) {
    Level l =
        "WARN".equalsIgnoreCase(level)
            ? Level.WARNING
            : "ERROR".equalsIgnoreCase(level) ? Level.SEVERE : null;
    if (l == null) {
      return;
    }
    for (String name :
        List.of("org.apache.spark", "org.sparkproject", "io.netty", "org.apache.hadoop")) {
      Logger lg = Logger.getLogger(name);
      lg.setLevel(l);
      QUIET.add(lg);
    }
  }

  /** Stops the context this executor started (a given context is left running). */
  @Override
  public void close() {
    if (!stopsOnClose) {
      return;
    }
    synchronized (LOCK) {
      if (owned != null && conf.equals(ownedConf) && Objects.equals(authSecret, ownedSecret)) {
        owned.stop();
        owned = null;
        ownedConf = null;
        ownedSecret = null;
      }
    }
  }

  @Override
  public RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
    long start = System.currentTimeMillis();
    ops = FunctionShipping.shippable(ops, "spark", "Spark executors");
    SparkContext sc = context();
    int maxAttempts = SparkCluster.maxAttempts(sc.conf(), sc.master());
    checkFits(ops, SparkCluster.slots(sc.conf(), sc.master(), Runtime.getRuntime().maxMemory()));
    Events.Running compute = Events.computeStarted(computeId, ops, start, callbacks);
    Throwable error = null;
    try {
      runAll(sc, computeId, ops, callbacks, maxAttempts);
    } catch (RuntimeException e) {
      error =
          given == null && sc.isStopped() ? contextStopped(sc.master(), authSecret != null, e) : e;
      throw (RuntimeException) error;
    } catch (Error e) {
      error = e;
      throw e;
    } finally {
      compute.ended(error);
    }
    return RunReport.of("spark", -1);
  }

  /**
   * The error for a compute whose own Spark context stopped under it: on a standalone master that
   * is a master that did not answer or refused this driver (Spark gives up registering after about
   * a minute: "All masters are unresponsive"), most often one that requires authentication from a
   * driver that has no secret, or not the master's.
   */
  static ExecutorUnavailableException contextStopped(
      String master, boolean hasSecret, RuntimeException e) {
    String why =
        master != null && master.startsWith("spark://")
            ? " it could not register with the master at "
                + master
                + " (is it running there? "
                + (hasSecret
                    ? "is auth_secret_file the secret this master was started with?"
                    : "a master that requires authentication, as the cluster of"
                        + " scripts/spark-local-cluster.sh does, refuses a driver without its secret:"
                        + " pass it with --executor-option auth_secret_file=PATH, API"
                        + " SparkExecutor.builder().authSecretFile(path))")
            : " see the Spark log above for why";
    return new ExecutorUnavailableException(
        "spark executor: the Spark context stopped while"
            + " the compute ran ("
            + e.getMessage()
            + "):"
            + why,
        e);
  }

  /**
   * Refuses a plan with an operation whose task does not fit one task slot of the executors.
   *
   * @throws InsufficientHeapException naming the first such operation and the figures
   */
  static void checkFits(List<Operation> ops, SparkCluster.Slots slots) {
    long perTask = slots.perTask();
    for (Operation op : ops) {
      if (op.projectedMem() > perTask) {
        throw new InsufficientHeapException(
            String.format(
                "spark executor: a task of operation"
                    + " %s is projected to need %,d bytes (%s), more than one task slot of the Spark"
                    + " executors gives: %,d bytes (%s) = (executor heap %s - Spark's reserved 300 MiB)"
                    + " / %d task slot(s) per executor [%s]; nothing was run. Raise"
                    + " spark.executor.memory (local mode: the driver's -Xmx), lower spark.executor.cores,"
                    + " or use smaller chunks so tasks project less memory",
                op.name(),
                op.projectedMem(),
                SparkCluster.mib(op.projectedMem()),
                perTask,
                SparkCluster.mib(perTask),
                SparkCluster.mib(slots.heapBytes()),
                slots.slots(),
                slots.where()),
            op.name(),
            op.projectedMem(),
            perTask);
      }
    }
  }

  /**
   * Runs each op as one Spark job once its dependencies are done ({@link Scheduler#runOps}); the
   * first failure cancels the jobs of the other ops running meanwhile.
   */
  private static void runAll(
      SparkContext sc,
      String computeId,
      List<Operation> ops,
      List<Callback> callbacks,
      int maxAttempts) {
    String group = "cubed-" + computeId + "-" + UUID.randomUUID();
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "cubed-spark-op");
              t.setDaemon(true);
              return t;
            });
    try {
      SCHEDULER.runOps(
          ops,
          callbacks,
          pool,
          () -> {
            if (ops.size() > 1) {
              sc.cancelJobGroup(group); // stop the jobs of the other ops running meanwhile
            }
          },
          (op, cbs) -> new OpJob(sc, group, op, cbs, maxAttempts).run());
    } finally {
      SCHEDULER.awaitStopped(pool, computeId); // each job has ended or been cancelled
    }
  }

  /** One operation as one Spark job. */
  private static final class OpJob {
    private static final Pattern TASK = Pattern.compile("Task (\\d+) in stage");
    private final SparkContext sc;
    private final String group;
    private final Operation op;
    private final List<Callback> callbacks;
    private final int maxAttempts;
    private final AtomicReference<TaskOutcome> failure = new AtomicReference<>();
    private final AtomicInteger received = new AtomicInteger();

    OpJob(SparkContext sc, String group, Operation op, List<Callback> callbacks, int maxAttempts) {
      this.sc = sc;
      this.group = group;
      this.op = op;
      this.callbacks = callbacks;
      this.maxAttempts = maxAttempts;
    }

    void run() {
      int n = op.keys().size();
      if (n > 0) {
        sc.setJobGroup(group, "cubed op " + op.name(), true);
        sc.setLocalProperty("callSite.short", "cubed op " + op.name());
        RDD<long[]> keys = new JavaSparkContext(sc).parallelize(op.keys(), n).rdd();
        try {
          sc.runJob(
              keys,
              new SparkTask(op.function(), maxAttempts),
              new Results(),
              ClassTag$.MODULE$.apply(TaskOutcome.class));
        } catch (Exception e) { // runJob throws SparkException, a checked exception, undeclared
          TaskOutcome f = failure.get();
          if (f != null) {
            throw failed(f);
          }
          throw sparkFailure(e);
        }
        TaskOutcome f = failure.get();
        if (f != null) {
          throw failed(f);
        }
      }
    }

    private TaskFailedException failed(TaskOutcome f) {
      return new TaskFailedException(
          "spark",
          op.name(),
          f.key(),
          f.attempt(),
          new WorkerTaskException(
              f.failureChain(), f.failureMessage(), f.failureStack(), f.worker()),
          f.deterministic());
    }

    /** A job Spark aborted (e.g. an executor died on the last attempt), with the task if known. */
    private RuntimeException sparkFailure(Exception e) {
      String msg = String.valueOf(e.getMessage());
      Matcher m = TASK.matcher(msg);
      if (m.find()) {
        int index = Integer.parseInt(m.group(1));
        if (index < op.keys().size()) {
          return new TaskFailedException(
              "spark", op.name(), op.keys().get(index), maxAttempts, e, false);
        }
      }
      return new IllegalStateException(
          "spark executor: the Spark job of operation " + op.name() + " failed: " + msg, e);
    }

    /** Receives each task's result on the driver, once per task. */
    private final class Results extends AbstractFunction2<Object, TaskOutcome, BoxedUnit> {
      @Override
      public BoxedUnit apply(Object index, TaskOutcome o) {
        int got = received.incrementAndGet();
        if (o.failed()) {
          if (failure.compareAndSet(null, o) && got < op.keys().size()) {
            sc.cancelJobGroup(group);
          }
          return BoxedUnit.UNIT;
        }
        Events.TaskEnd e =
            new Events.TaskEnd(
                op.name(),
                o.key(),
                o.startMillis(),
                o.endMillis(),
                o.attempt(),
                o.allocatedBytes(),
                op.projectedMem(),
                false,
                o.worker(),
                -1,
                o.peakRss());
        for (Callback c : callbacks) {
          c.onTaskEnd(e);
        }
        return BoxedUnit.UNIT;
      }
    }
  }
}
