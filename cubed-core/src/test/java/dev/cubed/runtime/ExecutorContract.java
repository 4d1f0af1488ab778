package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.Plan;
import dev.cubed.plan.PlanResult;
import dev.cubed.plan.RunOptions;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every executor keeps, as tests: dependent operations run after the operations they
 * read (known and unknown dependencies, independent branches), a transient failure is retried and
 * the task's end reports the attempts, a deterministic failure is not retried, a task failing every
 * attempt fails the compute after its attempts, failures name the executor, the operation and the
 * task and stop the operations after them, events bracket the tasks (compute, op, task), and a
 * resumed run skips the tasks an earlier failed run finished.
 *
 * <p>An executor's test class extends this and says how to make the executor ({@link #executor});
 * the plans are small (a few tasks). Task functions keep their record in files of a temporary
 * directory (their names, never objects), so the contract holds for executors that run tasks in
 * other JVMs (worker processes, Spark executors, Beam workers). Shared with other modules through
 * cubed-core's test-jar, as {@code StoreContract} is.
 */
public abstract class ExecutorContract {
  @TempDir protected Path dir;

  /**
   * The executor under test, with {@code workers} workers and {@code attempts} attempts per task (a
   * short retry backoff). The contract does not close it: the subclass owns its lifecycle.
   */
  protected abstract Executor executor(int workers, int attempts);

  /** The name the executor's messages use ("threads" gives "threads executor: ..."). */
  protected String executorName() {
    return executor(1, 1).name();
  }

  /** The spec of the resume test's plan (its work directory in {@code workDir}). */
  protected Spec.Builder spec(Path workDir) {
    return Spec.builder().workDir(workDir).allowedMem("100MB").reservedMem("1MB");
  }

  static List<long[]> keys(int n) {
    List<long[]> k = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      k.add(new long[] {i});
    }
    return k;
  }

  /** Files in {@code d} whose names start with {@code prefix}. */
  static long count(Path d, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
    }
  }

  /**
   * A task that checks every task of the operations it reads has written its file ({@code
   * name-of-op-key}), sleeps {@code sleepMillis} and writes its own.
   */
  static TaskFunction writes(
      String d, String op, List<String> reads, int readKeys, int sleepMillis) {
    return key -> {
      for (String r : reads) {
        for (int k = 0; k < readKeys; k++) {
          if (!Files.exists(Path.of(d, "done-" + r + "-" + k))) {
            throw new IllegalArgumentException(
                "task " + Arrays.toString(key) + " of " + op + " ran before " + r + " finished");
          }
        }
      }
      Thread.sleep(sleepMillis);
      Files.writeString(Path.of(d, "done-" + op + "-" + key[0]), "");
    };
  }

  /** Records an attempt as the file {@code attempt-op-key-N}; returns N (1 for the first). */
  static int attempt(String d, String op, long[] key) throws IOException {
    for (int n = 1; ; n++) {
      try {
        Files.createFile(Path.of(d, "attempt-" + op + "-" + key[0] + "-" + n));
        return n;
      } catch (FileAlreadyExistsException e) {
        // a later attempt
      }
    }
  }

  /** Records every event in order, as text. */
  static final class Recorder implements Callback {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<Events.TaskEnd> tasks = Collections.synchronizedList(new ArrayList<>());
    volatile Events.ComputeEnd end;

    @Override
    public void onComputeStart(Events.ComputeStart e) {
      events.add("compute-start " + e.numOps() + " " + e.numTasks());
    }

    @Override
    public void onOpStart(Events.OpStart e) {
      events.add("op-start " + e.opName() + " " + e.numTasks());
    }

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      tasks.add(e);
      events.add("task " + e.opName() + " " + Arrays.toString(e.key()));
    }

    @Override
    public void onOpEnd(Events.OpEnd e) {
      events.add("op-end " + e.opName());
    }

    @Override
    public void onComputeEnd(Events.ComputeEnd e) {
      end = e;
      events.add("compute-end " + (e.error() == null ? "ok" : "failed"));
    }
  }

  @Test
  void dependentOpsRunAfterTheOpsTheyRead() throws Exception {
    String d = dir.toString();
    List<Operation> ops =
        List.of(
            new Operation("a", keys(4), writes(d, "a", List.of(), 0, 30), 1 << 20, List.of()),
            new Operation("b", keys(4), writes(d, "b", List.of("a"), 4, 0), 1 << 20, List.of("a")),
            new Operation("c", keys(4), writes(d, "c", List.of(), 0, 0), 1 << 20, List.of()),
            new Operation(
                "d", keys(2), writes(d, "d", List.of("b", "c"), 4, 0), 1 << 20, List.of("b", "c")),
            // unknown dependencies: after every earlier op
            new Operation("e", keys(2), writes(d, "e", List.of("a", "b", "d"), 2, 0), 1 << 20));
    executor(2, 1).execute("contract-order", ops, List.of());
    assertThat(count(dir, "done-")).isEqualTo(4 + 4 + 4 + 2 + 2);
  }

  @Test
  void aTransientFailureIsRetriedAndTheTaskEndCountsTheAttempts() throws Exception {
    String d = dir.toString();
    TaskFunction flaky =
        key -> {
          if (attempt(d, "flaky", key) == 1) {
            throw new IOException("transient failure of block " + key[0]);
          }
        };
    Recorder rec = new Recorder();
    executor(1, 3)
        .execute(
            "contract-retry",
            List.of(new Operation("flaky", keys(2), flaky, 1 << 20)),
            List.of(rec));
    assertThat(count(dir, "attempt-flaky-0-")).isEqualTo(2);
    assertThat(count(dir, "attempt-flaky-1-")).isEqualTo(2);
    assertThat(rec.tasks).hasSize(2).allSatisfy(e -> assertThat(e.attempts()).isEqualTo(2));
    assertThat(rec.end.error()).isNull();
  }

  @Test
  void aDeterministicFailureIsNotRetriedAndNamesExecutorOpAndTask() throws Exception {
    String d = dir.toString();
    TaskFunction bad =
        key -> {
          attempt(d, "bad", key);
          if (key[0] == 1) {
            throw new IllegalArgumentException("bad block " + key[0]);
          }
        };
    List<Operation> ops =
        List.of(
            new Operation("bad", keys(2), bad, 1 << 20, List.of()),
            new Operation(
                "after", keys(2), writes(d, "after", List.of(), 0, 0), 1 << 20, List.of("bad")));
    Recorder rec = new Recorder();
    assertThatThrownBy(() -> executor(1, 3).execute("contract-bad", ops, List.of(rec)))
        .isInstanceOfSatisfying(
            TaskFailedException.class,
            e -> {
              assertThat(e.deterministic()).isTrue();
              assertThat(e.opName()).isEqualTo("bad");
              assertThat(e.key()).containsExactly(1);
              assertThat(e.executor()).isEqualTo(executorName());
            })
        .hasMessageContaining(executorName() + " executor: task [1] of operation bad")
        .hasMessageContaining("not retried")
        .hasMessageContaining("bad block 1");
    assertThat(count(dir, "attempt-bad-1-")).as("not retried").isEqualTo(1);
    assertThat(count(dir, "done-after-")).as("the op after a failed op never runs").isZero();
    assertThat(rec.end).isNotNull();
    assertThat(rec.end.error()).isNotNull();
    assertThat(rec.events).doesNotContain("op-end bad", "op-start after 2");
  }

  @Test
  void aTaskFailingEveryAttemptFailsTheComputeAfterItsAttempts() throws Exception {
    String d = dir.toString();
    TaskFunction down =
        key -> {
          attempt(d, "down", key);
          throw new IOException("store down");
        };
    assertThatThrownBy(
            () ->
                executor(1, 2)
                    .execute(
                        "contract-down",
                        List.of(new Operation("down", keys(1), down, 1 << 20)),
                        List.of()))
        .isInstanceOfSatisfying(
            TaskFailedException.class, e -> assertThat(e.deterministic()).isFalse())
        .hasMessageContaining(executorName() + " executor: task [0] of operation down")
        .hasMessageContaining("failed after 2 attempt(s)")
        .hasMessageContaining("store down");
    assertThat(count(dir, "attempt-down-0-")).isEqualTo(2);
  }

  @Test
  void eventsBracketEveryTaskOnce() throws Exception {
    String d = dir.toString();
    List<Operation> ops =
        List.of(
            new Operation("x", keys(3), writes(d, "x", List.of(), 0, 0), 1 << 20, List.of()),
            new Operation("y", keys(2), writes(d, "y", List.of("x"), 3, 0), 1 << 20, List.of("x")));
    Recorder rec = new Recorder();
    executor(2, 1).execute("contract-events", ops, List.of(rec));
    List<String> ev = new ArrayList<>(rec.events);
    assertThat(ev.get(0)).isEqualTo("compute-start 2 5");
    assertThat(ev.get(ev.size() - 1)).isEqualTo("compute-end ok");
    for (String op : List.of("x", "y")) {
      int start = ev.indexOf("op-start " + op + " " + (op.equals("x") ? 3 : 2));
      int end = ev.indexOf("op-end " + op);
      assertThat(start).as("op-start " + op).isPositive();
      assertThat(end).as("op-end " + op).isGreaterThan(start);
      int n = op.equals("x") ? 3 : 2;
      for (int k = 0; k < n; k++) {
        String task = "task " + op + " [" + k + "]";
        assertThat(ev.stream().filter(task::equals).count()).as(task).isEqualTo(1);
        assertThat(ev.indexOf(task)).as(task).isBetween(start, end);
      }
    }
    assertThat(rec.tasks).hasSize(5).allSatisfy(e -> assertThat(e.attempts()).isEqualTo(1));
  }

  /** A program of 16 row blocks (one poisoned: it fails slowly, so the others finish first). */
  static CubedArray program(Spec spec, String poison, String ran) {
    CubedArray x =
        Cubed.fromFunction(
            new long[] {16, 4},
            new long[] {1, 4},
            DType.FLOAT64,
            (b, i, flat, in, bc) -> b.setDouble(i, flat),
            spec);
    CubedArray y =
        Xp.mapBlocks(
            blocks -> {
              long row = (long) blocks[0].getDouble(0) / 4;
              Files.writeString(Path.of(ran, "ran-" + row + "-" + System.nanoTime()), "");
              if (row == 7 && Files.exists(Path.of(poison))) {
                Thread.sleep(1500);
                throw new IllegalArgumentException("poisoned row 7");
              }
              NDArray o = blocks[0].copy();
              for (int i = 0; i < o.size(); i++) {
                o.setDouble(i, o.getDouble(i) * 2);
              }
              return o;
            },
            DType.FLOAT64,
            x);
    return Xp.sum(Xp.rechunk(y, 16, 2), 0);
  }

  @Test
  void aResumedRunSkipsTheTasksAnEarlierRunFinished() throws Exception {
    Path ran = Files.createDirectories(dir.resolve("ran"));
    Path poison = Files.writeString(dir.resolve("poison"), "x");
    Spec spec = spec(dir.resolve("work")).build();
    RunOptions resume = RunOptions.defaults().resume(true);
    Plan p1 = Cubed.plan(List.of(program(spec, poison.toString(), ran.toString())));
    assertThatThrownBy(() -> p1.run(executor(2, 1), List.of(), resume))
        .hasMessageContaining("poisoned row 7");
    long first = count(ran, "ran-");
    assertThat(first).as("blocks run before the failure").isGreaterThan(1);
    Files.delete(poison);
    Plan p2 = Cubed.plan(List.of(program(spec, poison.toString(), ran.toString())));
    PlanResult r = p2.run(executor(2, 1), List.of(), resume);
    long second = count(ran, "ran-") - first;
    assertThat(r.skippedTasks()).as("tasks of the first run skipped").isEqualTo(first - 1);
    assertThat(second).as("blocks run on resume").isEqualTo(16 - (first - 1));
    NDArray got = r.outputs().get(0);
    for (int j = 0; j < 4; j++) {
      double col = 0;
      for (int i = 0; i < 16; i++) {
        col += 2.0 * (i * 4 + j);
      }
      assertThat(got.getDouble(j)).isCloseTo(col, within(1e-9));
    }
  }
}
