package dev.cubed.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.Executor;
import dev.cubed.runtime.ExecutorFactory;
import dev.cubed.runtime.ExecutorSettings;
import dev.cubed.runtime.InsufficientHeapException;
import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.runtime.TaskFunction;
import dev.cubed.runtime.TaskWorker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.direct.DirectOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The beam executor on the DirectRunner: dependency order (a chain of three ops, each reading what
 * the previous one wrote, with the first slow), events on the launching side, retries (a task
 * failing once then succeeding), a deterministic failure failing the compute with the task's
 * message, refusal of non-serializable functions and of tasks above the worker memory, and option
 * errors.
 */
@Tag("beam")
class BeamExecutorTest {
  @TempDir Path dir;

  static Executor beam(int attempts, Map<String, String> options) {
    return ExecutorFactory.find("beam")
        .orElseThrow()
        .create(new ExecutorSettings(2, attempts, 2_000_000_000L, 100_000_000L, options));
  }

  static List<long[]> keys(int n) {
    List<long[]> k = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      k.add(new long[] {i, 0});
    }
    return k;
  }

  /** Records every event in arrival order, with the thread it came on. */
  static final class Recorder implements Callback {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<Events.TaskEnd> tasks = Collections.synchronizedList(new ArrayList<>());
    final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    volatile Events.ComputeEnd end;

    @Override
    public void onComputeStart(Events.ComputeStart e) {
      events.add("compute-start");
    }

    @Override
    public void onComputeEnd(Events.ComputeEnd e) {
      end = e;
      events.add("compute-end");
    }

    @Override
    public void onOpStart(Events.OpStart e) {
      events.add("start " + e.opName());
      threads.add(Thread.currentThread().getName());
    }

    @Override
    public void onOpEnd(Events.OpEnd e) {
      events.add("end " + e.opName());
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      events.add("task " + e.opName());
      tasks.add(e);
      threads.add(Thread.currentThread().getName());
    }
  }

  /** Writes {@code dir/op-i} after a pause (so a stage that does not wait would miss it). */
  static TaskFunction write(String dir, String op, long sleepMillis) {
    return key -> {
      Thread.sleep(sleepMillis);
      Files.writeString(Path.of(dir, op + "-" + key[0]), op + key[0]);
    };
  }

  /**
   * Reads every file {@code from-j} (j below n) and writes {@code op-i}; fails if one is missing.
   */
  static TaskFunction readAllThenWrite(String dir, String from, int n, String op) {
    return key -> {
      StringBuilder b = new StringBuilder();
      for (int j = 0; j < n; j++) {
        Path p = Path.of(dir, from + "-" + j);
        if (!Files.exists(p)) {
          throw new IllegalArgumentException(op + " ran before " + from + " wrote " + p);
        }
        b.append(Files.readString(p).length());
      }
      Files.writeString(Path.of(dir, op + "-" + key[0]), b.toString());
    };
  }

  @Test
  void aChainOfThreeOpsRunsInDependencyOrderWithEventsOnTheLauncher() throws Exception {
    String d = dir.toString();
    List<Operation> ops =
        List.of(
            new Operation("a", keys(4), write(d, "a", 150), 1000, List.of()),
            new Operation("b", keys(3), readAllThenWrite(d, "a", 4, "b"), 1000, List.of("a")),
            new Operation("c", keys(2), readAllThenWrite(d, "b", 3, "c"), 1000, List.of("b")));
    Recorder rec = new Recorder();
    long t0 = System.currentTimeMillis();
    beam(1, Map.of()).execute("chain", ops, List.of(rec));
    for (int i = 0; i < 2; i++) {
      assertThat(Files.readString(dir.resolve("c-" + i))).isEqualTo("444");
    }
    assertThat(Files.readString(dir.resolve("b-0"))).isEqualTo("2222");
    List<String> ev = rec.events;
    assertThat(ev.get(0)).isEqualTo("compute-start");
    assertThat(ev.get(ev.size() - 1)).isEqualTo("compute-end");
    assertThat(ev.stream().filter(e -> e.startsWith("task ")).count()).isEqualTo(9);
    for (String op : List.of("a", "b", "c")) {
      int start = ev.indexOf("start " + op);
      int end = ev.indexOf("end " + op);
      assertThat(start).as(op + " started").isPositive();
      assertThat(ev.indexOf("task " + op)).isGreaterThan(start);
      assertThat(ev.lastIndexOf("task " + op)).isLessThan(end);
    }
    assertThat(ev.indexOf("end a")).isLessThan(ev.indexOf("start b"));
    assertThat(ev.indexOf("end b")).isLessThan(ev.indexOf("start c"));
    String me = Thread.currentThread().getName();
    assertThat(rec.threads).as("events on the launching thread").containsOnly(me);
    Map<String, Long> firstStart = new HashMap<>();
    Map<String, Long> lastEnd = new HashMap<>();
    for (Events.TaskEnd t : rec.tasks) {
      assertThat(t.attempts()).isEqualTo(1);
      assertThat(t.projectedMem()).isEqualTo(1000);
      assertThat(t.startMillis()).isBetween(t0, t.endMillis());
      assertThat(t.worker()).isNotBlank();
      firstStart.merge(t.opName(), t.startMillis(), Math::min);
      lastEnd.merge(t.opName(), t.endMillis(), Math::max);
    }
    assertThat(lastEnd.get("a")).isLessThanOrEqualTo(firstStart.get("b"));
    assertThat(lastEnd.get("b")).isLessThanOrEqualTo(firstStart.get("c"));
    assertThat(rec.end.error()).isNull();
  }

  @Test
  void unknownDependenciesMeanEveryEarlierOp() throws Exception {
    String d = dir.toString();
    List<Operation> ops =
        List.of(
            new Operation("a", keys(3), write(d, "a", 150), 0),
            new Operation("b", keys(2), readAllThenWrite(d, "a", 3, "b"), 0));
    beam(1, Map.of()).execute("nulldeps", ops, List.of());
    assertThat(Files.readString(dir.resolve("b-1"))).isEqualTo("222");
  }

  /**
   * A task function that ran its work in a process of its own ({@link TaskWorker#ranIn}, as a
   * Python op's does) is reported as that process on the runner's thread, with its peak; the others
   * as the runner's thread alone; key 1 recorded a process on its failed first attempt only, which
   * its successful attempt does not inherit.
   */
  @Test
  void theTaskEventNamesTheProcessTheFunctionRanItsWorkIn() throws Exception {
    String d = dir.toString();
    TaskFunction f =
        key -> {
          Path marker = Path.of(d, "ran-" + key[0]);
          if (key[0] == 0) {
            TaskWorker.ranIn("python worker pid 42", 1234);
          } else if (key[0] == 1 && !Files.exists(marker)) {
            Files.writeString(marker, "x");
            TaskWorker.ranIn("python worker pid 43", 99);
            throw new IOException("the worker died");
          }
        };
    Recorder rec = new Recorder();
    beam(3, Map.of())
        .execute("ran-in", List.of(new Operation("py", keys(3), f, 0, List.of())), List.of(rec));
    Map<Long, Events.TaskEnd> ends = new HashMap<>();
    rec.tasks.forEach(t -> ends.put(t.key()[0], t));
    assertThat(ends.get(0L).worker()).startsWith("python worker pid 42 on ");
    assertThat(ends.get(0L).peakRss()).isEqualTo(1234);
    assertThat(ends.get(2L).worker()).doesNotContain("python");
    assertThat(ends.get(2L).peakRss()).isEqualTo(-1);
    assertThat(ends.get(1L).attempts()).isEqualTo(2);
    assertThat(ends.get(1L).worker()).doesNotContain("python");
  }

  /** Fails with an IOException the first time it runs for a key (a marker file), then writes. */
  static TaskFunction failOnceThenWrite(String dir) {
    return key -> {
      Path marker = Path.of(dir, "tried-" + key[0]);
      if (!Files.exists(marker)) {
        Files.writeString(marker, "x");
        throw new IOException("injected transient failure of key " + key[0]);
      }
      Files.writeString(Path.of(dir, "out-" + key[0]), "ok");
    };
  }

  @Test
  void aTaskFailingOnceIsRetriedAndReportsTwoAttempts() throws Exception {
    Recorder rec = new Recorder();
    List<Operation> ops =
        List.of(new Operation("flaky", keys(3), failOnceThenWrite(dir.toString()), 0, List.of()));
    beam(3, Map.of()).execute("retry", ops, List.of(rec));
    for (int i = 0; i < 3; i++) {
      assertThat(dir.resolve("out-" + i)).exists();
    }
    assertThat(rec.tasks).hasSize(3).allSatisfy(t -> assertThat(t.attempts()).isEqualTo(2));
  }

  @Test
  void transientFailuresBeyondTheAttemptsFailTheCompute() {
    List<Operation> ops =
        List.of(new Operation("flaky", keys(1), failOnceThenWrite(dir.toString()), 0, List.of()));
    assertThatThrownBy(() -> beam(1, Map.of()).execute("noretry", ops, List.of()))
        .isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("after 1 attempt(s)")
        .hasMessageContaining("injected transient failure of key 0");
  }

  @Test
  void aDeterministicFailureFailsTheComputeWithTheTasksMessageAndIsNotRetried() throws Exception {
    String d = dir.toString();
    TaskFunction bad =
        key -> {
          Files.writeString(Path.of(d, "attempt-" + key[0] + "-" + System.nanoTime()), "x");
          if (key[0] == 2) {
            throw new IllegalArgumentException("block 2 has a bad shape (7, 3)");
          }
        };
    Recorder rec = new Recorder();
    List<Operation> ops =
        List.of(
            new Operation("bad", keys(4), bad, 0, List.of()),
            new Operation("after", keys(1), write(d, "after", 0), 0, List.of("bad")));
    assertThatThrownBy(() -> beam(3, Map.of()).execute("fail", ops, List.of(rec)))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.opName()).isEqualTo("bad");
              assertThat(e.key()).containsExactly(2, 0);
              assertThat(e.deterministic()).isTrue();
              assertThat(e.attempts()).isEqualTo(1);
            })
        .hasMessageContaining("block 2 has a bad shape (7, 3)");
    try (var s = Files.list(dir)) {
      assertThat(s.filter(p -> p.getFileName().toString().startsWith("attempt-2-")).count())
          .as("not retried")
          .isEqualTo(1);
    }
    assertThat(dir.resolve("after-0")).as("the dependent op never ran").doesNotExist();
    assertThat(rec.end.error()).isInstanceOf(TaskFailedException.class);
  }

  /** Not Serializable. */
  static final class Opaque {}

  @Test
  void aFunctionThatCannotBeSerializedIsRefusedNamingTheOp() {
    Opaque o = new Opaque();
    TaskFunction fn = key -> o.hashCode();
    List<Operation> ops = List.of(new Operation("holds-opaque", keys(1), fn, 0, List.of()));
    assertThatThrownBy(() -> beam(1, Map.of()).execute("ser", ops, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds-opaque")
        .hasMessageContaining(Opaque.class.getName())
        .hasMessageContaining("not Serializable");
  }

  @Test
  void aTaskAboveTheWorkerMemoryIsRefusedBeforeAnythingRuns() {
    String d = dir.toString();
    List<Operation> ops =
        List.of(
            new Operation("small", keys(1), write(d, "small", 0), 100_000_000L, List.of()),
            new Operation("big", keys(1), write(d, "big", 0), 900_000_000L, List.of("small")));
    Executor e =
        beam(1, Map.of(BeamExecutor.WORKER_MEMORY, "2GB", BeamExecutor.TASKS_PER_WORKER, "4"));
    assertThatThrownBy(() -> e.execute("mem", ops, List.of()))
        .isInstanceOfSatisfying(
            InsufficientHeapException.class, x -> assertThat(x.opName()).isEqualTo("big"))
        .hasMessageContaining("beam.workerMemory")
        .hasMessageContaining("900,000,000");
    assertThat(dir.resolve("small-0")).doesNotExist();
    long overHeap = Runtime.getRuntime().maxMemory() + 1;
    List<Operation> huge =
        List.of(new Operation("huge", keys(1), write(d, "h", 0), overHeap, List.of()));
    assertThatThrownBy(() -> beam(1, Map.of()).execute("heap", huge, List.of()))
        .isInstanceOf(InsufficientHeapException.class)
        .hasMessageContaining("max heap");
  }

  @Test
  void parallelismIsCappedByTheHeapLikeTheThreadsExecutor() {
    assertThat(BeamExecutor.cap(8, 1000, 10_000, 4000)).isEqualTo(6);
    assertThat(BeamExecutor.cap(2, 1000, 10_000, 4000)).isEqualTo(2);
    assertThat(BeamExecutor.cap(4, 9000, 10_000, 4000)).isEqualTo(1);
    assertThat(BeamExecutor.cap(4, 0, 10_000, 4000)).isEqualTo(4);
  }

  @Test
  void badOptionsAreRefusedWhenTheExecutorIsMade() {
    assertThatThrownBy(() -> beam(1, Map.of("beam.noSuchPipelineOption", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("noSuchPipelineOption");
    assertThatThrownBy(() -> beam(1, Map.of(BeamExecutor.WORKER_MEMORY, "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beam.workerMemory")
        .hasMessageContaining("lots");
    // a runner whose artifact is not on the classpath (the tests have the Flink runner's)
    assertThatThrownBy(() -> beam(1, Map.of(BeamExecutor.RUNNER, "SparkRunner")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SparkRunner")
        .hasMessageContaining("beam-runners-spark-3");
    assertThatThrownBy(() -> beam(1, Map.of(BeamExecutor.TASKS_PER_WORKER, "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tasksPerWorker");
  }

  @Test
  void pipelineOptionsAndWorkersReachTheRunner() throws Exception {
    BeamExecutor e = (BeamExecutor) beam(1, Map.of());
    assertThat(e.name()).isEqualTo("beam");
    assertThat(e.runner()).isEqualTo("DirectRunner");
    assertThat(ExecutorFactory.available()).contains("beam");
    List<Operation> ops =
        List.of(new Operation("w", keys(2), write(dir.toString(), "w", 0), 0, List.of()));
    assertThat(e.execute("par", ops, List.of()).concurrency()).isEqualTo(2);
    BeamOptions o =
        BeamOptions.of(
            new ExecutorSettings(2, 1, 2_000_000_000L, 1L, Map.of("beam.targetParallelism", "3")));
    assertThat(o.pipelineArgs()).containsExactly("--runner=DirectRunner", "--targetParallelism=3");
    assertThat(o.pipelineOptions(2).as(DirectOptions.class).getTargetParallelism()).isEqualTo(3);
    // another executor's option is refused, not silently dropped (issue 24)
    assertThatThrownBy(
            () ->
                BeamOptions.of(
                    new ExecutorSettings(
                        2, 1, 2_000_000_000L, 1L, Map.of("spark.master", "local[2]"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option 'spark.master'");
  }
}
