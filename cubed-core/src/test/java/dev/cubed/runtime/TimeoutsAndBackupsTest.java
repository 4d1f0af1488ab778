package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Task timeouts and backup tasks of the threads executor, with tasks that really hang. */
class TimeoutsAndBackupsTest {
  private static List<long[]> keys(int n) {
    List<long[]> k = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      k.add(new long[] {i});
    }
    return k;
  }

  /** Records TaskEnd events. */
  private static final class Ends implements Callback {
    final List<Events.TaskEnd> ends = new CopyOnWriteArrayList<>();

    @Override
    public void onTaskEnd(Events.TaskEnd e) {
      ends.add(e);
    }

    Events.TaskEnd of(long key) {
      List<Events.TaskEnd> m = ends.stream().filter(e -> e.key()[0] == key).toList();
      assertThat(m).as("one TaskEnd for key " + key).hasSize(1);
      return m.get(0);
    }
  }

  /** Spins for a while whatever interrupts arrive (a task slow to react to interruption). */
  private static void busyFor(long millis) {
    long end = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  private static ThreadsExecutor backups(int workers) {
    return ThreadsExecutor.builder()
        .workers(workers)
        .attempts(2)
        .backupTasks(true)
        .backupMinDuration(Duration.ofMillis(100))
        .build();
  }

  @Test
  void aHungTaskIsRescuedByItsBackupAndTheLoserIsAwaited() {
    Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
    AtomicBoolean loserInterrupted = new AtomicBoolean();
    AtomicBoolean loserExited = new AtomicBoolean();
    CountDownLatch never = new CountDownLatch(1);
    Operation op =
        new Operation(
            "op",
            keys(20),
            k -> {
              int call = calls.computeIfAbsent(k[0], x -> new AtomicInteger()).incrementAndGet();
              if (k[0] == 7 && call == 1) {
                try {
                  never.await(1, TimeUnit.HOURS);
                } catch (InterruptedException e) {
                  loserInterrupted.set(true);
                  busyFor(300); // still running after the interrupt: execute must wait for it
                  loserExited.set(true);
                  throw e;
                }
              }
              Thread.sleep(5);
            },
            10);
    Ends ends = new Ends();
    ThreadsExecutor ex = backups(2);
    long t0 = System.nanoTime();
    RunReport report = ex.execute("c-hang", List.of(op), List.of(ends));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(ms).as("finished quickly, not after an hour").isLessThan(20_000);
    assertThat(loserInterrupted).as("the hung original was interrupted").isTrue();
    assertThat(loserExited).as("and awaited before execute returned").isTrue();
    assertThat(ends.ends).hasSize(20);
    assertThat(ends.of(7).backup()).as("key 7 won by its backup").isTrue();
    assertThat(ends.of(3).backup()).isFalse();
    assertThat(calls.get(7L).get()).isEqualTo(2);
    assertThat(report.backupsLaunched()).isEqualTo(1);
    assertThat(report.backupsWon()).isEqualTo(1);
  }

  @Test
  void whenTheOriginalFinishesFirstTheBackupIsInterruptedAndIgnored() {
    Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
    AtomicBoolean backupInterrupted = new AtomicBoolean();
    AtomicBoolean backupExited = new AtomicBoolean();
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch backupStarted = new CountDownLatch(1);
    Operation op =
        new Operation(
            "op",
            keys(20),
            k -> {
              int call = calls.computeIfAbsent(k[0], x -> new AtomicInteger()).incrementAndGet();
              if (k[0] == 4 && call == 1) {
                // slow, but finishes once its backup is running: the original wins
                assertThat(backupStarted.await(5, TimeUnit.MINUTES)).as("backup started").isTrue();
                busyFor(50);
              } else if (k[0] == 4) {
                backupStarted.countDown();
                try {
                  never.await(1, TimeUnit.HOURS);
                } catch (InterruptedException e) {
                  backupInterrupted.set(true);
                  busyFor(200);
                  backupExited.set(true);
                  throw new IllegalArgumentException(
                      "a loser's error is ignored, even a deterministic" + " one");
                }
              }
              Thread.sleep(5);
            },
            10);
    Ends ends = new Ends();
    ThreadsExecutor ex = backups(3);
    RunReport report = ex.execute("c-orig", List.of(op), List.of(ends));
    assertThat(ends.ends).hasSize(20);
    assertThat(ends.of(4).backup()).as("key 4 won by the original").isFalse();
    assertThat(calls.get(4L).get()).as("a backup was started").isEqualTo(2);
    assertThat(backupInterrupted).isTrue();
    assertThat(backupExited).isTrue();
    assertThat(report.backupsLaunched()).isEqualTo(1);
    assertThat(report.backupsWon()).isZero();
  }

  @Test
  void noBackupBeforeTenTasksHaveStarted() {
    Operation op = new Operation("op", keys(5), k -> Thread.sleep(k[0] == 0 ? 600 : 5), 10);
    ThreadsExecutor ex = backups(2);
    RunReport report = ex.execute("c-few", List.of(op), List.of());
    assertThat(report.backupsLaunched()).isZero();
  }

  @Test
  void anAttemptPastTheTimeoutIsInterruptedAndRetried() {
    AtomicInteger calls = new AtomicInteger();
    Operation op =
        new Operation(
            "op",
            keys(1),
            k -> {
              if (calls.incrementAndGet() == 1) {
                Thread.sleep(3_600_000);
              }
            },
            10);
    Ends ends = new Ends();
    ThreadsExecutor ex =
        ThreadsExecutor.builder()
            .workers(1)
            .attempts(3)
            .taskTimeout(Duration.ofMillis(200))
            .build();
    long t0 = System.nanoTime();
    RunReport report = ex.execute("c-timeout", List.of(op), List.of(ends));
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
    assertThat(ends.of(0).attempts()).isEqualTo(2);
    assertThat(report.timeouts()).isEqualTo(1);
  }

  @Test
  void aTaskTimingOutOnEveryAttemptFailsTheCompute() {
    Operation op = new Operation("stuck", keys(1), k -> Thread.sleep(3_600_000), 10);
    ThreadsExecutor ex =
        ThreadsExecutor.builder()
            .workers(1)
            .attempts(2)
            .taskTimeout(Duration.ofMillis(100))
            .build();
    assertThatThrownBy(() -> ex.execute("c-stuck", List.of(op), List.of()))
        .isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("failed after 2 attempt(s)")
        .cause()
        .isInstanceOf(TaskTimeoutException.class)
        .hasMessageContaining("task [0] of operation stuck timed out")
        .hasMessageContaining("task timeout of 100 ms");
  }

  @Test
  void invalidOptionsAreRejected() {
    assertThatThrownBy(() -> ThreadsExecutor.builder().taskTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("taskTimeout");
    assertThatThrownBy(() -> ThreadsExecutor.builder().workers(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workers");
    assertThatThrownBy(() -> ThreadsExecutor.builder().attempts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attempts");
    assertThatThrownBy(() -> new ThreadsExecutor(0, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
