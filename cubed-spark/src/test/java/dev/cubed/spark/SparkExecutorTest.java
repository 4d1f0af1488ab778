package dev.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
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
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spark executor on {@code local[2]} (one Spark context shared by the tests of this JVM): ops
 * as jobs in dependency order with their events, retries of a transient failure, a deterministic
 * failure failing the compute with the task's message, refusal of functions that cannot travel and
 * of tasks that cannot fit an executor's task slot; the factory's options.
 */
@Tag("spark")
class SparkExecutorTest {
  @TempDir Path dir;

  static SparkExecutor local() {
    return SparkTesting.local();
  }

  static List<long[]> keys(int n) {
    return LongStream.range(0, n).mapToObj(i -> new long[] {i}).collect(Collectors.toList());
  }

  /** Writes {@code dir/op-key}; fails (IllegalStateException) if {@code needs} has no file. */
  static TaskFunction writer(String dir, String op, String needs, int needsCount) {
    return key -> {
      if (needs != null) {
        for (int i = 0; i < needsCount; i++) {
          if (!Files.exists(Path.of(dir, needs + "-" + i))) {
            throw new IllegalStateException("ran before its dependency: " + needs + "-" + i);
          }
        }
      }
      Files.writeString(Path.of(dir, op + "-" + key[0]), "done");
    };
  }

  /** Records every event; thread-safe. */
  static final class Recorder implements Callback {
    final List<Object> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onComputeStart(Events.ComputeStart e) {
      events.add(e);
    }

    @Override
    public void onComputeEnd(Events.ComputeEnd e) {
      events.add(e);
    }

    @Override
    public void onOpStart(Events.OpStart e) {
      events.add(e);
    }

    @Override
    public void onOpEnd(Events.OpEnd e) {
      events.add(e);
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      events.add(e);
    }

    List<Events.TaskEnd> taskEnds(String op) {
      synchronized (events) {
        return events.stream()
            .filter(e -> e instanceof Events.TaskEnd t && t.opName().equals(op))
            .map(e -> (Events.TaskEnd) e)
            .collect(Collectors.toList());
      }
    }

    int indexOf(Predicate<Object> p) {
      synchronized (events) {
        for (int i = 0; i < events.size(); i++) {
          if (p.test(events.get(i))) {
            return i;
          }
        }
      }
      return -1;
    }
  }

  @Test
  void opsRunAsJobsInDependencyOrderWithOneTaskEndPerTask() throws IOException {
    String d = dir.toString();
    Operation a = new Operation("a", keys(6), writer(d, "a", null, 0), 1 << 20, List.of());
    Operation b = new Operation("b", keys(3), writer(d, "b", "a", 6), 1 << 20, List.of("a"));
    Recorder r = new Recorder();
    local().execute("c1", List.of(a, b), List.of(r));
    for (int i = 0; i < 6; i++) {
      assertThat(Path.of(d, "a-" + i)).exists();
    }
    for (int i = 0; i < 3; i++) {
      assertThat(Path.of(d, "b-" + i)).exists();
    }
    assertThat(r.events.get(0)).isInstanceOf(Events.ComputeStart.class);
    assertThat(((Events.ComputeStart) r.events.get(0)).numTasks()).isEqualTo(9);
    assertThat(r.events.get(r.events.size() - 1))
        .isInstanceOfSatisfying(Events.ComputeEnd.class, e -> assertThat(e.error()).isNull());
    List<Events.TaskEnd> ta = r.taskEnds("a");
    assertThat(ta).hasSize(6);
    assertThat(ta.stream().map(t -> t.key()[0]).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L);
    assertThat(ta)
        .allSatisfy(
            t -> {
              assertThat(t.attempts()).isEqualTo(1);
              assertThat(t.worker())
                  .startsWith("spark executor driver (pid " + ProcessHandle.current().pid());
              assertThat(t.endMillis()).isGreaterThanOrEqualTo(t.startMillis());
              assertThat(t.projectedMem()).isEqualTo(1 << 20);
            });
    int aEnd = r.indexOf(e -> e instanceof Events.OpEnd o && o.opName().equals("a"));
    int bStart = r.indexOf(e -> e instanceof Events.OpStart o && o.opName().equals("b"));
    int lastATask = r.events.lastIndexOf(ta.get(ta.size() - 1));
    assertThat(lastATask).as("a's task ends precede its OpEnd").isLessThan(aEnd);
    assertThat(aEnd).as("b starts after a ends").isLessThan(bStart);
    assertThat(r.taskEnds("b")).hasSize(3);
  }

  /** Fails the first attempt of key 1 (marker file), succeeds after. */
  static TaskFunction failsOnce(String dir) {
    return key -> {
      Path marker = Path.of(dir, "failed-" + key[0]);
      if (key[0] == 1 && !Files.exists(marker)) {
        Files.writeString(marker, "x");
        throw new IllegalStateException("first attempt of key 1 fails");
      }
      Files.writeString(Path.of(dir, "ok-" + key[0]), "done");
    };
  }

  @Test
  void aTaskThatFailsOnceIsRetriedAndSucceeds() {
    Recorder r = new Recorder();
    local()
        .execute(
            "c2", List.of(new Operation("f", keys(3), failsOnce(dir.toString()), 0)), List.of(r));
    assertThat(Path.of(dir.toString(), "ok-1")).exists();
    List<Events.TaskEnd> ends = r.taskEnds("f");
    assertThat(ends).hasSize(3);
    assertThat(ends)
        .filteredOn(t -> t.key()[0] == 1)
        .singleElement()
        .satisfies(t -> assertThat(t.attempts()).isEqualTo(2));
    assertThat(ends)
        .filteredOn(t -> t.key()[0] != 1)
        .allSatisfy(t -> assertThat(t.attempts()).isEqualTo(1));
  }

  /**
   * A task function that ran its work in a process of its own ({@link TaskWorker#ranIn}, as a
   * Python op's does) is reported as that process in the executor, with its peak; a task that did
   * not is reported as the executor alone; key 1 recorded a process on its failed first attempt
   * only, which its successful attempt does not inherit.
   */
  @Test
  void theTaskEventNamesTheProcessTheFunctionRanItsWorkIn() {
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
    Recorder r = new Recorder();
    local().execute("ran-in", List.of(new Operation("py", keys(3), f, 0)), List.of(r));
    Map<Long, Events.TaskEnd> ends = new HashMap<>();
    r.taskEnds("py").forEach(t -> ends.put(t.key()[0], t));
    assertThat(ends.get(0L).worker()).startsWith("python worker pid 42 in spark executor ");
    assertThat(ends.get(0L).peakRss()).isEqualTo(1234);
    assertThat(ends.get(2L).worker()).startsWith("spark executor ");
    assertThat(ends.get(2L).peakRss()).isEqualTo(-1);
    assertThat(ends.get(1L).attempts()).isEqualTo(2);
    assertThat(ends.get(1L).worker()).startsWith("spark executor ");
  }

  /** Counts its runs in files; key 2 fails with {@code error}. */
  static TaskFunction failing(String dir, boolean deterministic) {
    return key -> {
      Files.writeString(Path.of(dir, "run-" + key[0] + "-" + System.nanoTime()), "x");
      if (key[0] == 2) {
        if (deterministic) {
          throw new IllegalArgumentException("chunk 2 has a bad dtype");
        }
        throw new IllegalStateException("chunk 2 store unavailable");
      }
    };
  }

  static long runsOf(Path dir, long key) throws IOException {
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("run-" + key + "-")).count();
    }
  }

  @Test
  void aDeterministicFailureFailsTheComputeOnceWithTheTasksMessage() throws IOException {
    Recorder r = new Recorder();
    Operation op = new Operation("bad", keys(4), failing(dir.toString(), true), 0);
    assertThatThrownBy(() -> local().execute("c3", List.of(op), List.of(r)))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.opName()).isEqualTo("bad");
              assertThat(e.key()).containsExactly(2);
              assertThat(e.deterministic()).isTrue();
              assertThat(e.attempts()).isEqualTo(1);
            })
        .hasMessageContaining("chunk 2 has a bad dtype")
        .hasMessageContaining("IllegalArgumentException");
    assertThat(runsOf(dir, 2)).as("not retried").isEqualTo(1);
    assertThat(r.events.get(r.events.size() - 1))
        .isInstanceOfSatisfying(
            Events.ComputeEnd.class,
            e -> assertThat(e.error()).isInstanceOf(TaskFailedException.class));
  }

  @Test
  void aTransientFailureOnEveryAttemptFailsAfterAllAttempts() throws IOException {
    Operation op = new Operation("flaky", keys(3), failing(dir.toString(), false), 0);
    assertThatThrownBy(() -> local().execute("c4", List.of(op), List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.key()).containsExactly(2);
              assertThat(e.deterministic()).isFalse();
              assertThat(e.attempts()).isEqualTo(SparkTesting.ATTEMPTS);
            })
        .hasMessageContaining("chunk 2 store unavailable");
    assertThat(runsOf(dir, 2)).isEqualTo(SparkTesting.ATTEMPTS);
  }

  static final class NotShippable {
    final int x = 1;
  }

  @Test
  void aFunctionThatCannotBeSerializedIsRefusedBeforeAnythingRuns() {
    NotShippable held = new NotShippable();
    String d = dir.toString();
    TaskFunction fn = key -> Files.writeString(Path.of(d, "ran-" + held.x), "x");
    Operation ok = new Operation("fine", keys(2), writer(d, "fine", null, 0), 0);
    Operation bad = new Operation("holds-object", keys(2), fn, 0);
    assertThatThrownBy(() -> local().execute("c5", List.of(ok, bad), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operation holds-object")
        .hasMessageContaining(NotShippable.class.getName())
        .hasMessageContaining("not Serializable");
    assertThat(Path.of(d, "fine-0")).doesNotExist();
  }

  @Test
  void aTaskThatCannotFitATaskSlotIsRefusedBeforeAnythingRuns() {
    long perTask =
        SparkCluster.slots(new SparkConf(false), "local[2]", Runtime.getRuntime().maxMemory())
            .perTask();
    String d = dir.toString();
    Operation ok = new Operation("small", keys(2), writer(d, "small", null, 0), 1 << 20);
    Operation big = new Operation("huge", keys(2), writer(d, "huge", null, 0), perTask + 1);
    assertThatThrownBy(() -> local().execute("c6", List.of(ok, big), List.of()))
        .isInstanceOfSatisfying(
            InsufficientHeapException.class, e -> assertThat(e.opName()).isEqualTo("huge"))
        .hasMessageContaining("operation huge")
        .hasMessageContaining("/ 2 task slot(s) per executor")
        .hasMessageContaining("spark.executor.memory");
    assertThat(Path.of(d, "small-0")).doesNotExist();
  }

  @Test
  void taskSlotsComeFromTheMasterAndTheExecutorSettings() {
    SparkConf conf = new SparkConf(false);
    long mib = 1L << 20;
    assertThat(SparkCluster.slots(conf, "local-cluster[2,1,1024]", 0).perTask())
        .isEqualTo(1024 * mib - SparkCluster.SPARK_RESERVED);
    assertThat(SparkCluster.slots(conf, "local[4]", 4300 * mib).perTask())
        .isEqualTo((4300 * mib - SparkCluster.SPARK_RESERVED) / 4);
    conf.set("spark.executor.memory", "4g").set("spark.executor.cores", "4");
    assertThat(SparkCluster.slots(conf, "spark://10.0.0.1:7077", 0).perTask())
        .isEqualTo((4096 * mib - SparkCluster.SPARK_RESERVED) / 4);
    conf.set("spark.task.cpus", "2");
    assertThat(SparkCluster.slots(conf, "spark://10.0.0.1:7077", 0).slots()).isEqualTo(2);
    assertThat(SparkCluster.withAttempts("local[2]", 3)).isEqualTo("local[2,3]");
    assertThat(SparkCluster.withAttempts("local", 3)).isEqualTo("local[1,3]");
    assertThat(SparkCluster.withAttempts("local[*, 5]", 3)).isEqualTo("local[*, 5]");
    assertThat(SparkCluster.withAttempts("spark://h:7077", 3)).isEqualTo("spark://h:7077");
    assertThat(SparkCluster.maxAttempts(conf, "local[2,3]")).isEqualTo(3);
    assertThat(SparkCluster.maxAttempts(conf, "local[2]")).isEqualTo(1);
    assertThat(SparkCluster.maxAttempts(conf.set("spark.task.maxFailures", "7"), "spark://h:7077"))
        .isEqualTo(7);
  }

  @Test
  void theFactoryIsFoundByNameAndMapsTheSpecsSettings() {
    Spec spec =
        Spec.builder()
            .executor("spark")
            .workers(3)
            .attempts(5)
            .executorOption("spark.executor.memory", "3g")
            .executorOption("backup_tasks", "true")
            .build();
    SparkExecutor e = (SparkExecutor) Cubed.executor(spec);
    Map<String, String> s = e.settings();
    assertThat(s)
        .containsEntry("spark.master", "local[3,5]")
        .containsEntry("spark.task.maxFailures", "5")
        .containsEntry("spark.executor.memory", "3g")
        .containsEntry("spark.speculation", "true")
        .containsEntry("spark.driver.host", "127.0.0.1");
    SparkExecutor remote =
        (SparkExecutor)
            new SparkExecutorFactory()
                .create(
                    new ExecutorSettings(
                        2,
                        3,
                        2_000_000_000L,
                        100_000_000L,
                        Map.of("spark.master", "spark://10.1.2.3:7077")));
    assertThat(remote.settings())
        .containsEntry("spark.master", "spark://10.1.2.3:7077")
        .containsEntry("spark.task.maxFailures", "3")
        .doesNotContainKey("spark.driver.host");
    assertThatThrownBy(
            () ->
                new SparkExecutorFactory()
                    .create(
                        new ExecutorSettings(
                            2, 3, 2_000_000_000L, 100_000_000L, Map.of("master", "local[2]"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option 'master'");
  }
}
