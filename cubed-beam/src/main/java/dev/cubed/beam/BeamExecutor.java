package dev.cubed.beam;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.RunReport;
import dev.cubed.runtime.Scheduler;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.processes.FunctionShipping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.Wait;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;

/**
 * Runs a compute as one Apache Beam pipeline (executor name {@code beam}; made by {@link
 * BeamExecutorFactory} from a spec's settings).
 *
 * <p><b>Pipeline.</b> One stage per operation: the operation's task keys as a {@code PCollection}
 * ({@code Create} of the keys), {@code Reshuffle} to spread them over the workers, and a {@code
 * DoFn} that runs the task function for each key. An operation's keys are held back with {@code
 * Wait.on} until the stages it depends on ({@link Operation#dependencies()}; every earlier stage
 * when unknown; resolved by the {@link Scheduler}, whose order every executor follows) have
 * completed, so it never reads an array that is still being written; independent stages run
 * concurrently. Then the pipeline runs and the launcher waits for it.
 *
 * <p><b>Task functions</b> travel the way Beam ships DoFns: Java-serialized with the DoFn. A
 * function that is not Serializable, or that uses an in-memory store (the runner works on a
 * deserialized copy), is refused before anything runs, naming the operation.
 *
 * <p><b>Retries.</b> Each task gets {@code attempts} tries inside the DoFn, with the {@link
 * dev.cubed.runtime.RetryPolicy} (a deterministic failure is not retried) and an exponential
 * backoff (10 ms doubling, at most 1 s). A task that fails for good fails the pipeline; {@link
 * #execute} then throws its {@link TaskFailedException} (found in the runner's error chain), or an
 * {@link IllegalStateException} with the runner's message when the chain does not carry it (a
 * remote runner). The DirectRunner does not retry bundles; distributed runners (Dataflow, Flink,
 * Spark) also re-run a failed bundle, which may run a task that already succeeded again: tasks are
 * idempotent (whole-chunk writes), so duplicates are harmless.
 *
 * <p><b>Events</b> are reported on the launching thread: each successful task publishes a task
 * record as a Beam string-set metric, which the launcher polls while the pipeline runs and once
 * after ({@link EventRelay}); an operation's OpStart comes before its first TaskEnd, its OpEnd
 * after its last. This works on any runner that supports string-set metrics.
 *
 * <p><b>Memory.</b> With {@code beam.workerMemory} (and {@code beam.tasksPerWorker}, default 1)
 * given, an operation whose projected task memory times tasks per worker exceeds the worker memory
 * is refused before anything runs ({@link InsufficientHeapException}). With the DirectRunner, all
 * tasks share this JVM's heap: a task projecting more than the max heap is refused, and the
 * runner's parallelism is capped as the threads executor caps its threads ({@code parallelism x
 * largest task projection + heap in use <= max heap}); like the threads executor it cannot bound
 * one task's own memory. Beam itself enforces no per-task memory.
 *
 * <p>{@link #execute} returns only after the pipeline has ended; after a failure on the
 * DirectRunner it also waits until no task attempt of the compute is still running in this JVM.
 */
public final class BeamExecutor implements Executor {
  private static final Logger LOG = Logger.getLogger(BeamExecutor.class.getName());

  /** Executor option: the Beam runner (default {@value #DIRECT_RUNNER}). */
  public static final String RUNNER = "beam.runner";

  /** Executor option: memory of one Beam worker, e.g. {@code 4GB}; unset = not checked. */
  public static final String WORKER_MEMORY = "beam.workerMemory";

  /** Executor option: tasks one Beam worker runs at once (default 1), for the memory check. */
  public static final String TASKS_PER_WORKER = "beam.tasksPerWorker";

  /** The default runner, in this JVM. */
  public static final String DIRECT_RUNNER = "DirectRunner";

  /** How often the launcher polls the runner for progress, milliseconds. */
  static final long POLL_MILLIS = 200;

  /** First retry backoff, milliseconds. */
  static final long RETRY_BACKOFF_MILLIS = 10;

  /** Task records per string-set metric (Beam caps one at 1,000,000 characters). */
  static final int RECORDS_PER_METRIC = 2000;

  /** How long a failed compute waits for its running task attempts before warning again. */
  static final long STOP_WAIT_MILLIS = 60_000;

  private static final Scheduler SCHEDULER = new Scheduler("beam");

  /**
   * The phases of a compute in its {@link RunReport#phaseMillis()}: where the launcher's time went,
   * milliseconds: the checks (memory, serializing every task function once), building the pipeline
   * (pipeline options, one stage per op; Beam serializes each DoFn), {@code run()} (the runner
   * translating and starting the pipeline) and the run until the pipeline ended.
   */
  static final List<String> PHASES = List.of("check", "build", "launch", "run");

  private final ExecutorSettings settings;
  private final BeamOptions options;

  BeamExecutor(ExecutorSettings settings) {
    this.settings = settings;
    this.options = BeamOptions.of(settings);
  }

  @Override
  public String name() {
    return "beam";
  }

  /** The runner pipelines run on (e.g. {@code DirectRunner}). */
  public String runner() {
    return options.runner();
  }

  @Override
  public RunReport execute(String computeId, List<Operation> ops, List<Callback> callbacks) {
    long start = System.currentTimeMillis();
    checkMemory(ops);
    ops = FunctionShipping.shippable(ops, "beam", "Beam workers");
    long checked = System.currentTimeMillis();
    int parallelism = parallelism(ops);
    String runId = computeId + "-" + UUID.randomUUID().toString().substring(0, 8);
    Pipeline pipeline = ops.isEmpty() ? null : build(runId, ops, parallelism);
    long built = System.currentTimeMillis();
    Events.Running compute = Events.computeStarted(computeId, ops, start, callbacks);
    EventRelay relay = new EventRelay(runId, ops, callbacks);
    PipelineResult result = null;
    boolean finished = false;
    Throwable error = null;
    Map<String, Long> phases = new LinkedHashMap<>();
    try {
      if (pipeline != null) {
        result = pipeline.run();
        long launched = System.currentTimeMillis();
        finished = await(result, relay, computeId);
        phases.put(PHASES.get(0), checked - start);
        phases.put(PHASES.get(1), built - checked);
        phases.put(PHASES.get(2), launched - built);
        phases.put(PHASES.get(3), System.currentTimeMillis() - launched);
      }
      relay.finishSuccessful();
    } catch (RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      InFlight.markOver(runId);
      if (error != null && result != null && !finished) {
        cancel(result, computeId);
      }
      awaitTasks(runId, computeId);
      InFlight.forget(runId);
      compute.ended(error);
    }
    return new RunReport("beam", parallelism, -1, -1, -1, -1, -1, phases);
  }

  /** Builds the pipeline: one stage per operation, each after the stages it depends on. */
  private Pipeline build(String runId, List<Operation> ops, int parallelism) {
    Pipeline p = Pipeline.create(options.pipelineOptions(parallelism));
    List<PCollection<String>> done = new ArrayList<>();
    int[][] deps = SCHEDULER.dependencies(ops);
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      String stage = "op" + i + " " + op.name().replaceAll("[^A-Za-z0-9_.:=-]+", "_");
      List<PCollection<?>> after = new ArrayList<>();
      for (int j : deps[i]) {
        after.add(done.get(j));
      }
      PCollection<long[]> keys =
          p.apply(stage + "/keys", Create.of(op.keys()).withCoder(LongArrayCoder.of()));
      if (!after.isEmpty()) {
        keys = keys.apply(stage + "/after", Wait.<long[]>on(after)).setCoder(LongArrayCoder.of());
      }
      int shards = Math.max(1, (op.keys().size() + RECORDS_PER_METRIC - 1) / RECORDS_PER_METRIC);
      PCollection<String> out =
          keys.apply(stage + "/spread", Reshuffle.<long[]>viaRandomKey())
              .setCoder(LongArrayCoder.of())
              .apply(
                  stage + "/run",
                  ParDo.of(
                      new TaskDoFn(
                          runId,
                          i,
                          op.name(),
                          op.function(),
                          settings.attempts(),
                          RETRY_BACKOFF_MILLIS,
                          shards)));
      done.add(out);
    }
    return p;
  }

  /**
   * Waits for the pipeline, relaying events as tasks report.
   *
   * @return true (the pipeline ended)
   * @throws TaskFailedException or IllegalStateException if it failed
   */
  private boolean await(PipelineResult result, EventRelay relay, String computeId) {
    while (true) {
      PipelineResult.State state;
      try {
        state = result.waitUntilFinish(Duration.millis(POLL_MILLIS));
      } catch (RuntimeException e) {
        pollQuietly(result, relay);
        throw translate(e, computeId);
      }
      relay.poll(result.metrics());
      if (state != null && state.isTerminal()) {
        if (state != PipelineResult.State.DONE) {
          throw new IllegalStateException(
              "beam executor: the pipeline of compute "
                  + computeId
                  + " ended "
                  + state
                  + " on "
                  + options.runner()
                  + " (see the runner's log for the"
                  + " failing step)");
        }
        return true;
      }
    }
  }

  private static void pollQuietly(PipelineResult result, EventRelay relay) {
    try {
      relay.poll(result.metrics());
    } catch (RuntimeException e) {
      LOG.fine("beam executor: could not read metrics of a failed pipeline: " + e);
    }
  }

  /**
   * The exception a failed pipeline is reported with: the task's {@link TaskFailedException} if the
   * runner's error carries it, else an IllegalStateException with the runner's message.
   */
  static RuntimeException translate(RuntimeException e, String computeId) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TaskFailedException tf) {
        return tf;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return new IllegalStateException(
        "beam executor: the pipeline of compute " + computeId + " failed: " + root, e);
  }

  private void cancel(PipelineResult result, String computeId) {
    try {
      result.cancel();
    } catch (Exception e) {
      LOG.fine("beam executor: cancelling the pipeline of compute " + computeId + ": " + e);
    }
  }

  /** Waits (in-process runners) until no task attempt of the run is still running here. */
  private static void awaitTasks(String runId, String computeId) {
    boolean interrupted = false;
    while (true) {
      try {
        if (InFlight.awaitIdle(runId, STOP_WAIT_MILLIS)) {
          break;
        }
        LOG.warning(
            "beam executor: compute "
                + computeId
                + " has ended but some of its tasks"
                + " are still running in this JVM; waiting for them");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Refuses, before anything runs, an operation whose tasks cannot fit: in the worker memory given
   * ({@code beam.workerMemory / beam.tasksPerWorker}), and with the DirectRunner in this JVM's max
   * heap.
   *
   * @throws InsufficientHeapException naming the first such operation
   */
  void checkMemory(List<Operation> ops) {
    long maxHeap = Runtime.getRuntime().maxMemory();
    for (Operation op : ops) {
      long need = op.projectedMem();
      if (options.workerMemory() > 0 && need * options.tasksPerWorker() > options.workerMemory()) {
        throw new InsufficientHeapException(
            String.format(
                "beam executor: a task of operation %s"
                    + " is projected to need %,d bytes (%.1f MiB); %d such tasks at once (%s) need more"
                    + " than the worker memory of %,d bytes (%s); nothing was run. Use workers with more"
                    + " memory, fewer tasks per worker, or lower allowedMem / smaller chunks",
                op.name(),
                need,
                need / 1048576.0,
                options.tasksPerWorker(),
                TASKS_PER_WORKER,
                options.workerMemory(),
                WORKER_MEMORY),
            op.name(),
            need,
            options.workerMemory());
      }
      if (options.inProcess() && need > maxHeap) {
        throw new InsufficientHeapException(
            String.format(
                "beam executor (DirectRunner, in this"
                    + " JVM): a task of operation %s is projected to need %,d bytes (%.1f MiB), more than"
                    + " the JVM's max heap of %,d bytes (%.1f MiB); nothing was run. Raise the heap"
                    + " (java -Xmx..., CUBED_HEAP=... for ./cubed) or use smaller chunks",
                op.name(), need, need / 1048576.0, maxHeap, maxHeap / 1048576.0),
            op.name(),
            need,
            maxHeap);
      }
    }
  }

  /**
   * The DirectRunner's parallelism: {@code workers}, capped so that parallelism x the largest
   * projected task memory plus the heap in use fits in the max heap (never below 1).
   */
  private int parallelism(List<Operation> ops) {
    int workers = settings.workers();
    if (!options.inProcess()) {
      return workers;
    }
    long maxMem = 0;
    for (Operation op : ops) {
      maxMem = Math.max(maxMem, op.projectedMem());
    }
    Runtime rt = Runtime.getRuntime();
    long baseline = rt.totalMemory() - rt.freeMemory();
    int conc = cap(workers, maxMem, rt.maxMemory(), baseline);
    if (conc < workers) {
      System.gc(); // the heap in use may be mostly garbage
      baseline = rt.totalMemory() - rt.freeMemory();
      conc = cap(workers, maxMem, rt.maxMemory(), baseline);
    }
    if (conc < workers) {
      LOG.warning(
          String.format(
              "beam executor (DirectRunner): parallelism capped at %d of %d"
                  + " workers: %d x projected task memory %d B + heap in use %d B must fit in max heap"
                  + " %d B",
              conc, workers, conc, maxMem, baseline, rt.maxMemory()));
    }
    return conc;
  }

  static int cap(int workers, long taskMem, long maxHeap, long baseline) {
    if (taskMem <= 0) {
      return workers;
    }
    return (int) Math.max(1, Math.min(workers, (maxHeap - baseline) / taskMem));
  }
}
